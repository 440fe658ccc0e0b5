/**
 * Catalog descriptions are Markdown (DataHub's UI renders them so) and untrusted: anyone who can
 * write to the catalog writes them. markdown-it renders them with raw HTML off (`<script>`,
 * `<img onerror>` are shown as text), images off (nothing is loaded), and links kept only when
 * their target is http(s) or mailto (`javascript:`, `data:`, `file:`, `command:` … stay text).
 * Hidden characters are made visible first, as everywhere on the pages (html.ts).
 */
import MarkdownIt from 'markdown-it';
import { cut, visible } from './html';

/** Past this many characters a description is cut (the APIs still answer it whole). */
export const DESCRIPTION_LIMIT = 100_000;

const SAFE_LINK = /^(https?:\/\/|mailto:)/i;

const md = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: false });
md.disable('image');
// Checked after markdown-it has decoded entities and normalised the target, so `&#106;avascript:` is caught too.
md.validateLink = (url: string): boolean => SAFE_LINK.test(url.trim());
const defaultLinkOpen = md.renderer.rules.link_open;
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  tokens[idx]!.attrSet('rel', 'noopener noreferrer nofollow');
  return defaultLinkOpen ? defaultLinkOpen(tokens, idx, options, env, self) : self.renderToken(tokens, idx, options);
};

/** A description as safe HTML inside `<div class="md">`. */
export function markdownHtml(source: string): string {
  const shown = visible(cut(source, DESCRIPTION_LIMIT));
  const note =
    source.length > DESCRIPTION_LIMIT
      ? `<p class="note">Cut at ${DESCRIPTION_LIMIT.toLocaleString('en')} of ${source.length.toLocaleString('en')} characters.</p>`
      : '';
  return `<div class="md">${md.render(shown)}${note}</div>`;
}

/** The first line of a description, its inline Markdown rendered by the same rules, for lists and call-outs. */
export function summaryText(source: string, max = 160): string {
  const firstLine =
    source
      .split(/\r?\n/)
      .map((l) => l.trim())
      .find((l) => l !== '') ?? '';
  return md.renderInline(visible(cut(firstLine, max)));
}
