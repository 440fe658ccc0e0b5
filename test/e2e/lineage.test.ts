/**
 * Issue 17 in a real VS Code: the hover on events.clicks shows its lineage counts as a link; a
 * click opens the Catalog Lineage view on it, whose Downstream lists db.orders; expanding
 * db.orders walks a second level down (analytics.public.revenue and the order_count feature);
 * its row's "Show Where Used in the Workspace" lists the files that name it, and a row opens one.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startSession, step, type E2eSession } from './harness';
import { E2E_ENABLED, E2E_SKIP_REASON, lineOf } from './support/workspaceText';

const CLICKS = 'urn:li:dataset:(urn:li:dataPlatform:kafka,events.clicks,PROD)';

describe('the lineage view', { skip: !E2E_ENABLED && E2E_SKIP_REASON }, () => {
  let session: E2eSession;
  before(async () => {
    session = await startSession();
  });
  after(async () => {
    await session?.stop();
  });

  test('opened from the hover of events.clicks, it walks two levels downstream', async () => {
    await step(session, 'lineage-view', async () => {
      const wb = session.workbench;
      const page = wb.page;
      await wb.hidePanel();
      await wb.openFile('catalog/datasets.yml');
      const line = lineOf(session.workspace, 'catalog/datasets.yml', CLICKS);
      await wb.hoverAt(await wb.revealText(line.number, line.text, 'events.clicks'), /Lineage ↑0 ↓1/);
      const link = wb.hoverBox().locator('a', { hasText: /Lineage ↑0 ↓1/ });
      await link.click();
      const view = page.locator('.pane', { has: page.locator('.pane-header', { hasText: /Catalog Lineage/i }) });
      await view.locator('.pane-header').waitFor();
      // Room for the view: the workspace's folder section folds away (a person would do the same).
      const folders = page.locator('.pane-header', { hasText: /^examples/i }).first();
      if ((await folders.getAttribute('aria-expanded')) === 'true') await folders.click();
      const rows = view.locator('.monaco-list-row');
      await rows.filter({ hasText: 'events.clicks' }).first().waitFor();
      await rows.filter({ hasText: 'Downstream' }).first().waitFor();
      const orders = rows.filter({ hasText: 'db.orders' }).first();
      await orders.waitFor();
      assert.match(await orders.innerText(), /db\.orders[\s\S]*Dataset · hive · DownstreamOf/);
      // Upstream of events.clicks: nothing.
      await rows.filter({ hasText: 'Nothing upstream' }).first().waitFor();
      // A second level: db.orders opens onto what is downstream of it.
      await orders.click();
      await rows.filter({ hasText: 'analytics.public.revenue' }).first().waitFor();
      const feature = rows.filter({ hasText: 'order_count' }).first();
      await feature.waitFor();
      assert.match(await feature.innerText(), /ML feature · DerivedFrom/);
      await wb.screenshot('lineage-view.png');
      // Where db.orders is used in the workspace, from its row (the workspace index).
      await orders.click({ button: 'right' });
      await page.locator('.context-view .action-label', { hasText: 'Show Where Used in the Workspace' }).click();
      await wb
        .quickInput()
        .locator('.quick-input-title', { hasText: /db\.orders is named in \d+ places? of \d+ files?/ })
        .waitFor();
      const usage = wb.quickInput().locator('.monaco-list-row', { hasText: 'catalog/datasets.yml' }).first();
      await usage.waitFor();
      assert.match(await usage.innerText(), /catalog\/datasets\.yml:\d+[\s\S]*docs-as-code entry[\s\S]*db\.orders/);
      // Another file's row opens that file.
      await wb.quickInput().locator('.monaco-list-row', { hasText: 'sql/revenue.sql' }).first().click();
      await wb.quickInput().waitFor({ state: 'hidden' });
      await page.locator('.tab.active', { hasText: 'revenue.sql' }).waitFor();
    });
  });
});
