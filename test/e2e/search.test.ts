/**
 * Issue 16 in a real VS Code: completion inside a URN literal lists the catalog's datasets of hive
 * and the picked one is written whole (what the item inserts: the in-host suite); "Catalog:
 * Search…" finds analytics.public.revenue by a word of its name, shows its kind, platform and
 * description, and picking it inserts its URN at the cursor, read back from the saved file.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startSession, step, type E2eSession } from './harness';
import { E2E_ENABLED, E2E_SKIP_REASON, waitForFile } from './support/workspaceText';

const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
const REVENUE = 'urn:li:dataset:(urn:li:dataPlatform:snowflake,analytics.public.revenue,PROD)';

describe('completion of real names and Catalog Lens: Search…', { skip: !E2E_ENABLED && E2E_SKIP_REASON }, () => {
  let session: E2eSession;
  before(async () => {
    session = await startSession();
  });
  after(async () => {
    await session?.stop();
  });

  test('completion after the platform lists the datasets of hive with their platform; the picked one is written whole', async (t) => {
    await step(t, session, 'complete-name', async () => {
      const wb = session.workbench;
      const page = wb.page;
      const file = 'pipelines/complete_demo.py';
      const typed = 'ORDERS = "urn:li:dataset:(urn:li:dataPlatform:hive,db.or"';
      writeFileSync(path.join(session.workspace, file), `${typed}\n`);
      await wb.openFile(file);
      // Before the closing quote, after `db.or`.
      await wb.goToLine(1, typed.length);
      const suggest = page.locator('.editor-widget.suggest-widget');
      await page.keyboard.press('Control+Space');
      const row = suggest.locator('.monaco-list-row', { hasText: 'db.orders' }).first();
      await wb.waitFor('the suggestions offering db.orders (after Control+Space)', row);
      assert.match(await row.innerText(), /db\.orders[\s\S]*hive/);
      await wb.screenshot('completion-names.png');
      await row.click();
      // What the item inserts is checked in the in-host suite (languageFeatures.inhost.ts); here, that the editor shows it.
      await wb.waitFor('the suggestions closing', suggest, 'hidden');
      await wb.editorShows(`ORDERS = "${ORDERS}"`);
    });
  });

  test('Catalog Lens: Search… finds revenue with its description; Enter inserts its URN at the cursor', async (t) => {
    await step(t, session, 'search-pick', async () => {
      const wb = session.workbench;
      const page = wb.page;
      const file = 'pipelines/search_demo.py';
      const full = path.join(session.workspace, file);
      writeFileSync(full, 'REVENUE = ""\n');
      await wb.openFile(file);
      // Between the quotes.
      await wb.goToLine(1, 'REVENUE = "'.length + 1);
      await wb.runCommand('Catalog Lens: Search…');
      await wb.waitFor(
        'the Catalog Lens: Search pick',
        wb.quickInput().locator('.quick-input-title', { hasText: /Catalog: Search/ }),
      );
      await wb.quickInput().locator('.quick-input-box input').fill('revenue');
      // The catalog's answer to "revenue" (the rows before it are the listing of everything).
      await wb.waitFor(
        'the answer to "revenue"',
        wb.quickInput().locator('.quick-input-title', { hasText: /— 1 found/ }),
      );
      const row = wb.quickInput().locator('.monaco-list-row', { hasText: 'analytics.public.revenue' }).first();
      await wb.waitFor('the row of analytics.public.revenue', row);
      assert.match(await row.innerText(), /analytics\.public\.revenue[\s\S]*Dataset · snowflake/);
      await wb.screenshot('search-pick.png');
      await row.click();
      // The pick closes, then the extension gives the editor back the focus and inserts the URN
      // (client/src/searchPick.ts): Ctrl+S before that saved the file without it.
      await wb.waitFor('the search pick closing', wb.quickInput(), 'hidden');
      await wb.editorShows(`REVENUE = "${REVENUE}"`);
      await wb.editorFocused();
      await page.keyboard.press('Control+S');
      await waitForFile(full, `REVENUE = "${REVENUE}"\n`);
    });
  });
});
