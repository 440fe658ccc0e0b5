/**
 * Oracles for text that came from the catalog: what would make it active or unbounded where the
 * editor shows it. Hovers are Markdown (VS Code renders them); messages are plain text, but VS
 * Code's notifications turn `[label](https://…|command:…|file:…)` into links (its linkedText), so
 * link syntax counts as active there too.
 */

// C0 but the line break, DEL, C1, and the bidirectional embeddings, overrides and isolates (Trojan Source).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;
// eslint-disable-next-line no-control-regex
const CONTROL_IN_LINE = /[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;

/** The pattern VS Code's notifications use to find links (vs/base/common/linkedText.ts). */
const NOTIFICATION_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;

/**
 * Markdown with inline code spans blanked out (their content is shown literally). Spans do not
 * cross paragraphs or table cells (GFM splits a row at unescaped pipes before it reads spans).
 */
export function outsideCodeSpans(md: string): string {
  return md.split(/(\n[ \t]*\n)/).map((block) => (block.startsWith('|')
    ? block.split('\n').map((row) => splitCells(row).map(blankSpans).join('|')).join('\n')
    : blankSpans(block))).join('');
}

function splitCells(row: string): string[] {
  const cells: string[] = [];
  let from = 0;
  for (let i = 0; i < row.length; i++) {
    if (row[i] === '|' && unescapedAt(row, i)) {
      cells.push(row.slice(from, i));
      from = i + 1;
    }
  }
  cells.push(row.slice(from));
  return cells;
}

/** A span opens with an unescaped run of backticks and closes with a run of the same length; an unclosed run is text. */
function blankSpans(md: string): string {
  let out = '';
  let i = 0;
  for (;;) {
    const open = md.indexOf('`', i);
    if (open < 0) break;
    let n = open;
    while (md[n] === '`') n++;
    const run = n - open;
    let close = -1;
    for (let k = md.indexOf('`', n); k >= 0; k = md.indexOf('`', k)) {
      let e = k;
      while (md[e] === '`') e++;
      if (e - k === run) { close = k; break; }
      k = e;
    }
    if (!unescapedAt(md, open) || close < 0) {
      out += md.slice(i, n);
      i = n;
      continue;
    }
    // Blanked with a letter, not a space: what follows a span must not look like the start of a line.
    out += md.slice(i, open) + md.slice(open, close + run).replace(/[^\n]/g, 'x');
    i = close + run;
  }
  return out + md.slice(i);
}

function unescapedAt(text: string, i: number): boolean {
  let backslashes = 0;
  for (let k = i - 1; k >= 0 && text[k] === '\\'; k--) backslashes++;
  return backslashes % 2 === 0;
}

/**
 * What would be active in hover Markdown: raw HTML or autolinks, links or images whose target is
 * not a web or mail address (`allowedTarget` may widen that), reference definitions, controls.
 */
export function activeMarkdown(md: string, allowedTarget: (target: string) => boolean = () => false): string[] {
  const problems: string[] = [];
  const control = CONTROL.exec(md);
  if (control) problems.push(`control character U+${control[0].charCodeAt(0).toString(16).padStart(4, '0')} at ${control.index}`);
  const text = outsideCodeSpans(md);
  for (const m of text.matchAll(/<[A-Za-z!?/]/g)) {
    if (unescapedAt(text, m.index)) problems.push(`raw HTML or autolink at ${m.index}: ${md.slice(m.index, m.index + 30)}`);
  }
  for (const m of text.matchAll(/\]\(\s*([^)\s]*)/g)) {
    const target = m[1] ?? '';
    if (unescapedAt(text, m.index) && !/^(https?:|mailto:)/i.test(target) && !allowedTarget(target)) {
      problems.push(`link to '${target.slice(0, 60)}' at ${m.index}`);
    }
  }
  for (const m of text.matchAll(/!\[/g)) {
    if (unescapedAt(text, m.index + 1) && unescapedAt(text, m.index)) problems.push(`image at ${m.index}: ${md.slice(m.index, m.index + 40)}`);
  }
  // A definition starts a line, after list markers (a `>` quote is escaped as text by the server).
  for (const m of text.matchAll(/^((?:[ \t]{0,3}(?:[-*+>]|\d{1,9}[.)])[ \t]+)*)[ \t]{0,3}\[[^\]\n]*\]:/gm)) {
    const open = m.index + (m[1]?.length ?? 0) + m[0].slice((m[1]?.length ?? 0)).indexOf('[');
    const close = m.index + m[0].length - 2;
    if (unescapedAt(text, open) && unescapedAt(text, close)) problems.push(`reference definition at ${open}: ${md.slice(open, open + 40)}`);
  }
  return problems;
}

/**
 * What would be active or unbounded in a one-line message (notification, status bar, diagnostic).
 * With `source` (the document the message is about), what the message quotes from the document
 * itself is the user's own text and is let through: the check is about catalog text.
 */
export function activeMessage(message: string, maxLength: number, source?: string): string[] {
  const problems: string[] = [];
  const own = (snippet: string): boolean => source !== undefined && source.includes(snippet);
  for (const m of message.matchAll(new RegExp(CONTROL_IN_LINE.source, 'g'))) {
    if (!own(m[0])) problems.push(`control character U+${m[0].charCodeAt(0).toString(16).padStart(4, '0')} at ${m.index}`);
  }
  for (const m of message.matchAll(NOTIFICATION_LINK)) {
    if (!own(m[0])) problems.push(`a link VS Code would render: ${m[0].slice(0, 80)}`);
  }
  if (message.length > maxLength + (source === undefined ? 0 : longestLine(source))) problems.push(`${message.length} characters, over ${maxLength}`);
  return problems;
}

function longestLine(text: string): number {
  return text.split(/\r\n|\r|\n/).reduce((n, l) => Math.max(n, l.length), 0);
}
