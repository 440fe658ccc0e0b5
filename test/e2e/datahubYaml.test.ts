/**
 * DataHub's own YAML formats in a real VS Code, each file written as DataHub's documentation shows
 * it. The dataset file of the demo workspace (catalog/users_dataset.yaml): a field id the catalog's
 * schema lacks is flagged, a glossary term is completed from the catalog, the entry is compared with
 * the catalog in a diff view (the code lens above it), one field's description is pulled from the
 * catalog through the Refactor Preview (that change ticked, the other left), and the file's
 * description is pushed from the palette: the writes listed in one modal dialog, confirmed,
 * written, and read back from the catalog over HTTP. A business glossary, a structured properties
 * file and a data product (test/e2e/fixtures/datahub-yaml, copied into the workspace's datahub/):
 * their mistakes flagged, their entries and references hovered, their references completed.
 */
import assert from 'node:assert/strict';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startSession, step, type E2eSession } from './harness';
import { editedDatasetDescription } from './support/catalog';
import { REPO_ROOT } from './support/paths';
import { E2E_ENABLED, E2E_SKIP_REASON, lineOf, waitForFile } from './support/workspaceText';

const USERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
const FILE = 'catalog/users_dataset.yaml';
const OURS = 'Every registered user of the product, one row each.';
/** The file's description of the field user_id; the catalog's is "Primary key of the user.". */
const FIELD_OURS = 'Key of the user row.';
/** The glossary, structured properties and data product files, copied into the workspace's datahub/ folder. */
const FIXTURES = path.join(REPO_ROOT, 'test', 'e2e', 'fixtures', 'datahub-yaml');
const GLOSSARY = 'datahub/business_glossary.yml';
const PROPERTIES = 'datahub/structured_properties.yaml';
const PRODUCT = 'datahub/dataproduct.yaml';

