/**
 * The agent bridge in a real VS Code (code-server), as another extension calls it: a write tool
 * with `catalogLens.agentTools.writes` on, called through `vscode.lm.invokeTool` without a chat (by
 * the fixture extension test/e2e/fixtures/tool-caller, as a chat participant may), shows its
 * confirmation as VS Code shows it then: a modal dialog (LanguageModelToolsService.invokeTool: no
 * chat context, so dialogService.confirm with the confirmation's title and message). Nothing is
 * written while it is open; Cancel writes nothing; accepting writes. The in-host suite cannot see
 * this: in an extension test run VS Code's DialogService answers every confirm with "confirmed"
 * without showing it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startSession, step, type E2eSession } from './harness';
import { editedDatasetDescription } from './support/catalog';
import { REPO_ROOT } from './support/paths';
import { E2E_ENABLED, E2E_SKIP_REASON } from './support/workspaceText';

const REVENUE = 'urn:li:dataset:(urn:li:dataPlatform:snowflake,analytics.public.revenue,PROD)';
const FIXTURE = path.join(REPO_ROOT, 'test', 'e2e', 'fixtures', 'tool-caller');
const INVOKE = 'E2E Tool Caller: Invoke the Tool of tool-call.json';

/** The fixture extension packed as a .vsix in `dir` (vsce, as `npm run package` packs Catalog Lens). */
function packToolCaller(dir: string): string {
  const vsix = path.join(dir, 'tool-caller.vsix');
  const r = spawnSync(
    process.execPath,
    [
      require.resolve('@vscode/vsce/vsce'),
      'package',
      '--out',
      vsix,
      '--allow-missing-repository',
      '--skip-license',
      '--no-dependencies',
    ],
    { cwd: FIXTURE, encoding: 'utf8', timeout: 120_000 },
  );
  if (r.status !== 0 || !existsSync(vsix)) throw new Error(`packing ${FIXTURE} failed:\n${r.stdout}${r.stderr}`);
  return vsix;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('agent tools in the workbench', { skip: !E2E_ENABLED && E2E_SKIP_REASON }, () => {
  let session: E2eSession;
  let packDir: string;
  before(async () => {
    packDir = path.join(REPO_ROOT, 'test-results', 'e2e-tool-caller');
    rmSync(packDir, { recursive: true, force: true });
    mkdirSync(packDir, { recursive: true });
    session = await startSession({
      // A machine setting, as the user turns it on (a workspace cannot).
      machineSettings: { 'catalogLens.agentTools.writes': true },
      otherExtensions: [packToolCaller(packDir)],
    });
  });
  after(async () => {
    await session?.stop();
    rmSync(packDir, { recursive: true, force: true });
  });

  /** Starts the tool call; the outcome file appears once the call ends. */
  function callTool(input: Record<string, unknown>): {
    outcome: () => { ok: boolean; text?: string; error?: string } | undefined;
  } {
    const result = path.join(session.workspace, 'tool-call.result.json');
    rmSync(result, { force: true });
    writeFileSync(
      path.join(session.workspace, 'tool-call.json'),
      JSON.stringify({ name: 'catalogLens_set_description', input }),
    );
    return {
      outcome: () =>
        existsSync(result)
          ? (JSON.parse(readFileSync(result, 'utf8')) as { ok: boolean; text?: string; error?: string })
          : undefined,
    };
  }

  async function outcomeOf(call: ReturnType<typeof callTool>): Promise<{ ok: boolean; text?: string; error?: string }> {
    for (let i = 0; i < 200; i++) {
      const o = call.outcome();
      if (o) return o;
      await sleep(100);
    }
    throw new Error('the tool call did not end within 20 s');
  }

  test('a write tool asks in a dialog: nothing written while it is open, nothing on Cancel, the write once accepted', async (t) => {
    await step(t, session, 'agent-write-confirmation', async () => {
      const wb = session.workbench;
      const page = wb.page;
      const before = await editedDatasetDescription(session.catalog, REVENUE);
      const dialog = page.locator('.monaco-dialog-box');

      // Declined.
      const declined = callTool({ urn: REVENUE, description: 'Proposed by a model, declined by the user.' });
      await wb.runCommand(INVOKE);
      await wb.waitFor('the confirmation dialog', dialog);
      const shown = await dialog.innerText();
      t.diagnostic(`the dialog: ${JSON.stringify(shown)}`);
      assert.match(shown, /Write to the DataHub catalog\?/);
      assert.match(
        shown,
        /Set the description of .*analytics\.public\.revenue[\s\S]*Proposed by a model, declined by the user\./,
      );
      await wb.screenshot('agent-write-confirmation.png');
      await sleep(1000);
      assert.equal(declined.outcome(), undefined, 'the call waits for the answer');
      assert.equal(await editedDatasetDescription(session.catalog, REVENUE), before, 'nothing written while asked');
      await dialog.locator('.dialog-buttons .monaco-button', { hasText: /^Cancel$/ }).click();
      await wb.waitFor('the dialog closing', dialog, 'hidden');
      const no = await outcomeOf(declined);
      assert.equal(no.ok, false, JSON.stringify(no));
      assert.match(no.error ?? '', /cancel/i);
      await sleep(500);
      assert.equal(await editedDatasetDescription(session.catalog, REVENUE), before, 'nothing written once declined');

      // Accepted.
      const text = 'Daily revenue per country, in EUR, after refunds; confirmed by the user.';
      const accepted = callTool({ urn: REVENUE, description: text });
      await wb.runCommand(INVOKE);
      await wb.waitFor('the confirmation dialog', dialog);
      await sleep(1000);
      assert.equal(accepted.outcome(), undefined, 'the call waits for the answer');
      assert.equal(await editedDatasetDescription(session.catalog, REVENUE), before, 'nothing written while asked');
      const buttons = (await dialog.locator('.dialog-buttons .monaco-button').allInnerTexts()).map((b) => b.trim());
      t.diagnostic(`the dialog's buttons: ${JSON.stringify(buttons)}`);
      await dialog
        .locator('.dialog-buttons .monaco-button')
        .filter({ hasNotText: /^Cancel$/ })
        .first()
        .click();
      const yes = await outcomeOf(accepted);
      assert.equal(yes.ok, true, JSON.stringify(yes));
      assert.equal(await editedDatasetDescription(session.catalog, REVENUE), text);
      await wb.waitForNotification(/Catalog Lens: Wrote the description of dataset analytics\.public\.revenue/);
    });
  });
});
