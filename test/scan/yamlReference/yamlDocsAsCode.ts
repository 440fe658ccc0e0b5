/* eslint-disable @typescript-eslint/no-unsafe-enum-comparison -- charCodeAt compared with CharCode, as server/src/scan does */
/**
 * Docs-as-code in YAML: the `description:` beside a dataset or ML URN, and the columns listed
 * beside a dataset URN (`columns:`/`fields:`/`schema:`), with where an edit would write a
 * description that is not there yet.
 */
import { isMap, isNode, isPair, isScalar, isSeq, type Pair, type YAMLMap } from 'yaml';
import { isCatalogKind } from '../../../model/src/kinds';
import type { ScanResult, YamlColumn, YamlDescription, YamlInsertStyle } from '../../../server/src/scan/types';
import { isUrnKey, keyText, pairAt, scalarRef, type MappingFrame } from './yamlMapping';
import { CharCode } from '../../../server/src/scan/charCode';

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
  if (frame.urnValues.length === 0) return;
  const kindOf = (v: (typeof frame.urnValues)[number]): string | undefined => {
    const parsed = v.occurrence.parsed;
    return parsed?.ok ? parsed.urn.kind : undefined;
  };
  const described = frame.urnValues.filter((v) => isUrnKey(v.key) && isCatalogKind(kindOf(v) ?? ''));
  const owner = described.find((v) => v.key === 'urn') ?? described[0];
  if (owner) {
    const pair = pairAt(frame.map, owner.key);
    if (pair) result.descriptions.push(descriptionOf(text, frame.map, pair, owner.index));
  }
  const dataset = frame.urnValues.find((v) => kindOf(v) === 'dataset');
  if (!dataset) return;
  for (const key of COLUMN_LIST_KEYS) {
    const list = pairAt(frame.map, key)?.value;
    if (isSeq(list)) listedColumns(text, list.items, dataset.index, result.columns);
    else if (isMap(list)) mappedColumns(text, list, dataset.index, result.columns);
  }
}

function descriptionOf(text: string, map: YAMLMap, urnPair: Pair, owner: number): YamlDescription {
  const found: YamlDescription = { owner, ...insertionAfter(text, map, urnPair) };
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
      const column: YamlColumn = { dataset, name: scalarRef(pair.value), nameKey, ...insertionAfter(text, item, pair) };
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
    const base = { dataset, name: scalarRef(pair.key), nameKey: keyText(pair.key) };
    const value = pair.value;
    if (isMap(value)) {
      const column: YamlColumn = { ...base, ...insertionInto(text, value, pair) };
      const description = pairAt(value, 'description')?.value;
      if (isScalar(description)) column.description = scalarRef(description, value.flow === true);
      out.push(column);
    } else if (isScalar(value) && value.value !== null) {
      out.push({
        ...base,
        description: scalarRef(value, columns.flow === true),
        insertAt: value.range?.[0] ?? 0,
        indent: '',
        insertStyle: 'value',
      });
    } else if (value === null || isScalar(value)) {
      const at = isScalar(value) ? value.range?.[0] : undefined;
      // `user_id: ~` or `user_id: null`: the pulled text takes the place of the null.
      const end = isScalar(value) ? value.range?.[1] : undefined;
      out.push({
        ...base,
        insertAt: at ?? pair.key.range?.[1] ?? 0,
        ...(at !== undefined && end !== undefined && end > at ? { replaceEnd: end } : {}),
        indent: '',
        insertStyle: 'value',
      });
    }
  }
}

/** Where a key written after `pair` of `map` goes: the next line at the pair's key column, or inside `{…}`. */
function insertionAfter(text: string, map: YAMLMap, pair: Pair): Insertion {
  if (map.flow) return flowInsertion(map);
  const keyStart = rangeOf(pair.key)?.[0] ?? 0;
  const lineEnd = rangeOf(pair.value)?.[1] ?? rangeOf(pair.key)?.[1] ?? keyStart;
  return { ...afterLine(text, lineEnd), indent: ' '.repeat(columnOf(text, keyStart)) };
}

/** Where a `description:` goes in the mapping that is the value of `pair` (map-form columns). */
function insertionInto(text: string, inner: YAMLMap, pair: Pair): Insertion {
  if (inner.flow) return flowInsertion(inner);
  const firstKey = inner.items.find(isPair)?.key;
  const keyStart = rangeOf(pair.key)?.[0] ?? 0;
  const column =
    firstKey !== undefined && rangeOf(firstKey) ? columnOf(text, rangeOf(firstKey)![0]) : columnOf(text, keyStart) + 2;
  return { ...afterLine(text, rangeOf(pair.key)?.[1] ?? keyStart), indent: ' '.repeat(column) };
}

function flowInsertion(map: YAMLMap): Insertion {
  const last = map.items[map.items.length - 1];
  const end = isPair(last) ? (rangeOf(last.value)?.[1] ?? rangeOf(last.key)?.[1]) : undefined;
  return { insertAt: end ?? (map.range ? map.range[0] + 1 : 0), indent: '', insertStyle: 'flow' };
}

function rangeOf(node: unknown): readonly [number, number, number] | undefined {
  return isNode(node) ? (node.range ?? undefined) : undefined;
}

/** The start of the line after the one holding `offset` (a value ending in its line break counts as that line). */
function afterLine(text: string, offset: number): { insertAt: number; needsLineBreak?: boolean } {
  const from = offset > 0 && text.charCodeAt(offset - 1) === CharCode.LineFeed ? offset - 1 : offset;
  const lf = text.indexOf('\n', from);
  return lf < 0 ? { insertAt: text.length, needsLineBreak: true } : { insertAt: lf + 1 };
}

function columnOf(text: string, offset: number): number {
  return offset - (text.lastIndexOf('\n', offset - 1) + 1);
}
