/**
 * Functions Playwright runs inside the workbench page (it sends their source text, so each one
 * uses nothing but the page's globals). The root tsconfig has no DOM library, and adding it
 * would change every other file's globals; the few DOM shapes used here are declared locally.
 */

interface PageNode {
  textContent: string | null;
}
interface PageElement extends PageNode {
  getAttribute(name: string): string | null;
}
interface PageRect {
  left: number;
  top: number;
  width: number;
  height: number;
}
interface PageRange {
  setStart(node: PageNode, offset: number): void;
  setEnd(node: PageNode, offset: number): void;
  getBoundingClientRect(): PageRect;
}
interface PageDocument {
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): ArrayLike<PageElement>;
  createTreeWalker(root: PageElement, whatToShow: number): { nextNode(): PageNode | null };
  createRange(): PageRange;
}
declare const document: PageDocument;
interface PageMutationObserver {
  observe(
    target: PageElement,
    options: { subtree: boolean; childList: boolean; attributes: boolean; characterData: boolean },
  ): void;
}
declare const MutationObserver: new (callback: () => void) => PageMutationObserver;
declare const window: { catalogLensStatusLog?: StatusSample[] };

/** What the status bar said at one moment: the Catalog Lens item's label and the Problems item's. */
export interface StatusSample {
  catalog: string;
  problems: string;
}

/**
 * Starts recording every change of the Catalog Lens status item and of the Problems counter
 * (from a MutationObserver on the status bar, so short-lived states are not missed between polls).
 */
export function startStatusLog(): void {
  const bar = document.querySelector('#workbench\\.parts\\.statusbar');
  if (!bar) throw new Error('the status bar is not rendered');
  const log: StatusSample[] = [];
  window.catalogLensStatusLog = log;
  const sample = (): void => {
    const catalog =
      document
        .querySelector('#workbench\\.parts\\.statusbar [aria-label^="Catalog Lens:"]')
        ?.getAttribute('aria-label') ?? '';
    const problems =
      document.querySelector('#status\\.problems')?.getAttribute('aria-label') ??
      document.querySelector('#status\\.problems')?.textContent ??
      '';
    const last = log[log.length - 1];
    if (!last || last.catalog !== catalog || last.problems !== problems) log.push({ catalog, problems });
  };
  sample();
  new MutationObserver(sample).observe(bar, { subtree: true, childList: true, attributes: true, characterData: true });
}

/** What startStatusLog recorded so far. */
export function statusLog(): StatusSample[] {
  return window.catalogLensStatusLog ?? [];
}

/** True when the Catalog Lens status item's accessible label matches the pattern source. */
export function statusLabelMatches(source: string): boolean {
  const el = document.querySelector('#workbench\\.parts\\.statusbar [aria-label^="Catalog Lens:"]');
  return el !== null && new RegExp(source).test(el.getAttribute('aria-label') ?? '');
}

export interface TextPointQuery {
  lineText: string;
  needle: string;
  at: number | undefined;
}

/**
 * Centre of one character of `needle` on the rendered line of the active editor whose text is
 * `lineText`, or null while that line is not rendered. Monaco renders spaces as U+00A0 and
 * splits a line into token spans, so the offset is found over the line's text nodes.
 */
export function textPoint(query: TextPointQuery): { x: number; y: number } | null {
  // NodeFilter.SHOW_TEXT; the function is sent as source text, so the constant lives inside it.
  const showText = 4;
  const lines = document.querySelectorAll('.editor-group-container.active .monaco-editor .view-lines .view-line');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const text = (line.textContent ?? '').replace(/\u00a0/g, ' ');
    if (text.trimEnd() !== query.lineText.trimEnd()) continue;
    const start = text.indexOf(query.needle);
    if (start < 0) return null;
    const offset = start + (query.at ?? Math.floor(query.needle.length / 2));
    const walker = document.createTreeWalker(line, showText);
    let seen = 0;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const length = node.textContent?.length ?? 0;
      if (offset < seen + length) {
        const range = document.createRange();
        range.setStart(node, offset - seen);
        range.setEnd(node, offset - seen + 1);
        const r = range.getBoundingClientRect();
        return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
      }
      seen += length;
    }
  }
  return null;
}
