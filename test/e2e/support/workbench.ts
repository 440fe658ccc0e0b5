/**
 * Driving VS Code's workbench in Chromium the way a user does: keyboard shortcuts, the command
 * palette, quick picks, mouse hovers. Every wait is for something on screen, with a timeout.
 */
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import {
  startStatusLog,
  statusLabelMatches,
  statusLog,
  textPoint,
  type StatusSample,
  type TextPointQuery,
} from './pageScripts';
import { SCREENSHOT_DIR } from './paths';
import { lineOf } from './workspaceText';

const UI_TIMEOUT = 20_000;

/** A point on the screen; one of text (revealText) also says how to find that text again. */
export interface TextPoint {
  x: number;
  y: number;
  query?: TextPointQuery;
}

/** A part of the page, in CSS pixels (Playwright's screenshot `clip`). */
export interface Clip {
  x: number;
  y: number;
  width: number;
  height: number;
}

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
  }

  /** The Catalog Lens status bar item (its accessible label starts with "Catalog Lens:"). */
  statusItem(): Locator {
    return this.page.locator('#workbench\\.parts\\.statusbar [aria-label^="Catalog Lens:"]').first();
  }

  /** Waits until the status item's label (its tooltip's first line) matches, and returns its text. */
  async waitForStatus(label: RegExp, timeout = 60_000): Promise<string> {
    await this.page.waitForFunction(statusLabelMatches, label.source, { timeout, polling: 100 });
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

  /** Opens a workspace file by its relative path through Quick Open (Ctrl+P). */
  async openFile(relativePath: string): Promise<void> {
    const name = path.posix.basename(relativePath);
    await this.closeWidgets();
    const input = this.quickInput().locator('input');
    await this.pressUntilVisible('Control+P', input, 'Quick Open');
    await input.fill(relativePath);
    // Right after typing, the list still shows the previous entries (recently opened first):
    // wait until the focused row, which Enter opens, is this file in this folder.
    const folder = path.posix.dirname(relativePath);
    let focused = this.quickInput().locator('.monaco-list-row.focused', { hasText: name });
    if (folder !== '.') focused = focused.filter({ hasText: folder });
    await focused.waitFor({ timeout: UI_TIMEOUT });
    await this.page.keyboard.press('Enter');
    await this.page.locator(`.tab.active[aria-label^="${name}"]`).waitFor({ timeout: UI_TIMEOUT });
    await this.activeEditor().locator('.view-lines').waitFor({ timeout: UI_TIMEOUT });
  }

  /**
   * Presses `key` until `target` shows (up to 3 presses, 8 s each). On a busy machine the
   * workbench can drop a key press it gets before it is ready for it; pressing once more is what
   * a user would do.
   */
  async pressUntilVisible(key: string, target: Locator, what: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      await this.page.keyboard.press(key);
      try {
        await target.waitFor({ timeout: 8_000 });
        return;
      } catch (err) {
        if (attempt === 3) throw new Error(`${key} did not open ${what} after ${attempt} presses: ${String(err)}`);
        console.log(`e2e: ${key} pressed again, ${what} did not show within 8 s`);
      }
    }
  }

  activeEditor(): Locator {
    return this.page.locator('.editor-group-container.active .monaco-editor').first();
  }

  /** Moves the cursor to a line (Ctrl+G), which also scrolls it into view. */
  async goToLine(line: number): Promise<void> {
    const input = this.quickInput().locator('input');
    await this.pressUntilVisible('Control+G', input, 'Go to Line');
    await input.fill(`:${line}`);
    await this.page.keyboard.press('Enter');
    await this.quickInput().waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
  }

  /**
   * Screen position of `needle` (its `at`-th character, default the middle) on the rendered
   * line whose whole text is `lineText`. Monaco renders spaces as U+00A0 and splits a line into
   * token spans, so the text is matched over the line's text nodes.
   */
  async pointOf(lineText: string, needle: string, at?: number): Promise<{ x: number; y: number }> {
    const query: TextPointQuery = { lineText, needle, at };
    const handle = await this.page.waitForFunction(textPoint, query, { timeout: UI_TIMEOUT, polling: 100 });
    return (await handle.jsonValue()) as { x: number; y: number };
  }

  /**
   * Reveals `line` (1-based) and returns the point of `needle` on it, with what finds it again:
   * code lenses and other view zones arrive after the text and move it down, so hoverAt and
   * clickAt look the point up again where they go.
   */
  async revealText(lineNumber: number, lineText: string, needle: string, at?: number): Promise<TextPoint> {
    await this.goToLine(lineNumber);
    return { ...(await this.pointOf(lineText, needle, at)), query: { lineText, needle, at } };
  }

  /** Where a point is now: a point of text (revealText) is looked up again. */
  private async now(point: TextPoint): Promise<{ x: number; y: number }> {
    return point.query ? this.pointOf(point.query.lineText, point.query.needle, point.query.at) : point;
  }

  /**
   * Hovers the point and returns the hover's text once it matches `expected`. A point of text is
   * looked up again before each try (every few seconds, until UI_TIMEOUT), as the text can move.
   */
  async hoverAt(point: TextPoint, expected: RegExp): Promise<string> {
    const until = Date.now() + UI_TIMEOUT;
    for (;;) {
      // Leave first: a hover only opens when the mouse arrives on a word.
      await this.page.mouse.move(5, 5);
      await this.page
        .locator('.monaco-hover')
        .filter({ visible: true })
        .waitFor({ state: 'detached', timeout: UI_TIMEOUT });
      const at = await this.now(point);
      await this.page.mouse.move(at.x, at.y, { steps: 4 });
      const hover = this.page.locator('.monaco-hover:visible').filter({ hasText: expected }).first();
      const left = until - Date.now();
      try {
        await hover.waitFor({ timeout: point.query && left > 5000 ? 4000 : Math.max(left, 1) });
        return await hover.innerText();
      } catch (err) {
        if (Date.now() < until) continue;
        const shown = await this.page.locator('.monaco-hover:visible').allInnerTexts();
        throw new Error(
          `no hover matching ${expected} at (${at.x}, ${at.y}); visible hovers: ${JSON.stringify(shown)}\n${String(err)}`,
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
   * box (not scrolled out of it) and inside the window. Bounding boxes, not pixels.
   */
  async hoverLinks(text: RegExp): Promise<Array<{ text: string; inView: boolean }>> {
    const box = await this.hoverBox().boundingBox();
    if (!box) throw new Error('no hover on screen');
    const viewport = this.page.viewportSize() ?? { width: 0, height: 0 };
    const links = this.hoverBox().locator('a', { hasText: text });
    const out: Array<{ text: string; inView: boolean }> = [];
    for (let i = 0; i < (await links.count()); i++) {
      const link = links.nth(i);
      const b = await link.boundingBox();
      const inView =
        b !== null &&
        b.y >= box.y &&
        b.y + b.height <= box.y + box.height &&
        b.x >= box.x &&
        b.x + b.width <= box.x + box.width &&
        b.y + b.height <= viewport.height &&
        b.x + b.width <= viewport.width;
      out.push({ text: await link.innerText(), inView });
    }
    return out;
  }

  /**
   * Opens `file` of `workspace`, hovers `word` on the first line holding `lineNeedle` until the
   * hover matches `expected` (the server has answered: the diagnostics and quick fixes that come
   * with it are there), closes it and clicks the word, which puts the cursor there. Returns the
   * hover's text.
   */
  async cursorOnHovered(
    workspace: string,
    file: string,
    lineNeedle: string,
    word: string,
    expected: RegExp,
  ): Promise<string> {
    await this.openFile(file);
    const line = lineOf(workspace, file, lineNeedle);
    const point = await this.revealText(line.number, line.text, word);
    const hover = await this.hoverAt(point, expected);
    await this.closeWidgets();
    await this.clickAt(point);
    return hover;
  }

  /** Clicks the point (a point of text where it is now), which puts the cursor there. */
  async clickAt(point: TextPoint): Promise<void> {
    const at = await this.now(point);
    await this.page.mouse.click(at.x, at.y);
  }

  quickInput(): Locator {
    return this.page.locator('.quick-input-widget');
  }

  /**
   * Runs a command by its palette title ("Catalog: Set Access Token"). The palette is opened again
   * while the command is not listed (until UI_TIMEOUT): it lists what the context allows when it
   * opens, and in CI a trusted workspace's write commands were once missing from the first list.
   */
  async runCommand(title: string): Promise<void> {
    const until = Date.now() + UI_TIMEOUT;
    for (;;) {
      await this.closeWidgets();
      const input = this.quickInput().locator('input');
      await this.pressUntilVisible('F1', input, 'the command palette');
      await input.fill(`>${title}`);
      const row = this.quickInput().locator('.monaco-list-row', { hasText: title }).first();
      try {
        await row.waitFor({ timeout: Math.max(1, Math.min(5000, until - Date.now())) });
      } catch (err) {
        if (Date.now() < until) continue;
        const shown = await this.quickInput().locator('.monaco-list-row').allInnerTexts();
        throw new Error(`the palette does not list ${title}; it lists ${JSON.stringify(shown)}\n${String(err)}`);
      }
      await row.click();
      return;
    }
  }

  /** Clicks the quick-pick row whose label (or detail) contains `text`. */
  async pickQuickItem(text: string): Promise<void> {
    const row = this.quickInput().locator('.monaco-list-row', { hasText: text }).first();
    await row.waitFor({ timeout: UI_TIMEOUT });
    await row.click();
  }

  /**
   * Types `label` into the open quick pick's filter, then clicks the row whose label is exactly
   * `label` ("Catalog Lens", not "Catalog Lens Language Server").
   */
  async pickQuickItemExactly(label: string, timeout = UI_TIMEOUT): Promise<void> {
    // The list is virtualised: a row below the fold is not in the page until the filter brings it up.
    const input = this.quickInput().locator('.quick-input-box input');
    await input.waitFor({ timeout: UI_TIMEOUT });
    await input.fill(label);
    const row = this.quickInput()
      .locator('.monaco-list-row', { has: this.page.locator('.label-name').getByText(label, { exact: true }) })
      .first();
    await row.waitFor({ timeout });
    await row.click();
  }

  /**
   * "Developer: Set Log Level" for one logger or output channel. The pick lists the loggers that
   * exist when it opens, so a channel not listed yet is looked for again in a new pick (up to
   * three times); the last failure names the rows that were there.
   */
  async setLogLevel(channel: string, level: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      await this.runCommand('Developer: Set Log Level');
      try {
        await this.pickQuickItemExactly(channel, 8_000);
        break;
      } catch (err) {
        const rows = await this.quickInput()
          .locator('.monaco-list-row .label-name')
          .allInnerTexts()
          .catch(() => []);
        if (attempt === 3)
          throw new Error(
            `"${channel}" is not among the loggers of Set Log Level (${rows.join(', ') || 'no rows'}): ${String(err)}`,
          );
      }
    }
    await this.pickQuickItemExactly(level);
    await this.quickInput().waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
  }

  /** Types into the open input box and presses Enter. */
  async submitInputBox(text: string, title?: RegExp): Promise<void> {
    const widget = this.quickInput();
    if (title) await widget.locator('.quick-input-title', { hasText: title }).waitFor({ timeout: UI_TIMEOUT });
    const input = widget.locator('.quick-input-box input');
    await input.waitFor({ timeout: UI_TIMEOUT });
    await input.fill(text);
    await input.press('Enter');
    await widget.waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
  }

  /**
   * Opens the quick-fix menu (Ctrl+.) at the cursor and returns its items' texts. On a busy
   * machine the key press can be lost (no code-action request is made), so it is pressed again,
   * up to 3 times; the error names the rows the menu showed, if any.
   */
  async openQuickFixMenu(expectedItem: string): Promise<string[]> {
    const menu = this.page.locator('.action-widget');
    const rows = menu.locator('.monaco-list-row');
    for (let attempt = 1; ; attempt++) {
      await this.page.keyboard.press('Control+.');
      try {
        await rows.filter({ hasText: expectedItem }).first().waitFor({ timeout: 8_000 });
        return rows.allInnerTexts();
      } catch (err) {
        const seen = await rows.allInnerTexts().catch(() => []);
        if (attempt === 3)
          throw new Error(
            `the quick-fix menu did not offer "${expectedItem}" after ${attempt} presses of Ctrl+. (rows: ${seen.join(', ') || 'none'}): ${String(err)}`,
          );
        console.log(
          `e2e: Ctrl+. pressed again, the quick-fix menu showed ${seen.length ? `only ${seen.join(', ')}` : 'nothing'} within 8 s`,
        );
        if (await menu.isVisible().catch(() => false)) await this.page.keyboard.press('Escape');
      }
    }
  }

  /**
   * Opens the quick-fix menu (Ctrl+.) at the cursor and returns its items, or [] when the editor
   * says there are none ("No code actions available").
   */
  async quickFixItems(): Promise<string[]> {
    const rows = this.page.locator('.action-widget .monaco-list-row');
    const none = this.page.locator('.monaco-editor-overlaymessage', { hasText: /No code actions available/ });
    for (let attempt = 1; ; attempt++) {
      await this.page.keyboard.press('Control+.'); // pressed again when lost, as in pressUntilVisible
      try {
        await rows.first().or(none).waitFor({ timeout: 8_000 });
        return (await none.isVisible()) ? [] : rows.allInnerTexts();
      } catch (err) {
        if (attempt === 3)
          throw new Error(
            `neither a quick-fix menu nor "No code actions available" after ${attempt} presses of Ctrl+.: ${String(err)}`,
          );
        console.log('e2e: Ctrl+. pressed again, neither a menu nor "No code actions available" within 8 s');
      }
    }
  }

  /**
   * The command palette's rows for `>query`, once the list has answered it: a row holding `query`,
   * or, when no command matches, its "similar commands" or "No matching commands".
   */
  async paletteRows(query: string): Promise<string[]> {
    await this.closeWidgets();
    const input = this.quickInput().locator('input');
    await this.pressUntilVisible('F1', input, 'the command palette');
    await input.fill(`>${query}`);
    const rows = this.quickInput().locator('.monaco-list-row');
    const match = rows.filter({ hasText: query });
    const none = this.quickInput().getByText('No matching commands');
    const similar = rows.filter({ hasText: 'similar commands' });
    await match.first().or(none).or(similar).first().waitFor({ timeout: UI_TIMEOUT });
    const texts = await rows.allInnerTexts();
    await this.closeWidgets();
    return texts;
  }

  async chooseQuickFix(item: string): Promise<void> {
    await this.page.locator('.action-widget .monaco-list-row', { hasText: item }).first().click();
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

  /** Clicks a button (e.g. "Retry") of the notification toast whose text matches. */
  async clickNotificationButton(text: RegExp, button: string, timeout = UI_TIMEOUT): Promise<void> {
    const toast = this.page.locator('.notification-toast').filter({ hasText: text }).first();
    await toast.waitFor({ timeout });
    await toast.locator('.monaco-button', { hasText: button }).first().click({ timeout });
  }

  /** Shows the Problems panel (Ctrl+Shift+M) and waits until its text matches every pattern. */
  async problems(expected: RegExp[], timeout = UI_TIMEOUT): Promise<string> {
    await this.closeWidgets();
    await this.page.keyboard.press('Control+Shift+M');
    const panel = this.page.locator('.markers-panel');
    await panel.waitFor({ timeout });
    for (const re of expected) await panel.locator('.monaco-list-row', { hasText: re }).first().waitFor({ timeout });
    return panel.innerText();
  }

  /** Hides the bottom panel (Problems, Output …) when it is shown, leaving the editor the room. */
  async hidePanel(): Promise<void> {
    const panel = this.page.locator('.part.panel');
    if (!(await panel.isVisible())) return;
    await this.page.keyboard.press('Control+J');
    await panel.waitFor({ state: 'hidden', timeout: UI_TIMEOUT });
  }

  /** Hovers the Catalog Lens status item and returns its tooltip once it matches. */
  async statusTooltip(expected: RegExp): Promise<string> {
    await this.page.mouse.move(5, 5);
    await this.statusItem().hover();
    const tooltip = this.page
      .locator('.monaco-hover:visible, .workbench-hover:visible')
      .filter({ hasText: expected })
      .first();
    await tooltip.waitFor({ timeout: UI_TIMEOUT });
    return tooltip.innerText();
  }

  /** Escape twice: closes hovers, menus, quick inputs the previous step left open. */
  async closeWidgets(): Promise<void> {
    await this.page.keyboard.press('Escape');
    await this.page.keyboard.press('Escape');
  }

  /** A screenshot of the window, or of `clip` of it, into docs/screenshots/. */
  async screenshot(name: string, clip?: Promise<Clip> | Clip): Promise<string> {
    const file = path.join(SCREENSHOT_DIR, name);
    const area = await clip;
    await this.page.screenshot({ path: file, ...(area ? { clip: area } : {}) });
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
