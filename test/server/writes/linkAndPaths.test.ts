/**
 * Links and the two write paths through the real server process against the real local catalog:
 * a link added to institutionalMemory, concurrent edits of one aspect, the aspect path and the
 * GraphQL path reaching the same end state, and every write command ending in the same state on
 * the catalog's DataHub mode as on its spec mode.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { aspects, ingest } from '../../support/catalogHttp';
import { COMPAT_MODES, S, sampleCatalog, serverFor, type CompatMode } from '../../support/fixture';
import type { WriteResult } from '../../../model/src/protocol';
import { useWriteServer } from './writeServer';

for (const compat of COMPAT_MODES)
  describe(`write commands: links (aspect path, ${compat} catalog)`, () => {
    const { env, run, given } = useWriteServer(compat);

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
