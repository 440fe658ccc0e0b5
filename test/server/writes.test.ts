/**
 * The write path through the real server process against the real local catalog: one named
 * test per read-merge-write rule (server/src/writes/merge.ts) and per case, writes counted at the catalog.
 */
import assert from 'node:assert/strict';
import { parseDocument } from 'yaml';
import { beforeEach, describe, test } from 'node:test';
import type { CodeAction, Diagnostic } from 'vscode-languageserver-protocol';
import { applyEdits } from '../support/textEdits';
import { aspects, graphql, ingest, ingestBatch } from '../support/catalogHttp';
import { positionOf } from '../support/lspClient';
import { COMPAT_MODES, S, sampleCatalog, serverFor, useSampleServerPerTest, type CompatMode } from '../support/fixture';
import type { WriteResult } from '../../model/src/protocol';

for (const compat of COMPAT_MODES)
  describe(`write commands (aspect path, ${compat} catalog)`, () => {
    // Each test starts from the sample data; what it builds on, it writes first itself.
    const env = useSampleServerPerTest({ settings: { actor: 'urn:li:corpuser:alice' } }, compat);
    beforeEach(() => env.catalog.stats.reset());
    const run = (command: string, arg: unknown): Promise<WriteResult> => env.lsp.command<WriteResult>(command, arg);
    /** A write a test builds on, then the catalog's counts reset. */
    const given = async (command: string, arg: unknown): Promise<void> => {
      assert.equal((await run(command, arg)).status, 'written', `given ${command} ${JSON.stringify(arg)}`);
      env.catalog.stats.reset();
    };

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

    test('§4.2 rule 4: institutionalMemory is created with the one link when absent, and a link with the same url is not added twice', async () => {
      await given('catalogLens.setDatasetDescription', { urn: S.orders, description: 'Orders, one row each.' });
      const link = { url: 'https://wiki.example.com/orders', description: 'Orders runbook' };
      const first = await run('catalogLens.setDatasetDescription', {
        urn: S.orders,
        description: 'Orders, one row each.',
        link,
      });
      assert.equal(first.status, 'written');
      assert.deepEqual(first.aspects, ['institutionalMemory']);
      let { institutionalMemory: m } = await aspects(env.catalog.url, S.orders, ['institutionalMemory']);
      assert.equal(m.elements.length, 1);
      assert.equal(m.elements[0].url, link.url);
      assert.equal(m.elements[0].description, 'Orders runbook');
      assert.equal(m.elements[0].createStamp.actor, 'urn:li:corpuser:alice');
      env.catalog.stats.reset();
      const again = await run('catalogLens.setDatasetDescription', {
        urn: S.orders,
        description: 'Orders, one row each.',
        link: { ...link, description: 'other text' },
      });
      assert.equal(again.status, 'unchanged');
      assert.equal(env.catalog.stats.aspectWrites, 0);
      const second = await run('catalogLens.setDatasetDescription', {
        urn: S.orders,
        description: 'Orders, one row each.',
        link: { url: 'https://wiki.example.com/orders-faq', description: 'FAQ' },
      });
      assert.equal(second.status, 'written');
      ({ institutionalMemory: m } = await aspects(env.catalog.url, S.orders, ['institutionalMemory']));
      assert.deepEqual(
        m.elements.map((e: { url: string }) => e.url),
        [link.url, 'https://wiki.example.com/orders-faq'],
      );
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

    test('§4.1 rule 2 / §7: writes aimed at entities that do not exist fail and write nothing', async () => {
      const a = await run('catalogLens.setDatasetDescription', { urn: S.ghost, description: 'x' });
      assert.equal(a.status, 'failed');
      assert.equal(a.kind, 'notFound');
      assert.match(a.message, /dataset db\.ghost is not in the catalog; nothing was written/);
      const b = await run('catalogLens.setColumnDescription', { urn: S.ghost, fieldPath: 'a', description: 'x' });
      assert.equal(b.status, 'failed');
      const c = await run('catalogLens.addFeaturesToTable', {
        table: 'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,ghost_table)',
        features: [S.age],
      });
      assert.equal(c.status, 'failed');
      assert.match(c.message, /does not exist in the catalog: create it first \(nothing was written\)/);
      const d = await run('catalogLens.addFeaturesToModel', { model: S.churnModel, features: [S.ghostFeature] });
      assert.equal(d.status, 'failed');
      assert.match(d.message, /not in the catalog, create it first/);
      assert.equal(env.catalog.stats.aspectWrites, 0);
      assert.deepEqual(
        await aspects(env.catalog.url, S.ghost, ['editableDatasetProperties', 'editableSchemaMetadata']),
        {},
      );
      // DataHub answers an object for any URN; `exists` must still say nobody wrote it (no ghost was made).
      const g = await graphql(env.catalog.url, 'query($u: String!) { dataset(urn: $u) { exists } }', { u: S.ghost });
      assert.deepEqual(g.data.dataset, compat === 'spec' ? null : { exists: false });
    });

    test('a URN holding a lone surrogate (which no URL can carry) is refused as not in the catalog, and the server goes on', async () => {
      const r = await run('catalogLens.setDatasetDescription', {
        urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.\uD800x,PROD)',
        description: 'x',
      });
      assert.equal(r.status, 'failed');
      assert.equal(r.kind, 'notFound');
      assert.equal(env.lsp.child.exitCode, null);
      assert.equal(env.catalog.stats.aspectWrites, 0);
    });

    test('§4.2 rule 2: appends keep order and every other field, and add no duplicates', async () => {
      const before = (await aspects(env.catalog.url, S.churnModel, ['mlModelProperties'])).mlModelProperties;
      const r = await run('catalogLens.addFeaturesToModel', {
        model: S.churnModel,
        features: [S.avgAmount, S.age, S.signupDays],
      });
      assert.equal(r.status, 'written');
      assert.match(r.message, /Added 2 features/);
      const { mlModelProperties: p } = await aspects(env.catalog.url, S.churnModel, ['mlModelProperties']);
      assert.deepEqual(p.mlFeatures, [...before.mlFeatures, S.avgAmount, S.signupDays]);
      assert.deepEqual(
        { ...p, mlFeatures: undefined },
        { ...before, mlFeatures: undefined },
        'every other field as it was',
      );
      env.catalog.stats.reset();
      const again = await run('catalogLens.addFeaturesToModel', {
        model: S.churnModel,
        features: [S.age, S.avgAmount],
      });
      assert.equal(again.status, 'unchanged');
      assert.equal(env.catalog.stats.aspectWrites, 0);
      const g = await run('catalogLens.addGroupsToModel', { model: S.ltvModel, groups: [S.ltvGroup] });
      assert.equal(g.status, 'written');
      assert.deepEqual((await aspects(env.catalog.url, S.ltvModel, ['mlModelProperties'])).mlModelProperties.groups, [
        S.ltvGroup,
      ]);
      const t = await run('catalogLens.addFeaturesToTable', { table: S.usersTable, features: [S.signupDays] });
      assert.equal(t.status, 'written');
      assert.deepEqual(
        (await aspects(env.catalog.url, S.usersTable, ['mlFeatureTableProperties'])).mlFeatureTableProperties
          .mlFeatures,
        [S.age, S.country, S.signupDays],
      );
    });

    test('createEntity creates an ML entity from §2.2 fields and refuses to overwrite unless asked', async () => {
      const urn = 'urn:li:mlFeature:(users_table,tenure_days)';
      const r = await run('catalogLens.createEntity', {
        urn,
        properties: { description: 'Days since signup.', dataType: 'COUNT', sources: [S.users] },
      });
      assert.equal(r.status, 'written');
      const res = await graphql(
        env.catalog.url,
        'query($u: String!) { mlFeature(urn: $u) { name featureNamespace properties { description dataType } } }',
        { u: urn },
      );
      assert.deepEqual(res.data.mlFeature, {
        name: 'tenure_days',
        featureNamespace: 'users_table',
        properties: { description: 'Days since signup.', dataType: 'COUNT' },
      });
      const again = await run('catalogLens.createEntity', { urn, properties: { description: 'other' } });
      assert.equal(again.status, 'failed');
      assert.match(again.message, /already exists; pass overwrite: true/);
      const bad = await run('catalogLens.createEntity', {
        urn: 'urn:li:mlFeature:(users_table,bad)',
        properties: { dataType: 'NUMBER' },
      });
      assert.equal(bad.status, 'failed');
      assert.match(bad.message, /dataType: expected one of USELESS/);
      const over = await run('catalogLens.createEntity', {
        urn,
        properties: { description: 'Days since signup, UTC.' },
        overwrite: true,
      });
      assert.equal(over.status, 'written');
    });

    test('a write drops the cache entry it touched and refreshes diagnostics of open documents', async () => {
      const uri = 'file:///w/refresh.py';
      await env.lsp.open(uri, 'python', `m = "${S.ltvGroup}"\n`);
      await env.lsp.diagnostics(uri, (d) => d.some((x) => x.code === 'missing-description'));
      const r = await run('catalogLens.createEntity', {
        urn: S.ltvGroup,
        properties: { description: 'Lifetime value models.' },
        overwrite: true,
      });
      assert.equal(r.status, 'written');
      await env.lsp.diagnostics(uri, (d) => d.length === 0);
    });

    test('bad arguments get a clear failure, not an exception', async () => {
      const r = await run('catalogLens.setDatasetDescription', { urn: 'urn:li:dataset:(oops', description: 'x' });
      assert.equal(r.status, 'failed');
      assert.match(r.message, /'urn' is not a valid URN: unbalanced parenthesis/);
      const k = await run('catalogLens.addFeaturesToTable', { table: S.usersTable, features: [S.users] });
      assert.match(k.message, /must be a mlFeature URN, not a dataset URN/);
    });
  });

for (const compat of COMPAT_MODES)
  describe(`concurrent appenders (${compat} catalog)`, () => {
    test('8 clients appending 50 features and 50 groups each to one table and one model lose none and add no duplicates', async () => {
      const catalog = await sampleCatalog({ compat });
      const features = Array.from({ length: 400 }, (_, i) => `urn:li:mlFeature:(users_table,f${i})`);
      const groups = Array.from(
        { length: 400 },
        (_, i) => `urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,g${i},PROD)`,
      );
      assert.equal(
        await ingestBatch(catalog.url, [
          ...features.map((urn) => ({
            entityType: 'mlFeature',
            urn,
            aspectName: 'mlFeatureProperties',
            value: { description: 'generated' },
          })),
          ...groups.map((urn) => ({
            entityType: 'mlModelGroup',
            urn,
            aspectName: 'mlModelGroupProperties',
            value: { description: 'generated' },
          })),
        ]),
        200,
      );
      const clients = await Promise.all(Array.from({ length: 8 }, () => serverFor(catalog.url)));
      try {
        await Promise.all(
          clients.map(async (c, k) => {
            const mine = features.slice(k * 50, k * 50 + 50);
            const myGroups = groups.slice(k * 50, k * 50 + 50);
            for (let i = 0; i < 50; i += 10) {
              const results = await Promise.all([
                c.command<WriteResult>('catalogLens.addFeaturesToTable', {
                  table: S.ordersTable,
                  features: mine.slice(i, i + 10),
                }),
                c.command<WriteResult>('catalogLens.addGroupsToModel', {
                  model: S.churnModel,
                  groups: myGroups.slice(i, i + 10),
                }),
              ]);
              for (const r of results) assert.equal(r.status, 'written', r.message);
            }
          }),
        );
        const { mlFeatureTableProperties: t } = await aspects(catalog.url, S.ordersTable, ['mlFeatureTableProperties']);
        assert.equal(t.mlFeatures.length, 401);
        assert.deepEqual(new Set(t.mlFeatures), new Set([S.orderCount, ...features]));
        const { mlModelProperties: m } = await aspects(catalog.url, S.churnModel, ['mlModelProperties']);
        assert.equal(m.groups.length, 401);
        assert.deepEqual(new Set(m.groups), new Set([S.churnGroup, ...groups]));
        // Each client's own features keep the order it gave them.
        for (let k = 0; k < 8; k++) {
          const positions = features.slice(k * 50, k * 50 + 50).map((f) => t.mlFeatures.indexOf(f));
          assert.deepEqual(
            positions,
            [...positions].sort((a, b) => a - b),
          );
        }
      } finally {
        await Promise.all(clients.map((c) => c.stop()));
        await catalog.close();
      }
    });
  });

for (const compat of COMPAT_MODES)
  describe(`concurrent edits of one aspect on the aspect path (${compat} catalog)`, () => {
    test('8 clients adding different links and describing different columns of one dataset at once lose none', async () => {
      const catalog = await sampleCatalog({ compat });
      const columns = ['user_id', 'email', 'age', 'country', 'signup_ts'];
      const clients = await Promise.all(Array.from({ length: 8 }, () => serverFor(catalog.url)));
      try {
        await Promise.all(
          clients.map(async (c, k) => {
            const results = await Promise.all([
              ...Array.from({ length: 6 }, (_, i) =>
                c.command<WriteResult>('catalogLens.setDatasetDescription', {
                  urn: S.users,
                  description: 'One row per registered user of the product.',
                  link: { url: `https://wiki.example.com/${k}/${i}`, description: `page ${k}.${i}` },
                }),
              ),
              ...(k < columns.length
                ? [
                    c.command<WriteResult>('catalogLens.setColumnDescription', {
                      urn: S.users,
                      fieldPath: columns[k],
                      description: `column ${columns[k]}, by ${k}`,
                    }),
                  ]
                : []),
            ]);
            for (const r of results) assert.notEqual(r.status, 'failed', r.message);
          }),
        );
        const a = await aspects(catalog.url, S.users, ['institutionalMemory', 'editableSchemaMetadata']);
        assert.equal(a.institutionalMemory.elements.length, 48, 'every link');
        assert.deepEqual(
          a.editableSchemaMetadata.editableSchemaFieldInfo
            .map((e: { fieldPath: string; description: string }) => `${e.fieldPath}: ${e.description}`)
            .sort(),
          columns.map((c, k) => `${c}: column ${c}, by ${k}`).sort(),
          'every column',
        );
      } finally {
        await Promise.all(clients.map((c) => c.stop()));
        await catalog.close();
      }
    });
  });

for (const compat of COMPAT_MODES)
  describe(`the aspect path and the GraphQL path (${compat} catalog)`, () => {
    const LINK = { url: 'https://wiki.example.com/o', description: 'Runbook' };

    async function endState(
      writePath: 'aspects' | 'graphql',
    ): Promise<{ statuses: string[]; orders: unknown; clicks: unknown; linkAuthors: string[] }> {
      const catalog = await sampleCatalog({ compat });
      const lsp = await serverFor(catalog.url, { settings: { writePath, actor: 'urn:li:corpuser:bob' } });
      try {
        const steps: Array<[string, unknown]> = [
          ['catalogLens.setDatasetDescription', { urn: S.orders, description: 'Orders.', link: LINK }],
          ['catalogLens.setDatasetDescription', { urn: S.orders, description: 'Orders.', link: LINK }],
          ['catalogLens.setDatasetDescription', { urn: S.orders, description: 'All orders.' }],
          ['catalogLens.setColumnDescription', { urn: S.orders, fieldPath: 'amount', description: 'Total, EUR.' }],
          ['catalogLens.setColumnDescription', { urn: S.clicks, fieldPath: 'device.os', description: 'OS.' }],
          ['catalogLens.setColumnDescription', { urn: S.orders, fieldPath: 'amount', description: 'Total, EUR.' }],
        ];
        const statuses: string[] = [];
        for (const [cmd, arg] of steps) {
          const r = await lsp.command<WriteResult>(cmd, arg);
          statuses.push(r.status);
          assert.notEqual(r.status, 'failed', r.message);
        }
        const read = async (urn: string) => {
          const a = await aspects(catalog.url, urn, [
            'editableDatasetProperties',
            'institutionalMemory',
            'editableSchemaMetadata',
          ]);
          return {
            description: a.editableDatasetProperties?.description,
            links: a.institutionalMemory?.elements?.map((e: { url: string; description: string }) => [
              e.url,
              e.description,
            ]),
            columns: a.editableSchemaMetadata?.editableSchemaFieldInfo?.map(
              (e: { fieldPath: string; description: string }) => [e.fieldPath, e.description],
            ),
          };
        };
        const memory = (await aspects(catalog.url, S.orders, ['institutionalMemory'])).institutionalMemory;
        return {
          statuses,
          orders: await read(S.orders),
          clicks: await read(S.clicks),
          linkAuthors: (memory?.elements ?? []).map((e: { createStamp: { actor: string } }) => e.createStamp.actor),
        };
      } finally {
        await lsp.stop();
        await catalog.close();
      }
    }

    test('reach the same end state', async () => {
      const viaAspects = await endState('aspects');
      const viaGraphql = await endState('graphql');
      assert.deepEqual({ ...viaGraphql, linkAuthors: undefined }, { ...viaAspects, linkAuthors: undefined });
      assert.deepEqual(viaAspects.statuses, ['written', 'unchanged', 'written', 'written', 'written', 'unchanged']);
      assert.deepEqual(viaAspects.linkAuthors, ['urn:li:corpuser:bob'], 'the aspect path writes catalogLens.actor');
      // DataHub's addLink stamps the link with the user the request authenticates as (LinkUtils.addLink).
      assert.deepEqual(viaGraphql.linkAuthors, ['urn:li:corpuser:datahub']);
    });

    test('the GraphQL path keeps what updateDataset would erase: the edited display name and created stamp, by writing that description through the aspect path', async () => {
      const catalog = await sampleCatalog({ compat });
      const created = { time: 1_700_000_000_000, actor: 'urn:li:corpuser:carol' };
      assert.equal(
        await ingest(catalog.url, 'dataset', S.orders, 'editableDatasetProperties', {
          description: 'Old.',
          name: 'Orders (curated)',
          created,
        }),
        200,
      );
      const lsp = await serverFor(catalog.url, { settings: { writePath: 'graphql' } });
      try {
        const r = await lsp.command<WriteResult>('catalogLens.setDatasetDescription', {
          urn: S.orders,
          description: 'New.',
        });
        assert.equal(r.status, 'written', r.message);
        assert.match(
          r.message,
          /through the aspect path: DataHub's updateDataset would erase the edited display name and created stamp/,
        );
        const e = (await aspects(catalog.url, S.orders, ['editableDatasetProperties'])).editableDatasetProperties;
        assert.equal(e.description, 'New.');
        assert.equal(e.name, 'Orders (curated)');
        assert.deepEqual(e.created, created);
      } finally {
        await lsp.stop();
        await catalog.close();
      }
    });

    test('a link added on the GraphQL path keeps every existing link, with its stamps', async () => {
      const catalog = await sampleCatalog({ compat });
      const existing = [
        {
          url: 'https://wiki.example.com/a',
          description: 'A',
          createStamp: { time: 1, actor: 'urn:li:corpuser:carol' },
        },
        {
          url: 'https://wiki.example.com/b',
          description: 'B',
          createStamp: { time: 2, actor: 'urn:li:corpuser:dave' },
          updateStamp: { time: 3, actor: 'urn:li:corpuser:erin' },
        },
      ];
      assert.equal(await ingest(catalog.url, 'dataset', S.orders, 'institutionalMemory', { elements: existing }), 200);
      const lsp = await serverFor(catalog.url, { settings: { writePath: 'graphql' } });
      try {
        const r = await lsp.command<WriteResult>('catalogLens.setDatasetDescription', {
          urn: S.orders,
          description: 'Orders.',
          link: LINK,
        });
        assert.equal(r.status, 'written', r.message);
        const m = (await aspects(catalog.url, S.orders, ['institutionalMemory'])).institutionalMemory;
        assert.deepEqual(m.elements.slice(0, 2), existing, 'the links that were there, as they were');
        assert.equal(m.elements.length, 3);
        assert.equal(m.elements[2].url, LINK.url);
        const again = await lsp.command<WriteResult>('catalogLens.setDatasetDescription', {
          urn: S.orders,
          description: 'Orders.',
          link: { url: existing[0]!.url, description: 'other label' },
        });
        assert.equal(again.status, 'unchanged', 'a link with that url is there: rule 4');
      } finally {
        await lsp.stop();
        await catalog.close();
      }
    });
  });

describe("every write command ends in the same state on the catalog's DataHub mode as on its spec mode", () => {
  const NEW_FEATURE = 'urn:li:mlFeature:(orders_table,basket_size)';
  const steps: Array<[string, Record<string, unknown>]> = [
    [
      'catalogLens.setDatasetDescription',
      { urn: S.orders, description: 'Orders.', link: { url: 'https://wiki.example.com/o', description: 'Runbook' } },
    ],
    ['catalogLens.setDatasetDescription', { urn: S.orders, description: 'All orders.' }],
    ['catalogLens.setColumnDescription', { urn: S.orders, fieldPath: 'amount', description: 'Total, EUR.' }],
    ['catalogLens.setColumnDescription', { urn: S.clicks, fieldPath: 'device.os', description: 'OS.' }],
    [
      'catalogLens.createEntity',
      { urn: NEW_FEATURE, properties: { description: 'Items per order.', sources: [S.orders], dataType: 'COUNT' } },
    ],
    ['catalogLens.addFeaturesToTable', { table: S.ordersTable, features: [NEW_FEATURE, S.country] }],
    ['catalogLens.addFeaturesToModel', { model: S.churnModel, features: [S.avgAmount, NEW_FEATURE] }],
    ['catalogLens.addGroupsToModel', { model: S.ltvModel, groups: [S.churnGroup] }],
    ['catalogLens.addGroupsToModel', { model: S.ltvModel, groups: [S.churnGroup] }],
    ['catalogLens.setDatasetDescription', { urn: S.ghost, description: 'x' }],
    ['catalogLens.addFeaturesToTable', { table: S.ordersTable, features: [S.ghostFeature] }],
    [
      'catalogLens.createEntity',
      { urn: 'urn:li:mlFeature:(orders_table,from_ghost)', properties: { sources: [S.ghost] } },
    ],
  ];
  const READS: Array<[string, string[]]> = [
    [S.orders, ['editableDatasetProperties', 'institutionalMemory', 'editableSchemaMetadata']],
    [S.clicks, ['editableSchemaMetadata']],
    [S.ordersTable, ['mlFeatureTableProperties']],
    [S.churnModel, ['mlModelProperties']],
    [S.ltvModel, ['mlModelProperties']],
    [NEW_FEATURE, ['mlFeatureProperties']],
    [S.ghost, ['editableDatasetProperties']],
    ['urn:li:mlFeature:(orders_table,from_ghost)', ['mlFeatureProperties']],
  ];
  // Times and authors of stamps differ from run to run and between the paths; what was written is compared.
  const withoutStamps = (v: unknown): unknown =>
    JSON.parse(
      JSON.stringify(v, (k, x) =>
        ['created', 'lastModified', 'createStamp', 'updateStamp'].includes(k) ? undefined : x,
      ),
    );

  async function run(
    compat: CompatMode,
    writePath: 'aspects' | 'graphql',
  ): Promise<{ results: string[]; state: unknown[] }> {
    const catalog = await sampleCatalog({ compat });
    const lsp = await serverFor(catalog.url, { settings: { writePath } });
    try {
      const results: string[] = [];
      for (const [cmd, arg] of steps) {
        const r = await lsp.command<WriteResult>(cmd, arg);
        results.push(`${r.status}${r.kind ? ` ${r.kind}` : ''}`);
      }
      const state: unknown[] = [];
      for (const [urn, names] of READS) state.push(withoutStamps(await aspects(catalog.url, urn, names)));
      return { results, state };
    } finally {
      await lsp.stop();
      await catalog.close();
    }
  }

  for (const writePath of ['aspects', 'graphql'] as const) {
    test(`${writePath} path`, async () => {
      const spec = await run('spec', writePath);
      const datahub = await run('datahub', writePath);
      assert.deepEqual(spec.results, [
        'written',
        'written',
        'written',
        'written',
        'written',
        'written',
        'written',
        'written',
        'unchanged',
        'failed notFound',
        'failed notFound',
        'failed notFound',
      ]);
      const orders = spec.state[0] as {
        editableDatasetProperties: { description: string };
        institutionalMemory: { elements: unknown[] };
      };
      assert.equal(
        orders.editableDatasetProperties.description,
        'All orders.',
        'the state compared is the one written',
      );
      assert.equal(orders.institutionalMemory.elements.length, 1);
      assert.deepEqual(spec.state[6], {}, 'the ghost was not made');
      assert.deepEqual(datahub, spec);
    });
  }
});

describe('code actions', () => {
  // Two of these tests write: each test has a catalog and server of its own.
  const env = useSampleServerPerTest({ initializationOptions: { clientCommands: true } });

  const actionsFor = async (uri: string, d: Diagnostic): Promise<CodeAction[]> =>
    env.lsp.codeActions(uri, d.range, [d]);

  test('a missing description offers "Write dataset description…" as the preferred quick fix, never source.fixAll', async () => {
    const uri = 'file:///w/ca.py';
    await env.lsp.open(uri, 'python', `x = "${S.orders}"\n`);
    const [d] = await env.lsp.diagnostics(uri, (ds) => ds.some((x) => x.code === 'missing-description'));
    const actions = await actionsFor(uri, d!);
    const write = actions.find((a) => a.title === 'Write dataset description…')!;
    assert.equal(write.kind, 'quickfix');
    assert.equal(write.isPreferred, true);
    assert.deepEqual(write.command?.arguments, [{ urn: S.orders }]);
    assert.ok(actions.every((a) => !String(a.kind).startsWith('source')));
    assert.equal(
      actions.filter((a) => a.title === 'Write dataset description…').length,
      1,
      'offered once, not again as a refactor',
    );
  });

  test('on a feature URN: add to feature table or model; on a model: add group; on an unknown ML URN: create it', async () => {
    const text = `f = "${S.avgAmount}"\nm = "${S.ltvModel}"\ng = "urn:li:mlFeature:(users_table,brand_new)"\n`;
    const uri = 'file:///w/ca2.py';
    await env.lsp.open(uri, 'python', text);
    const ds = await env.lsp.diagnostics(uri, (x) => x.some((d) => d.code === 'unknown-urn'));
    const at = (needle: string) => ({ start: positionOf(text, needle), end: positionOf(text, needle) });
    const onFeature = (await env.lsp.codeActions(uri, at('avg_amount'), [])).map((a) => a.title);
    assert.deepEqual(
      onFeature.filter((t) => t.startsWith('Add')),
      ['Add feature to feature table…', 'Add feature to model…'],
    );
    const onModel = (await env.lsp.codeActions(uri, at('ltv-model-v1'), [])).map((a) => a.title);
    assert.ok(onModel.includes('Add model group…'));
    const unknown = ds.find((d) => d.code === 'unknown-urn')!;
    const create = (await actionsFor(uri, unknown)).find((a) => a.title === 'Create ML feature in catalog…');
    assert.ok(create, 'create action offered');
    assert.equal(create.kind, 'quickfix');
  });

  test('YAML list members the catalog lacks: "Append to catalog" writes them', async () => {
    const yaml = `feature_tables:\n  - urn: ${S.usersTable}\n    features:\n      - ${S.age}\n      - ${S.signupDays}\n`;
    const uri = 'file:///w/ft.yml';
    await env.lsp.open(uri, 'yaml', yaml);
    const ds = await env.lsp.diagnostics(uri, (x) => x.some((d) => d.code === 'missing-list-member'));
    const d = ds.find((x) => x.code === 'missing-list-member')!;
    const append = (await actionsFor(uri, d)).find((a) => a.title === 'Append to catalog')!;
    const r = await env.lsp.command<WriteResult>(append.command!.command, append.command!.arguments![0]);
    assert.equal(r.status, 'written');
    const { mlFeatureTableProperties: t } = await aspects(env.catalog.url, S.usersTable, ['mlFeatureTableProperties']);
    assert.deepEqual(t.mlFeatures, [S.age, S.country, S.signupDays]);
    await env.lsp.diagnostics(uri, (x) => !x.some((y) => y.code === 'missing-list-member'));
  });

  test('pull inserts a missing column description in a flow mapping as valid YAML (quoted: the text has a comma)', async () => {
    const yaml = `datasets:\n  - urn: ${S.users}\n    columns:\n      - {name: email, type: string}   # flow\n`;
    const uri = 'file:///w/flow.yml';
    await env.lsp.open(uri, 'yaml', yaml);
    const at = positionOf(yaml, 'email');
    // The action reads the catalog's answer from the cache: a hover waits for it (the first
    // diagnostics may come before it, when the catalog is slow).
    await env.lsp.hover(uri, positionOf(yaml, 'db.users'));
    const pull = (await env.lsp.codeActions(uri, { start: at, end: at }, [])).find(
      (a) => a.title === 'Pull description from catalog',
    );
    assert.ok(pull, 'pull offered');
    const pulled = applyEdits(yaml, pull.edit!.changes![uri]!);
    assert.equal(
      pulled,
      yaml.replace(
        '{name: email, type: string}',
        '{name: email, type: string, description: "Login e-mail address, unique."}',
      ),
    );
    assert.deepEqual(parseDocument(pulled).errors, []);
  });

  test('YAML docs as code: push uses the YAML text; pull edits keep comments and block scalars', async () => {
    const yaml = [
      '# Dataset docs, reviewed in PRs',
      'datasets:',
      `  - urn: ${S.users}   # the users table`,
      '    description: |',
      '      Users of the product.',
      '      One row each.',
      '    columns:',
      '      - name: email  # login',
      "        description: 'E-mail address'",
      `  - urn: ${S.orders}`,
      '    description: >',
      '      Orders placed',
      '      by users.',
      '',
    ].join('\n');
    const uri = 'file:///w/docs.yml';
    await env.lsp.open(uri, 'yaml', yaml);
    const ds = await env.lsp.diagnostics(uri, (x) => x.filter((d) => String(d.code).endsWith('mismatch')).length === 3);
    const dsDesc = ds.find((d) => d.code === 'description-mismatch' && (d.data as { urn: string }).urn === S.users)!;
    const pull = (await actionsFor(uri, dsDesc)).find((a) => a.title === 'Pull description from catalog')!;
    const pulled = applyEdits(yaml, pull.edit!.changes![uri]!);
    assert.equal(
      pulled,
      yaml.replace(
        '|\n      Users of the product.\n      One row each.',
        '|-\n      One row per registered user of the product.',
      ),
    );
    const col = ds.find((d) => d.code === 'column-description-mismatch')!;
    const colPull = (await actionsFor(uri, col)).find((a) => a.title === 'Pull description from catalog')!;
    assert.equal(
      applyEdits(yaml, colPull.edit!.changes![uri]!),
      yaml.replace("'E-mail address'", "'Login e-mail address, unique.'"),
    );
    const orders = ds.find((d) => d.code === 'description-mismatch' && (d.data as { urn: string }).urn === S.orders)!;
    const push = (await actionsFor(uri, orders)).find((a) => a.title === 'Push description to catalog')!;
    const r = await env.lsp.command<WriteResult>(push.command!.command, push.command!.arguments![0]);
    assert.equal(r.status, 'written');
    const { editableDatasetProperties: e } = await aspects(env.catalog.url, S.orders, ['editableDatasetProperties']);
    assert.equal(e.description, 'Orders placed by users.\n');
  });
});
