/**
 * Catalog Lens in a real VS Code (code-server 4.139 = Code 1.139, in Chromium), installed from
 * its .vsix, against the local catalog with the sample data: what a user sees and does with
 * the demo workspace. Screenshots land in docs/screenshots/ for the README.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { E2E_VIEWPORT, startSession, step, type E2eSession } from './harness';
import { editedDatasetDescription, featureTableFeatures, ingestAspect } from './support/catalog';
import { E2E_ENABLED, E2E_SKIP_REASON, lineOf } from './support/workspaceText';

const USERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
const USERS_TABLE = 'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users_table)';
const SIGNUP_DAYS = 'urn:li:mlFeature:(users_table,signup_days)';
const USERS_DESCRIPTION = /One row per registered user of the product\./;
const WIDE = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.events_wide,PROD)';
const OPEN_IN_CATALOG = /^Open in catalog$/;

describe('Catalog Lens in a real VS Code', { skip: !E2E_ENABLED && E2E_SKIP_REASON }, () => {
  let session: E2eSession;
  before(async () => {
    session = await startSession();
  });
  after(async () => {
    await session?.stop();
  });

  // First, while the sample's diagnostics are untouched by the writes below.
  test('the Problems panel lists the malformed URN and the URN the catalog does not hold', async (t) => {
    await step(t, session, 'problems', async () => {
      const wb = session.workbench;
      await wb.openFile('pipelines/features.py');
      const text = await wb.problems([/Malformed URN/, /db\.ghost.*not in the catalog/]);
      assert.match(text, /features\.py/);
      await wb.screenshot('problems.png');
    });
  });

  test('hovering a dataset URN in YAML shows its catalog description', async (t) => {
    await step(t, session, 'hover-yaml', async () => {
      const wb = session.workbench;
      await wb.hidePanel();
      await wb.openFile('catalog/datasets.yml');
      const line = lineOf(session.workspace, 'catalog/datasets.yml', USERS);
      const hover = await wb.hoverAt(await wb.revealText(line.number, line.text, 'db.users'), USERS_DESCRIPTION);
      assert.match(hover, /db\.users/);
      // What else the catalog knows: its owners, tag, term, domain and lineage (issue 17).
      assert.match(hover, /Owners jdoe, growth-analytics · Tags pii · Terms Profile · Domain growth · Lineage ↑0 ↓2/);
      // Every one of its five columns, with its type (the lineage link's target takes no room).
      assert.match(hover, /user_id bigint — Primary key of the user\./);
      assert.match(hover, /signup_ts \S+ — /);
      assert.doesNotMatch(hover, /more ·/);
      // One "Open in catalog" (the document link's, "(ctrl + click)"), in view in a 1400×900 window.
      assert.deepEqual(E2E_VIEWPORT, { width: 1400, height: 900 });
      assert.deepEqual(await wb.hoverLinks(/Open in catalog/), [{ text: 'Open in catalog', inView: true }]);
      await wb.screenshot('hover-dataset.png');
    });
  });

  test('a 4-column dataset with a diagnostic: the message once and the link in view', async (t) => {
    await step(t, session, 'hover-diagnostic', async () => {
      const wb = session.workbench;
      await wb.openFile('catalog/datasets.yml');
      const line = lineOf(session.workspace, 'catalog/datasets.yml', ORDERS);
      const hover = await wb.hoverAt(await wb.revealText(line.number, line.text, 'db.orders'), /has no description/);
      // The diagnostic's message once (the column table's own "have no description" line aside).
      assert.equal(hover.match(/has no description/gi)?.length, 1, hover);
      assert.deepEqual(await wb.hoverLinks(OPEN_IN_CATALOG), [{ text: 'Open in catalog', inView: true }]);
    });
  });

  test('a malformed URN: its message once', async (t) => {
    await step(t, session, 'hover-malformed', async () => {
      const wb = session.workbench;
      await wb.openFile('pipelines/features.py');
      const line = lineOf(session.workspace, 'pipelines/features.py', 'BROKEN = ');
      const hover = await wb.hoverAt(await wb.revealText(line.number, line.text, 'db.users'), /Malformed URN/);
      assert.equal(hover.match(/Malformed URN/g)?.length, 1, hover);
    });
  });

  test('a dataset of 30 columns: 6 lines with their types, "…and 24 more" on its own line, and the link in view', async (t) => {
    await step(t, session, 'hover-many-columns', async () => {
      const wb = session.workbench;
      const fields = Array.from({ length: 30 }, (_, i) => ({
        fieldPath: `event_field_${i + 1}`,
        nullable: true,
        ...(i % 4 === 3 ? {} : { description: `What field ${i + 1} of the event records.` }),
        type: { type: { 'com.linkedin.schema.StringType': {} } },
        nativeDataType: 'string',
        recursive: false,
        isPartOfKey: false,
      }));
      await ingestAspect(session.catalog, 'dataset', WIDE, 'datasetProperties', {
        customProperties: {},
        name: 'events_wide',
        description: 'One row per event, with every field the tracker sends.',
        tags: [],
      });
      await ingestAspect(session.catalog, 'dataset', WIDE, 'schemaMetadata', {
        schemaName: 'db.events_wide',
        platform: 'urn:li:dataPlatform:hive',
        version: 0,
        hash: '',
        platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
        fields,
      });
      const file = 'pipelines/events.py';
      writeFileSync(path.join(session.workspace, file), `# The tracker's events.\nEVENTS = "${WIDE}"\n`);
      await wb.openFile(file);
      const line = lineOf(session.workspace, file, 'EVENTS = ');
      const hover = await wb.hoverAt(await wb.revealText(line.number, line.text, 'events_wide'), /24 more/);
      assert.match(hover, /event_field_6 string — What field 6 of the event records\./);
      assert.doesNotMatch(hover, /event_field_7\b/);
      // The summary is a line of its own, not run together with the last column's.
      assert.match(hover, /\n…and 24 more · 7 of the 30 columns have no description/);
      assert.deepEqual(await wb.hoverLinks(OPEN_IN_CATALOG), [{ text: 'Open in catalog', inView: true }]);
      await wb.screenshot('hover-many-columns.png');
    });
  });

  test('hovering a dataset URN in Python shows its catalog description', async (t) => {
    await step(t, session, 'hover-python', async () => {
      const wb = session.workbench;
      await wb.openFile('pipelines/features.py');
      const line = lineOf(session.workspace, 'pipelines/features.py', `USERS = "${USERS}"`);
      const hover = await wb.hoverAt(await wb.revealText(line.number, line.text, 'db.users'), USERS_DESCRIPTION);
      assert.match(hover, /hive/);
    });
  });

  test('hovering a feature URN shows the feature and its description', async (t) => {
    await step(t, session, 'hover-feature', async () => {
      const wb = session.workbench;
      await wb.openFile('pipelines/features.py');
      const line = lineOf(session.workspace, 'pipelines/features.py', 'AGE = "urn:li:mlFeature:(users_table,age)"');
      const hover = await wb.hoverAt(
        await wb.revealText(line.number, line.text, 'users_table,age'),
        /Age of the user in years\./,
      );
      assert.match(hover, /age/);
    });
  });

  test('hovering a DataHub builder call resolves the URN it builds', async (t) => {
    await step(t, session, 'hover-builder', async () => {
      const wb = session.workbench;
      // A file the user just wrote: the demo's builder calls name other datasets.
      const file = 'pipelines/builder_call.py';
      const code =
        'from datahub.emitter.mce_builder import make_dataset_urn\n\nUSERS = make_dataset_urn("hive", "db.users", "PROD")\n';
      writeFileSync(path.join(session.workspace, file), code);
      await wb.openFile(file);
      const line = lineOf(session.workspace, file, 'USERS = make_dataset_urn(');
      const hover = await wb.hoverAt(
        await wb.revealText(line.number, line.text, 'make_dataset_urn'),
        USERS_DESCRIPTION,
      );
      assert.match(hover, /make_dataset_urn/);
    });
  });

  test('the quick fix of a missing description writes the typed description to the catalog', async (t) => {
    await step(t, session, 'quick-fix', async () => {
      const wb = session.workbench;
      assert.equal(
        await editedDatasetDescription(session.catalog, ORDERS),
        null,
        'the sample has no edited description of db.orders',
      );
      // The hover shows the diagnostic once the server has resolved the URN, and its quick fixes.
      await wb.openFile('catalog/datasets.yml');
      const line = lineOf(session.workspace, 'catalog/datasets.yml', ORDERS);
      const point = await wb.revealText(line.number, line.text, 'db.orders');
      const { items } = await wb.openQuickFixMenu(point, /has no description/, 'Write dataset description…');
      assert.ok(
        items.some((i) => i.includes('Write dataset description…')),
        `quick fixes: ${JSON.stringify(items)}`,
      );
      await wb.screenshot('quick-fix.png');
      await wb.chooseQuickFix('Write dataset description…');
      const description = 'One row per order placed in the shop, written from VS Code.';
      await wb.submitInputBox(description, /Description of dataset/);
      await wb.waitForNotification(/Catalog Lens: Wrote /);
      assert.equal(await editedDatasetDescription(session.catalog, ORDERS), description);
      // The write dropped the cached entity: the next hover shows what was written.
      const hover = await wb.hoverAt(point, /written from VS Code/);
      assert.doesNotMatch(hover, /has no description/);
    });
  });

  test('"Catalog Lens: Add Feature to Feature Table…" adds the feature under the cursor to the picked table', async (t) => {
    await step(t, session, 'add-feature', async () => {
      const wb = session.workbench;
      assert.ok(
        !(await featureTableFeatures(session.catalog, USERS_TABLE)).includes(SIGNUP_DAYS),
        'the sample table does not list signup_days',
      );
      await wb.openFile('catalog/feature_tables.yml');
      const line = lineOf(session.workspace, 'catalog/feature_tables.yml', SIGNUP_DAYS);
      await wb.cursorAt(await wb.revealText(line.number, line.text, 'signup_days'));
      await wb.runCommand('Catalog Lens: Add Feature to Feature Table');
      await wb.pickQuickItem(USERS_TABLE);
      await wb.waitForNotification(/Catalog Lens: Added 1 feature/);
      assert.ok((await featureTableFeatures(session.catalog, USERS_TABLE)).includes(SIGNUP_DAYS));
    });
  });
});
