/**
 * The access token in a real VS Code: against a catalog that requires a bearer token, the
 * status bar item follows what "Catalog Lens: Set Access Token" stored (SecretStorage → the
 * restarted language server → the catalog's answer).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startSession, step, type E2eSession } from './harness';
import { E2E_ENABLED, E2E_SKIP_REASON } from './support/workspaceText';

const TOKEN = 'e2e-right-token-7f3a';
const UNAUTHORIZED = /^Catalog Lens: The catalog refused the access token/;
const CONNECTED = /^Catalog Lens: Catalog connected/;

describe('Catalog Lens access token in a real VS Code', { skip: !E2E_ENABLED && E2E_SKIP_REASON }, () => {
  let session: E2eSession;
  before(async () => {
    // No token stored yet, so the catalog refuses the server's first request.
    session = await startSession({ token: TOKEN, readyStatus: UNAUTHORIZED });
  });
  after(async () => {
    await session?.stop();
  });

  async function setToken(token: string): Promise<void> {
    const wb = session.workbench;
    await wb.runCommand('Catalog Lens: Set Access Token');
    await wb.submitInputBox(token, /Set Access Token/);
  }

  test('the status bar item says unauthorized for a wrong token, and the host it is connected to for the right one', async (t) => {
    await step(t, session, 'access-token', async () => {
      const wb = session.workbench;
      // The item's text in words (issue 15), not only its icon: where it is connected, or what is wrong.
      const host = new URL(session.catalogUrl).host;
      assert.equal((await wb.statusItem().innerText()).trim(), 'Catalog: unauthorized');

      await setToken(TOKEN);
      assert.equal(await wb.waitForStatus(CONNECTED), `Catalog: ${host}`);
      assert.doesNotMatch(
        await wb.statusTooltip(/connected to http:\/\/127\.0\.0\.1:/),
        /Endpoint:/,
        'the endpoint once',
      );
      await wb.screenshot('status-connected.png', wb.statusBarClip());

      await setToken('e2e-wrong-token');
      assert.equal(await wb.waitForStatus(UNAUTHORIZED), 'Catalog: unauthorized');
      assert.match(await wb.statusTooltip(/refused the access token/), /click to set one/);
      await wb.screenshot('status-unauthorized.png', wb.statusBarClip());

      await setToken(TOKEN);
      assert.equal(await wb.waitForStatus(CONNECTED), `Catalog: ${host}`);
    });
  });
});
