/**
 * A new user's first hour with the demo, in one window, in order: the window as `npm start`
 * opens it (workspace trust on and asked for, the demo README first, a catalog that wants its
 * token, handed to the editor; page links through code-server's port proxy), then trust, the
 * status item, a dataset hover, Open in catalog, an env typo and a column typo fixed, a
 * description edited and undone, the catalog killed and started again. Each step asserts what
 * the user must see and saves its screenshot as docs/screenshots/first-hour-NN-STEP.png, which
 * docs/first-hour.md shows in this order.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { E2E_VIEWPORT, startSession, step, type E2eSession } from './harness';
import { editedDatasetDescription, editedDatasetDescriptionOnceNot } from './support/catalog';
import { NPM_START_TRUST_SETTINGS } from './support/codeServer';
import { SCREENSHOT_DIR } from './support/paths';
import { E2E_ENABLED, E2E_SKIP_REASON, lineOf } from './support/workspaceText';

const USERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
const USERS_DESCRIPTION = /One row per registered user of the product\./;
const FEATURES = 'pipelines/features.py';
const USERS_LINE = `USERS = "${USERS}"`;
/** The file the user types in: an env and a column name, each a letter off. */
const TYPOS = 'pipelines/first_hour.py';
const ENV_TYPO_LINE = 'STAGING_USERS = "urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PORD)"';
const COLUMN_TYPO_LINE = `USER_EMAIL = "urn:li:schemaField:(${USERS},emial)"`;
const PEOPLE = 'pipelines/people_and_pipelines.py';
const OWNER_LINE = 'OWNER = "urn:li:corpuser:asmith"';
const CONNECTED = /^Catalog Lens: Catalog connected/;
const DOWN = /The catalog is down or not answering/;
/** What a hover may take at most while the catalog is down: well under the 10 s request timeout it once waited out. */
const DOWN_HOVER_MS = 5_000;

function shot(n: number, name: string): string {
  return `first-hour-${String(n).padStart(2, '0')}-${name}.png`;
}

