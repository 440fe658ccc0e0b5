/**
 * Write Dataset Description from the palette starts from the catalog's text, and its Undo puts
 * the text back. And "Open in catalog" as the demo opens it: code-server turns the hover's link to
 * `http://127.0.0.1:PORT/…` into its port proxy `http://<editor>/proxy/PORT/…`, so the request
 * reaches the catalog with the editor's Host. The session is set up as `npm start` sets it up
 * (catalogLens.uiUrl with the catalog's pages secret): the page must load, not a 403.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startSession, step, type E2eSession } from './harness';
import { editedDatasetDescription, editedDatasetDescriptionOnceNot } from './support/catalog';
import { SCREENSHOT_DIR } from './support/paths';
import { E2E_ENABLED, E2E_SKIP_REASON, lineOf } from './support/workspaceText';

const USERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
const USERS_DESCRIPTION = /One row per registered user of the product\./;

describe(
  'Open in catalog through the editor port proxy; a description edit prefilled and undone',
  { skip: !E2E_ENABLED && E2E_SKIP_REASON },
  () => {
    let session: E2eSession;
    before(async () => {
      session = await startSession();
    });
    after(async () => {
      await session?.stop();
    });

    test("the hover's Open in catalog link opens the dataset's page through code-server's proxy", async (t) => {
      await step(t, session, 'open-in-catalog-proxy', async () => {
        const wb = session.workbench;
        await wb.openFile('catalog/datasets.yml');
        const line = lineOf(session.workspace, 'catalog/datasets.yml', USERS);
        await wb.hoverAt(await wb.revealText(line.number, line.text, 'db.users'), USERS_DESCRIPTION);
        const popup = await wb.followHoverLink(/^Open in catalog$/);
        const url = new URL(popup.url());
        assert.match(url.pathname, /^\/proxy\/\d+\/_pages\/[A-Za-z0-9_-]+\/dataset\//, `opened ${popup.url()}`);
        const body = await popup.locator('body').innerText();
        assert.doesNotMatch(body, /is not this catalog's name|"status":403/, body.slice(0, 400));
        assert.match(body, USERS_DESCRIPTION);
        await popup.screenshot({ path: path.join(SCREENSHOT_DIR, 'open-in-catalog-proxy.png') });
        // A link on the page (the platform) stays under the proxy and loads too.
        const platform = popup.locator('a', { hasText: /^hive$/ }).first();
        await Promise.all([popup.waitForURL(/\/platform\//), platform.click()]);
        assert.match(new URL(popup.url()).pathname, /^\/proxy\/\d+\/_pages\//);
        assert.match(await popup.locator('h1').first().innerText(), /hive/);
        await popup.close();
      });
    });

    test("Write Dataset Description starts from the catalog's text; Undo writes the previous text back", async (t) => {
      await step(t, session, 'description-prefill-undo', async () => {
        const wb = session.workbench;
        const line = lineOf(session.workspace, 'catalog/datasets.yml', USERS);
        await wb.cursorOnHovered(session.workspace, 'catalog/datasets.yml', line.text, 'db.users', USERS_DESCRIPTION);
        const before = await editedDatasetDescription(session.catalog, USERS);
        await wb.runCommand('Catalog Lens: Write Dataset Description');
        assert.match(
          await wb.prefilledInputBox(/Description of dataset/),
          USERS_DESCRIPTION,
          'prefilled with what the catalog shows',
        );
        await wb.screenshot('description-prefilled.png');
        await wb.submitInputBox('Users, rewritten by the e2e test.');
        const wrote = /Catalog Lens: Wrote the description of .*db\.users/;
        assert.match(await wb.waitForNotification(wrote), /Undo/);
        assert.equal(await editedDatasetDescription(session.catalog, USERS), 'Users, rewritten by the e2e test.');
        await wb.clickNotificationButton(wrote, 'Undo');
        const now = await editedDatasetDescriptionOnceNot(session.catalog, USERS, 'Users, rewritten by the e2e test.');
        assert.equal(now ?? '', before ?? '', 'Undo wrote the previous text back (empty where there was none)');
      });
    });
  },
);
