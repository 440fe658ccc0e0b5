/**
 * Text from the catalog is untrusted (DESIGN "Conventions", notes/anchors.md "Security lessons").
 * Descriptions are Markdown by the spec, so they are rendered as Markdown, but inert: no HTML,
 * no links other than http(s)/mailto (no `command:` links), no control characters, bounded length.
 * Everything else from the catalog (names, types, paths) is escaped as plain text.
 */

// Inline constructs start with these anywhere; `(` only matters after `]`, which is escaped.
const MD_SPECIAL = /[\\`*_[\]|<>~&]/g;
// Block constructs (headings, lists, quotes, numbered lists) start a line.
const MD_LINE_START = /^(\s*)([#+\-=>]|\d+(?=[.)]))/;
const WEB_OR_MAIL = /^(https?:|mailto:)/i;

/** Plain text shown literally inside Markdown. */
export function escapeMarkdown(text: string, limit = 200): string {
  return cut(stripControl(text).replace(/\s+/g, ' '), limit)
    .replace(MD_SPECIAL, (c) => `\\${c}`)
    .replace(MD_LINE_START, (_m, space: string, mark: string) => (/\d/.test(mark) ? `${space}${mark}\\` : `${space}\\${mark}`));
}

/** Text inside an inline code span: backticks cannot be escaped there, so they are replaced. */
export function codeSpan(text: string, limit = 200): string {
  const t = cut(stripControl(text).replace(/\s+/g, ' '), limit).replace(/`/g, 'ˋ');
  return `\`${t}\``;
}

/** A catalog description as inert Markdown, at most `limit` characters and `maxLines` lines. */
export function safeDescription(text: string, limit = 1500, maxLines = 30): string {
  let t = stripControl(text, true).trim();
  const lines = t.split('\n');
  if (lines.length > maxLines) t = `${lines.slice(0, maxLines).join('\n')}\n…`;
  t = cut(t, limit);
  // HTML is shown as text: `<` and `&` never start a tag or an entity.
  t = t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  // Links and images keep their text; only web and mail targets stay links.
  t = t.replace(/(!?)\[((?:[^[\]]|\[[^[\]]*\])*)\]\(\s*([^)\s]*)[^)\n]*\)/g, (_m, bang: string, label: string, target: string) =>
    WEB_OR_MAIL.test(target) && bang === '' ? `[${label}](${target.replace(/[()]/g, encodeURIComponent)})` : label);
  // Labels that regex cannot pair (deeper brackets, what removing a link left behind) must not link
  // or load anything either: other destinations lose their `](`, and no `![` opens an image.
  t = t.replace(/(\\*)\]\((\s*)([^)\s]*)/g, (m, slashes: string, space: string, target: string) =>
    (slashes.length % 2 === 1 || WEB_OR_MAIL.test(target) ? m : `${slashes}\\](${space}${target}`));
  t = t.replace(/!\[/g, '!\\[');
  // Reference-style link definitions (also inside list items) could point anywhere: neutralise them.
  t = t.replace(/^((?:[ \t]{0,3}(?:[-*+]|\d{1,9}[.)])[ \t]+)*)[ \t]{0,3}\[([^\]\n]+)\]:[ \t]*(?:\n[ \t]*)?(\S+).*$/gm,
    (_m, prefix: string, label: string) => `${prefix}\\[${label}\\]`);
  // Bare scheme text such as command:foo would not be a link without `<…>`, which is escaped above.
  return t;
}

/** One line for a table cell: newlines, pipes and HTML neutralised. */
export function tableCell(text: string, limit = 120): string {
  // A pipe after an odd run of backslashes is already escaped; after an even run it would split the row.
  return safeDescription(text.replace(/\s*\n\s*/g, ' '), limit, 1).replace(/(\\*)\|/g, (m, slashes: string) => (slashes.length % 2 === 0 ? `${slashes}\\|` : m));
}

function stripControl(text: string, keepNewlines = false): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(keepNewlines ? /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g : /[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g, keepNewlines ? '' : ' ');
}

function cut(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}
