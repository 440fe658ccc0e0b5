/**
 * The language server dies under a running VS Code (SIGKILL to its pid, found by walking
 * code-server's own process tree): the client starts it again after a pause, says so in the
 * status bar and in a notification, and the open documents get their diagnostics back. After
 * too many deaths in a short time it stays stopped, says so, and "Catalog Lens: Restart Server" brings it back.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { RESTART_DELAYS_MS } from '../../client/src/crashRestarts';
import { startSession, step, type E2eSession } from './harness';
import { installedServerScript } from './support/codeServer';
import { packageVersion } from './support/paths';
import { findInTree, waitForExit, waitForProcessInTree, type TreeProcess } from './support/processTree';
import { E2E_ENABLED, E2E_SKIP_REASON, lineOf } from './support/workspaceText';

const CONNECTED = /^Catalog Lens: Catalog connected/;
const RESTARTING = /^Catalog Lens: The language server stopped unexpectedly and is restarting/;
const RESTARTED = /Catalog Lens language server stopped unexpectedly and was restarted/;
const GAVE_UP = /Catalog Lens: The language server stopped unexpectedly 5 times in 3 minutes and was not restarted/;
/** The two problems the sample's features.py has whatever the catalog holds. */
const FEATURES_PROBLEMS = [/Malformed URN/, /db\.ghost.*not in the catalog/];
const USERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';

describe('Catalog Lens when its language server process dies', { skip: !E2E_ENABLED && E2E_SKIP_REASON }, () => {
  let session: E2eSession;
  before(async () => {
    session = await startSession();
  });
  after(async () => {
    await session?.stop();
  });

  /** The one node process running this extension's dist/server.js under code-server. */
  function isLanguageServer(argv: string[]): boolean {
    return argv.includes(installedServerScript(session.profile, packageVersion()));
  }

  function languageServer(notPid?: number, timeoutMs = 30_000): Promise<TreeProcess> {
    return waitForProcessInTree(session.codeServer.process.pid, isLanguageServer, {
      timeoutMs,
      what: 'the Catalog Lens language server',
      ...(notPid !== undefined ? { notPid } : {}),
    });
  }

  async function kill(server: TreeProcess): Promise<number> {
    process.kill(server.pid, 'SIGKILL');
    const at = Date.now();
    await waitForExit(server.pid, 10_000);
    return at;
  }

  test('a killed server is restarted after a pause, the user is told, and the diagnostics come back', async (t) => {
    await step(t, session, 'server-crash-restart', async () => {
      const wb = session.workbench;
      await wb.openFile('pipelines/features.py');
      await wb.problems(FEATURES_PROBLEMS);
      const first = await languageServer();

      await wb.startStatusLog();
      const killedAt = await kill(first);
      const toast = await wb.waitForNotification(RESTARTED, 30_000);
      const second = await languageServer(first.pid);
      assert.ok(Date.now() - killedAt >= RESTART_DELAYS_MS[0]!, 'the first restart waits its pause');
      await wb.waitForStatus(CONNECTED, 30_000);
      assert.match(toast, /Show Output/);

      // The restart dropped the dead server's diagnostics; these were published by the new one.
      await wb.hidePanel();
      const problems = await wb.problems(FEATURES_PROBLEMS, 30_000);
      assert.match(problems, /features\.py/);
      const log = await wb.statusLog();
      const restartingAt = log.findIndex((s) => RESTARTING.test(s.catalog));
      assert.ok(restartingAt >= 0, `the status item said "restarting": ${JSON.stringify(log)}`);
      assert.ok(
        log.slice(restartingAt).some((s) => CONNECTED.test(s.catalog)),
        'then connected again',
      );
      const cleared = log.findIndex((s) => /No Problems/i.test(s.problems));
      assert.ok(cleared >= 0, `the dead server's problems were cleared: ${JSON.stringify(log)}`);
      assert.ok(
        log.slice(cleared).some((s) => /error/i.test(s.problems) && !/No Problems/i.test(s.problems)),
        'and came back',
      );

      // The new server answers requests too.
      await wb.hidePanel();
      const line = lineOf(session.workspace, 'pipelines/features.py', `USERS = "${USERS}"`);
      await wb.hoverAt(await wb.revealText(line.number, line.text, 'db.users'), /One row per registered user/);
      assert.notEqual(second.pid, first.pid);
    });
  });

  test('after five deaths within three minutes it stays stopped, says so, and "Restart Server" brings it back', async (t) => {
    await step(t, session, 'server-crash-give-up', async () => {
      const wb = session.workbench;
      await wb.closeWidgets();
      // The first test used restart 1 of 4; restarts 2 to 4 each wait longer.
      let server = await languageServer();
      for (let attempt = 2; attempt <= 4; attempt++) {
        const killedAt = await kill(server);
        const next = await languageServer(server.pid);
        const pause = Date.now() - killedAt;
        const expected = RESTART_DELAYS_MS[attempt - 1]!;
        assert.ok(pause >= expected, `restart ${attempt} came after ${pause} ms, before its pause of ${expected} ms`);
        server = next;
        // Wait until the client has finished this restart before the next kill.
        await wb.waitForStatus(CONNECTED, 30_000);
      }
      await kill(server);
      const toast = await wb.waitForNotification(GAVE_UP, 30_000);
      assert.match(toast, /Restart Server/);
      await wb.waitForStatus(/^Catalog Lens: The catalog answered with an error/);
      assert.match(await wb.statusTooltip(/was not restarted/), /Catalog Lens: Restart Server/);
      assert.deepEqual(findInTree(session.codeServer.process.pid, isLanguageServer), [], 'no server was started again');

      await wb.runCommand('Catalog Lens: Restart Server');
      await languageServer(server.pid);
      await wb.waitForStatus(CONNECTED, 30_000);
      await wb.hidePanel();
      await wb.problems(FEATURES_PROBLEMS, 30_000);
    });
  });
});
