/**
 * Text from the catalog is untrusted: anyone who can edit a description writes into the hover
 * (docs/security.md).
 * Descriptions are Markdown by the spec, so they are rendered as Markdown, but inert: no HTML,
 * no links other than http(s)/mailto (no `command:` links), hidden characters shown as escapes,
 * bounded length. Everything else from the catalog or the document (names, types, paths) is
 * escaped as plain text. The common core (hidden characters, whitespace, the cut) is inertText's.
 */
import { inertText, markdownWords } from '../../../model/src/inertText';

/** Plain text shown literally inside Markdown: inertText for hovers, by the name the hover code reads. */
export function escapeMarkdown(text: string, limit = 200): string {
  return inertText(text, 'markdown', limit);
}

/** Text inside an inline code span: backticks cannot be escaped there, so they are replaced. */
export function codeSpan(text: string, limit = 200): string {
  return `\`${inertText(text, 'plain', limit).replace(/`/g, 'ˋ')}\``;
}

/**
 * Web and mail links written inline with a simple label (no bracket, no line break in it) and a
 * target without spaces, parentheses or angle brackets: the only links a description keeps, and
 * the code rebuilds each of them.
 */
const INLINE_WEB_LINK = /(?<![\\!])\[([^[\]\n]{1,300})\]\(\s*((?:https?:\/\/|mailto:)[^\s()<>]+)\s*\)/gi;
const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;

/**
 * Catalog text as Markdown in which no bracket, angle bracket or ampersand of the text is
 * syntax: `[` and `]` escaped, `<`, `>`, `&` written as entities; a backslash escape the text
 * already holds is kept as the pair it is (so `\[` stays a literal bracket, and `\\[` cannot
 * become an escaped backslash before a live one).
 */
function escapeBrackets(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && i + 1 < text.length && ASCII_PUNCTUATION.test(text[i + 1]!)) {
      out += c + text[++i]!;
    } else if (c === '[' || c === ']') out += `\\${c}`;
    else if (c === '<') out += '&lt;';
    else if (c === '>') out += '&gt;';
    else if (c === '&') out += '&amp;';
    else out += c;
  }
  return out;
}

/**
 * A catalog description as inert Markdown, at most `limit` characters and `maxLines` lines.
 * Escaped, not filtered: every `[`, `]`, `<`, `>` and `&` of the text is shown as itself, so no
 * link, image, reference definition, autolink or HTML of any form can come from it; the only
 * links are inline web and mail links, which are found first and rebuilt from their label
 * (escaped the same way) and target (percent-encoded). Emphasis, code spans, lists and headings
 * stay Markdown. A bracket inside a code span then shows its backslash: the price of the rule.
 */
export function safeDescription(text: string, limit = 1500, maxLines = 30): string {
  let t = inertText(text, 'lines', limit).trim();
  const lines = t.split('\n');
  if (lines.length > maxLines) t = `${lines.slice(0, maxLines).join('\n')}\n…`;
  // inertText shows control characters as escapes, so NUL marks the links' places safely.
  const links: string[] = [];
  t = t.replace(INLINE_WEB_LINK, (_m, label: string, target: string) => {
    links.push(`[${escapeBrackets(label)}](${encodeURI(decodeSafely(target)).replace(/[()]/g, encodeURIComponent)})`);
    return `\u0000${links.length - 1}\u0000`;
  });
  return escapeBrackets(t).replace(/\u0000(\d+)\u0000/g, (_m, i: string) => links[Number(i)]!);
}

/** `target` with its percent escapes undone where they are valid (encodeURI then writes each once). */
function decodeSafely(target: string): string {
  try {
    return decodeURI(target);
  } catch {
    return target;
  }
}

/** One line for a table cell: newlines, pipes and HTML neutralised. */
export function tableCell(text: string, limit = 120): string {
  // A pipe after an odd run of backslashes is already escaped; after an even run it would split the row.
  return safeDescription(text.replace(/[\s\u0085]+/g, ' '), limit, 1).replace(/(\\*)\|/g, (m, slashes: string) =>
    slashes.length % 2 === 0 ? `${slashes}\\|` : m,
  );
}

/**
 * Markdown with no code span: every backtick escaped (one already escaped kept as it is). For text
 * set on lines of one paragraph (a hover's column lines), where a span opened on one line could
 * close on the next and leave what lies between — another column's name — as Markdown or HTML.
 */
export function noCodeSpans(md: string): string {
  return md.replace(/(\\*)`/g, (m, slashes: string) => (slashes.length % 2 === 0 ? `${slashes}\\\`` : m));
}

/**
 * Hover or documentation Markdown as plain text, for an editor that shows only plain text: each
 * line reduced to its words (markdownWords), a table row's cells joined by " · ", rules and
 * table separators dropped, list items kept as "- ", a web link as its label, a colon and its address.
 * The Markdown is the server's own, already inert; the result is only ever shown as text.
 */
export function markdownAsPlain(md: string): string {
  const lines: string[] = [];
  for (const line of md.split('\n')) {
    // Table separator rows and thematic breaks carry no words; a break still parts paragraphs.
    if (/^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(line)) {
      if (!line.includes('|')) lines.push('');
      continue;
    }
    const bullet = /^\s*[-*+]\s+/.test(line) ? '- ' : '';
    const cells = /^\s*\|.*\|\s*$/.test(line)
      ? line
          .trim()
          .slice(1, -1)
          .split(/(?<!\\)\|/)
          .map((c) => c.trim())
          .filter((c) => c !== '')
          .join(' · ')
      : line;
    // A web or mail link keeps its address: plain text has no link to follow otherwise.
    const linked = cells.replace(
      /(?<![\\!])\[([^\]\n]{0,500})\]\(((?:https?:\/\/|mailto:)[^)\s]{1,2000})\)/g,
      '$1: $2',
    );
    const words = markdownWords(linked);
    lines.push(words === '' ? '' : bullet + words);
  }
  return lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
