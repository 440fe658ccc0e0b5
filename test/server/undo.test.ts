/**
 * The remove commands and Undo through the real server process against the
 * real local catalog, on both compat modes: each remove takes out exactly what it is given and
 * keeps the rest; an append undone (its result's `added` removed) leaves the aspect exactly as it
 * was, even with another writer's append in between; conflicts are retried, not lost.
 */
import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import { aspects, ingestBatch } from '../support/catalogHttp';
import { COMPAT_MODES, S, sampleCatalog, serverFor, useSampleServerPerTest } from '../support/fixture';
import type { WriteResult } from '../../model/src/protocol';

const svc = (urn: string): string => urn.split('urn:li:').join('urn:svc:');

for (const compat of COMPAT_MODES)
  describe(`remove commands and undo (${compat} catalog)`, () => {
    const env = useSampleServerPerTest({ settings: { actor: 'urn:li:corpuser:alice' } }, compat);
    beforeEach(() => env.catalog.stats.reset());
    const run = (command: string, arg: unknown): Promise<WriteResult> => env.lsp.command<WriteResult>(command, arg);
    const props = async (urn: string, aspect: string): Promise<any> =>
      (await aspects(env.catalog.url, urn, [aspect]))[aspect];

    test('removeFeaturesFromTable takes out the feature given (either namespace word) and keeps the others in order', async () => {
      const before = await props(S.usersTable, 'mlFeatureTableProperties');
      assert.deepEqual(before.mlFeatures, [S.age, S.country]);
      const r = await run('catalogLens.removeFeaturesFromTable', { table: S.usersTable, features: [svc(S.age)] });
      assert.equal(r.status, 'written', r.message);
      assert.equal(r.message, 'Removed 1 feature from feature table users_table');
      assert.deepEqual(r.removed, [S.age], 'named as the list spelt it');
      assert.deepEqual(r.aspects, ['mlFeatureTableProperties']);
      const after = await props(S.usersTable, 'mlFeatureTableProperties');
      assert.deepEqual(after, { ...before, mlFeatures: [S.country] }, 'every other field as it was');
      assert.equal(env.catalog.stats.aspectWrites, 1);
    });

    test('removeFeaturesFromModel and removeGroupsFromModel take out what they are given', async () => {
      const model = await props(S.churnModel, 'mlModelProperties');
      assert.ok(model.mlFeatures.length >= 2 && model.groups.includes(S.churnGroup), JSON.stringify(model));
      const f = await run('catalogLens.removeFeaturesFromModel', {
        model: S.churnModel,
        features: [model.mlFeatures[0]],
      });
      assert.equal(f.status, 'written', f.message);
      assert.match(f.message, /^Removed 1 feature from .*churn-model-v3$/);
      const g = await run('catalogLens.removeGroupsFromModel', { model: S.churnModel, groups: [svc(S.churnGroup)] });
      assert.equal(g.status, 'written', g.message);
      assert.match(g.message, /^Removed 1 model group from .*churn-model-v3$/);
      const after = await props(S.churnModel, 'mlModelProperties');
      assert.deepEqual(after.mlFeatures, model.mlFeatures.slice(1));
      assert.deepEqual(
        after.groups ?? [],
        model.groups.filter((x: string) => x !== S.churnGroup),
      );
    });

    test('a remove of members the list lacks is unchanged and writes nothing', async () => {
      const r = await run('catalogLens.removeFeaturesFromTable', { table: S.usersTable, features: [S.orderCount] });
      assert.equal(r.status, 'unchanged', r.message);
      assert.match(r.message, /users_table: it lists no such feature/);
      const none = await run('catalogLens.removeGroupsFromModel', { model: S.ltvModel, groups: [S.ltvGroup] });
      assert.equal(none.status, 'unchanged', none.message);
      assert.equal(env.catalog.stats.aspectWrites, 0);
    });

    test('a remove from a target the catalog lacks, or with bad arguments, is refused with what and where', async () => {
      const ghost = 'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,ghost_table)';
      const r = await run('catalogLens.removeFeaturesFromTable', { table: ghost, features: [S.age] });
      assert.equal(r.status, 'failed');
      assert.equal(r.kind, 'notFound');
      assert.match(r.message, /feature table ghost_table does not exist in the catalog; nothing was removed/);
      const empty = await run('catalogLens.removeFeaturesFromModel', { model: S.churnModel, features: [] });
      assert.equal(empty.kind, 'badInput');
      assert.match(empty.message, /'features' is empty/);
      const wrongKind = await run('catalogLens.removeGroupsFromModel', { model: S.churnModel, groups: [S.age] });
      assert.equal(wrongKind.kind, 'badInput');
      assert.match(wrongKind.message, /'groups\[0\]' must be a mlModelGroup URN/);
      assert.equal(env.catalog.stats.aspectWrites, 0);
    });

    test('an append names exactly what it added: never a member that was there before', async () => {
      const r = await run('catalogLens.addFeaturesToTable', {
        table: S.usersTable,
        features: [S.country, S.signupDays, S.age],
      });
      assert.equal(r.status, 'written', r.message);
      assert.deepEqual(r.added, [S.signupDays]);
    });

    for (const [what, command, undo, target, key, members, aspect] of [
      [
        'features to a table',
        'catalogLens.addFeaturesToTable',
        'catalogLens.removeFeaturesFromTable',
        S.usersTable,
        'features',
        [S.signupDays, S.orderCount, S.age],
        'mlFeatureTableProperties',
      ],
      [
        'features to a model',
        'catalogLens.addFeaturesToModel',
        'catalogLens.removeFeaturesFromModel',
        S.ltvModel,
        'features',
        [S.age, S.avgAmount],
        'mlModelProperties',
      ],
      [
        'groups to a model without the list',
        'catalogLens.addGroupsToModel',
        'catalogLens.removeGroupsFromModel',
        S.ltvModel,
        'groups',
        [S.ltvGroup],
        'mlModelProperties',
      ],
    ] as const) {
      test(`undo of an append of ${what} leaves the aspect exactly as before`, async () => {
        const targetKey = aspect === 'mlFeatureTableProperties' ? 'table' : 'model';
        const before = await props(target, aspect);
        const added = await run(command, { [targetKey]: target, [key]: members });
        assert.equal(added.status, 'written', added.message);
        assert.ok(added.added && added.added.length > 0);
        const undone = await run(undo, { [targetKey]: target, [key]: added.added });
        assert.equal(undone.status, 'written', undone.message);
        assert.deepEqual(undone.removed, added.added);
        assert.deepEqual(await props(target, aspect), before);
      });
    }

    test('undo under a concurrent writer: its member stays, ours is gone', async () => {
      const before = await props(S.usersTable, 'mlFeatureTableProperties');
      const other = await serverFor(env.catalog.url);
      try {
        const mine = await run('catalogLens.addFeaturesToTable', { table: S.usersTable, features: [S.signupDays] });
        assert.deepEqual(mine.added, [S.signupDays]);
        const theirs = await other.command<WriteResult>('catalogLens.addFeaturesToTable', {
          table: S.usersTable,
          features: [S.orderCount],
        });
        assert.deepEqual(theirs.added, [S.orderCount]);
        const undone = await run('catalogLens.removeFeaturesFromTable', { table: S.usersTable, features: mine.added });
        assert.equal(undone.status, 'written', undone.message);
        assert.deepEqual(await props(S.usersTable, 'mlFeatureTableProperties'), {
          ...before,
          mlFeatures: [...before.mlFeatures, S.orderCount],
        });
      } finally {
        await other.stop();
      }
    });
  });

