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

  test('opened from the hover of events.clicks, it walks two levels downstream', async (t) => {
    await step(t, session, 'lineage-view', async () => {
      const wb = session.workbench;
      const page = wb.page;
      await wb.hidePanel();
      await wb.openFile('catalog/datasets.yml');
      const line = lineOf(session.workspace, 'catalog/datasets.yml', CLICKS);
      await wb.hoverAt(await wb.revealText(line.number, line.text, 'events.clicks'), /Lineage ↑0 ↓1/);
      const link = wb.hoverBox().locator('a', { hasText: /Lineage ↑0 ↓1/ });
      await link.click();
      // The view is the only one of the Catalog Lens view container (activity bar): the side bar's
      // title names the container and the view, and the view has no header of its own.
      const sidebar = page.locator('#workbench\\.parts\\.sidebar');
      await wb.waitFor(
        'the Catalog Lens side bar with the Catalog Lineage view',
        sidebar.locator('.composite.title', { hasText: /Catalog Lineage/i }),
      );
      const view = sidebar.locator('.pane', { has: page.locator('.monaco-list') }).first();
      const rows = view.locator('.monaco-list-row');
      await wb.waitFor('the row of events.clicks', rows.filter({ hasText: 'events.clicks' }).first());
      await wb.waitFor('the Downstream row', rows.filter({ hasText: 'Downstream' }).first());
      const orders = rows.filter({ hasText: 'db.orders' }).first();
      await wb.waitFor('the row of db.orders', orders);
      assert.match(await orders.innerText(), /db\.orders[\s\S]*Dataset · hive · reads this/);
      // Upstream of events.clicks: nothing.
      await wb.waitFor('"Nothing upstream"', rows.filter({ hasText: 'Nothing upstream' }).first());
      // A second level: db.orders opens onto what is downstream of it.
      await orders.click();
      await wb.waitFor(
        'the row of analytics.public.revenue',
        rows.filter({ hasText: 'analytics.public.revenue' }).first(),
      );
      const feature = rows.filter({ hasText: 'order_count' }).first();
      await wb.waitFor('the row of order_count', feature);
      assert.match(await feature.innerText(), /ML feature · derived from this/);
      await wb.screenshot('lineage-view.png');
      // Where db.orders is used in the workspace, from its row's context menu (the workspace index).
      await orders.click({ button: 'right' });
      await wb.chooseContextMenuItem('Show Where Used in the Workspace');
      await wb.waitFor(
        'the usages of db.orders',
        wb.quickInput().locator('.quick-input-title', { hasText: /db\.orders is named in \d+ places? of \d+ files?/ }),
        'visible',
        30_000,
      );
      const usage = wb.quickInput().locator('.monaco-list-row', { hasText: 'catalog/datasets.yml' }).first();
      await wb.waitFor('the usage in catalog/datasets.yml', usage);
      assert.match(await usage.innerText(), /catalog\/datasets\.yml:\d+[\s\S]*docs-as-code entry[\s\S]*db\.orders/);
      // Another file's row opens that file.
      await wb.pickQuickItem('sql/revenue.sql');
      await wb.waitFor('the usages pick closing', wb.quickInput(), 'hidden');
      await wb.waitFor('the tab of revenue.sql', page.locator('.tab.active', { hasText: 'revenue.sql' }));
    });
  });
});
