/**
 * Driving VS Code's workbench in Chromium the way a user does: keyboard shortcuts, the command
 * palette, quick picks, mouse hovers. Every step waits for the event it depends on, read from the
 * page: a key is pressed once, when what it goes to is ready for it (the quick input has the
 * focus, the editor has the focus and the cursor where it must be), and what it does is waited
 * for; a failed wait names what the workbench showed instead (workbenchState). No fixed sleeps,
 * no key pressed again.
 */
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import {
  boxIsStable,
  hoverLinksSettled,
  editorHasFocus,
  editorShowsLine,
  quickInputFocusedOrClosed,
  quickInputHasFocus,
  startPageLog,
  startStatusLog,
  statusLabelMatches,
  statusLog,
  textPoint,
  workbenchState,
  blurFocusedFrame,
  type StatusSample,
  type HoverLinkPlace,
  type TextPointQuery,
} from './pageScripts';
import { SCREENSHOT_DIR } from './paths';
import { lineOf } from './workspaceText';

/** How long the links of a hover may take to settle in its box before they are measured as they are. */
const HOVER_SETTLE_MS = 5_000;
/** How many animation frames in a row the hover box must keep its size and place before its links are measured. */
const HOVER_STEADY_FRAMES = 6;
const UI_TIMEOUT = 20_000;

/** A point on the screen; one of text (revealText) also says how to find that text again, and where it is in the file. */
export interface TextPoint {
  x: number;
  y: number;
  query?: TextPointQuery;
  /** 1-based line and column of the character pointed at (revealText). */
  line?: number;
  column?: number;
}

/** A part of the page, in CSS pixels (Playwright's screenshot `clip`). */
export interface Clip {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The quick-fix menu (not its submenu panel, which has the class too). */
const ACTION_WIDGET = '.action-widget:not(.action-list-submenu-panel)';

/** Where the mouse goes to be over nothing: the left end of the title bar. */
const NOWHERE = { x: 5, y: 5 } as const;

export class Workbench {
  constructor(readonly page: Page) {}

  /** Loads the workbench and waits until the window's folder is open. */
  async open(url: string): Promise<void> {
    await this.page.goto(url);
    await this.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await this.page.locator('#workbench\\.parts\\.statusbar').waitFor({ timeout: 60_000 });
    // The explorer's folder title appears once the remote file system answers.
    await this.page
      .locator('.explorer-folders-view, .pane-header[aria-label*="Explorer"]')
      .first()
      .waitFor({ timeout: 60_000 });
    await this.page.evaluate(startPageLog);
  }

  // ---- waiting ------------------------------------------------------------------------------

  /** Where the focus is, what is on screen and the page log (keys, widgets): for the error of a wait. */
  async state(): Promise<string> {
    return this.page.evaluate(workbenchState).catch((err: unknown) => `(the page did not answer: ${String(err)})`);
  }

  /** Waits until `fn(arg)`, run in the page, is truthy; the error names `what` and the workbench's state. */
  async until<A>(
    what: string,
    fn: (arg: A) => unknown,
    arg: A,
    opts: { timeout?: number; polling?: number | 'raf' } = {},
  ): Promise<void> {
    const timeout = opts.timeout ?? UI_TIMEOUT;
    try {
      // The page function gets `arg` as it is: strings, booleans, plain objects.
      await this.page.waitForFunction(fn as (arg: unknown) => unknown, arg as unknown, {
        timeout,
        polling: opts.polling ?? 100,
      });
    } catch (err) {
      throw new Error(`waited ${timeout / 1000} s for ${what}, in vain\n${await this.state()}\n${String(err)}`);
    }
  }

  /** Waits for a locator's state; the error names `what` and the workbench's state. */
  async waitFor(
    what: string,
    target: Locator,
    state: 'visible' | 'hidden' | 'attached' | 'detached' = 'visible',
    timeout = UI_TIMEOUT,
  ): Promise<void> {
    try {
      await target.waitFor({ state, timeout });
    } catch (err) {
      throw new Error(`waited ${timeout / 1000} s for ${what}, in vain\n${await this.state()}\n${String(err)}`);
    }
  }

