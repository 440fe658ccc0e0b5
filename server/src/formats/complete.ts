/**
 * Completion in DataHub's own YAML formats: the keys of the mapping the cursor is in (by the
 * indentation of the lines above it, which an unfinished line does not disturb), with their
 * documentation, and the allowed values of a key that has them. Pure.
 */
import type { LookupKind } from '../../../model/src/kinds';
import type { FormatOutline } from '../scan/types';
import { readDataHubYaml, type FormatModel, type FormatName } from './read';
import { LEVELS, OWNERSHIP_TYPES, type KeySpec, type LevelName } from './schema';

export interface FormatCompletion {
  label: string;
  kind: 'key' | 'value';
  /** What the item writes in place of the typed word. */
  insertText: string;
  documentation: string;
  /** The DataHub model the key belongs to (for the item's detail). */
  detail: string;
  /** Document offsets of the typed word the item replaces. */
  from: number;
  to: number;
}

const ROOT: Readonly<Record<FormatName, LevelName>> = {
  'datahub-dataset': 'dataset',
  'datahub-glossary': 'glossary',
  'datahub-structured-properties': 'structuredProperty',
  'datahub-data-product': 'dataProduct',
};

interface Line {
  indent: number;
  /** Length of `- ` (with its spaces) when the line starts a list item. */
  dash: number;
  key: string | undefined;
}

