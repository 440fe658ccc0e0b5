/**
 * createEntity through the real server process against the real local catalog: an ML entity made
 * from its fields, no overwrite unless asked, and the cache and diagnostics refreshed after a write.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { graphql } from '../../support/catalogHttp';
import { COMPAT_MODES, S } from '../../support/fixture';
import { useWriteServer } from './writeServer';

for (const compat of COMPAT_MODES)
  describe(`write commands: createEntity (aspect path, ${compat} catalog)`, () => {
    const { env, run } = useWriteServer(compat);

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
  });