  /** Presses `key` once and waits for `effect` to show. */
  private async pressFor(key: string, effect: Locator, what: string, timeout = UI_TIMEOUT): Promise<void> {
    await this.page.keyboard.press(key);
    await this.waitFor(`${what} (after ${key})`, effect, 'visible', timeout);
  }

  /** The keyboard focus is in the active editor's text. */
  async editorFocused(): Promise<void> {
    await this.until('the keyboard focus in the active editor', editorHasFocus, undefined);
  }

  /** The status bar's cursor position says `Ln line, Col column` (column omitted: any). */
  async cursorIs(line: number, column?: number): Promise<void> {
    const text = column === undefined ? `Ln ${line}, Col ` : `Ln ${line}, Col ${column}`;
    const item = this.page.locator('#status\\.editor\\.selection');
    const re = column === undefined ? new RegExp(`^Ln ${line}, Col \\d+`) : new RegExp(`^Ln ${line}, Col ${column}\\b`);
    await this.waitFor(`the cursor at "${text}" (status bar)`, item.filter({ hasText: re }));
  }

  /** The active editor shows a line whose whole text is `lineText`. */
  async editorShows(lineText: string, timeout = UI_TIMEOUT): Promise<void> {
    await this.until(`the editor showing the line ${JSON.stringify(lineText)}`, editorShowsLine, lineText, { timeout });
  }

  // ---- status bar ---------------------------------------------------------------------------

  /** The Catalog Lens status bar item (its accessible label starts with "Catalog Lens:"). */
  statusItem(): Locator {
    return this.page.locator('#workbench\\.parts\\.statusbar [aria-label^="Catalog Lens:"]').first();
  }

  /** Waits until the status item's label (its tooltip's first line) matches, and returns its text. */
  async waitForStatus(label: RegExp, timeout = 60_000): Promise<string> {
    await this.until(`the Catalog Lens status item labelled ${label}`, statusLabelMatches, label.source, { timeout });
    return (await this.statusItem().innerText()).trim();
  }

  /** Records every change of the Catalog Lens status item and the Problems counter from now on. */
  async startStatusLog(): Promise<void> {
    await this.page.evaluate(startStatusLog);
  }

  async statusLog(): Promise<StatusSample[]> {
    return this.page.evaluate(statusLog);
  }

  async statusLabel(): Promise<string> {
    return (await this.statusItem().getAttribute('aria-label')) ?? '';
  }

  // ---- quick input --------------------------------------------------------------------------

  quickInput(): Locator {
    return this.page.locator('.quick-input-widget');
  }

  private quickInputBox(): Locator {
    return this.quickInput().locator('.quick-input-box input');
  }

  /**
   * Opens a quick input with `key` (Ctrl+P, F1, Ctrl+G) and waits until its text box has the focus,
   * where the text typed next goes. Whatever was open is closed first, and waited out.
   */
  private async showQuickInput(key: string, what: string): Promise<Locator> {
    await this.closeWidgets();
    // A webview (a Markdown preview opened at start-up) that holds the focus keeps the keys in its
    // frame, where the workbench's key bindings are not heard: the focus goes back to the page.
    await this.page.evaluate(blurFocusedFrame);
    const input = this.quickInputBox();
    await this.pressFor(key, input, what);
    await this.until(`the text box of ${what} having the focus`, quickInputFocusedOrClosed, undefined);
    if (!(await this.quickInput().isVisible())) throw new Error(`${what} closed before its text box had the focus`);
    return input;
  }

