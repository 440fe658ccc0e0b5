/**
 * Member-list writes (addFeaturesToModel, addGroupsToModel, addFeaturesToTable) through the real
 * server process against the real local catalog: appends keep order and every other field and add
 * no duplicates, also with eight clients appending at once.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { aspects, ingestBatch } from '../../support/catalogHttp';
import { COMPAT_MODES, S, sampleCatalog, serverFor } from '../../support/fixture';
import type { WriteResult } from '../../../model/src/protocol';
import { useWriteServer } from './writeServer';

for (const compat of COMPAT_MODES)
  describe(`write commands: member lists (aspect path, ${compat} catalog)`, () => {
    const { env, run } = useWriteServer(compat);

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
