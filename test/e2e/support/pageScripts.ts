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
  getBoundingClientRect(): PageRect;
  getClientRects(): ArrayLike<PageRect>;
  contains(other: PageElement | null): boolean;
  closest(selector: string): PageElement | null;
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): ArrayLike<PageElement>;
  readonly tagName: string;
  readonly innerText: string;
  blur(): void;
  readonly className: unknown;
  readonly id: string;
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
  readonly activeElement: PageElement | null;
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
declare const window: {
  catalogLensStatusLog?: StatusSample[];
  catalogLensLastRect?: Record<string, string>;
  catalogLensPageLog?: string[];
  readonly innerWidth: number;
  readonly innerHeight: number;
};
declare const getComputedStyle: (element: PageElement) => { visibility: string; display: string; opacity: string };

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
  /**
   * Where the point was: textPoint then answers only once the text has moved from there (or is
   * no longer on screen), with where it is now ({ x: -1, y: -1 } when not on screen).
   */
  awayFrom?: { x: number; y: number };
}

/**
 * Centre of one character of `needle` on the rendered line of the active editor whose text is
 * `lineText`, or null while that line is not rendered. Monaco renders spaces as U+00A0 and
 * splits a line into token spans, so the offset is found over the line's text nodes.
 */
export function textPoint(query: TextPointQuery): { x: number; y: number } | null {
  const find = (): { x: number; y: number } | null => {
    // NodeFilter.SHOW_TEXT; the function is sent as source text, so the constant lives inside it.
    const showText = 4;
    const want = query.lineText.trimEnd();
    const lines = document.querySelectorAll('.editor-group-container.active .monaco-editor .view-lines .view-line');
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      // The line's text nodes that spell `lineText`, in order; a node that does not continue it is
      // text Monaco injected (an inlay hint) and is passed over whole.
      const kept: Array<{ node: PageNode; from: number; length: number }> = [];
      let pos = 0;
      const walker = document.createTreeWalker(line, showText);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = (node.textContent ?? '').replace(/\u00a0/g, ' ');
        if (text === '') continue;
        if (want.startsWith(text, pos) || (pos >= want.length && text.trim() === '')) {
          kept.push({ node, from: pos, length: text.length });
          pos += text.length;
        }
      }
      if (pos < want.length || kept.length === 0) continue;
      const start = want.indexOf(query.needle);
      if (start < 0) return null;
      const offset = start + (query.at ?? Math.floor(query.needle.length / 2));
      const hit = kept.find((k) => offset >= k.from && offset < k.from + k.length);
      if (!hit) return null;
      const range = document.createRange();
      range.setStart(hit.node, offset - hit.from);
      range.setEnd(hit.node, offset - hit.from + 1);
      const r = range.getBoundingClientRect();
      return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
    }
    return null;
  };
  const point = find();
  const from = query.awayFrom;
  if (!from) return point;
  if (!point) return { x: -1, y: -1 };
  return Math.abs(point.x - from.x) > 1 || Math.abs(point.y - from.y) > 1 ? point : null;
}

/**
 * True when the active editor renders a line whose text (trailing spaces aside) is `lineText`,
 * text Monaco injects (inlay hints) aside: a text node that does not continue the line is passed over.
 */
export function editorShowsLine(lineText: string): boolean {
  const showText = 4;
  const want = lineText.trimEnd();
  const lines = document.querySelectorAll('.editor-group-container.active .monaco-editor .view-lines .view-line');
  for (let i = 0; i < lines.length; i++) {
    if (want === '') {
      if ((lines[i]!.textContent ?? '').replace(/\u00a0/g, ' ').trimEnd() === '') return true;
      continue;
    }
    let pos = 0;
    const walker = document.createTreeWalker(lines[i]!, showText);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = (node.textContent ?? '').replace(/\u00a0/g, ' ');
      if (text !== '' && want.startsWith(text, pos)) pos += text.length;
    }
    if (pos === want.length) return true;
  }
  return false;
}

/** True when the keyboard focus is in the active editor's text (where typed keys and editor shortcuts go). */
export function editorHasFocus(): boolean {
  const editor = document.querySelector('.editor-group-container.active .monaco-editor');
  return editor !== null && editor.contains(document.activeElement) && /\bfocused\b/.test(String(editor.className));
}

