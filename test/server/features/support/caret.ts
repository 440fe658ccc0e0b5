/**
 * Markers in a test's text. The caret is `‸` (U+2038 CARET): it never occurs in a URN, nor in the
 * Python, YAML and SQL the feature tests write, where `|` can (a v2 field path's look-alike, SQL's
 * `||`, a YAML block scalar). A range is `⟦…⟧` (U+27E6, U+27E7) for the same reason: `[[` and `]]`
 * occur in YAML flow sequences and v2 field paths (`[version=2.0].[type=…]`). Offsets and
 * positions are those of the text without the markers, positions in UTF-16 code units as LSP's.
 */
import type { Position, Range } from 'vscode-languageserver';

export const CARET = '‸';
const OPEN = '⟦';
const CLOSE = '⟧';

/** The position of `offset` in `text` (line, UTF-16 character). */
export function positionAt(text: string, offset: number): Position {
  const before = text.slice(0, offset);
  const line = before.split('\n').length - 1;
  return { line, character: offset - (before.lastIndexOf('\n') + 1) };
}

/** Text with one caret: the text without it, the caret's offset and its position. */
export function caret(marked: string): { text: string; offset: number; position: Position } {
  const { text, offset, ranges } = marks(marked);
  if (offset === undefined) throw new Error(`no ${CARET} caret in the text`);
  if (ranges.length > 0) throw new Error(`ranges in a text read for its caret: use marks()`);
  return { text, offset, position: positionAt(text, offset) };
}

/** A range's offsets, and its LSP range. */
export interface MarkedRange {
  start: number;
  end: number;
  range: Range;
  /** The text the range holds. */
  text: string;
}

/** Text with ranges `⟦…⟧` (not nested) and at most one caret: the text without the markers, the ranges in order, the caret. */
export function marks(marked: string): { text: string; ranges: MarkedRange[]; offset?: number; position?: Position } {
  let text = '';
  let offset: number | undefined;
  let open: number | undefined;
  const spans: Array<{ start: number; end: number }> = [];
  for (const ch of marked) {
    if (ch === CARET) {
      if (offset !== undefined) throw new Error(`two ${CARET} carets in the text`);
      offset = text.length;
    } else if (ch === OPEN) {
      if (open !== undefined) throw new Error(`a ${OPEN} inside a range`);
      open = text.length;
    } else if (ch === CLOSE) {
      if (open === undefined) throw new Error(`a ${CLOSE} without its ${OPEN}`);
      spans.push({ start: open, end: text.length });
      open = undefined;
    } else text += ch;
  }
  if (open !== undefined) throw new Error(`a ${OPEN} without its ${CLOSE}`);
  const ranges = spans.map(({ start, end }) => ({
    start,
    end,
    range: { start: positionAt(text, start), end: positionAt(text, end) },
    text: text.slice(start, end),
  }));
  return { text, ranges, ...(offset !== undefined ? { offset, position: positionAt(text, offset) } : {}) };
}