  /**
   * Opens a quick input (showQuickInput) and runs `use` in it. A webview that becomes ready after
   * the quick input opened (the README's preview at start-up, on a slow machine) takes the focus,
   * and the quick input closes under `use`: when an attempt fails with the quick input closed, it is
   * opened again, up to three times; any other failure, or the third, is thrown as it is.
   */
  private async inQuickInput<T>(key: string, what: string, use: (input: Locator) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await use(await this.showQuickInput(key, what));
      } catch (err) {
        if (attempt === 3 || (await this.quickInput().isVisible())) throw err;
        process.stderr.write(`# e2e: ${what} closed under attempt ${attempt} (focus taken away); opening it again\n`);
      }
    }
  }

  /** Presses Enter in the quick input once its text box has the focus. */
  private async acceptQuickInput(what: string): Promise<void> {
    await this.until(`the text box of ${what} having the focus`, quickInputHasFocus, undefined);
    await this.page.keyboard.press('Enter');
  }

  /** Opens a workspace file by its relative path through Quick Open (Ctrl+P); the editor has the focus after. */
  async openFile(relativePath: string): Promise<void> {
    const name = path.posix.basename(relativePath);
    await this.inQuickInput('Control+P', 'Quick Open', async (input) => {
      await input.fill(relativePath);
      // Right after typing, the list still shows the previous entries (recently opened first):
      // wait until the focused row, which Enter opens, is this file in this folder.
      const folder = path.posix.dirname(relativePath);
      let focused = this.quickInput().locator('.monaco-list-row.focused', { hasText: name });
      if (folder !== '.') focused = focused.filter({ hasText: folder });
      await this.waitFor(`Quick Open's first row being ${relativePath}`, focused);
      await this.acceptQuickInput('Quick Open');
    });
    await this.waitFor(`the tab of ${name}`, this.page.locator(`.tab.active[aria-label^="${name}"]`));
    await this.waitFor(`the text of ${name}`, this.activeEditor().locator('.view-lines'));
    await this.editorFocused();
  }

  activeEditor(): Locator {
    return this.page.locator('.editor-group-container.active .monaco-editor').first();
  }

  /**
   * Moves the cursor to a line, and a column when given (Go to Line, Ctrl+G, `:line:column`),
   * which also scrolls it into view; returns once the status bar shows the cursor there and the
   * editor has the focus.
   */
  async goToLine(line: number, column?: number): Promise<void> {
    await this.inQuickInput('Control+G', 'Go to Line', async (input) => {
      await input.fill(column === undefined ? `:${line}` : `:${line}:${column}`);
      const hint =
        column === undefined
          ? new RegExp(`go to line ${line}\\b`, 'i')
          : new RegExp(`line ${line} at column ${column}\\b`, 'i');
      await this.waitFor(`Go to Line offering ${hint}`, this.quickInput().getByText(hint).first());
      await this.acceptQuickInput('Go to Line');
    });
    await this.waitFor('Go to Line closing', this.quickInput(), 'hidden');
    await this.cursorIs(line, column ?? 1);
    await this.editorFocused();
  }

  /**
   * Runs a command by its palette title ("Catalog Lens: Set Access Token"): F1, the title typed, and the
   * row clicked once the palette lists it. The error names the rows it listed instead.
   */
  async runCommand(title: string): Promise<void> {
    await this.inQuickInput('F1', 'the command palette', async (input) => {
      await input.fill(`>${title}`);
      const row = this.quickInput().locator('.monaco-list-row', { hasText: title }).first();
      try {
        await row.waitFor({ timeout: UI_TIMEOUT });
      } catch (err) {
        const shown = await this.quickInput().locator('.monaco-list-row').allInnerTexts();
        throw new Error(
          `the palette does not list ${title}; it lists ${JSON.stringify(shown)}\n${await this.state()}\n${String(err)}`,
        );
      }
      await row.click();
    });
  }

  /**
   * The command palette's rows for `>query`, once the list has answered it: a row holding `query`,
   * or, when no command matches, its "similar commands" or "No matching commands".
   */
  async paletteRows(query: string): Promise<string[]> {
    const texts = await this.inQuickInput('F1', 'the command palette', async (input) => {
      await input.fill(`>${query}`);
      const rows = this.quickInput().locator('.monaco-list-row');
      const match = rows.filter({ hasText: query });
      const none = this.quickInput().getByText('No matching commands');
      const similar = rows.filter({ hasText: 'similar commands' });
      await this.waitFor(`the palette's answer to ${query}`, match.first().or(none).or(similar).first());
      return rows.allInnerTexts();
    });
    await this.closeWidgets();
    return texts;
  }

  /** Clicks the quick-pick row whose label (or detail) contains `text`. */
  async pickQuickItem(text: string): Promise<void> {
    const row = this.quickInput().locator('.monaco-list-row', { hasText: text }).first();
    await this.waitFor(`a quick-pick row holding ${text}`, row);
    await row.click();
  }

  /**
   * Types `label` into the open quick pick's filter, then clicks the row whose label is exactly
   * `label` ("Catalog Lens", not "Catalog Lens Language Server").
   */
  async pickQuickItemExactly(label: string): Promise<void> {
    // The list is virtualised: a row below the fold is not in the page until the filter brings it up.
    const input = this.quickInputBox();
    await this.waitFor('the quick pick', input);
    await input.fill(label);
    const row = this.quickInput()
      .locator('.monaco-list-row', { has: this.page.locator('.label-name').getByText(label, { exact: true }) })
      .first();
    await this.waitFor(`the quick-pick row ${JSON.stringify(label)}`, row);
    await row.click();
  }

  /**
   * "Developer: Set Log Level" for one output channel of a log kind. Its first pick lists the
   * loggers the window knows when it opens; an extension's logger becomes known to the window just
   * before its output channel does (the extension host registers the one, then the other), so the
   * channel is first looked for in "Output: Show Output Channels…".
   */
  async setLogLevel(channel: string, level: string): Promise<void> {
    await this.runCommand('Output: Show Output Channels');
    await this.waitFor(
      `the output channel ${channel}`,
      this.quickInput()
        .locator('.monaco-list-row', { has: this.page.locator('.label-name').getByText(channel, { exact: true }) })
        .first(),
    );
    await this.closeWidgets();
    await this.runCommand('Developer: Set Log Level');
    await this.pickQuickItemExactly(channel);
    // The second pick replaces the first in the same widget: its text box says whose level it sets.
    await this.waitFor(
      `the log levels of ${channel}`,
      this.quickInput().locator(`input[placeholder*="${channel}: Select log level"]`),
    );
    await this.pickQuickItemExactly(level);
    await this.waitFor('Set Log Level closing', this.quickInput(), 'hidden');
  }

  /**
   * Waits for an input box titled `title` and for the text it starts with, which may come after
   * the box opens (the server is asked for it), and returns that text (empty after `timeout`).
   */
  async prefilledInputBox(title: RegExp, timeout = UI_TIMEOUT): Promise<string> {
    await this.waitFor(
      `an input box titled ${title}`,
      this.quickInput().locator('.quick-input-title', { hasText: title }),
    );
    const input = this.quickInputBox();
    const until = Date.now() + timeout;
    while ((await input.inputValue()) === '' && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    return input.inputValue();
  }

  /** Types into the open input box and presses Enter; returns once the box has closed. */
  async submitInputBox(text: string, title?: RegExp): Promise<void> {
    const widget = this.quickInput();
    if (title)
      await this.waitFor(`an input box titled ${title}`, widget.locator('.quick-input-title', { hasText: title }));
    const input = widget.locator('.quick-input-box input');
    await this.waitFor('the input box', input);
    await input.fill(text);
    await this.acceptQuickInput('the input box');
    await this.waitFor('the input box closing', widget, 'hidden');
  }

  // ---- text, hovers, the cursor -----------------------------------------------------------------

  /**
   * Screen position of `needle` (its `at`-th character, default the middle) on the rendered
   * line whose whole text is `lineText`. Monaco renders spaces as U+00A0 and splits a line into
   * token spans, so the text is matched over the line's text nodes.
   */
  async pointOf(lineText: string, needle: string, at?: number): Promise<{ x: number; y: number }> {
    const query: TextPointQuery = { lineText, needle, at };
    try {
      const handle = await this.page.waitForFunction(textPoint, query, { timeout: UI_TIMEOUT, polling: 100 });
      return (await handle.jsonValue()) as { x: number; y: number };
    } catch (err) {
      throw new Error(
        `${JSON.stringify(needle)} on the line ${JSON.stringify(lineText)} is not on screen\n${String(err)}`,
      );
    }
  }

  /**
   * Reveals `line` (1-based; the cursor goes to its start) and returns the point of `needle` on
   * it, with what finds it again: code lenses and other view zones arrive after the text and
   * move it down, so hoverAt looks the point up again where it goes.
   */
  async revealText(lineNumber: number, lineText: string, needle: string, at?: number): Promise<TextPoint> {
    const start = lineText.indexOf(needle);
    if (start < 0) throw new Error(`${JSON.stringify(lineText)} holds no ${JSON.stringify(needle)}`);
    await this.goToLine(lineNumber);
    const point = await this.pointOf(lineText, needle, at);
    const column = start + (at ?? Math.floor(needle.length / 2)) + 1;
    return { ...point, query: { lineText, needle, at }, line: lineNumber, column };
  }

  /** Where a point is now: a point of text (revealText) is looked up again. */
  private async now(point: TextPoint): Promise<{ x: number; y: number }> {
    return point.query ? this.pointOf(point.query.lineText, point.query.needle, point.query.at) : point;
  }

  /** Moves the mouse over nothing and waits until no editor hover is shown. */
  async leaveHover(): Promise<void> {
    await this.page.mouse.move(NOWHERE.x, NOWHERE.y);
    await this.waitFor(
      'the hover closing',
      this.page.locator('.monaco-hover').filter({ visible: true }).first(),
      'detached',
    );
  }

  /**
   * Hovers the point and returns the hover's text once it matches `expected`. A point of text is
   * hovered again only when the text moved from under the mouse (a code lens arrived above it):
   * the hover shows what was under the mouse when it moved there.
   */
  async hoverAt(point: TextPoint, expected: RegExp): Promise<string> {
    const until = Date.now() + UI_TIMEOUT;
    for (;;) {
      await this.leaveHover();
      const at = await this.now(point);
      await this.page.mouse.move(at.x, at.y, { steps: 4 });
      const hover = this.page.locator('.monaco-hover:visible').filter({ hasText: expected }).first();
      const left = Math.max(1, until - Date.now());
      const shown = hover.waitFor({ timeout: left }).then(() => 'shown' as const);
      const moved = point.query
        ? this.page
            .waitForFunction(textPoint, { ...point.query, awayFrom: at }, { timeout: left, polling: 100 })
            .then(() => 'moved' as const)
        : new Promise<never>(() => undefined);
      // The one that loses runs on until its timeout: its failure is nobody's.
      shown.catch(() => undefined);
      moved.catch(() => undefined);
      try {
        if ((await Promise.race([shown, moved])) === 'shown') return await hover.innerText();
      } catch (err) {
        const texts = await this.page.locator('.monaco-hover:visible').allInnerTexts();
        throw new Error(
          `no hover matching ${expected} at (${at.x}, ${at.y}); visible hovers: ${JSON.stringify(texts)}\n${await this.state()}\n${String(err)}`,
        );
      }
    }
  }

  /** The hover box on screen (VS Code's content hover: it clips what does not fit and scrolls). */
  hoverBox(): Locator {
    return this.page.locator('.monaco-hover:visible').first();
  }

  /**
   * The links of the hover box whose text matches, each with whether it is in view: inside the
   * box (not scrolled out of it) and inside the window. Bounding boxes, not pixels, measured once
   * the box has stopped growing and moving (it is laid out again after its text arrives).
   */
  async hoverLinks(text: RegExp): Promise<HoverLinkPlace[]> {
    await this.until('the hover box laid out (the same size and place in two frames)', boxIsStable, '.monaco-hover', {
      polling: 'raf',
    });
    // Each part of the hover lays the box out again: wait (a while) for the links to settle inside
    // it, box and links measured in one frame; a link that stays out of view is measured so at the
    // end, and the caller's assertion fails.
    const arg = { selector: '.monaco-hover', text: text.source, frames: HOVER_STEADY_FRAMES };
    const settled = await this.page
      .waitForFunction(hoverLinksSettled, arg, { polling: 'raf', timeout: HOVER_SETTLE_MS })
      .then((handle) => handle.jsonValue())
      .catch(() => false as const);
    return settled || (await this.page.evaluate(hoverLinksSettled, { ...arg, final: true })) || [];
  }

  /**
   * Clicks the first link of the hover box whose text matches and returns the browser page it
   * opens, its document loaded. VS Code may first ask whether to open the external site: Open.
   */
  async followHoverLink(text: RegExp): Promise<Page> {
    const link = this.hoverBox().locator('a', { hasText: text }).first();
    const opened = this.page.context().waitForEvent('page', { timeout: 30_000 });
    await link.click();
    const confirm = this.page.locator('.monaco-dialog-box .monaco-button', { hasText: /^Open$/ });
    const popup = await Promise.race([
      opened,
      confirm.waitFor({ timeout: 30_000 }).then(async () => {
        await confirm.click();
        return opened;
      }),
    ]);
    await popup.waitForLoadState('domcontentloaded');
    return popup;
  }

  /** Puts the cursor on a point of text (revealText) with Go to Line's `:line:column`. */
  async cursorAt(point: TextPoint): Promise<void> {
    if (point.line === undefined || point.column === undefined)
      throw new Error('cursorAt needs a point of text (revealText)');
    await this.goToLine(point.line, point.column);
  }

  /**
   * Opens `file` of `workspace` and hovers `word` on the first line holding `lineNeedle` until the
   * hover matches `expected` (the server has answered: the diagnostics and quick fixes that come
   * with it are there). The cursor is left at the start of that line. Returns the hover's text and
   * the word's point.
   */
  async hoverOn(
    workspace: string,
    file: string,
    lineNeedle: string,
    word: string,
    expected: RegExp,
  ): Promise<{ hover: string; point: TextPoint }> {
    await this.openFile(file);
    const line = lineOf(workspace, file, lineNeedle);
    const point = await this.revealText(line.number, line.text, word);
    const hover = await this.hoverAt(point, expected);
    await this.leaveHover();
    return { hover, point };
  }

  /** hoverOn, then the cursor on the word (for a command that reads the URN under the cursor). */
  async cursorOnHovered(
    workspace: string,
    file: string,
    lineNeedle: string,
    word: string,
    expected: RegExp,
  ): Promise<{ hover: string; point: TextPoint }> {
    const hovered = await this.hoverOn(workspace, file, lineNeedle, word, expected);
    await this.cursorAt(hovered.point);
    return hovered;
  }

  // ---- quick fixes --------------------------------------------------------------------------

  /**
   * The quick fixes of the diagnostic at `point`, as the hover of that diagnostic offers them: the
   * hover (shown once its text matches `diagnostic`) asks for them itself and then says "Quick
   * Fix..." or "No quick fixes available". With some, its "Quick Fix..." opens the quick-fix menu,
   * whose items are returned; with none, [].
   *
   * Not Ctrl+.: VS Code drops the answer of a Ctrl+. that a newer code-action request overtakes. A
   * cursor move asks again for the light bulb 250 ms later, and a Ctrl+. whose answer has not come
   * 500 ms after that is cancelled (CodeActionModel): no menu, no "No code actions available". On
   * a loaded machine the answer takes that long, which looked like a lost key press; and nothing
   * on the page tells when that later request has started (a light bulb on the line can be an
   * earlier position's). The hover's "Quick Fix..." shows the actions the hover asked for, when
   * they have come, and nothing cancels them.
   */
  async quickFixesOf(point: TextPoint, diagnostic: RegExp): Promise<{ hover: string; items: string[] }> {
    const hover = await this.hoverAt(point, diagnostic);
    const statusBar = this.hoverBox().locator('.hover-row.status-bar');
    const fix = statusBar.locator('.action-container', { hasText: /^Quick Fix\.\.\./ });
    const none = statusBar.getByText('No quick fixes available');
    await this.waitFor('the hover saying whether there are quick fixes', fix.or(none).first());
    if (await none.isVisible()) return { hover, items: [] };
    await fix.click();
    const rows = this.page.locator(`${ACTION_WIDGET} .monaco-list-row`);
    await this.waitFor('the quick-fix menu (after Quick Fix... in the hover)', rows.first());
    return { hover, items: await rows.allInnerTexts() };
  }

  /** quickFixesOf, which must offer `expectedItem`; returns the hover's text and the menu's items. */
  async openQuickFixMenu(
    point: TextPoint,
    diagnostic: RegExp,
    expectedItem: string,
  ): Promise<{ hover: string; items: string[] }> {
    const shown = await this.quickFixesOf(point, diagnostic);
    if (!shown.items.some((i) => i.includes(expectedItem)))
      throw new Error(
        `the quick fixes of ${diagnostic} do not offer "${expectedItem}": ${JSON.stringify(shown.items)}\n${await this.state()}`,
      );
    return shown;
  }

  /** Clicks an item of the open quick-fix menu; returns once the menu has closed. */
  async chooseQuickFix(item: string): Promise<void> {
    const row = this.page.locator(`${ACTION_WIDGET} .monaco-list-row`, { hasText: item }).first();
    await this.waitFor(`the quick fix "${item}"`, row);
    await row.click();
    await this.waitFor('the quick-fix menu closing', this.page.locator(ACTION_WIDGET), 'hidden');
  }

  // ---- menus, notifications, panels ---------------------------------------------------------------

  /**
   * Chooses an item of the open context menu. VS Code's menu items listen for the mouse button's
   * release only from 100 ms after they are drawn (so that the release of the right click that
   * opened the menu does not choose an item): a click that comes sooner is lost, and it came
   * sooner on a loaded machine. So the item is chosen the keyboard's way: the mouse over it gives
   * it the focus, then Enter.
   */
  async chooseContextMenuItem(label: string): Promise<void> {
    const menu = this.page.locator('.context-view .monaco-menu');
    const item = menu.locator('.action-item', {
      has: this.page.locator('.action-label').getByText(label, { exact: true }),
    });
    await this.waitFor(`the context menu item "${label}"`, item);
    if (await item.locator('.disabled').count()) throw new Error(`the context menu item "${label}" is disabled`);
    await item.hover();
    await this.waitFor(`the context menu item "${label}" focused`, item.locator('a.action-menu-item:focus'));
    await this.page.keyboard.press('Enter');
    await this.waitFor('the context menu closing', menu, 'hidden');
  }

  /** Waits for a notification toast whose text matches. */
  async waitForNotification(text: RegExp, timeout = UI_TIMEOUT): Promise<string> {
    const toast = this.page.locator('.notification-toast').filter({ hasText: text }).first();
    try {
      await toast.waitFor({ timeout });
    } catch (err) {
      const shown = await this.page.locator('.notification-toast').allInnerTexts();
      throw new Error(`no notification matching ${text}; shown: ${JSON.stringify(shown)}\n${String(err)}`);
    }
    return toast.innerText();
  }

  /**
   * Opens the notifications center and waits for a notification whose text matches. VS Code toasts
   * at most 3 notifications per 800 ms (NotificationsToasts.SPAM_PROTECTION); the others go to the
   * center only, so a message that follows others closely is looked for there.
   */
  async waitForNotificationInCenter(text: RegExp, timeout = UI_TIMEOUT): Promise<string> {
    const center = this.page.locator('.notifications-center');
    if (!(await center.isVisible())) {
      await this.runCommand('Notifications: Show Notifications');
      await this.waitFor('the notifications center', center);
    }
    const item = center.locator('.notification-list-item').filter({ hasText: text }).first();
    await this.waitFor(`a notification matching ${text} in the notifications center`, item, 'visible', timeout);
    return item.innerText();
  }

  /** Clicks a button (e.g. "Retry") of the notification toast whose text matches. */
  async clickNotificationButton(text: RegExp, button: string, timeout = UI_TIMEOUT): Promise<void> {
    const toast = this.page.locator('.notification-toast').filter({ hasText: text }).first();
    await this.waitFor(`a notification matching ${text}`, toast, 'visible', timeout);
    await toast.locator('.monaco-button', { hasText: button }).first().click({ timeout });
  }

  /** Shows the Problems panel (Ctrl+Shift+M) and waits until its text matches every pattern. */
  async problems(expected: RegExp[], timeout = UI_TIMEOUT): Promise<string> {
    await this.closeWidgets();
    const panel = this.page.locator('.markers-panel');
    // Ctrl+Shift+M on a shown Problems panel with the focus hides it again.
    if (!(await panel.isVisible())) await this.pressFor('Control+Shift+M', panel, 'the Problems panel', timeout);
    for (const re of expected)
      await this.waitFor(
        `a problem matching ${re}`,
        panel.locator('.monaco-list-row', { hasText: re }).first(),
        'visible',
        timeout,
      );
    return panel.innerText();
  }

  /**
   * Types `filter` into the Problems panel's filter box (a glob of the files to show, or '' for
   * none), showing the panel first. The list is virtualised: a filter keeps the rows a test looks
   * for in view when other files have problems too.
   */
  async filterProblems(filter: string): Promise<void> {
    await this.problems([]);
    const input = this.page.locator('.part.panel').getByPlaceholder(/^Filter \(e\.g\. text/);
    await this.waitFor("the Problems panel's filter box", input);
    await input.fill(filter);
  }

  /** Hides the bottom panel (Problems, Output …) when it is shown, leaving the editor the room. */
  async hidePanel(): Promise<void> {
    const panel = this.page.locator('.part.panel');
    if (!(await panel.isVisible())) return;
    await this.closeWidgets();
    await this.page.keyboard.press('Control+J');
    await this.waitFor('the panel hiding (after Control+J)', panel, 'hidden');
  }

  /** Hovers the Catalog Lens status item and returns its tooltip once it matches. */
  async statusTooltip(expected: RegExp): Promise<string> {
    await this.page.mouse.move(NOWHERE.x, NOWHERE.y);
    await this.waitFor(
      'the tooltip closing',
      this.page.locator('.monaco-hover:visible, .workbench-hover:visible').first(),
      'detached',
    );
    await this.statusItem().hover();
    const tooltip = this.page
      .locator('.monaco-hover:visible, .workbench-hover:visible')
      .filter({ hasText: expected })
      .first();
    await this.waitFor(`the status item's tooltip matching ${expected}`, tooltip);
    return tooltip.innerText();
  }

  /**
   * Closes what a previous step left open — a context menu, the quick-fix menu, a quick input,
   * suggestions, the rename box, the notifications center, a hover — each with one Escape while
   * it is shown (it has the focus), waiting until it has gone.
   */
  async closeWidgets(): Promise<void> {
    const open: [string, Locator][] = [
      ['the context menu', this.page.locator('.context-view .monaco-menu')],
      ['the quick-fix menu', this.page.locator(ACTION_WIDGET)],
      ['the quick input', this.quickInput()],
      ['the suggestions', this.page.locator('.editor-widget.suggest-widget')],
      ['the rename box', this.page.locator('.rename-box')],
      ['the notifications center', this.page.locator('.notifications-center')],
    ];
    for (const [what, widget] of open) {
      if (!(await widget.first().isVisible())) continue;
      await this.page.keyboard.press('Escape');
      await this.waitFor(`${what} closing (after Escape)`, widget.first(), 'hidden');
    }
    if (await this.page.locator('.monaco-hover:visible').count()) await this.leaveHover();
  }

  // ---- screenshots --------------------------------------------------------------------------

  /**
   * A screenshot of the window, or of `clip` of it, into docs/screenshots/. Animations are taken
   * at their end (a hover that is still fading in shows as it will be).
   */
  async screenshot(name: string, clip?: Promise<Clip> | Clip): Promise<string> {
    const file = path.join(SCREENSHOT_DIR, name);
    const area = await clip;
    await this.page.screenshot({ path: file, animations: 'disabled', ...(area ? { clip: area } : {}) });
    return file;
  }

  /**
   * The lower left of the window: the status bar's Catalog Lens item and the tooltip above it, as
   * wide as the tooltip (at least 480 px), from 40 px above the tooltip (or the item) down.
   */
  async statusBarClip(): Promise<Clip> {
    const viewport = this.page.viewportSize() ?? { width: 1400, height: 900 };
    const item = await this.statusItem().boundingBox();
    if (!item) throw new Error('the Catalog Lens status item is not on screen');
    const shown = this.page.locator('.monaco-hover:visible, .workbench-hover:visible');
    const tooltip = (await shown.count()) > 0 ? await shown.first().boundingBox() : null;
    const top = Math.max(0, Math.min(item.y, tooltip?.y ?? item.y) - 40);
    const right = Math.max(item.x + item.width, (tooltip ? tooltip.x + tooltip.width : 0) + 20, 480);
    return { x: 0, y: top, width: Math.min(viewport.width, right), height: viewport.height - top };
  }
}
