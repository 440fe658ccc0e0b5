/**
 * The HTML around every page: escaping, the layout with its one style sheet, and the headers.
 * Catalog text is untrusted: every value reaches the page through `text()` (escaped, hidden
 * characters shown as `\uXXXX`) or the Markdown renderer (markdown.ts); the Content-Security-Policy
 * allows no script, no image, no frame and only the style sheet below (by its hash), so a
 * mistake in escaping would still run nothing.
 */
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { HIDDEN_CHARACTERS } from '../../../model/src/inertText';
import { isCatalogKind } from '../../../model/src/kinds';
import { kindLabelOf, PAGE_ENTITY_TYPES } from './data';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML: `& < > " '` escaped, so it is safe in element content and in quoted attributes. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/** Hidden characters (bidi overrides, zero-width, controls …) as visible `\uXXXX`: a name cannot hide or reorder text. */
export function visible(s: string): string {
  return s.replace(HIDDEN_CHARACTERS, (c) => `\\u${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
}

/** Catalog or request text as HTML. */
export function text(s: string): string {
  return escapeHtml(visible(s));
}

/** At most `max` characters, cut with an ellipsis without splitting a surrogate pair. */
export function cut(s: string, max: number): string {
  if (s.length <= max) return s;
  const end = /[\uD800-\uDBFF]/.test(s.charAt(max - 1)) ? max - 1 : max;
  return `${s.slice(0, end)}…`;
}

/** A time stamp (epoch milliseconds) as `2025-01-01 00:00 UTC`. */
export function when(ms: number): string {
  if (!Number.isFinite(ms) || ms <= 0) return 'unknown time';
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? 'unknown time' : `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

const STYLE = `
:root { color-scheme: light dark; --fg: #1d2329; --muted: #5b6570; --bg: #fff; --panel: #f4f6f8; --line: #d9dee3;
  --link: #0b5cad; --accent: #14324a; --hl: #fff4c2; --bad: #a1260d; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e3e7eb; --muted: #9aa5b1; --bg: #15191d; --panel: #1e242a; --line: #333c45; --link: #7cb8f5;
    --accent: #9cc7ee; --hl: #4a3f12; --bad: #f19c86; }
}
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
a { color: var(--link); }
code, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 12.5px; }
header.top { display: flex; gap: 16px; align-items: center; padding: 8px 24px; background: var(--accent); color: #fff; }
@media (prefers-color-scheme: dark) { header.top { color: #15191d; } }
header.top a { color: inherit; text-decoration: none; font-weight: 600; white-space: nowrap; }
header.top form { display: flex; gap: 6px; flex: 1; max-width: 640px; }
header.top input[type=search] { flex: 1; padding: 4px 8px; border: 0; border-radius: 4px; font: inherit; }
header.top select, header.top button { font: inherit; border: 0; border-radius: 4px; padding: 4px 8px; }
main { max-width: 1280px; margin: 0 auto; padding: 12px 24px 32px; }
.kind { margin: 8px 0 0; color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .04em; }
h1 { margin: 2px 0 4px; font-size: 24px; overflow-wrap: anywhere; }
h2 { margin: 20px 0 6px; font-size: 16px; border-bottom: 1px solid var(--line); padding-bottom: 3px; }
.urn { margin: 0 0 8px; color: var(--muted); overflow-wrap: anywhere; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 8px 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.md { max-width: 900px; overflow-wrap: anywhere; }
.md p { margin: 4px 0; }
.md pre { background: var(--panel); padding: 8px; overflow-x: auto; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: 4px 8px; border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
th { background: var(--panel); font-weight: 600; }
td .md p { margin: 0; }
tr.hl td { background: var(--hl); }
.note { color: var(--muted); }
.none { color: var(--muted); font-style: italic; }
.badge { font-size: 11px; padding: 0 5px; border: 1px solid var(--line); border-radius: 8px; color: var(--muted); white-space: nowrap; }
.absent { color: var(--bad); }
.callout { background: var(--hl); padding: 6px 10px; border-radius: 4px; margin: 8px 0; }
details { margin: 2px 0; }
details summary { cursor: pointer; }
details pre { background: var(--panel); padding: 8px; margin: 4px 0 8px; overflow-x: auto; font-size: 12.5px; }
footer { margin-top: 24px; color: var(--muted); font-size: 12px; }
`;

/** The CSP allows this style sheet by its hash: no inline style attribute, no other sheet. */
const STYLE_HASH = createHash('sha256').update(STYLE, 'utf8').digest('base64');

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `style-src 'sha256-${STYLE_HASH}'`,
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** Every page answer's headers: no script, no sniffing, no framing, no referrer (URLs name entities), no cache. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

export interface Layout {
  /** Plain text; escaped here. */
  title: string;
  /** HTML of the page's main part. */
  body: string;
  /** What the search box shows. */
  query?: string;
}

const KIND_CHOICES: Array<[string, string]> = [
  ['', 'all kinds'],
  ['dataset', 'datasets'],
  ['mlFeature', 'features'],
  ['mlFeatureTable', 'feature tables'],
  ['mlModel', 'models'],
  ['mlModelGroup', 'model groups'],
  ...PAGE_ENTITY_TYPES.filter((t) => !isCatalogKind(t)).map((t): [string, string] => [
    t,
    kindLabelOf(t).plural.toLowerCase(),
  ]),
];

/** A whole page; the search form is a GET to `/` (nothing on a page writes). */
export function layout(l: Layout, kind = ''): string {
  const options = KIND_CHOICES.map(
    ([value, label]) => `<option value="${value}"${value === kind ? ' selected' : ''}>${label}</option>`,
  ).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${text(l.title)} · local catalog</title>
<style>${STYLE}</style>
</head>
<body>
<header class="top"><a href="/">Catalog Lens · local catalog</a>
<form method="get" action="/" role="search"><input type="search" name="q" value="${text(l.query ?? '')}" placeholder="Search names, URNs, descriptions, tag:…" aria-label="Search"><select name="kind" aria-label="Kind">${options}</select><button type="submit">Search</button></form></header>
<main>
${l.body}
<footer>Read-only pages of the local catalog, from the same database its GraphQL and aspect APIs read: reload to see a write.</footer>
</main>
</body>
</html>
`;
}

/**
 * The relative way from a request path to the pages' root: `./` for `/`, `../` for
 * `/dataset/urn…`, `../../` for `/dataset/urn…/Columns`. Pages link with it, so they keep working
 * under any prefix a proxy puts before them (code-server's `/proxy/9410/`, `/_pages/SECRET/`).
 */
export function rootFrom(path: string): string {
  const depth = (path.match(/\//g)?.length ?? 1) - 1;
  return depth <= 0 ? './' : '../'.repeat(depth);
}

const ROOTS = new WeakMap<ServerResponse, string>();

/** The answer `res` is for a page at this request path: its links and redirects are made relative to it. */
export function answerFor(res: ServerResponse, path: string): void {
  ROOTS.set(res, rootFrom(path));
}

/** A root-relative link (`/dataset/…`, `/?q=…`) as seen from the page `res` answers. */
export function relativeLink(res: ServerResponse, href: string): string {
  const root = ROOTS.get(res);
  return root !== undefined && href.startsWith('/') && !href.startsWith('//') ? `${root}${href.slice(1)}` : href;
}

/**
 * Sends a page. Its root-relative `href` and `action` attributes (the only kind the views write;
 * catalog text is escaped, so it cannot hold one) become relative to the request path (answerFor).
 */
export function sendHtml(
  res: ServerResponse,
  status: number,
  page: string,
  headers: Record<string, string> = {},
): void {
  const root = ROOTS.get(res);
  const html = root === undefined ? page : page.replace(/( (?:href|action)=")\/(?!\/)/g, `$1${root}`);
  res.writeHead(status, { ...PAGE_HEADERS, 'Content-Length': Buffer.byteLength(html), ...headers });
  res.end(html);
}
