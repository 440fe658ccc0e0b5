/**
 * Text from the catalog is untrusted (DESIGN "Conventions", notes/anchors.md "Security lessons").
 * Descriptions are Markdown by the spec, so they are rendered as Markdown, but inert: no HTML,
 * no links other than http(s)/mailto (no `command:` links), hidden characters shown as escapes,
 * bounded length. Everything else from the catalog or the document (names, types, paths) is
 * escaped as plain text. The common core (hidden characters, whitespace, the cut) is inertText's.
 */
import { inertText } from '../../../model/src/inertText';

const WEB_OR_MAIL = /^(https?:|mailto:)/i;

/** Plain text shown literally inside Markdown: inertText for hovers, by the name the hover code reads. */
export function escapeMarkdown(text: string, limit = 200): string {
  return inertText(text, 'markdown', limit);
}

/** Text inside an inline code span: backticks cannot be escaped there, so they are replaced. */
export function codeSpan(text: string, limit = 200): string {
  return `\`${inertText(text, 'plain', limit).replace(/`/g, 'ˋ')}\``;
}

/** A catalog description as inert Markdown, at most `limit` characters and `maxLines` lines. */
export function safeDescription(text: string, limit = 1500, maxLines = 30): string {
  let t = inertText(text, 'lines', limit).trim();
  const lines = t.split('\n');
  if (lines.length > maxLines) t = `${lines.slice(0, maxLines).join('\n')}\n…`;
  // HTML is shown as text: `<` and `&` never start a tag or an entity.
  t = t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  // Links and images keep their text; only web and mail targets stay links.
  t = t.replace(
    /(!?)\[((?:[^[\]]|\[[^[\]]*\])*)\]\(\s*([^)\s]*)[^)\n]*\)/g,
    (_m, bang: string, label: string, target: string) =>
      WEB_OR_MAIL.test(target) && bang === '' ? `[${label}](${target.replace(/[()]/g, encodeURIComponent)})` : label,
  );
  // Labels that regex cannot pair (deeper brackets, what removing a link left behind) must not link
  // or load anything either: other destinations lose their `](`, and no `![` opens an image.
  t = t.replace(/(\\*)\]\((\s*)([^)\s]*)/g, (m, slashes: string, space: string, target: string) =>
    slashes.length % 2 === 1 || WEB_OR_MAIL.test(target) ? m : `${slashes}\\](${space}${target}`,
  );
  t = t.replace(/!\[/g, '!\\[');
  // Reference-style link definitions (also inside list items) could point anywhere: neutralise them.
  t = t.replace(
    /^((?:[ \t]{0,3}(?:[-*+]|\d{1,9}[.)])[ \t]+)*)[ \t]{0,3}\[([^\]\n]*)\]:[ \t]*(?:\n[ \t]*)?(\S+).*$/gm,
    (_m, prefix: string, label: string) => `${prefix}\\[${label}\\]`,
  );
  // What looks like one but is not (no destination yet, an empty label) gets its brackets escaped too:
  // a definition is judged by renderers that differ, and escaping costs nothing.
  t = t.replace(
    /^((?:[ \t]{0,3}(?:[-*+]|\d{1,9}[.)])[ \t]+)*[ \t]{0,3})\[([^\]\n]*)\]:/gm,
    (_m, prefix: string, label: string) => `${prefix}\\[${label}\\]:`,
  );
  // Bare scheme text such as command:foo would not be a link without `<…>`, which is escaped above.
  return t;
}

/** One line for a table cell: newlines, pipes and HTML neutralised. */
export function tableCell(text: string, limit = 120): string {
  // A pipe after an odd run of backslashes is already escaped; after an even run it would split the row.
  return safeDescription(text.replace(/[\s\u0085]+/g, ' '), limit, 1).replace(/(\\*)\|/g, (m, slashes: string) =>
    slashes.length % 2 === 0 ? `${slashes}\\|` : m,
  );
}
