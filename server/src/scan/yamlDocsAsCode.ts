/**
 * Docs-as-code in YAML: the `description:` beside a dataset or ML URN, and the columns listed
 * beside a dataset URN (`columns:`/`fields:`/`schema:`), with where an edit would write a
 * description that is not there yet.
 */
import { isMap, isNode, isPair, isScalar, isSeq, type Pair, type YAMLMap } from 'yaml';
import { isCatalogKind } from '../../../model/src/kinds';
import type { ScanResult, YamlColumn, YamlDescription, YamlInsertStyle } from './types';
import { isUrnKey, keyText, pairAt, scalarRef, type MappingFrame, type UrnValue } from './yamlMapping';
import { CharCode } from './charCode';

const COLUMN_LIST_KEYS = ['columns', 'fields', 'schema'] as const;
const COLUMN_NAME_KEYS = ['name', 'fieldPath'] as const;

interface Insertion {
  insertAt: number;
  indent: string;
  insertStyle?: YamlInsertStyle;
  needsLineBreak?: boolean;
}

/** Add the description and columns of one mapping (called once the walk has read it). */
export function describeMapping(text: string, frame: MappingFrame, result: ScanResult): void {
  const values = frame.urnValues;
  if (values.length === 0) return;
  // The described URN: the `urn:` value of a catalog kind, else the first other URN-like key's;
  // the dataset: the first dataset URN of the mapping, under any key.
  let owner: UrnValue | undefined;
  let dataset: UrnValue | undefined;
  for (let k = 0; k < values.length; k++) {
    const v = values[k]!;
    const parsed = v.occurrence.parsed;
    const kind = parsed?.ok ? parsed.urn.kind : undefined;
    if (owner?.key !== 'urn' && isUrnKey(v.key) && isCatalogKind(kind ?? '') && (!owner || v.key === 'urn')) owner = v;
    if (!dataset && kind === 'dataset') dataset = v;
  }
  if (owner) {
    const pair = pairAt(frame.map, owner.key);
    if (pair) result.descriptions.push(descriptionOf(text, frame.map, pair, owner.index));
  }
  if (!dataset) return;
  for (const key of COLUMN_LIST_KEYS) {
    const list = pairAt(frame.map, key)?.value;
    if (isSeq(list)) listedColumns(text, list.items, dataset.index, result.columns);
    else if (isMap(list)) mappedColumns(text, list, dataset.index, result.columns);
  }
}

function descriptionOf(text: string, map: YAMLMap, urnPair: Pair, owner: number): YamlDescription {
  const found: YamlDescription = withInsertion({ owner }, insertionAfter(text, map, urnPair));
  const value = pairAt(map, 'description')?.value;
  if (isScalar(value)) found.description = scalarRef(value, map.flow === true);
  return found;
}

/** `columns: [{name: user_id, description: …}, …]` (or `fieldPath:` instead of `name:`). */
function listedColumns(text: string, items: readonly unknown[], dataset: number, out: YamlColumn[]): void {
  for (const item of items) {
    if (!isMap(item)) continue;
    for (const nameKey of COLUMN_NAME_KEYS) {
      const pair = pairAt(item, nameKey);
      if (!pair || !isScalar(pair.value) || pair.value.value === null) continue;
      const column: YamlColumn = withInsertion(
        { dataset, name: scalarRef(pair.value), nameKey },
        insertionAfter(text, item, pair),
      );
      const description = pairAt(item, 'description')?.value;
      if (isScalar(description)) column.description = scalarRef(description, item.flow === true);
      out.push(column);
      break;
    }
  }
}

