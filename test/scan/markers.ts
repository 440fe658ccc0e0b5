/**
 * Range markers for scan tests, so a test reads like the document it guards:
 * `⟦…⟧` around each expected URN occurrence (nestable: `⟦urn:li:dataset:(⟦urn:li:dataPlatform:hive⟧,t,PROD)⟧`)
 * and `⟪…⟫` around an expected error range. The markers are stripped before scanning.
 */
import type { ScanResult, UrnOccurrence } from '../../server/src/scan/types';

export interface Range {
  start: number;
  end: number;
}

export interface Marked {
  text: string;
  /** Marked occurrences, ordered by start (outer before inner). */
  urns: Range[];
  errors: Range[];
}

const OPEN_URN = '⟦',
  CLOSE_URN = '⟧',
  OPEN_ERROR = '⟪',
  CLOSE_ERROR = '⟫';

export function marked(source: string): Marked {
  let text = '';
  const urns: Range[] = [];
  const errors: Range[] = [];
  const open: Array<{ kind: string; start: number; index: number }> = [];
  for (const ch of source) {
    if (ch === OPEN_URN || ch === OPEN_ERROR) {
      const list = ch === OPEN_URN ? urns : errors;
      list.push({ start: text.length, end: -1 });
      open.push({ kind: ch, start: text.length, index: list.length - 1 });
    } else if (ch === CLOSE_URN || ch === CLOSE_ERROR) {
      const top = open.pop();
      const expected = ch === CLOSE_URN ? OPEN_URN : OPEN_ERROR;
      if (!top || top.kind !== expected) throw new Error(`unbalanced marker ${ch} in ${source}`);
      (ch === CLOSE_URN ? urns : errors)[top.index]!.end = text.length;
    } else {
      text += ch;
    }
  }
  if (open.length > 0) throw new Error(`unclosed marker in ${source}`);
  return { text, urns, errors };
}

export const OPTS = { namespaces: ['li', 'svc'] } as const;

export function rangesOf(occurrences: readonly UrnOccurrence[]): Range[] {
  return occurrences.map((o) => ({ start: o.start, end: o.end }));
}

export function topLevel(result: ScanResult | readonly UrnOccurrence[]): UrnOccurrence[] {
  const list = 'occurrences' in result ? result.occurrences : result;
  return list.filter((o) => o.parent === undefined);
}

/** The text an occurrence covers, for readable failure messages. */
export function covered(text: string, o: Range): string {
  return text.slice(o.start, o.end);
}