for (const compat of COMPAT_MODES)
  describe(`concurrent appenders and removers (${compat} catalog)`, () => {
    test('6 clients each appending 20 features and undoing half of them at once: the conflicts are retried and nothing is lost', async () => {
      const catalog = await sampleCatalog({ compat });
      const features = Array.from({ length: 120 }, (_, i) => `urn:li:mlFeature:(orders_table,u${i})`);
      assert.equal(
        await ingestBatch(
          catalog.url,
          features.map((urn) => ({
            entityType: 'mlFeature',
            urn,
            aspectName: 'mlFeatureProperties',
            value: { description: 'generated' },
          })),
        ),
        200,
      );
      const clients = await Promise.all(Array.from({ length: 6 }, () => serverFor(catalog.url)));
      const kept: string[] = [];
      try {
        await Promise.all(
          clients.map(async (c, k) => {
            const mine = features.slice(k * 20, k * 20 + 20);
            for (let i = 0; i < 20; i += 4) {
              const add = await c.command<WriteResult>('catalogLens.addFeaturesToTable', {
                table: S.ordersTable,
                features: mine.slice(i, i + 4),
              });
              assert.equal(add.status, 'written', add.message);
              assert.deepEqual(add.added, mine.slice(i, i + 4));
              // Undo half of what this append added; the rest stays.
              const undo = await c.command<WriteResult>('catalogLens.removeFeaturesFromTable', {
                table: S.ordersTable,
                features: add.added.slice(0, 2),
              });
              assert.equal(undo.status, 'written', undo.message);
              kept.push(...mine.slice(i + 2, i + 4));
            }
          }),
        );
        const { mlFeatureTableProperties: t } = await aspects(catalog.url, S.ordersTable, ['mlFeatureTableProperties']);
        assert.equal(t.mlFeatures.length, 1 + 60);
        assert.deepEqual(new Set(t.mlFeatures), new Set([S.orderCount, ...kept]));
      } finally {
        await Promise.all(clients.map((c) => c.stop()));
        await catalog.close();
      }
    });
  });

for (const compat of COMPAT_MODES)
  describe(`undo on the GraphQL write path (${compat} catalog)`, () => {
    // ML list edits go through the aspect path on either write path (the spec has no mutation for them).
    const env = useSampleServerPerTest({ settings: { writePath: 'graphql' } }, compat);
    test('an append undone leaves the aspect exactly as before', async () => {
      const read = async (): Promise<unknown> =>
        (await aspects(env.catalog.url, S.churnModel, ['mlModelProperties']))['mlModelProperties'];
      const before = await read();
      const added = await env.lsp.command<WriteResult>('catalogLens.addFeaturesToModel', {
        model: S.churnModel,
        features: [S.signupDays],
      });
      assert.deepEqual(added.added, [S.signupDays], added.message);
      const undone = await env.lsp.command<WriteResult>('catalogLens.removeFeaturesFromModel', {
        model: S.churnModel,
        features: added.added,
      });
      assert.equal(undone.status, 'written', undone.message);
      assert.deepEqual(await read(), before);
    });
  });