/** True when the keyboard focus is in the open quick input's text box. */
export function quickInputHasFocus(): boolean {
  const input = document.querySelector('.quick-input-widget .quick-input-box input');
  return input !== null && document.activeElement === input && input.getClientRects().length > 0;
}

/** The quick input's text box has the focus, or the quick input is closed (the focus was taken from it). */
export function quickInputFocusedOrClosed(): boolean {
  const input = document.querySelector('.quick-input-widget .quick-input-box input');
  return input === null || input.getClientRects().length === 0 || document.activeElement === input;
}

/**
 * True once the first element matching `selector` has had the same position and size in two
 * animation frames in a row (call it with `polling: 'raf'`): it has stopped growing, moving or
 * sliding in. Playwright's own "stable" check, for what it does not click.
 */
export function boxIsStable(selector: string): boolean {
  // Each function is sent to the page as source text on its own: its helpers live inside it.
  const visible = (el: PageElement): boolean => {
    if (el.getClientRects().length === 0) return false;
    const style = getComputedStyle(el);
    return style.visibility !== 'hidden' && style.display !== 'none';
  };
  const all = document.querySelectorAll(selector);
  let el: PageElement | undefined;
  for (let i = 0; i < all.length && !el; i++) if (visible(all[i]!)) el = all[i];
  const last = (window.catalogLensLastRect ??= {});
  if (!el) {
    delete last[selector];
    return false;
  }
  const r = el.getBoundingClientRect();
  const now = `${r.left},${r.top},${r.width},${r.height}`;
  const same = last[selector] === now;
  last[selector] = now;
  return same;
}

/** One link of a hover box: its text and whether it lies wholly inside the box and the window. */
export interface HoverLinkPlace {
  text: string;
  inView: boolean;
}

/**
 * The links of the first visible `selector` box whose text matches `text` (a RegExp source), each
 * measured in the same frame as the box, once the box has kept its size and place for `frames`
 * calls in a row (call it with `polling: 'raf'`) and every such link is in view; until then false.
 * With `final`, the measurement as it is now, settled or not. The box is laid out again as each
 * part of a hover arrives (the document link's tooltip comes after the server's text): a link
 * measured between two parts, or in a later frame than its box, may lie below a box not yet grown.
 */
export function hoverLinksSettled(arg: {
  selector: string;
  text: string;
  frames: number;
  final?: boolean;
}): HoverLinkPlace[] | false {
  const visible = (el: PageElement): boolean => {
    if (el.getClientRects().length === 0) return false;
    const style = getComputedStyle(el);
    return style.visibility !== 'hidden' && style.display !== 'none';
  };
  const all = document.querySelectorAll(arg.selector);
  let el: PageElement | undefined;
  for (let i = 0; i < all.length && !el; i++) if (visible(all[i]!)) el = all[i];
  const key = `links ${arg.selector}`;
  const last = (window.catalogLensLastRect ??= {});
  if (!el) {
    delete last[key];
    return arg.final ? [] : false;
  }
  const r = el.getBoundingClientRect();
  const now = `${r.left},${r.top},${r.width},${r.height}`;
  const [before, count] = (last[key] ?? '').split('|');
  const steady = before === now ? Number(count) + 1 : 1;
  last[key] = `${now}|${steady}`;
  const pattern = new RegExp(arg.text);
  const links = Array.from(el.querySelectorAll('a')).filter((a) => pattern.test(a.textContent ?? ''));
  const places = links.map((a) => {
    const b = a.getBoundingClientRect();
    const inView =
      b.height > 0 &&
      b.top >= r.top &&
      b.top + b.height <= r.top + r.height &&
      b.left >= r.left &&
      b.left + b.width <= r.left + r.width &&
      b.top + b.height <= window.innerHeight &&
      b.left + b.width <= window.innerWidth;
    return { text: a.innerText, inView };
  });
  if (arg.final) return places;
  return steady >= arg.frames && places.length > 0 && places.every((p) => p.inView) ? places : false;
}

/**
 * Starts a log of what the page received and showed, for the error of a step that waited in vain:
 * each key (a capturing listener on the document), and each time the quick-fix menu, a context
 * menu or the quick input shows or hides and an editor message ("No code actions available")
 * shows (a MutationObserver on the workbench). The last 40 entries are kept, with the time.
 */
