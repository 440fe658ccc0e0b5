/**
 * Completion in DataHub's own YAML formats: the keys of the mapping the cursor is in (by the
 * indentation of the lines above it, which an unfinished line does not disturb), with their
 * documentation, and the allowed values of a key that has them. Pure.
 */
import { readDataHubYaml, type FormatName } from './read';
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
export function formatCompletionsAt(text: string, offset: number): FormatCompletion[] | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const lineEndAt = text.indexOf('\n', offset);
  const lineEnd = lineEndAt < 0 ? text.length : lineEndAt;
  // The unfinished line must not decide what the file is.
  const model = readDataHubYaml(text.slice(0, lineStart) + text.slice(lineEnd));
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
  let level: LevelName | undefined = ROOT[format];
  for (const key of path) {
    level = level ? LEVELS[level].keys[key]?.of : undefined;
    if (!level) return undefined;
  }
  return level;
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
): { start: number; end: number; markdown: string } | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const lineEndAt = text.indexOf('\n', offset);
  const lineText = text.slice(lineStart, lineEndAt < 0 ? text.length : lineEndAt);
  const line = readLine(lineText);
  if (!line?.key) return undefined;
  const start = lineStart + line.indent + line.dash;
  const end = start + line.key.length;
  if (offset < start || offset > end) return undefined;
  const model = readDataHubYaml(text);
  if (!model) return undefined;
  const lines = text.slice(0, lineStart).split('\n');
  lines.pop();
  const level = levelAt(model.format, lines, line.indent + line.dash, line.dash > 0, line.indent);
  const spec = level ? LEVELS[level].keys[line.key] : undefined;
  if (!level || !spec) return undefined;
  return { start, end, markdown: `**${line.key}** · ${LEVELS[level].model}\n\n${documentation(spec)}` };
}