const KEY_LINE = /^(\s*)(-\s+)?(?:([^\s#:'"][^:#]*?)\s*:(?:\s|$))?/;

function readLine(text: string): Line | undefined {
  if (/^\s*(#.*)?$/.test(text)) return undefined;
  const m = KEY_LINE.exec(text)!;
  return { indent: m[1]!.length, dash: m[2]?.length ?? 0, key: m[3] };
}

/** The completions at `offset` of a YAML text in one of DataHub's formats; undefined when it is not in one. */
export function formatCompletionsAt(
  text: string,
  offset: number,
  readings: FormatReadings = new FormatReadings(text, offset),
): FormatCompletion[] | undefined {
  const { lineStart, lineEnd } = readings;
  // The unfinished line must not decide what the file is.
  const model = readings.withoutLine();
  if (!model) return undefined;
  const prefix = text.slice(lineStart, offset);
  const lines = text.slice(0, lineStart).split('\n');
  lines.pop();
  const after = text.slice(lineEnd + 1).split('\n');

  const valueAt = /^(\s*)(-\s+)?([A-Za-z_]+):\s+([A-Za-z_]*)$/.exec(prefix);
  if (valueAt) {
    const keyCol = valueAt[1]!.length + (valueAt[2]?.length ?? 0);
    const level = levelAt(model.format, lines, keyCol, valueAt[2] !== undefined, valueAt[1]!.length);
    const spec = level ? LEVELS[level].keys[valueAt[3]!] : undefined;
    const offered = spec?.values ?? spec?.suggested;
    if (!level || !spec || !offered) return [];
    const typed = valueAt[4]!;
    // CUSTOM is what DataHub records for an ownership type URN, not a type to write.
    const values = offered === OWNERSHIP_TYPES ? OWNERSHIP_TYPES.filter((v) => v !== 'CUSTOM') : offered;
    return values.map((v) => ({
      label: v,
      kind: 'value',
      insertText: v,
      documentation: spec.doc,
      detail: `${LEVELS[level].model}.${valueAt[3]!}`,
      from: offset - typed.length,
      to: offset,
    }));
  }
  const keyAt = /^(\s*)(-\s+)?([A-Za-z_]*)$/.exec(prefix);
  if (!keyAt) return [];
  const indent = keyAt[1]!.length;
  const dash = keyAt[2]?.length ?? 0;
  const keyCol = indent + dash;
  const level = levelAt(model.format, lines, keyCol, dash > 0, indent);
  if (!level) return [];
  const present = new Set(dash > 0 ? siblings([], after, keyCol) : siblings(lines, after, keyCol));
  const typed = keyAt[3]!;
  const spec = LEVELS[level];
  return Object.entries(spec.keys)
    .filter(([key]) => !present.has(key))
    .map(([key, ks]) => ({
      label: key,
      kind: 'key',
      insertText: `${key}:${ks.shape === 'scalar' ? ' ' : ''}`,
      documentation: documentation(ks),
      detail: spec.model,
      from: offset - typed.length,
      to: offset,
    }));
}

function documentation(ks: KeySpec): string {
  const notes = [ks.required ? 'Required.' : '', ks.values ? `Values: ${ks.values.join(', ')}.` : ''].filter(Boolean);
  return [ks.doc, ...notes].join(' ');
}

/**
 * The level of the mapping whose keys stand at column `keyCol`: the keys of the lines above with
 * less indentation, from the innermost out, read down from the format's root.
 */
function levelAt(
  format: FormatName,
  above: readonly string[],
  keyCol: number,
  startsItem: boolean,
  itemIndent: number,
): LevelName | undefined {
  return levelOf(format, pathAt(above, keyCol, startsItem, itemIndent));
}

/** The level the keys of `path` lead to from the format's root; undefined off the format's levels. */
function levelOf(format: FormatName, path: readonly string[]): LevelName | undefined {
  let level: LevelName | undefined = ROOT[format];
  for (const key of path) {
    level = level ? LEVELS[level].keys[key]?.of : undefined;
    if (!level) return undefined;
  }
  return level;
}

/** The keys from the root down to the mapping whose keys stand at column `keyCol` (a list item's: down to its list's key). */
function pathAt(above: readonly string[], keyCol: number, startsItem: boolean, itemIndent: number): string[] {
  const path: string[] = [];
  // A list item's mapping: its list's key stands at the item's dash or to its left.
  let col = startsItem ? itemIndent + 0.5 : keyCol;
  for (let l = above.length - 1; l >= 0 && col > 0; l--) {
    const line = readLine(above[l]!);
    if (!line) continue;
    const kc = line.indent + line.dash;
    if (kc === col && line.dash > 0) {
      col = line.indent + 0.5;
      continue;
    }
    if (kc >= col || line.key === undefined) {
      if (line.dash > 0 && line.indent < col && kc >= col) col = line.indent + 0.5;
      continue;
    }
    path.unshift(line.key);
    col = line.dash > 0 ? line.indent + 0.5 : kc;
  }
  return path;
}

/** The keys already in the mapping at column `keyCol` around the cursor's line. */
function siblings(above: readonly string[], below: readonly string[], keyCol: number): string[] {
  const out: string[] = [];
  for (let l = above.length - 1; l >= 0; l--) {
    const line = readLine(above[l]!);
    if (!line) continue;
    const kc = line.indent + line.dash;
    if (kc < keyCol) break;
    if (kc === keyCol && line.key !== undefined) out.push(line.key);
    if (kc === keyCol && line.dash > 0) break;
  }
  for (const text of below) {
    const line = readLine(text);
    if (!line) continue;
    const kc = line.indent + line.dash;
    if (kc < keyCol || (line.dash > 0 && line.indent < keyCol)) break;
    if (kc === keyCol && line.key !== undefined) out.push(line.key);
  }
  return out;
}

/** The documentation of the format's key under the cursor (markdown, and the key's range); undefined off a key the format knows. */
export function formatKeyAt(
  text: string,
  offset: number,
  /** The text's format when the caller knows it (its scan's): the text is then not read again for it. */
  known?: string,
): { start: number; end: number; markdown: string } | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const lineEndAt = text.indexOf('\n', offset);
  const lineText = text.slice(lineStart, lineEndAt < 0 ? text.length : lineEndAt);
  const line = readLine(lineText);
  if (!line?.key) return undefined;
  const start = lineStart + line.indent + line.dash;
  const end = start + line.key.length;
  if (offset < start || offset > end) return undefined;
  const format =
    known !== undefined && Object.hasOwn(ROOT, known) ? (known as FormatName) : readDataHubYaml(text)?.format;
  if (!format) return undefined;
  const lines = text.slice(0, lineStart).split('\n');
  lines.pop();
  const level = levelAt(format, lines, line.indent + line.dash, line.dash > 0, line.indent);
  const spec = level ? LEVELS[level].keys[line.key] : undefined;
  if (!level || !spec) return undefined;
  return { start, end, markdown: `**${line.key}** · ${LEVELS[level].model}\n\n${documentation(spec)}` };
}

/**
 * A reference being written in one of DataHub's formats, and what completes it: entities of the
 * catalog by kind (`named`: platforms, users, groups, tags, terms, structured properties), a
 * dataset (`dataset`: its name on `platform`, or its whole URN), a field of the entry's dataset
 * (`field`), a term of the glossary by its path and of the catalog (`termPath`), or a value of a
 * structured property (`propertyValue`).
 */
export type FormatReferenceSlot = {
  /** The typed word and the offsets an item replaces. */
  typed: string;
  from: number;
  to: number;
} & (
  | { ref: 'named'; kinds: readonly LookupKind[] }
  | { ref: 'dataset'; insert: 'name' | 'urn'; platform?: string }
  | { ref: 'field'; dataset: string }
  | { ref: 'termPath'; paths: readonly string[] }
  | { ref: 'propertyValue'; property: string }
  /** A key of `structured_properties`: a property's id (the catalog's, and the workspace's definitions). */
  | { ref: 'propertyId' }
);

/** What a list item or a value under each key of each level names, where the generic YAML completion does not read it. */
const NAMED: Partial<Record<LevelName, Readonly<Record<string, readonly LookupKind[]>>>> = {
  dataset: { platform: ['dataPlatform'] },
  schemaField: { globalTags: ['tag'] },
  glossaryOwners: { users: ['corpuser'], groups: ['corpGroup'] },
};
/** Keys whose values are dataset URNs. */
const DATASET_URNS: Partial<Record<LevelName, readonly string[]>> = {
  dataset: ['downstreams'],
  dataProduct: ['assets', 'output_ports'],
};
const TERM_PATHS = ['inherits', 'contains', 'values', 'related_terms'];

/** The reference being written at `offset` of a text in one of DataHub's formats; undefined elsewhere. */
export function formatReferenceAt(
  text: string,
  offset: number,
  readings: FormatReadings = new FormatReadings(text, offset),
): FormatReferenceSlot | undefined {
  const { lineStart, lineEnd } = readings;
  // A value being written may be what makes the file one of the formats (`platform: hi`): the whole text first.
  const model = readings.whole() ?? readings.withoutLine();
  if (!model) return undefined;
  const prefix = text.slice(lineStart, offset);
  const lines = text.slice(0, lineStart).split('\n');
  lines.pop();
  // What an item replaces after the cursor: the rest of a plain word (a quoted one to its quote).
  const VALUE = String.raw`(["']?)([^"'[\]{},#:\n]*)$`;
  const rest = (quote: string): number =>
    (quote ? new RegExp(`^[^${quote}\\n]*`) : /^[^,\]}\n#]*/).exec(text.slice(offset, lineEnd))![0].trimEnd().length;
  const keyed = new RegExp(String.raw`^(\s*)(-\s+)?([^\s#:'"][^:#]*?):\s+(?:\[(?:[^\]\n]*,)?\s*)?${VALUE}`).exec(
    prefix,
  );
  const item = new RegExp(String.raw`^(\s*)-\s+${VALUE}`).exec(prefix);
  const bare = /^(\s*)([A-Za-z_][\w.-]*)?$/.exec(prefix);
  let path: string[];
  let key: string;
  let quote: string;
  let typed: string;
  if (keyed) {
    const keyCol = keyed[1]!.length + (keyed[2]?.length ?? 0);
    path = pathAt(lines, keyCol, keyed[2] !== undefined, keyed[1]!.length);
    key = keyed[3]!;
    quote = keyed[4]!;
    typed = keyed[5]!;
  } else if (item) {
    path = pathAt(lines, item[1]!.length, true, item[1]!.length);
    const listKey = path.pop();
    if (listKey === undefined) return undefined;
    key = listKey;
    quote = item[2]!;
    typed = item[3]!;
  } else if (bare) {
    // A key being written: under `structured_properties`, a property's id.
    const under = pathAt(lines, bare[1]!.length, false, bare[1]!.length);
    if (under[under.length - 1] !== 'structured_properties') return undefined;
    const word = bare[2] ?? '';
    const after = /^[\w.-]*/.exec(text.slice(offset, lineEnd))![0].length;
    return { ref: 'propertyId', typed: word, from: offset - word.length, to: offset + after };
  } else return undefined;
  // A URN being written is a URN literal's (completeNames.ts), not a name.
  if (typed.startsWith(' ') || /^urn:/.test(typed)) return undefined;
  const at = { typed, from: offset - typed.length, to: offset + rest(quote) };
  // A value of a structured property: its key is the property's id, under `structured_properties`.
  if (path[path.length - 1] === 'structured_properties')
    return { ref: 'propertyValue', property: propertyUrn(key), ...at };
  const level = levelOf(model.format, path);
  if (!level) return undefined;
  const named = NAMED[level]?.[key];
  if (named) return { ref: 'named', kinds: named, ...at };
  if (DATASET_URNS[level]?.includes(key)) return { ref: 'dataset', insert: 'urn', ...at };
  if (level === 'dataset' && key === 'id' && keyed) {
    const keyCol = keyed[1]!.length + (keyed[2]?.length ?? 0);
    const platform = siblingValue(lines, text.slice(lineEnd + 1).split('\n'), keyCol, 'platform');
    return { ref: 'dataset', insert: 'name', ...(platform ? { platform: platformName(platform) } : {}), ...at };
  }
  if (level === 'schemaField' && key === 'id') {
    const dataset = entryBefore(model, offset);
    return dataset ? { ref: 'field', dataset, ...at } : undefined;
  }
  if (level === 'glossaryTerm' && TERM_PATHS.includes(key)) return { ref: 'termPath', paths: model.termPaths, ...at };
  return undefined;
}

/** `urn:li:structuredProperty:<id>`, a URN kept as it is (make_structured_property_urn). */
function propertyUrn(id: string): string {
  return id.startsWith('urn:li:structuredProperty:') ? id : `urn:li:structuredProperty:${id}`;
}

function platformName(platform: string): string {
  return platform.startsWith('urn:li:dataPlatform:') ? platform.slice('urn:li:dataPlatform:'.length) : platform;
}

/** The value of the scalar key `key` beside the cursor's, in the mapping at column `keyCol`. */
function siblingValue(
  above: readonly string[],
  below: readonly string[],
  keyCol: number,
  key: string,
): string | undefined {
  const valueOf = (text: string): string | undefined => {
    const m = new RegExp(String.raw`^\s*(?:-\s+)?${key}:\s+(["']?)([^"'#\n]*?)\1\s*(?:#.*)?$`).exec(text);
    return m?.[2] || undefined;
  };
  for (let l = above.length - 1; l >= 0; l--) {
    const line = readLine(above[l]!);
    if (!line) continue;
    const kc = line.indent + line.dash;
    if (kc < keyCol) break;
    if (kc === keyCol && line.key === key) return valueOf(above[l]!);
    if (kc === keyCol && line.dash > 0) break;
  }
  for (const t of below) {
    const line = readLine(t);
    if (!line) continue;
    const kc = line.indent + line.dash;
    if (kc < keyCol || (line.dash > 0 && line.indent < keyCol)) break;
    if (kc === keyCol && line.key === key) return valueOf(t);
  }
  return undefined;
}

/** The dataset URN of the entry the cursor is in: the last entry that starts before it. */
function entryBefore(model: FormatOutline, offset: number): string | undefined {
  let urn: string | undefined;
  for (const e of model.datasetEntries) if (e.start < offset) urn = e.urn;
  return urn;
}

/** What completion reads of a model: its format, term paths and dataset entries. */
export function outlineOf(model: FormatModel): FormatOutline {
  const datasetEntries: Array<{ start: number; urn: string }> = [];
  for (const r of model.references)
    if (r.defines && (r.builder === 'make_dataset_urn' || r.builder === 'Dataset.urn'))
      datasetEntries.push({ start: r.start, urn: r.urn });
  return { format: model.format, termPaths: model.termPaths, datasetEntries };
}

/**
 * The readings of a text that completion at one offset makes, each at most once per request: the
 * whole text's (or the outline its scan kept: `null` when the scan found no format) and the text
 * without the cursor's line, which an unfinished line cannot turn into another format.
 */
export class FormatReadings {
  readonly lineStart: number;
  readonly lineEnd: number;
  private withoutLineRead: FormatOutline | null | undefined;

  constructor(
    private readonly text: string,
    offset: number,
    private wholeRead?: FormatOutline | null,
  ) {
    this.lineStart = text.lastIndexOf('\n', offset - 1) + 1;
    const lineEndAt = text.indexOf('\n', offset);
    this.lineEnd = lineEndAt < 0 ? text.length : lineEndAt;
  }

  whole(): FormatOutline | undefined {
    if (this.wholeRead === undefined) this.wholeRead = outlineOrNull(readDataHubYaml(this.text));
    return this.wholeRead ?? undefined;
  }

  withoutLine(): FormatOutline | undefined {
    if (this.withoutLineRead === undefined)
      this.withoutLineRead = outlineOrNull(
        readDataHubYaml(this.text.slice(0, this.lineStart) + this.text.slice(this.lineEnd)),
      );
    return this.withoutLineRead ?? undefined;
  }
}

const outlineOrNull = (model: FormatModel | undefined): FormatOutline | null => (model ? outlineOf(model) : null);