export function startPageLog(): void {
  if (window.catalogLensPageLog) return;
  const log: string[] = [];
  window.catalogLensPageLog = log;
  const t0 = performance.now();
  const add = (entry: string): void => {
    log.push(`${((performance.now() - t0) / 1000).toFixed(2)}s ${entry}`);
    if (log.length > 40) log.shift();
  };
  (document as unknown as PageEventTarget).addEventListener(
    'keydown',
    (e: { key: string; ctrlKey: boolean; shiftKey: boolean; altKey: boolean }) => {
      if (e.key === 'Control' || e.key === 'Shift' || e.key === 'Alt' || e.key === 'Meta') return;
      add(`key ${e.ctrlKey ? 'Control+' : ''}${e.altKey ? 'Alt+' : ''}${e.shiftKey ? 'Shift+' : ''}${e.key}`);
    },
    true,
  );
  const watched: Record<string, string> = {
    'quick-fix menu': '.action-widget:not(.action-list-submenu-panel)',
    'context menu': '.context-view .monaco-menu',
    'quick input': '.quick-input-widget',
    'editor message': '.monaco-editor-overlaymessage',
  };
  const shown: Record<string, string> = {};
  const check = (): void => {
    for (const [name, selector] of Object.entries(watched)) {
      const el = document.querySelector(selector);
      const now = el && el.getClientRects().length > 0 ? el.innerText.slice(0, 80).replace(/\s+/g, ' ') : '';
      if (now === (shown[name] ?? '')) continue;
      add(now ? `shown ${name}: ${JSON.stringify(now)}` : `hidden ${name}`);
      shown[name] = now;
    }
  };
  const root = document.querySelector('.monaco-workbench');
  if (root)
    new MutationObserver(check).observe(root, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: false,
    });
}
interface PageEventTarget {
  addEventListener(
    type: string,
    listener: (e: { key: string; ctrlKey: boolean; shiftKey: boolean; altKey: boolean }) => void,
    capture: boolean,
  ): void;
}

/**
 * What the workbench shows and where the keyboard focus is, for the error of a step that waited in
 * vain: the focused element, the widgets on screen, the last keys and widgets of the page log.
 */
export function workbenchState(): string {
  // Each function is sent to the page as source text on its own: its helpers live inside it.
  const visible = (el: PageElement): boolean => {
    if (el.getClientRects().length === 0) return false;
    const style = getComputedStyle(el);
    return style.visibility !== 'hidden' && style.display !== 'none';
  };
  const describe = (el: PageElement | null): string =>
    el
      ? `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${String(el.className).trim().replace(/\s+/g, '.')}`
      : 'none';
  const focus = document.activeElement;
  const owner = focus?.closest(
    '.quick-input-widget, .monaco-editor, .context-view, .action-widget, .monaco-hover, .notifications-toasts, .notifications-center, .part',
  );
  const widgets: string[] = [];
  const named: Record<string, string> = {
    'quick input': '.quick-input-widget',
    'context menu': '.context-view .monaco-menu',
    'quick-fix menu': '.action-widget:not(.action-list-submenu-panel)',
    hover: '.monaco-hover',
    suggestions: '.editor-widget.suggest-widget',
    'rename box': '.rename-box',
    'notification toast': '.notification-toast',
    'notification center': '.notifications-center',
    'light bulb': '.lightBulbWidget',
    'editor message': '.monaco-editor-overlaymessage',
  };
  for (const [name, selector] of Object.entries(named)) {
    const all = document.querySelectorAll(selector);
    for (let i = 0; i < all.length; i++) {
      if (visible(all[i]!)) {
        widgets.push(`${name}: ${JSON.stringify(all[i]!.innerText.slice(0, 160))}`);
        break;
      }
    }
  }
  const selection = document.querySelector('#status\\.editor\\.selection')?.textContent ?? '';
  return [
    `focus: ${describe(focus)} (in ${describe(owner ?? null)})`,
    `cursor: ${selection.trim() || 'no editor'}`,
    `shown: ${widgets.join('; ') || 'no widget'}`,
    `what the page received and showed last:\n  ${(window.catalogLensPageLog ?? []).join('\n  ') || 'nothing'}`,
  ].join('\n');
}

/** Takes the focus from a frame (a webview) back to the page, so keys reach the workbench's bindings. */
export function blurFocusedFrame(): void {
  const active = document.activeElement;
  if (active && active.tagName === 'IFRAME') active.blur();
}
