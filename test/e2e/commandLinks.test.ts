/**
 * A crafted URN in a file must not become a clickable `command:` link in a notification (security
 * probe, finding 3). Its name holds `[Open the docs]%28command:…%29`, which a message quoting the
 * decoded name turns into `[Open the docs](command:…)`: VS Code's notifications render that as
 * an anchor and run the command on one click. In code-server, the palette's "Write Dataset
 * Description…" on that URN: neither its input box, nor its progress or result notifications
 * hold an anchor to a `command:` target, and the toast still names the dataset as the file does.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startSession, step, type E2eSession } from './harness';
import { E2E_ENABLED, E2E_SKIP_REASON } from './support/workspaceText';

const FILE = 'pipelines/crafted.py';
// A harmless command: were the link rendered, the test fails before anyone could click it.
const CRAFTED =
  'urn:li:dataset:(urn:li:dataPlatform:hive,db.users[Open the docs]%28command:workbench.action.files.newUntitledFile%29,PROD)';
const COMMAND_ANCHOR = 'a[href^="command:"]';

/** Anchors to command: targets anywhere in the notifications (toasts and center) and the quick input. */
async function commandAnchors(page: Page): Promise<string[]> {
  return page
    .locator(
      `.notifications-toasts ${COMMAND_ANCHOR}, .notifications-center ${COMMAND_ANCHOR}, .quick-input-widget ${COMMAND_ANCHOR}`,
    )
    .evaluateAll((anchors) => anchors.map((a) => `${a.textContent ?? ''} → ${a.getAttribute('href') ?? ''}`));
}

describe(
  'a crafted URN in a file and a write command from the palette',
  { skip: !E2E_ENABLED && E2E_SKIP_REASON },
  () => {
    let session: E2eSession;
    before(async () => {
      session = await startSession({
        firstFile: FILE,
        prepareWorkspace: (workspace) => {
          mkdirSync(path.join(workspace, path.dirname(FILE)), { recursive: true });
          writeFileSync(
            path.join(workspace, FILE),
            `# A URN whose name carries a command link.\nTABLE = "${CRAFTED}"\n`,
          );
        },
      });
    });
    after(async () => {
      await session?.stop();
    });

    test('"Catalog Lens: Write Dataset Description…": no command: link in the input box or the notifications', async (t) => {
      await step(t, session, 'command-links', async () => {
        const wb = session.workbench;
        // The hover box shows the diagnostic that the catalog does not hold it: the server has resolved the URN.
        await wb.cursorOnHovered(session.workspace, FILE, 'TABLE = ', 'db.users', /is not in the catalog/);
        await wb.runCommand('Catalog Lens: Write Dataset Description');
        const title = wb.quickInput().locator('.quick-input-title', { hasText: /Description of dataset/ });
        await wb.waitFor('the input box of the description', title);
        assert.match(await title.innerText(), /Open the docs/, 'the input box names the dataset as the file does');
        assert.deepEqual(await commandAnchors(wb.page), [], 'the input box');
        await wb.submitInputBox('Written from the e2e test of command links.');
        const toast = await wb.waitForNotification(/is not in the catalog/);
        assert.deepEqual(await commandAnchors(wb.page), [], 'the notifications');
        assert.match(toast, /db\.users\[Open the docs\] \(command:workbench\.action\.files\.newUntitledFile\)/);
      });
    });
  },
);
