/**
 * `catalogLens/search` (what "Catalog: Search…" shows), through the real server
 * process against the real local catalog (sample data), both modes: ranked names across entity
 * types with kind, platform and description; kind and platform filters; a listing before anything
 * is typed; bad params named.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { SearchParams, SearchResult } from '../../model/src/protocol';
import { COMPAT_MODES, useSampleServer } from '../support/fixture';

for (const compat of COMPAT_MODES)
  describe(`catalogLens/search (${compat} catalog)`, () => {
    const env = useSampleServer({}, compat);
    const search = (params: Partial<SearchParams> | Record<string, unknown>): Promise<SearchResult> =>
      env.lsp.connection.sendRequest<SearchResult>('catalogLens/search', params);

    test('across entity types, exact and prefix names first, each with kind, platform and description', async () => {
      const r = await search({ query: 'users' });
      assert.equal(r.error, undefined);
      const names = r.items.map((i) => `${i.kind}:${i.name}`);
      // The feature table users_table (prefix), then db.users (a word of it), db.users_legacy; description hits after.
      assert.deepEqual(names.slice(0, 3), [
        'mlFeatureTable:users_table',
        'dataset:db.users',
        'dataset:db.users_legacy',
      ]);
      const users = r.items.find((i) => i.name === 'db.users')!;
      assert.deepEqual(users, {
        urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)',
        kind: 'dataset',
        name: 'db.users',
        platform: 'hive',
        description: 'One row per registered user of the product.',
      });
      assert.ok(r.total >= r.items.length);
    });

    test('kinds and platform narrow it; nothing typed lists what the catalog has', async () => {
      const models = await search({ query: 'churn', kinds: ['mlModel'] });
      assert.deepEqual(
        models.items!.map((i) => i.name),
        ['churn-model-v3'],
      );
      const kafka = await search({ query: '', platform: 'kafka' });
      assert.deepEqual(
        kafka.items!.map((i) => i.name),
        ['events.clicks'],
      );
      const all = await search({ query: '' });
      assert.ok(all.items!.length >= 15, `${all.items!.length} entities listed`);
    });

    test('a typo still finds the name (near spellings)', async () => {
      const r = await search({ query: 'ordres', kinds: ['dataset'] });
      assert.deepEqual(
        r.items!.map((i) => i.name),
        ['db.orders'],
      );
    });

    test('bad params are named', async () => {
      assert.match((await search({})).error!, /query must be a string/);
      assert.match((await search({ query: 'x', kinds: ['chart'] })).error!, /kinds: chart is not one of dataset/);
      assert.match((await search({ query: 'x', platform: 'a b' })).error!, /platform must be a platform name/);
      assert.match((await search({ query: 'x', count: 0 })).error!, /count must be a positive whole number/);
    });
  });
