import type { TextEdit } from 'vscode-languageserver-protocol';

/** The text with LSP edits applied (positions by line and UTF-16 character; the last edit first). */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const offset = (p: { line: number; character: number }): number =>
    text
      .split('\n')
      .slice(0, p.line)
      .reduce((n, l) => n + l.length + 1, 0) + p.character;
  return [...edits]
    .sort((a, b) => offset(b.range.start) - offset(a.range.start))
    .reduce((t, e) => t.slice(0, offset(e.range.start)) + e.newText + t.slice(offset(e.range.end)), text);
}