describe(
  "DataHub's YAML formats: check, hover, complete, compare, pull and push",
  { skip: !E2E_ENABLED && E2E_SKIP_REASON },
  () => {
    let session: E2eSession;
    before(async () => {
      session = await startSession({
        prepareWorkspace: (workspace) => cpSync(FIXTURES, path.join(workspace, 'datahub'), { recursive: true }),
      });
    });
    after(async () => {
      await session?.stop();
    });

    /** Writes `file` of the workspace as `edit` makes it (as the user has typed it) and opens it, no notification over it. */
    const openEdited = async (file: string, edit: (text: string) => string): Promise<void> => {
      const full = path.join(session.workspace, file);
      const text = readFileSync(full, 'utf8');
      const edited = edit(text);
      assert.notEqual(edited, text, `the edit of ${file} found nothing to change`);
      writeFileSync(full, edited);
      // A message of an earlier scenario (the push's, with its Undo) would stay over this one's screenshots.
      const wb = session.workbench;
      await wb.runCommand('Notifications: Clear All Notifications');
      await wb.waitFor('no notification shown', wb.page.locator('.notification-toast').first(), 'hidden');
      await wb.openFile(file);
    };

    /** Puts the cursor at the end of the first line of `file` holding `needle` (as it is on disk). */
    const cursorAtEndOf = async (file: string, needle: string): Promise<void> => {
      const line = lineOf(session.workspace, file, needle);
      await session.workbench.goToLine(line.number, line.text.length + 1);
    };

    /**
     * Control+Space at the cursor: the suggestions offer `label` and each of `alsoOffered`; a
     * screenshot, then `label` chosen.
     */
    const completeWith = async (label: string, screenshot: string, alsoOffered: string[] = []): Promise<void> => {
      const wb = session.workbench;
      const suggest = wb.page.locator('.editor-widget.suggest-widget');
      await wb.page.keyboard.press('Control+Space');
      const row = suggest.locator('.monaco-list-row', { hasText: label }).first();
      await wb.waitFor(`the suggestions offering ${label} (after Control+Space)`, row);
      for (const other of alsoOffered)
        await wb.waitFor(
          `the suggestions offering ${other} too`,
          suggest.locator('.monaco-list-row', { hasText: other }).first(),
        );
      await wb.screenshot(screenshot);
      await row.click();
      await wb.waitFor('the suggestions closing', suggest, 'hidden');
    };

    /**
     * The Problems panel, filtered to `file`: a problem matching each of `expected`, none matching
     * `gone` (a problem the edit before removed: its row leaves once the file is checked again).
     */
    const problemsOf = async (file: string, expected: RegExp[], gone: RegExp[] = []): Promise<void> => {
      const wb = session.workbench;
      await wb.filterProblems(`**/${file}`);
      const panel = wb.page.locator('.markers-panel');
      // The filter applies a moment after it is typed: until then the other files' problems are listed too.
      await wb.waitFor(
        `the Problems panel listing ${file} alone`,
        panel
          .locator('.monaco-list-row .label-name')
          .filter({ hasNotText: path.posix.basename(file) })
          .first(),
        'hidden',
      );
      await wb.problems(expected);
      const rows = panel.locator('.monaco-list-row');
      for (const re of gone)
        await wb.waitFor(`no problem matching ${re}`, rows.filter({ hasText: re }).first(), 'hidden');
    };

    /** Hovers `word` on the first line of `file` holding `needle` until the hover matches `expected`; returns its text. */
    const hoverOn = async (file: string, needle: string, word: string, expected: RegExp): Promise<string> => {
      const wb = session.workbench;
      const line = lineOf(session.workspace, file, needle);
      return wb.hoverAt(await wb.revealText(line.number, line.text, word), expected);
    };

    test("a wrong field id flagged, a term completed, the entry compared with the catalog, a field's description pulled, its description pushed", async (t) => {
      await step(t, session, 'datahub-yaml', async () => {
        const wb = session.workbench;
        const page = wb.page;
        // The demo file as a user edits it: a field id mistyped, the description and a field's reworded, a term half typed.
        const full = path.join(session.workspace, FILE);
        const demo = readFileSync(full, 'utf8');
        const edited = demo
          .replace('description: One row per registered user of the product.', `description: ${OURS}`)
          .replace('description: Primary key of the user.', `description: ${FIELD_OURS}`)
          .replace('- id: email', '- id: emial')
          .replace('    - Classification.Sensitive', '    - Classification.Sen');
        assert.notEqual(edited, demo);
        assert.ok(
          edited.includes(`description: ${FIELD_OURS}`),
          'the demo file no longer describes user_id as the test expects',
        );
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
        await wb.editorShows(term.text.replace('Classification.Sen', 'Classification.Sensitive'));

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

        // Pull from the palette, for the whole file (the diff's file side is the active editor): VS
        // Code's Refactor Preview lists the two values the catalog has otherwise, neither ticked.
        await wb.runCommand('Catalog Lens: Pull DataHub YAML from Catalog');
        const preview = page.locator('.bulk-edit-panel');
        await wb.waitFor('the Refactor Preview of the pull', preview, 'visible', 30_000);
        const rows = preview.locator('.monaco-list-row');
        const fieldRow = rows.filter({ hasText: 'Primary key of the user.' }).first();
        const entryRow = rows.filter({ hasText: 'One row per registered user of the product.' }).first();
        await wb.waitFor("the pull's change of user_id's description", fieldRow);
        await wb.waitFor("the pull's change of the entry's description", entryRow);
        const ticked = '.edit-checkbox[aria-checked="true"]';
        assert.equal(
          await preview.locator(ticked).count(),
          0,
          'a change of the pull is ticked before the user ticks it',
        );
        // Only the field's change ticked; the entry's description stays as the file says it.
        await fieldRow.locator('.edit-checkbox').click();
        await wb.waitFor("user_id's change ticked", fieldRow.locator(ticked));
        assert.equal(await entryRow.locator(ticked).count(), 0, "the entry's change is ticked too");
        await wb.screenshot('datahub-yaml-pull.png');
        await preview
          .locator('.monaco-button', { hasText: /^Apply$/ })
          .first()
          .click();
        await wb.waitFor('the Refactor Preview closing (after Apply)', preview, 'hidden');
        await wb.runCommand('File: Save All');
        // The file as it was before the pull (the term completed), but for that one value.
        const completed = edited.replace('    - Classification.Sen\n', '    - Classification.Sensitive\n');
        assert.notEqual(completed, edited);
        await waitForFile(
          full,
          completed.replace(`description: ${FIELD_OURS}`, 'description: Primary key of the user.'),
        );

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

    test("a business glossary: a term's path completed from the file, the dangling reference flagged with the term it is near, a term's name hovered", async (t) => {
      await step(t, session, 'datahub-yaml-glossary', async () => {
        const wb = session.workbench;
        // A related term about to be written under a term of the file: an empty item.
        const sensitive = '        description: Data that needs care when it is shared.\n';
        await openEdited(GLOSSARY, (text) =>
          text.replace(sensitive, `${sensitive}        related_terms:\n          - \n`),
        );
        const item = lineOf(session.workspace, GLOSSARY, 'related_terms:').number + 1;
        await wb.goToLine(item, '          - '.length + 1);
        // The paths of the file's own terms; Confidential and Email are not in the catalog.
        await completeWith('Classification.Confidential', 'datahub-yaml-glossary-complete.png', [
          'Classification.Sensitive',
          'PersonalInformation.Email',
        ]);
        await wb.editorShows('          - Classification.Confidential');

        // The mistake of DataHub's own glossary example: a path the file does not define, with the one it is near.
        await problemsOf(
          GLOSSARY,
          [
            /'Data-Classification\.Sensitive' is not a term of this file \(did you mean Classification\.Sensitive\?\)/,
            /Glossary term Data-Classification\.Sensitive is not in the catalog\. Did you mean Classification\.Sensitive\?/,
          ],
          // Nothing left on the line just completed.
          [new RegExp(`\\[Ln ${item}, Col`)],
        );
        await wb.screenshot('datahub-yaml-glossary-problems.png');
        await wb.filterProblems('');
        await wb.hidePanel();
        await hoverOn(
          GLOSSARY,
          '- Data-Classification.Sensitive',
          'Data-Classification.Sensitive',
          /'Data-Classification\.Sensitive' is not a term of this file \(did you mean Classification\.Sensitive\?\)/,
        );

        // A term's name: the URN DataHub makes of its path, and what the catalog knows of that term.
        const hover = await hoverOn(
          GLOSSARY,
          '- name: Sensitive',
          'Sensitive',
          /urn:li:glossaryTerm:Classification\.Sensitive/,
        );
        assert.match(hover, /Glossary term/);
        assert.match(hover, /Data that must be masked outside the warehouse\./);
        await wb.screenshot('datahub-yaml-glossary-hover.png');
        await wb.leaveHover();
      });
    });

    test("structured properties: a wrong cardinality and type flagged, a property's id hovered, a type completed", async (t) => {
      await step(t, session, 'datahub-yaml-properties', async () => {
        const wb = session.workbench;
        await openEdited(PROPERTIES, (text) =>
          text.replace('  cardinality: SINGLE', '  cardinality: SINGEL').replace('  type: string', '  type: ri'),
        );
        await problemsOf(PROPERTIES, [
          /'SINGEL' is not a value of 'cardinality': SINGLE, MULTIPLE/,
          /'ri' is not a value of 'type': string, rich_text, number, date, urn/,
        ]);
        await wb.screenshot('datahub-yaml-properties-problems.png');
        await wb.filterProblems('');
        await wb.hidePanel();

        const hover = await hoverOn(
          PROPERTIES,
          '- id: io.acryl.privacy.retentionTime',
          'retentionTime',
          /urn:li:structuredProperty:io\.acryl\.privacy\.retentionTime/,
        );
        assert.match(hover, /Structured property/);
        assert.match(hover, /Allowed values: 30, 90, 365/);
        await wb.screenshot('datahub-yaml-properties-hover.png');
        await wb.leaveHover();

        // The wrong value taken back: every type DataHub takes is offered.
        await cursorAtEndOf(PROPERTIES, '  type: ri');
        const typeLine = lineOf(session.workspace, PROPERTIES, '  type: ri').number;
        await wb.page.keyboard.press('Backspace');
        await wb.cursorIs(typeLine, '  type: r'.length + 1);
        await wb.page.keyboard.press('Backspace');
        await wb.cursorIs(typeLine, '  type: '.length + 1);
        await completeWith('rich_text', 'datahub-yaml-properties-complete.png', ['string', 'number', 'date', 'urn']);
        await wb.editorShows('  type: rich_text');
      });
    });

    test('a data product: an asset completed, the asset the catalog lacks flagged, its domain by name hovered', async (t) => {
      await step(t, session, 'datahub-yaml-product', async () => {
        const wb = session.workbench;
        const dashboard = '  - urn:li:dashboard:(looker,revenue_overview)\n';
        await openEdited(PRODUCT, (text) => text.replace(dashboard, `${dashboard}  - db.ord\n`));
        await cursorAtEndOf(PRODUCT, '  - db.ord');
        await completeWith('db.orders', 'datahub-yaml-product-complete.png');
        await wb.editorShows(`  - ${ORDERS}`);

        await problemsOf(
          PRODUCT,
          [
            /Dataset analytics\.public\.revenue_daily is not in the catalog\. Did you mean analytics\.public\.revenue\?/,
          ],
          [/asset 'db\.ord' is not an urn/],
        );
        await wb.screenshot('datahub-yaml-product-problems.png');
        await wb.filterProblems('');
        await wb.hidePanel();

        // The domain by name, found as DataHub's DomainRegistry finds it: Marketing's id is a GUID.
        const hover = await hoverOn(
          PRODUCT,
          'domain: Marketing',
          'Marketing',
          /urn:li:domain:7f3c9a52-1b7e-4c1d-9d7a-2f8e5b6c4a10/,
        );
        assert.match(hover, /Domain/);
        assert.match(hover, /Campaigns, attribution and revenue reporting\./);
        await wb.screenshot('datahub-yaml-product-hover.png');
        await wb.leaveHover();
      });
    });
  },
);
