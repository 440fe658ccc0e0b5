/**
 * Text from a file or the catalog, made inert for the place the editor shows it. A URN's name, a
 * field path or a catalog description is attacker-controlled: VS Code renders `[label](target)` as
 * a link in notifications, progress titles and input box messages, and runs `command:` targets
 * (vs/base/common/linkedText.ts, `parseLinkedText`); it renders `$(icon)` in quick picks and
 * input boxes (vs/base/browser/ui/iconLabel/iconLabels.ts); hovers are Markdown. Everything shown
 * goes through `inertText`, shared by server and client, so the rules cannot drift apart.
 */

/**
 * Where a text is shown, with what that place renders:
 * - `notification`: notification messages and progress titles (links).
 * - `quickInput`: quick pick labels, descriptions and details, input box titles, prompts and
 *   validation messages (icons; the input box's message renders links too).
 * - `markdown`: inline text of hover Markdown, shown literally (every Markdown construct escaped).
 * - `plain`: one plain line (diagnostics, the status tooltip): only the common core.
 * - `lines`: the common core keeping line breaks (tabs made spaces), for a Markdown description
 *   that markdown.ts then makes inert by its own rules.
 */
export type TextPlace = 'notification' | 'quickInput' | 'markdown' | 'plain' | 'lines';

/** A name, path or URN quoted inside a longer text. */
export const QUOTE_LIMIT = 200;
/** A whole message: VS Code itself cuts notifications at 1,000 characters (and then renders the links of what is left). */
export const MESSAGE_LIMIT = 1000;

/**
 * Characters that hide, reorder or disguise text, each shown as a `\uXXXX` escape so the reader
 * sees it (a name with a zero-width space is not the name without it): C0 and C1 controls but
 * the whitespace ones, DEL, soft hyphen, combining grapheme joiner, Arabic letter mark, Hangul
 * and Khmer fillers, Mongolian variation selectors and vowel separator, zero-width characters and
 * bidi marks, embeddings, overrides and isolates (Trojan Source), word joiner and invisible
 * operators, BOM, interlinear annotations, musical formatting, tag characters (text hidden in
 * plain sight), and lone surrogates. Emoji variation selectors (U+FE00–U+FE0F) are kept.
 * Page URLs (entityPage.ts) percent-encode the same set.
 */
export const HIDDEN_CHARACTERS =
  // eslint-disable-next-line no-misleading-character-class -- combining and joining marks (U+034F, U+200D …) are listed one by one on purpose: each is hidden on its own
  /[\u0000-\u0008\u000E-\u001F\u007F-\u0084\u0086-\u009F\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFEFF\uFFA0\uFFF0-\uFFFB\u{1D173}-\u{1D17A}\u{E0000}-\u{E0FFF}\uD800-\uDFFF]/gu;
/** JavaScript's whitespace (`\s`: line and paragraph separators, no-break and wide spaces) and NEL. */
const SPACE = /[\s\u0085]+/g;
const LINE_BREAK = /\r\n|[\r\u000B\u000C\u0085\u2028\u2029]/g;

/** Printable ASCII (`!` to `~`) in words parted by single spaces: what the hidden-character and space rules leave as it is. */
const PRINTABLE_WORDS = /^[!-~]+(?: [!-~]+)*$/;

/** Bounded work: whatever the input's size, at most this many characters per character shown are read. */
const READ_PER_SHOWN = 8;