/** `columns: {user_id: "desc", …}` or `columns: {user_id: {description: …}, …}`. */
function mappedColumns(text: string, columns: YAMLMap, dataset: number, out: YamlColumn[]): void {
  for (const pair of columns.items) {
    if (!isPair(pair) || !isScalar(pair.key) || pair.key.value === null) continue;
    const name = scalarRef(pair.key);
    const nameKey = keyText(pair.key);
    const value = pair.value;
    if (isMap(value)) {
      const column: YamlColumn = withInsertion({ dataset, name, nameKey }, insertionInto(text, value, pair));
      const description = pairAt(value, 'description')?.value;
      if (isScalar(description)) column.description = scalarRef(description, value.flow === true);
      out.push(column);
    } else if (isScalar(value) && value.value !== null) {
      out.push({
        dataset,
        name,
        nameKey,
        description: scalarRef(value, columns.flow === true),
        insertAt: value.range?.[0] ?? 0,
        indent: '',
        insertStyle: 'value',
      });
    } else if (value === null || isScalar(value)) {
      const at = isScalar(value) ? value.range?.[0] : undefined;
      // `user_id: ~` or `user_id: null`: the pulled text takes the place of the null.
      const end = isScalar(value) ? value.range?.[1] : undefined;
      const insertAt = at ?? pair.key.range?.[1] ?? 0;
      const column: YamlColumn =
        at !== undefined && end !== undefined && end > at
          ? { dataset, name, nameKey, insertAt, replaceEnd: end, indent: '', insertStyle: 'value' }
          : { dataset, name, nameKey, insertAt, indent: '', insertStyle: 'value' };
      out.push(column);
    }
  }
}

/** Where a key written after `pair` of `map` goes: the next line at the pair's key column, or inside `{…}`. */
function insertionAfter(text: string, map: YAMLMap, pair: Pair): Insertion {
  if (map.flow) return flowInsertion(map);
  const keyRange = rangeOf(pair.key);
  const keyStart = keyRange?.[0] ?? 0;
  const lineEnd = rangeOf(pair.value)?.[1] ?? keyRange?.[1] ?? keyStart;
  return afterLine(text, lineEnd, spaces(columnOf(text, keyStart)));
}

/** Indentations of up to this many spaces are made once. */
const SHARED_INDENTS = 64;
const indents: string[] = [];

/** `n` spaces. */
function spaces(n: number): string {
  if (n >= SHARED_INDENTS) return ' '.repeat(n);
  return (indents[n] ??= ' '.repeat(n));
}

/** Where a `description:` goes in the mapping that is the value of `pair` (map-form columns). */
function insertionInto(text: string, inner: YAMLMap, pair: Pair): Insertion {
  if (inner.flow) return flowInsertion(inner);
  const firstKey = inner.items.find(isPair)?.key;
  const keyStart = rangeOf(pair.key)?.[0] ?? 0;
  const column =
    firstKey !== undefined && rangeOf(firstKey) ? columnOf(text, rangeOf(firstKey)![0]) : columnOf(text, keyStart) + 2;
  return afterLine(text, rangeOf(pair.key)?.[1] ?? keyStart, spaces(column));
}

function flowInsertion(map: YAMLMap): Insertion {
  const last = map.items[map.items.length - 1];
  const end = isPair(last) ? (rangeOf(last.value)?.[1] ?? rangeOf(last.key)?.[1]) : undefined;
  return { insertAt: end ?? (map.range ? map.range[0] + 1 : 0), indent: '', insertStyle: 'flow' };
}

function rangeOf(node: unknown): readonly [number, number, number] | undefined {
  return isNode(node) ? (node.range ?? undefined) : undefined;
}

/**
 * At the start of the line after the one holding `offset` (a value ending in its line break counts
 * as that line), at `indent`.
 */
function afterLine(text: string, offset: number, indent: string): Insertion {
  const from = offset > 0 && text.charCodeAt(offset - 1) === CharCode.LineFeed ? offset - 1 : offset;
  const lf = text.indexOf('\n', from);
  return lf < 0 ? { insertAt: text.length, needsLineBreak: true, indent } : { insertAt: lf + 1, indent };
}

/**
 * `head` with the insertion's properties added in their order (what `{ ...head, ...insertion }`
 * makes, without the object spread, which is slow for the insertion's several shapes).
 */
function withInsertion<T extends object>(head: T, insertion: Insertion): T & Insertion {
  const out = head as T & Insertion;
  out.insertAt = insertion.insertAt;
  if (insertion.needsLineBreak !== undefined) out.needsLineBreak = insertion.needsLineBreak;
  out.indent = insertion.indent;
  if (insertion.insertStyle !== undefined) out.insertStyle = insertion.insertStyle;
  return out;
}

function columnOf(text: string, offset: number): number {
  return offset - (text.lastIndexOf('\n', offset - 1) + 1);
}
