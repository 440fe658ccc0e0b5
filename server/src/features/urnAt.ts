/** What is under the cursor: the innermost URN occurrence, or a YAML column beside a dataset URN. */
import type { UrnAt } from '../../../model/src/protocol';
import type { ScanResult, UrnOccurrence, YamlColumn } from '../scan/types';
import { forEachRangeAt } from './intervals';
import { lookupOf } from '../resolution/lookup';

export interface AtCursor {
  occurrence: UrnOccurrence;
  /** Set when the cursor is on a column name in YAML: the column, and the name's range. */
  column?: string;
  columnRange?: { start: number; end: number };
}

/**
 * The URN under `offset`: on a YAML column name, that column of its dataset; else the innermost
 * (shortest) occurrence that holds the offset, the first of equal ones. Found through an index of
 * the scan's ranges (built at the first lookup of a scan), not by walking the document.
 */
export function occurrenceAt(scan: ScanResult, offset: number): AtCursor | undefined {
  let column = -1;
  forEachRangeAt(columnNames(scan.columns), offset, (p) => {
    if ((column < 0 || p < column) && scan.occurrences[scan.columns[p]!.dataset]) column = p;
  });
  if (column >= 0) {
    const c = scan.columns[column]!;
    const occurrence = scan.occurrences[c.dataset]!;
    return { occurrence, column: c.name.value, columnRange: { start: c.name.start, end: c.name.end } };
  }
  let best = -1;
  let bestLength = Infinity;
  forEachRangeAt(scan.occurrences, offset, (p) => {
    const o = scan.occurrences[p]!;
    const length = o.end - o.start;
    if (length < bestLength || (length === bestLength && p < best)) {
      best = p;
      bestLength = length;
    }
  });
  return best >= 0 ? { occurrence: columnOwner(scan, scan.occurrences[best]!) } : undefined;
}

const namesOfColumns = new WeakMap<readonly YamlColumn[], ReadonlyArray<YamlColumn['name']>>();

/** The column names' ranges, in the columns' order (kept while the scan lives). */
function columnNames(columns: readonly YamlColumn[]): ReadonlyArray<YamlColumn['name']> {
  let names = namesOfColumns.get(columns);
  if (!names) {
    names = columns.map((c) => c.name);
    namesOfColumns.set(columns, names);
  }
  return names;
}

/**
 * A schemaField names one column wherever the cursor is on it: the dataset and platform nested in
 * it are parts of that name, not what the user points at.
 */
function columnOwner(scan: ScanResult, occurrence: UrnOccurrence): UrnOccurrence {
  let found = occurrence;
  for (
    let o: UrnOccurrence | undefined = occurrence;
    o;
    o = o.parent === undefined ? undefined : scan.occurrences[o.parent]
  ) {
    if (o.parsed?.ok && o.parsed.urn.kind === 'schemaField') found = o;
  }
  return found;
}

/**
 * The URN that the one under the cursor is part of (a dataset holding its platform's URN), or
 * undefined at the outermost URN or a YAML column. A hover describes that URN instead when the
 * catalog lacks the nested one: a mistyped platform names no entity of its own.
 */
export function enclosingAt(scan: ScanResult, at: AtCursor): AtCursor | undefined {
  if (at.column !== undefined || at.occurrence.parent === undefined) return undefined;
  const occurrence = scan.occurrences[at.occurrence.parent];
  return occurrence ? { occurrence } : undefined;
}

/**
 * `catalogLens/urnAt`: the URN under the cursor, for palette commands. A schemaField is its
 * dataset's column: Write Column Description … act on that.
 */
export function urnAtOffset(scan: ScanResult, offset: number): UrnAt | null {
  const at = occurrenceAt(scan, offset);
  if (!at || !at.occurrence.parsed?.ok || at.occurrence.template) return null;
  const urn = at.occurrence.parsed.urn;
  const lookup = urn.kind === 'schemaField' ? lookupOf(urn, at.occurrence.urn) : undefined;
  if (lookup) return { urn: lookup.urn, kind: 'dataset', column: lookup.column };
  return { urn: at.occurrence.urn, kind: urn.kind, ...(at.column !== undefined ? { column: at.column } : {}) };
}
