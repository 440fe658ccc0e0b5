/**
 * A DataHub dataset file of the demo workspace (catalog/users_dataset.yaml) in a real VS Code: a
 * field id the catalog's schema lacks is flagged, a glossary term is completed from the catalog,
 * the entry is compared with the catalog in a diff view (the code lens above it), and the file's
 * description is pushed from the palette: the writes listed in one modal dialog, confirmed, written,
 * and read back from the catalog over HTTP.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startSession, step, type E2eSession } from './harness';
import { editedDatasetDescription } from './support/catalog';
import { E2E_ENABLED, E2E_SKIP_REASON, lineOf } from './support/workspaceText';

const USERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
const FILE = 'catalog/users_dataset.yaml';
const OURS = 'Every registered user of the product, one row each.';

describe('DataHub dataset YAML: check, complete, compare and push', { skip: !E2E_ENABLED && E2E_SKIP_REASON }, () => {
  let session: E2eSession;
  before(async () => {
    session = await startSession();
  });
  after(async () => {
    await session?.stop();
  });

  test('a wrong field id flagged, a term completed, the entry compared with the catalog, its description pushed', async (t) => {
    await step(t, session, 'datahub-yaml', async () => {
      const wb = session.workbench;
      const page = wb.page;
      // The demo file as a user edits it: a field id mistyped, the description reworded, a term half typed.
      const full = path.join(session.workspace, FILE);
      const demo = readFileSync(full, 'utf8');
      const edited = demo
        .replace('description: One row per registered user of the product.', `description: ${OURS}`)
        .replace('- id: email', '- id: emial')
        .replace('    - Classification.Sensitive', '    - Classification.Sen');
      assert.notEqual(edited, demo);
      writeFileSync(full, edited);
      await wb.openFile(FILE);

      await wb.problems([/Column 'emial' is not in the catalog's schema of db\.users \(did you mean email\?\)/]);
      await wb.screenshot('datahub-yaml-problems.png');
      await wb.hidePanel();

      const term = lineOf(session.workspace, FILE, 'Classification.Sen');
      await wb.goToLine(term.number, term.text.length + 1);
      const suggest = page.locator('.editor-widget.suggest-widget');
      await page.keyboard.press('Control+Space');
      const row = suggest.locator('.monaco-list-row', { hasText: 'Sensitive Data' }).first();
      await wb.waitFor('the suggestions offering the term Sensitive Data (after Control+Space)', row);
      await wb.screenshot('datahub-yaml-term.png');
      await row.click();
      await wb.waitFor('the suggestions closing', suggest, 'hidden');
      await wb.editorShows('    - Classification.Sensitive');

      const compare = page.locator('.codelens-decoration a', { hasText: 'Compare with catalog' }).first();
      await wb.waitFor('the code lens Compare with catalog above the entry', compare);
      await compare.click();
      const diff = page.locator('.editor-group-container.active .monaco-diff-editor');
      await wb.waitFor('the diff of the entry against the catalog', diff);
      await wb.waitFor(
        'the tab of the comparison',
        page.locator('.tab.active', { hasText: 'users_dataset.yaml (db.users): catalog ↔ file' }),
      );
      const original = diff.locator('.editor.original .view-lines');
      await wb.waitFor(
        "the catalog's side showing its description",
        original.filter({ hasText: 'One row per registered user of the product.' }),
      );
      await wb.screenshot('datahub-yaml-compare.png');

      // From the palette, for the whole file: the diff's file side has the focus (the active editor).
      await wb.runCommand('Catalog Lens: Push DataHub YAML to Catalog');
      const dialog = page.locator('.monaco-dialog-box');
      await wb.waitFor(
        'the dialog listing the writes',
        dialog.filter({ hasText: 'Push 1 write from users_dataset.yaml' }),
      );
      const listed = await dialog.innerText();
      assert.match(
        listed,
        /db\.users: description "One row per registered user of the product\." → "Every registered user of the product, one row each\."/,
      );
      await wb.screenshot('datahub-yaml-push.png');
      await dialog
        .locator('.monaco-button', { hasText: /^Push$/ })
        .first()
        .click();
      await wb.waitFor('the dialog closing', dialog, 'hidden');
      await wb.waitForNotification(/Catalog Lens: Wrote the description of dataset db\.users/);
      assert.equal(await editedDatasetDescription(session.catalog, USERS), OURS);
    });
  });
});
