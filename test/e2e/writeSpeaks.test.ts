/**
 * Issue 15, point 1, in a real VS Code: "Push description to catalog" with the catalog paused
 * (its process stopped with SIGSTOP, by its pid) ends within the request timeout in an error
 * message that says why and offers Retry; the status item turns to unreachable; once the
 * catalog runs again, Retry writes the same text.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startSession, step, type E2eSession } from './harness';
import { editedDatasetDescription } from './support/catalog';
import { E2E_ENABLED, E2E_SKIP_REASON, lineOf } from './support/workspaceText';

const CLICKS = 'urn:li:dataset:(urn:li:dataPlatform:kafka,events.clicks,PROD)';
const TIMEOUT_MS = 3000;

describe('a write with the catalog down', { skip: !E2E_ENABLED && E2E_SKIP_REASON }, () => {
  let session: E2eSession;
  let paused = false;
  before(async () => {
    session = await startSession({ userSettings: { 'catalogLens.requestTimeoutMs': TIMEOUT_MS } });
  });
  after(async () => {
    if (paused) process.kill(session.catalog.process.pid, 'SIGCONT');
    await session?.stop();
  });

  test('push with the catalog paused: the error says why and Retry writes the same text once it answers', async (t) => {
    await step(t, session, 'push-catalog-down', async () => {
      const wb = session.workbench;
      const file = 'catalog/clicks_docs.yml';
      const text = 'Clicks of the web and mobile apps, pushed again after the catalog came back.';
      writeFileSync(path.join(session.workspace, file), `datasets:\n  - urn: ${CLICKS}\n    description: ${text}\n`);
      await wb.openFile(file);
      const line = lineOf(session.workspace, file, 'description: ');
      await wb.openQuickFixMenu(
        await wb.revealText(line.number, line.text, 'mobile'),
        /differs from this one/,
        'Push description to catalog',
      );
      process.kill(session.catalog.process.pid, 'SIGSTOP');
      paused = true;
      const started = Date.now();
      await wb.chooseQuickFix('Push description to catalog');
      const failure =
        /Catalog Lens: Writing the description of events\.clicks failed: no answer from .* within 3000 ms/;
      const shown = await wb.waitForNotification(failure, 4 * TIMEOUT_MS);
      assert.ok(Date.now() - started < 4 * TIMEOUT_MS, `the failure came after ${Date.now() - started} ms`);
      assert.match(shown, /Retry/);
      await wb.waitForStatus(/The catalog is down or not answering/, 2 * TIMEOUT_MS);
      await wb.screenshot('push-catalog-down.png');
      process.kill(session.catalog.process.pid, 'SIGCONT');
      paused = false;
      await wb.clickNotificationButton(failure, 'Retry');
      await wb.waitForNotification(/Catalog Lens: Wrote the description of dataset events\.clicks/);
      assert.equal(await editedDatasetDescription(session.catalog, CLICKS), text);
    });
  });
});
