/**
 * Issue 16 in a real VS Code: completion inside a URN literal lists the catalog's datasets of hive
 * and Enter writes the whole URN; "Catalog: Search…" finds analytics.public.revenue by a word of
 * its name, shows its kind, platform and description, and Enter inserts its URN at the cursor.
 * Both read back from the saved file.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startSession, step, type E2eSession } from './harness';
import { E2E_ENABLED, E2E_SKIP_REASON, waitForFile } from './support/workspaceText';

const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
const REVENUE = 'urn:li:dataset:(urn:li:dataPlatform:snowflake,analytics.public.revenue,PROD)';

describe('completion of real names and Catalog: Search…', { skip: !E2E_ENABLED && E2E_SKIP_REASON }, () => {
  let session: E2eSession;
  before(async () => {
    session = await startSession();
  });
  after(async () => {
    await session?.stop();
  });

  test('completion after the platform lists the datasets of hive; Enter writes the whole URN', async () => {
    await step(session, 'complete-name', async () => {
      const wb = session.workbench;
      const page = wb.page;
      const file = 'pipelines/complete_demo.py';
      const full = path.join(session.workspace, file);
      writeFileSync(full, `ORDERS = "urn:li:dataset:(urn:li:dataPlatform:hive,db.or"\n`);
      await wb.openFile(file);
      await wb.goToLine(1);
      await page.keyboard.press('End');
      // Before the closing quote, after `db.or`.
      await page.keyboard.press('ArrowLeft');
      const suggest = page.locator('.editor-widget.suggest-widget');
      await wb.pressUntilVisible('Control+Space', suggest.locator('.monaco-list-row').first(), 'the suggestions');
      const row = suggest.locator('.monaco-list-row', { hasText: 'db.orders' }).first();
      await row.waitFor();
      assert.match(await row.innerText(), /db\.orders[\s\S]*hive/);
      await wb.screenshot('completion-names.png');
      await row.click();
      await page.keyboard.press('Control+S');
      await waitForFile(full, `ORDERS = "${ORDERS}"\n`);
    });
  });

  test('Catalog: Search… finds revenue with its description; Enter inserts its URN at the cursor', async () => {
    await step(session, 'search-pick', async () => {
      const wb = session.workbench;
      const page = wb.page;
      const file = 'pipelines/search_demo.py';
      const full = path.join(session.workspace, file);
      writeFileSync(full, 'REVENUE = ""\n');
      await wb.openFile(file);
      await wb.goToLine(1);
      await page.keyboard.press('End');
      await page.keyboard.press('ArrowLeft');
      await wb.runCommand('Catalog: Search…');
      await wb
        .quickInput()
        .locator('.quick-input-title', { hasText: /Catalog: Search/ })
        .waitFor();
      await wb.quickInput().locator('.quick-input-box input').fill('revenue');
      // The catalog's answer to "revenue" (the rows before it are the listing of everything).
      await wb
        .quickInput()
        .locator('.quick-input-title', { hasText: /— 1 found/ })
        .waitFor();
      const row = wb.quickInput().locator('.monaco-list-row', { hasText: 'analytics.public.revenue' }).first();
      await row.waitFor();
      assert.match(await row.innerText(), /analytics\.public\.revenue[\s\S]*Dataset · snowflake/);
      await wb.screenshot('search-pick.png');
      await row.click();
      await page.keyboard.press('Control+S');
      await waitForFile(full, `REVENUE = "${REVENUE}"\n`);
    });
  });
});
