/**
 * Issue 16 in a real VS Code: F2 on a dataset's name in a Python literal renames it in every file
 * of the workspace that names it — the literal, the docs-as-code YAML entry and a SQL comment in
 * the other namespace word — as one WorkspaceEdit that VS Code shows in its Refactor Preview
 * (Ctrl+Enter in the rename box), every change checked, while a notification says that the
 * catalog is not changed; Apply, and every file reads back with the new name, the other parts of
 * each URN as they were.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startSession, step, type E2eSession } from './harness';
import { E2E_ENABLED, E2E_SKIP_REASON, waitForFile } from './support/workspaceText';

const urn = (ns: string, name: string): string => `urn:${ns}:dataset:(urn:${ns}:dataPlatform:hive,${name},PROD)`;
const FILES = (name: string): Record<string, string> => ({
  'rename_demo/load.py': `SOURCE = "${urn('li', name)}"\n`,
  'rename_demo/datasets.yml': `datasets:\n  - urn: ${urn('li', name)}\n    description: Rows to rename.\n`,
  'rename_demo/report.sql': `-- reads ${urn('svc', name)}\nSELECT 1;\n`,
});

describe('rename across the workspace in the Refactor Preview', { skip: !E2E_ENABLED && E2E_SKIP_REASON }, () => {
  let session: E2eSession;
  before(async () => {
    session = await startSession({
      prepareWorkspace: (dir) => {
        mkdirSync(path.join(dir, 'rename_demo'), { recursive: true });
        for (const [file, text] of Object.entries(FILES('db.rename_me'))) writeFileSync(path.join(dir, file), text);
      },
    });
  });
  after(async () => {
    await session?.stop();
  });

  test('F2 on db.rename_me, type db.renamed, Apply in the preview: the three files name db.renamed', async (t) => {
    await step(t, session, 'rename-preview', async () => {
      const wb = session.workbench;
      const page = wb.page;
      await wb.openFile('rename_demo/load.py');
      await wb.cursorAt(await wb.revealText(1, `SOURCE = "${urn('li', 'db.rename_me')}"`, 'rename_me'));
      const box = page.locator('.rename-box input');
      await page.keyboard.press('F2');
      await wb.waitFor('the rename box (after F2)', box);
      // prepareRename offers the name alone, not the whole URN.
      await wb.waitFor('the rename box having the focus', page.locator('.rename-box input:focus'));
      assert.equal(await box.inputValue(), 'db.rename_me');
      await box.fill('db.renamed');
      // The rename box's own hint: "Enter to Rename, Ctrl+Enter to Preview".
      await box.press('Control+Enter');
      const preview = page.locator('.bulk-edit-panel');
      await wb.waitFor('the Refactor Preview', preview, 'visible', 30_000);
      for (const file of ['load.py', 'datasets.yml', 'report.sql'])
        await wb.waitFor(`the change of ${file}`, preview.locator('.monaco-list-row', { hasText: file }).first());
      await wb.screenshot('rename-preview.png');
      // Nothing is said before Apply.
      assert.equal(await page.locator('.notification-toast', { hasText: /rename of db\.rename_me/ }).count(), 0);
      // Nothing is written before Apply.
      for (const [file, text] of Object.entries(FILES('db.rename_me')))
        assert.equal(readFileSync(path.join(session.workspace, file), 'utf8'), text, file);
      await page
        .locator('.monaco-button', { hasText: /^Apply$/ })
        .first()
        .click();
      await wb.waitFor('the Refactor Preview closing (after Apply)', preview, 'hidden');
      // The message comes once the edit is applied, not when the preview opens.
      await wb.waitForNotification(
        /rename of db\.rename_me to db\.renamed: 3 places in 3 files\. Only files change: the catalog still has db\.rename_me as it was/,
      );
      await wb.runCommand('File: Save All');
      for (const [file, text] of Object.entries(FILES('db.renamed')))
        await waitForFile(path.join(session.workspace, file), text);
    });
  });
});
