/**
 * Description writes through the real server process against the real local catalog: a
 * dataset's description (setDatasetDescription) and a column's (setColumnDescription), one named
 * test per read-merge-write rule (server/src/writes/merge.ts), writes counted at the catalog.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { aspects, ingest } from '../../support/catalogHttp';
import { COMPAT_MODES, S } from '../../support/fixture';
import { useWriteServer } from './writeServer';

for (const compat of COMPAT_MODES)
  describe(`write commands: descriptions (aspect path, ${compat} catalog)`, () => {
    const { env, run, given } = useWriteServer(compat);

    test('§4.2 rule 3: editableDatasetProperties is created with created (time, actor) when absent', async () => {
      const before = Date.now();
      const r = await run('catalogLens.setDatasetDescription', {
        urn: S.orders,
        description: 'One row per **order**.',
      });
      assert.equal(r.status, 'written');
      assert.deepEqual(r.aspects, ['editableDatasetProperties']);
      const { editableDatasetProperties: e } = await aspects(env.catalog.url, S.orders, ['editableDatasetProperties']);
      assert.equal(e.description, 'One row per **order**.');
      assert.equal(e.created.actor, 'urn:li:corpuser:alice');
      assert.ok(e.created.time >= before && e.created.time <= Date.now());
      assert.equal(env.catalog.stats.aspectWrites, 1);
    });

    test('§4.2 rule 3: nothing is written when the description is unchanged', async () => {
      await given('catalogLens.setDatasetDescription', { urn: S.orders, description: 'One row per **order**.' });
      const r = await run('catalogLens.setDatasetDescription', {
        urn: S.orders,
        description: 'One row per **order**.',
      });
      assert.equal(r.status, 'unchanged');
      assert.equal(env.catalog.stats.aspectWrites, 0);
    });

    test('§4.2 rule 3: a changed description keeps the other fields of the aspect', async () => {
      await given('catalogLens.setDatasetDescription', { urn: S.orders, description: 'One row per **order**.' });
      const r = await run('catalogLens.setDatasetDescription', { urn: S.orders, description: 'Orders, one row each.' });
      assert.equal(r.status, 'written');
      const { editableDatasetProperties: e } = await aspects(env.catalog.url, S.orders, ['editableDatasetProperties']);
      assert.equal(e.description, 'Orders, one row each.');
      assert.equal(e.created.actor, 'urn:li:corpuser:alice', 'created is kept');
    });

    test('§4.2 rule 5: absent editableSchemaMetadata is created with one entry and created', async () => {
      const r = await run('catalogLens.setColumnDescription', {
        urn: S.users,
        fieldPath: 'age',
        description: 'Age in whole years.',
      });
      assert.equal(r.status, 'written');
      const { editableSchemaMetadata: e } = await aspects(env.catalog.url, S.users, ['editableSchemaMetadata']);
      assert.deepEqual(e.editableSchemaFieldInfo, [{ fieldPath: 'age', description: 'Age in whole years.' }]);
      assert.equal(e.created.actor, 'urn:li:corpuser:alice');
    });

    test('§4.2 rule 5: an existing entry is updated, a missing entry is appended, the others are kept', async () => {
      await given('catalogLens.setColumnDescription', {
        urn: S.users,
        fieldPath: 'age',
        description: 'Age in whole years.',
      });
      assert.equal(
        (
          await run('catalogLens.setColumnDescription', {
            urn: S.users,
            fieldPath: 'signup_ts',
            description: 'When the user signed up (UTC).',
          })
        ).status,
        'written',
      );
      assert.equal(
        (
          await run('catalogLens.setColumnDescription', {
            urn: S.users,
            fieldPath: 'age',
            description: 'Age in years.',
          })
        ).status,
        'written',
      );
      const { editableSchemaMetadata: e } = await aspects(env.catalog.url, S.users, ['editableSchemaMetadata']);
      assert.deepEqual(e.editableSchemaFieldInfo, [
        { fieldPath: 'age', description: 'Age in years.' },
        { fieldPath: 'signup_ts', description: 'When the user signed up (UTC).' },
      ]);
    });

    test('§4.2 rule 5: unchanged column description → nothing written', async () => {
      await given('catalogLens.setColumnDescription', { urn: S.users, fieldPath: 'age', description: 'Age in years.' });
      const r = await run('catalogLens.setColumnDescription', {
        urn: S.users,
        fieldPath: 'age',
        description: 'Age in years.',
      });
      assert.equal(r.status, 'unchanged');
      assert.equal(env.catalog.stats.aspectWrites, 0);
    });

    test('§4.2 rule 5: the user names the simple path; the entry keeps the schema v2 path', async () => {
      const r = await run('catalogLens.setColumnDescription', {
        urn: S.clicks,
        fieldPath: 'device.os',
        description: 'Operating system of the device.',
      });
      assert.equal(r.status, 'written');
      const { editableSchemaMetadata: e } = await aspects(env.catalog.url, S.clicks, ['editableSchemaMetadata']);
      assert.deepEqual(e.editableSchemaFieldInfo, [
        {
          fieldPath: '[version=2.0].[type=struct].[type=struct].device.[type=string].os',
          description: 'Operating system of the device.',
        },
      ]);
      const again = await run('catalogLens.setColumnDescription', {
        urn: S.clicks,
        fieldPath: '[version=2.0].[type=struct].[type=struct].device.[type=string].os',
        description: 'Operating system of the device.',
      });
      assert.equal(again.status, 'unchanged', 'matched by simple path');
    });

    test("§4.2 rule 5 as DataHub's UI reads it: the entry with the exact field path is edited; one by simple path only when there is none", async () => {
      const v2 = '[version=2.0].[type=struct].[type=struct].device.[type=string].os';
      const created = { time: 1, actor: 'urn:li:corpuser:carol' };
      // An older writer left an entry by simple path beside the exact one: the UI shows the exact one.
      assert.equal(
        await ingest(env.catalog.url, 'dataset', S.clicks, 'editableSchemaMetadata', {
          editableSchemaFieldInfo: [
            { fieldPath: 'device.os', description: 'simple' },
            { fieldPath: v2, description: 'exact' },
          ],
          created,
        }),
        200,
      );
      assert.equal(
        (
          await run('catalogLens.setColumnDescription', {
            urn: S.clicks,
            fieldPath: 'device.os',
            description: 'Operating system.',
          })
        ).status,
        'written',
      );
      let e = (await aspects(env.catalog.url, S.clicks, ['editableSchemaMetadata'])).editableSchemaMetadata;
      assert.deepEqual(e.editableSchemaFieldInfo, [
        { fieldPath: 'device.os', description: 'simple' },
        { fieldPath: v2, description: 'Operating system.' },
      ]);
      assert.equal(
        await ingest(env.catalog.url, 'dataset', S.clicks, 'editableSchemaMetadata', {
          editableSchemaFieldInfo: [{ fieldPath: 'device.os', description: 'simple' }],
          created,
        }),
        200,
      );
      assert.equal(
        (
          await run('catalogLens.setColumnDescription', {
            urn: S.clicks,
            fieldPath: 'device.os',
            description: 'OS only.',
          })
        ).status,
        'written',
      );
      e = (await aspects(env.catalog.url, S.clicks, ['editableSchemaMetadata'])).editableSchemaMetadata;
      assert.deepEqual(
        e.editableSchemaFieldInfo,
        [{ fieldPath: 'device.os', description: 'OS only.' }],
        'no exact entry: the simple one is edited, none added',
      );
    });

    test('a column the schema does not have is refused with near names, and nothing is written', async () => {
      const r = await run('catalogLens.setColumnDescription', { urn: S.users, fieldPath: 'emial', description: 'x' });
      assert.equal(r.status, 'failed');
      assert.equal(r.kind, 'badInput');
      assert.match(r.message, /has no column 'emial'; near names: email/);
      assert.equal(env.catalog.stats.aspectWrites, 0);
    });
  });