// Inline Markdown constructs start with these anywhere; `(` only matters after `]`, which is escaped.
const MD_SPECIAL = /[\\`*_[\]|<>~&]/g;
// Block constructs (headings, lists, quotes, numbered lists) start a line.
const MD_LINE_START = /^(\s*)([#+\-=>]|\d+(?=[.)]))/;

/**
 * `text` made inert for `place`, at most `limit` characters (plus the escapes Markdown needs):
 * hidden characters made visible, whitespace folded to single spaces (`lines` keeps line
 * breaks), cut with an ellipsis without splitting a surrogate pair, then what the place
 * renders broken up. A space is put inside `](` and `$(`, which VS Code needs adjacent, so the
 * text still reads as it was written. Outside Markdown, applying it twice changes nothing more.
 */
export function inertText(text: string, place: TextPlace, limit = QUOTE_LIMIT): string {
  const max = Math.max(1, Math.floor(limit));
  const budget = max * READ_PER_SHOWN + 16;
  const tooLong = text.length > budget;
  let t: string;
  if (place !== 'lines' && !tooLong && PRINTABLE_WORDS.test(text)) {
    // Printable ASCII words with single spaces (most names and ids): no hidden character, no space to fold.
    t = text;
  } else {
    t = (tooLong ? text.slice(0, splitSafe(text, budget)) : text).replace(HIDDEN_CHARACTERS, visibleEscape);
    // A tab is four spaces (an indented code block stays one); editors' Markdown takes no raw tabs.
    t = place === 'lines' ? t.replace(LINE_BREAK, '\n').replace(/\t/g, '    ') : t.replace(SPACE, ' ').trim();
  }
  // Broken before the cut, so the result stays within the limit; cutting cannot join a `](` again.
  if (place === 'notification' || place === 'quickInput') t = t.replace(/\]\(/g, '] (');
  if (place === 'quickInput') t = t.replace(/\$\(/g, '$ (');
  t = cut(t, max, tooLong);
  if (place !== 'markdown') return t;
  return t
    .replace(MD_SPECIAL, (c) => `\\${c}`)
    .replace(MD_LINE_START, (_m, space: string, mark: string) =>
      /\d/.test(mark) ? `${space}${mark}\\` : `${space}\\${mark}`,
    );
}

function visibleEscape(c: string): string {
  const code = c.codePointAt(0)!;
  return code > 0xffff
    ? `\\u{${code.toString(16).toUpperCase()}}`
    : `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** At most `max` characters, the last an ellipsis when anything was left out; never half a surrogate pair. */
function cut(text: string, max: number, alreadyCut: boolean): string {
  if (text.length <= max && !alreadyCut) return text;
  return `${text.slice(0, splitSafe(text, Math.min(text.length, max - 1)))}…`;
}

/** `end`, or one less when `end` would split a surrogate pair. */
function splitSafe(text: string, end: number): number {
  const last = text.charCodeAt(end - 1);
  return end < text.length && last >= 0xd800 && last <= 0xdbff ? end - 1 : end;
}

/** The most characters of a Markdown text `markdownWords` reads (a one-line summary needs no more). */
export const WORDS_READ_LIMIT = 4000;

/** Where an escaped ASCII punctuation character waits while markdownWords drops marks (private use). */
const ESCAPED_BASE = 0xe000;

const HTML_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

/**
 * A Markdown text reduced to its words, on one line: code fences, heading, quote and list marks,
 * table pipes and rules dropped; emphasis, strike-through and code marks dropped around their
 * words; a link or image is its label (an autolink its address), an HTML tag nothing, an escape
 * its character and a common entity its character. Not inert by itself: the result goes through
 * `inertText` for the place it is shown. Reads at most `WORDS_READ_LIMIT` characters; every rule
 * is one linear pass.
 */
export function markdownWords(text: string): string {
  const read = text.length > WORDS_READ_LIMIT ? text.slice(0, splitSafe(text, WORDS_READ_LIMIT)) : text;
  // An escaped character is no mark: set aside (as a private-use character) until the marks are gone.
  const t = read.replace(/\\([!-/:-@[-`{-~])/g, (_m, c: string) => String.fromCharCode(ESCAPED_BASE + c.charCodeAt(0)));
  const lines = t
    .replace(LINE_BREAK, '\n')
    .split('\n')
    .map((line) =>
      line
        // Fences, table separator rows and thematic breaks carry no words.
        .replace(/^\s*(```|~~~).*$/, '')
        .replace(/^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/, '')
        .replace(/^\s*([-*_])(\s*\1){2,}\s*$/, '')
        // Block marks at the start of a line: quotes, headings, list items.
        .replace(/^\s*(>\s*)+/, '')
        .replace(/^\s*#{1,6}\s+/, '')
        .replace(/^\s*([-*+]|\d{1,9}[.)])\s+(\[[ xX]\]\s+)?/, '')
        .replace(/\s+#+\s*$/, '')
        // A table row's cells, side by side.
        .replace(/^\s*\|/, '')
        .replace(/\|\s*$/, '')
        .replace(/\s\|\s/g, ' '),
    );
  return (
    lines
      .join(' ')
      // Images and links are their labels; reference definitions and autolinks their addresses.
      .replace(/!?\[([^\]\n]{0,500})\]\([^)\n]{0,2000}\)/g, '$1')
      .replace(/!?\[([^\]\n]{0,500})\]\[[^\]\n]{0,500}\]/g, '$1')
      .replace(/<((?:https?|mailto):[^>\s]{1,2000})>/g, '$1')
      // HTML tags and comments say nothing to a reader of one line.
      .replace(/<!--[^]{0,4000}?-->/g, ' ')
      .replace(/<\/?[A-Za-z][A-Za-z0-9-]{0,30}(\s[^<>]{0,500})?\/?>/g, ' ')
      // Code, emphasis and strike-through marks around words.
      .replace(/`+/g, '')
      // An underscore inside a word (snake_case) is no emphasis.
      .replace(/(^|[^\p{L}\p{N}_])(_{1,3})(?=\S)([^_\n]{0,2000}?\S)\2(?![\p{L}\p{N}_])/gu, '$1$3')
      .replace(/(\*{1,3}|~~)(?=\S)([^*~\n]{0,2000}?\S)\1/g, '$2')
      .replace(/&(amp|lt|gt|quot|apos|nbsp);/g, (_m, name: string) => HTML_ENTITIES[name] ?? '')
      .replace(/[\uE021-\uE07E]/g, (c) => String.fromCharCode(c.charCodeAt(0) - ESCAPED_BASE))
      .replace(SPACE, ' ')
      .trim()
  );
}
