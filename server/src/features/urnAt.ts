/** What is under the cursor: the innermost URN occurrence, or a YAML column beside a dataset URN. */
import type { UrnAt } from '../../../model/src/protocol';
import type { ScanResult, UrnOccurrence } from '../scan/types';
import { lookupOf } from '../resolution/lookup';

export interface AtCursor {
  occurrence: UrnOccurrence;
  /** Set when the cursor is on a column name in YAML: the column, and the name's range. */
  column?: string;
  columnRange?: { start: number; end: number };
}

export function occurrenceAt(scan: ScanResult, offset: number): AtCursor | undefined {
  for (const c of scan.columns) {
    if (offset >= c.name.start && offset < c.name.end) {
      const occurrence = scan.occurrences[c.dataset];
      if (occurrence)
        return { occurrence, column: c.name.value, columnRange: { start: c.name.start, end: c.name.end } };
    }
  }
  let best: UrnOccurrence | undefined;
  for (const o of scan.occurrences) {
    if (offset >= o.start && offset < o.end && (!best || o.end - o.start < best.end - best.start)) best = o;
  }
  return best ? { occurrence: columnOwner(scan, best) } : undefined;
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
