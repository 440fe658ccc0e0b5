import MarkdownIt from 'markdown-it';
type Token = ReturnType<MarkdownIt['parse']>[number];

/**
 * Oracles for text from a file or the catalog: what would make it active, hidden or unbounded
 * where the editor shows it. Hovers are Markdown (VS Code renders them); messages are plain text,
 * but VS Code's notifications, progress titles and input box messages turn
 * `[label](https://…|command:…|file:…)` into links (linkedText below), and quick picks and input
 * boxes render `$(icon)`. The oracles are written from VS Code's sources, not from the code under test.
 */

// C0 but the line break, DEL, C1, and the bidirectional embeddings, overrides and isolates (Trojan Source).
const CONTROL = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;
const CONTROL_IN_LINE = /[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;
/**
 * Characters a reader cannot see: zero-width space, joiners and marks, word joiner and invisible
 * operators, BOM, Mongolian vowel separator, soft hyphen, Arabic letter mark, Hangul fillers,
 * tag characters; and lone surrogates, which no font shows.
 */
const INVISIBLE = /[\u200B-\u200F\u2060-\u2064\uFEFF\u180E\u00AD\u061C\u3164\uFFA0\u{E0000}-\u{E007F}\uD800-\uDFFF]/u;

/**
 * VS Code's link recognition for notifications (messages and progress titles) and the messages of
 * input boxes: `LINK_REGEX` and `parseLinkedText` of microsoft/vscode
 * src/vs/base/common/linkedText.ts (read at 1fe872e; the same pattern is in code-server 4.139.1's
 * workbench.js). A notification's line breaks are made spaces before it is parsed
 * (src/vs/workbench/common/notifications.ts, `NotificationViewItem.parseNotificationMessage`);
 * VS Code also cuts it at 1,000 characters first, which is not done here, so these are all the
 * links any part of the text would make.
 */
const LINK_REGEX = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;

export interface RenderedLink {
  label: string;
  href: string;
  title?: string;
}

/** The links VS Code would render in `text` shown as a notification, progress title or input box message. */
export function renderedLinks(text: string): RenderedLink[] {
  const links: RenderedLink[] = [];
  for (const m of text.replace(/(\r\n|\n|\r)/gm, ' ').matchAll(LINK_REGEX)) {
    const [, label, href, , title] = m;
    links.push(title ? { label: label!, href: href!, title } : { label: label!, href: href! });
  }
  return links;
}

/**
 * The icons VS Code would render in a quick pick item or an input box: `$(name)` or
 * `$(name~modifier)` not preceded by a backslash (src/vs/base/browser/ui/iconLabel/iconLabels.ts,
 * `renderLabelWithIcons`, with ThemeIcon's iconNameExpression `[A-Za-z0-9-]+` and
 * iconModifierExpression `~[A-Za-z]+`).
 */
export function renderedIcons(text: string): string[] {
  return [...text.matchAll(/(\\)?\$\(([A-Za-z0-9-]+(?:~[A-Za-z]+)?)\)/g)]
    .filter((m) => m[1] === undefined)
    .map((m) => m[2]!);
}

/** Invisible characters in `text`, as U+XXXX. */
export function invisibleCharacters(text: string): string[] {
  return [...text.matchAll(new RegExp(INVISIBLE.source, 'gu'))].map(
    (m) => `U+${m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`,
  );
}

/**
 * Markdown with inline code spans blanked out (their content is shown literally). Spans do not
 * cross paragraphs or table cells (GFM splits a row at unescaped pipes before it reads spans).
 */
export function outsideCodeSpans(md: string): string {
  return md
    .split(/(\n[ \t]*\n)/)
    .map((block) =>
      block.startsWith('|')
        ? block
            .split('\n')
            .map((row) => splitCells(row).map(blankSpans).join('|'))
            .join('\n')
        : blankSpans(block),
    )
    .join('');
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
      if (e - k === run) {
        close = k;
        break;
      }
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
  const problems: string[] = renderedActive(md, allowedTarget);
  const control = CONTROL.exec(md);
  if (control)
    problems.push(`control character U+${control[0].charCodeAt(0).toString(16).padStart(4, '0')} at ${control.index}`);
  for (const c of invisibleCharacters(md)) problems.push(`invisible character ${c}`);
  const text = outsideCodeSpans(md);
  for (const m of text.matchAll(/<[A-Za-z!?/]/g)) {
    if (unescapedAt(text, m.index))
      problems.push(`raw HTML or autolink at ${m.index}: ${md.slice(m.index, m.index + 30)}`);
  }
  for (const m of text.matchAll(/\]\(\s*([^)\s]*)/g)) {
    const target = m[1] ?? '';
    if (unescapedAt(text, m.index) && !/^(https?:|mailto:)/i.test(target) && !allowedTarget(target)) {
      problems.push(`link to '${target.slice(0, 60)}' at ${m.index}`);
    }
  }
  for (const m of text.matchAll(/!\[/g)) {
    if (unescapedAt(text, m.index + 1) && unescapedAt(text, m.index))
      problems.push(`image at ${m.index}: ${md.slice(m.index, m.index + 40)}`);
  }
  // A definition starts a line, after list markers (a `>` quote is escaped as text by the server).
  // It is a block: read in the raw text (code spans are inline, they do not hide brackets), and its
  // label holds no unescaped `[` (CommonMark §4.7; markdown-it's reference rule stops at one).
  for (const m of md.matchAll(/^((?:[ \t]{0,3}(?:[-*+>]|\d{1,9}[.)])[ \t]+)*)[ \t]{0,3}\[(?:[^\\[\]\n]|\\.)*\]:/gm)) {
    const open = m.index + (m[1]?.length ?? 0) + m[0].slice(m[1]?.length ?? 0).indexOf('[');
    const close = m.index + m[0].length - 2;
    if (unescapedAt(md, open) && unescapedAt(md, close))
      problems.push(`reference definition at ${open}: ${md.slice(open, open + 40)}`);
  }
  return problems;
}

