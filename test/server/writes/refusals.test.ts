/**
 * Writes the server refuses, through the real server process against the real local catalog:
 * entities the catalog does not have, a URN no URL can carry, bad arguments; nothing is written.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { aspects, graphql } from '../../support/catalogHttp';
import { COMPAT_MODES, S } from '../../support/fixture';
import { useWriteServer } from './writeServer';

for (const compat of COMPAT_MODES)
  describe(`write commands: refusals (aspect path, ${compat} catalog)`, () => {
    const { env, run } = useWriteServer(compat);

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

    test('bad arguments get a clear failure, not an exception', async () => {
      const r = await run('catalogLens.setDatasetDescription', { urn: 'urn:li:dataset:(oops', description: 'x' });
      assert.equal(r.status, 'failed');
      assert.match(r.message, /'urn' is not a valid URN: unbalanced parenthesis/);
      const k = await run('catalogLens.addFeaturesToTable', { table: S.usersTable, features: [S.users] });
      assert.match(k.message, /must be a mlFeature URN, not a dataset URN/);
    });
  });