describe("a new user's first hour with the demo", { skip: !E2E_ENABLED && E2E_SKIP_REASON }, () => {
  let session: E2eSession;
  let host = '';
  before(async () => {
    session = await startSession({
      token: randomBytes(24).toString('base64url'),
      handOffToken: true,
      userSettings: NPM_START_TRUST_SETTINGS,
      asOpened: true,
    });
    host = new URL(session.catalogUrl).host;
  });
  after(async () => {
    await session?.stop();
  });

  test('the demo opens with VS Code asking whether to trust its folder; trusting leaves Restricted Mode', async (t) => {
    await step(t, session, 'first-hour-trust', async () => {
      const wb = session.workbench;
      assert.deepEqual(wb.page.viewportSize(), E2E_VIEWPORT);
      const dialog = wb.page.locator('.monaco-dialog-box').filter({ hasText: /trust the authors/i });
      await wb.waitFor('the trust prompt', dialog, 'visible', 60_000);
      assert.match(await dialog.innerText(), /Do you trust the authors of the files in this folder\?/);
      await wb.screenshot(shot(1, 'trust-prompt'));
      await dialog
        .locator('.monaco-button', { hasText: /^Yes, I trust the authors/ })
        .first()
        .click();
      await wb.waitFor('the trust prompt closing', dialog, 'hidden');
      await wb.waitFor(
        'the Restricted Mode indicator leaving the status bar',
        wb.page.locator('#workbench\\.parts\\.statusbar').getByText('Restricted Mode'),
        'hidden',
      );
      // The demo's README opens once the folder is trusted (workbench.startupEditor), and takes the
      // focus: it is waited for, so that it does not come up over the file opened next.
      await wb
        .waitFor('the README', wb.page.locator('.tabs-container .tab', { hasText: 'README.md' }), 'visible', 30_000)
        .catch((err: unknown) => t.diagnostic(`no README tab after trusting: ${String(err).split('\n')[0]}`));
      // Its preview is a webview, which takes the focus once its frame is ready: on a slow machine
      // that comes after the tab, and would close the Quick Open of the next step under it.
      await wb
        .waitFor("the README preview's frame being ready", wb.page.locator('iframe.webview.ready'), 'attached', 30_000)
        .catch((err: unknown) => t.diagnostic(`no ready README preview: ${String(err).split('\n')[0]}`));
    });
  });

  test('the status item says where the catalog is, and that nothing is read-only', async (t) => {
    await step(t, session, 'first-hour-status', async () => {
      const wb = session.workbench;
      await wb.openFile(FEATURES);
      assert.equal(await wb.waitForStatus(CONNECTED), `Catalog: ${host}`);
      const tooltip = await wb.statusTooltip(/connected to /);
      assert.match(tooltip, new RegExp(`connected to http://${host.replace(/\./g, '\\.')}/api/graphql`));
      assert.doesNotMatch(tooltip, /Restricted Mode|read-only/);
      await wb.screenshot(shot(2, 'status'));
    });
  });

  test('hovering a dataset shows its description and its columns with their types', async (t) => {
    await step(t, session, 'first-hour-hover', async () => {
      const wb = session.workbench;
      const line = lineOf(session.workspace, FEATURES, USERS_LINE);
      const hover = await wb.hoverAt(await wb.revealText(line.number, line.text, 'db.users'), USERS_DESCRIPTION);
      assert.match(hover, /user_id bigint — Primary key of the user\./);
      assert.match(hover, /email string — Login e-mail address, unique\./);
      assert.match(hover, /country string — ISO 3166-1 alpha-2 country code\./);
      assert.match(hover, /\bage int\b/);
      assert.match(hover, /\bsignup_ts timestamp\b/);
      assert.deepEqual(await wb.hoverLinks(/^Open in catalog$/), [{ text: 'Open in catalog', inView: true }]);
      await wb.screenshot(shot(3, 'hover'));
    });
  });

  test("the hover's Open in catalog loads the dataset's page through code-server's proxy", async (t) => {
    await step(t, session, 'first-hour-open-in-catalog', async () => {
      const wb = session.workbench;
      const line = lineOf(session.workspace, FEATURES, USERS_LINE);
      await wb.hoverAt(await wb.revealText(line.number, line.text, 'db.users'), USERS_DESCRIPTION);
      const page = await wb.followHoverLink(/^Open in catalog$/);
      try {
        assert.match(new URL(page.url()).pathname, /^\/proxy\/\d+\/_pages\/[A-Za-z0-9_-]+\/dataset\//, page.url());
        const body = await page.locator('body').innerText();
        assert.doesNotMatch(body, /is not this catalog's name|"status":403|Forbidden/, body.slice(0, 400));
        assert.match(body, USERS_DESCRIPTION);
        assert.match(body, /user_id/);
        await page.screenshot({ path: path.join(SCREENSHOT_DIR, shot(4, 'open-in-catalog')) });
      } finally {
        await page.close();
      }
    });
  });

  test('an env typo: the message names the env, and "Replace … with PROD" fixes it', async (t) => {
    await step(t, session, 'first-hour-env-typo', async () => {
      const wb = session.workbench;
      writeFileSync(
        path.join(session.workspace, TYPOS),
        `"""Typed by hand in the first hour."""\n${ENV_TYPO_LINE}\n${COLUMN_TYPO_LINE}\n`,
      );
      await wb.openFile(TYPOS);
      // Both messages, the catalog's near matches included (they come in a second publication).
      await wb.filterProblems(`**/${path.posix.basename(TYPOS)}`);
      await wb.problems([/Did you mean env PROD\b/, /did you mean email\?/]);
      await wb.filterProblems('');
      await wb.hidePanel();
      const line = lineOf(session.workspace, TYPOS, ENV_TYPO_LINE);
      const { hover, items } = await wb.quickFixesOf(
        await wb.revealText(line.number, line.text, 'PORD'),
        /Did you mean env PROD\b/,
      );
      assert.match(hover, /env 'PORD' is not one of DataHub's environments \(did you mean PROD\?\)/);
      assert.match(hover, /Dataset db\.users is not in the catalog\. Did you mean env PROD\b/);
      assert.doesNotMatch(hover, /Did you mean db\.users\?/);
      const fix = items.map((i) => i.trim()).find((i) => /^Replace (env PORD )?with PROD$/.test(i));
      assert.ok(fix, `quick fixes: ${JSON.stringify(items)}`);
      assert.ok(!items.some((i) => i.trim() === 'Replace with db.users'), `quick fixes: ${JSON.stringify(items)}`);
      await wb.screenshot(shot(5, 'env-typo'));
      await wb.chooseQuickFix(fix);
      const fixed = ENV_TYPO_LINE.replace('PORD', 'PROD');
      await wb.editorShows(fixed);
      // The URN now names the catalog's dataset.
      await wb.hoverAt(await wb.revealText(line.number, fixed, 'db.users'), USERS_DESCRIPTION);
      await wb.leaveHover();
    });
  });

  test('a column typo: "did you mean email?" and "Replace with email", never a write on a column the catalog lacks', async (t) => {
    await step(t, session, 'first-hour-column-typo', async () => {
      const wb = session.workbench;
      const line = lineOf(session.workspace, TYPOS, COLUMN_TYPO_LINE);
      const { hover, items } = await wb.quickFixesOf(
        await wb.revealText(line.number, line.text, 'emial'),
        /did you mean email\?/,
      );
      assert.match(hover, /Column 'emial' is not in the catalog's schema of db\.users \(did you mean email\?\)/);
      assert.ok(
        items.some((i) => i.trim() === 'Replace with email'),
        `quick fixes: ${JSON.stringify(items)}`,
      );
      assert.ok(!items.some((i) => /Write column description/.test(i)), `quick fixes: ${JSON.stringify(items)}`);
      await wb.screenshot(shot(6, 'column-typo'));
      await wb.chooseQuickFix('Replace with email');
      const fixed = COLUMN_TYPO_LINE.replace('emial', 'email');
      await wb.editorShows(fixed);
      await wb.hoverAt(await wb.revealText(line.number, fixed, 'email'), /Login e-mail address, unique\./);
      await wb.leaveHover();
    });
  });

  test('Write Dataset Description starts from the current text; the edit is written, and Undo puts the text back', async (t) => {
    await step(t, session, 'first-hour-description', async () => {
      const wb = session.workbench;
      await wb.cursorOnHovered(session.workspace, FEATURES, USERS_LINE, 'db.users', USERS_DESCRIPTION);
      const before = await editedDatasetDescription(session.catalog, USERS);
      await wb.runCommand('Catalog Lens: Write Dataset Description');
      const current = await wb.prefilledInputBox(/Description of dataset/);
      assert.match(current, USERS_DESCRIPTION, 'prefilled with what the catalog shows');
      await wb.screenshot(shot(7, 'description-prefilled'));
      const edited = `${current.trimEnd()} Signed up on the web or in the app.`;
      await wb.submitInputBox(edited);
      const wrote = /Catalog Lens: Wrote the description of .*db\.users/;
      assert.match(await wb.waitForNotification(wrote), /Undo/);
      assert.equal(await editedDatasetDescriptionOnceNot(session.catalog, USERS, before), edited);
      await wb.screenshot(shot(8, 'description-written'));
      await wb.clickNotificationButton(wrote, 'Undo');
      const undone = await editedDatasetDescriptionOnceNot(session.catalog, USERS, edited);
      assert.equal(undone ?? '', before ?? '', 'Undo wrote the previous text back (empty where there was none)');
      // The undo says what it did, and offers no Undo of itself.
      assert.doesNotMatch(
        await wb.waitForNotification(/Catalog Lens: Restored the earlier description of .*db\.users/),
        /Undo/,
      );
      const line = lineOf(session.workspace, FEATURES, USERS_LINE);
      const hover = await wb.hoverAt(
        await wb.revealText(line.number, line.text, 'db.users'),
        /One row per registered user of the product\.(?! Signed up)/,
      );
      assert.doesNotMatch(hover, /Signed up on the web/);
      await wb.screenshot(shot(9, 'description-undone'));
      await wb.leaveHover();
      // The messages are read: closed, as the user closes them, before the next step's screenshots.
      await wb.runCommand('Notifications: Clear All Notifications');
      await wb.waitFor('the notifications closing', wb.page.locator('.notification-toast').first(), 'hidden');
    });
  });

  test('the catalog killed: the status says down with Retry, and a hover answers at once with why', async (t) => {
    await step(t, session, 'first-hour-catalog-down', async () => {
      const wb = session.workbench;
      // As `npm start -- --smoke` kills it: SIGKILL to the catalog's own pid.
      const catalog = session.catalog.process;
      process.kill(catalog.pid, 'SIGKILL');
      await catalog.exited;
      // A file not looked at yet: its URNs are asked of the catalog now.
      await wb.openFile(PEOPLE);
      await wb.waitForStatus(DOWN);
      assert.equal((await wb.statusItem().innerText()).trim(), 'Catalog: unreachable');
      const tooltip = await wb.statusTooltip(DOWN);
      assert.match(tooltip, /Retry/);
      assert.doesNotMatch(tooltip, /click to configure/);
      const line = lineOf(session.workspace, PEOPLE, OWNER_LINE);
      const point = await wb.revealText(line.number, line.text, 'asmith');
      const started = Date.now();
      const hover = await wb.hoverAt(point, /Is the catalog running at this address\?/);
      const took = Date.now() - started;
      assert.ok(took < DOWN_HOVER_MS, `the hover took ${took} ms`);
      assert.doesNotMatch(hover, /Loading/);
      await wb.screenshot(shot(10, 'catalog-down'));
      await wb.leaveHover();
    });
  });

  test('the catalog back on its port: Retry connects, and the hover shows the catalog again', async (t) => {
    await step(t, session, 'first-hour-catalog-back', async () => {
      const wb = session.workbench;
      await session.catalog.restart();
      // The status item's click is its Retry.
      await wb.statusItem().click();
      assert.equal(await wb.waitForStatus(CONNECTED), `Catalog: ${host}`);
      const line = lineOf(session.workspace, PEOPLE, OWNER_LINE);
      const hover = await wb.hoverAt(await wb.revealText(line.number, line.text, 'asmith'), /Alice Smith/);
      assert.doesNotMatch(hover, /Is the catalog running/);
      await wb.screenshot(shot(11, 'catalog-back'));
    });
  });
});