const COMMONMARK = new MarkdownIt({ html: true });

/**
 * What a CommonMark renderer with GFM tables (markdown-it, raw HTML on, as the strictest reader) makes of
 * `md`: every link whose target is not web, mail or allowed, every image, every piece of raw HTML.
 * This oracle parses as a renderer does, so no hand-written pattern can be bypassed by a form it
 * did not foresee (a label with an escaped bracket, a label over two lines).
 */
export function renderedActive(md: string, allowedTarget: (target: string) => boolean = () => false): string[] {
  const problems: string[] = [];
  const walk = (tokens: Token[]): void => {
    for (const t of tokens) {
      if (t.type === 'link_open') {
        const href = t.attrGet('href') ?? '';
        if (!/^(https?:|mailto:)/i.test(href) && !allowedTarget(href))
          problems.push(`rendered link to '${href.slice(0, 60)}'`);
      } else if (t.type === 'image') problems.push(`rendered image of '${(t.attrGet('src') ?? '').slice(0, 60)}'`);
      else if (t.type === 'html_inline' || t.type === 'html_block')
        problems.push(`rendered HTML ${t.content.slice(0, 40)}`);
      if (t.children) walk(t.children);
    }
  };
  walk(COMMONMARK.parse(md, {}));
  return problems;
}

/**
 * What would be active, hidden or unbounded in a one-line message. `notification` (the default):
 * shown where VS Code renders links (notifications, progress titles); `plain`: shown as text only
 * (diagnostics in the Problems panel and hovers, the status tooltip), where a link is not active.
 */
export function activeMessage(
  message: string,
  maxLength: number,
  shownIn: 'notification' | 'plain' = 'notification',
): string[] {
  const problems: string[] = [];
  for (const m of message.matchAll(new RegExp(CONTROL_IN_LINE.source, 'g'))) {
    problems.push(`control character U+${m[0].charCodeAt(0).toString(16).padStart(4, '0')} at ${m.index}`);
  }
  for (const c of invisibleCharacters(message)) problems.push(`invisible character ${c}`);
  if (shownIn === 'notification') {
    for (const link of renderedLinks(message))
      problems.push(`a link VS Code would render: [${link.label.slice(0, 40)}](${link.href.slice(0, 60)})`);
  }
  if (message.length > maxLength) problems.push(`${message.length} characters, over ${maxLength}`);
  return problems;
}
