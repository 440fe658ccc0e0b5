/**
 * Issue 15, point 3, in a real VS Code: on a feature of users_table, in a file that also names
 * orders_table (first in the alphabet), "Add Feature to Feature Table…" pre-selects the feature's
 * own table and says why; Enter adds the feature there; the result message offers Undo, and Undo
 * leaves the table's aspect, read back from the catalog, exactly as it was.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { aspects } from '../support/catalogHttp';
import { startSession, step, type E2eSession } from './harness';
import { E2E_ENABLED, E2E_SKIP_REASON } from './support/workspaceText';

const USERS_TABLE = 'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users_table)';
const ORDERS_TABLE = 'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,orders_table)';
const SIGNUP_DAYS = 'urn:li:mlFeature:(users_table,signup_days)';

describe('undo of an append', { skip: !E2E_ENABLED && E2E_SKIP_REASON }, () => {
  let session: E2eSession;
  before(async () => {
    session = await startSession();
  });
  after(async () => {
    await session?.stop();
  });

  test("Add Feature to Feature Table offers the feature's own table first; Undo leaves the aspect as it was", async (t) => {
    await step(t, session, 'undo-append', async () => {
      const wb = session.workbench;
      const read = async (): Promise<unknown> =>
        (await aspects(session.catalog.url, USERS_TABLE, ['mlFeatureTableProperties']))['mlFeatureTableProperties'];
      const before = await read();
      assert.ok(before, 'users_table has its properties in the sample catalog');
      const file = 'pipelines/undo_demo.py';
      writeFileSync(path.join(session.workspace, file), `ORDERS = "${ORDERS_TABLE}"\nSIGNUP_DAYS = "${SIGNUP_DAYS}"\n`);
      await wb.cursorOnHovered(session.workspace, file, 'SIGNUP_DAYS =', 'signup_days', /signup_days/);
      await wb.runCommand('Catalog Lens: Add Feature to Feature Table…');
      // The picker replaces the palette in the same widget: wait for its title before reading its rows.
      await wb.waitFor(
        'the feature table pick',
        wb.quickInput().locator('.quick-input-title', { hasText: /to which feature table/ }),
      );
      const first = wb.quickInput().locator('.monaco-list-row').first();
      await wb.waitFor('the first feature table', first);
      const firstText = await first.innerText();
      assert.match(firstText, /users_table/);
      assert.match(firstText, /the feature's own table/);
      await wb.screenshot('undo-picker.png');
      await wb.quickInput().locator('.quick-input-box input').press('Enter');
      await wb.waitFor('the feature table pick closing', wb.quickInput(), 'hidden');
      const added = /Catalog Lens: Added 1 feature to .*users_table/;
      const shown = await wb.waitForNotification(added);
      assert.match(shown, /Undo/);
      const afterAdd = (await read()) as { mlFeatures: string[] };
      assert.ok(afterAdd.mlFeatures.includes(SIGNUP_DAYS), 'the append wrote the feature');
      await wb.clickNotificationButton(added, 'Undo');
      // The append's progress and message, then the undo's progress and message, are 4
      // notifications; VS Code toasts at most 3 in 800 ms (NotificationsToasts.SPAM_PROTECTION,
      // workbench/browser/parts/notifications/notificationsToasts.ts) and lists the others in the
      // notifications center only: the undo's message is looked for there.
      await wb.waitForNotificationInCenter(/Catalog Lens: Removed 1 feature from .*users_table/);
      assert.deepEqual(await read(), before);
    });
  });
});
