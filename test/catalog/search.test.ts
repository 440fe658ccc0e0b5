/**
 * Search in the local catalog: DataHub's `autoComplete`, `autoCompleteForMultiple` and
 * `searchAcrossEntities` over SQLite FTS5, through HTTP, in both modes (every document is checked
 * against DataHub's schema by `gql`): ranking, in-word and near matches, type and platform filters
 * in either namespace word, the index kept current by writes, a database of the previous version
 * indexed on open, and bad input named.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { AspectStore } from '../../catalog/src/store';
import { nameRank } from '../../catalog/src/searchIndex';
import { gql, gqlData, onlyError, testCatalog, write, type Json } from './helpers';

const ds = (name: string, platform = 'hive', ns = 'li'): string =>
  `urn:${ns}:dataset:(urn:${ns}:dataPlatform:${platform},${name},PROD)`;

const MULTI = `query ($q: String!, $types: [EntityType!], $limit: Int, $orFilters: [AndFilterInput!]) {
  autoCompleteForMultiple(input: { query: $q, types: $types, limit: $limit, orFilters: $orFilters }) {
    query suggestions { type suggestions entities { urn type } }
  }
}`;
const SEARCH = `query ($q: String!, $start: Int, $count: Int, $orFilters: [AndFilterInput!]) {
  searchAcrossEntities(input: { query: $q, start: $start, count: $count, orFilters: $orFilters }) {
    start count total searchResults { entity { urn type ... on Dataset { properties { description } } } matchedFields { name value } }
  }
}`;

const urnsOf = (data: Json): string[] =>
  ((data['searchAcrossEntities'] as Json)['searchResults'] as Array<{ entity: { urn: string } }>).map(
    (r) => r.entity.urn,
  );

describe('name ranks', () => {
  test('exact 0, prefix 1, a word of the name 2, anywhere 3, else none; case does not matter', () => {
    assert.deepEqual(
      ['users', 'Users_daily', 'db.users', 'superusers', 'orders'].map((n) => nameRank(n, 'users')),
      [0, 1, 2, 3, undefined],
    );
  });
});

for (const compat of ['spec', 'datahub'] as const)
  describe(`search over HTTP (${compat} mode)`, () => {
    test('ranked exact > prefix > word > contains, then description hits; in-word and near matches', async (t) => {
      const catalog = await testCatalog(t, { compat });
      for (const name of ['superusers', 'db.users', 'users_daily', 'users', 'orders'])
        await write(catalog, 'dataset', ds(name), 'datasetProperties', { name, description: `${name} table.` });
      await write(catalog, 'dataset', ds('audit'), 'datasetProperties', {
        name: 'audit',
        description: 'Who changed which users.',
      });
      const r = await gqlData(catalog, SEARCH, { q: 'users', count: 10 });
      assert.deepEqual(urnsOf(r), [ds('users'), ds('users_daily'), ds('db.users'), ds('superusers'), ds('audit')]);
      const matched = ((r['searchAcrossEntities'] as Json)['searchResults'] as Array<{ matchedFields: Json[] }>).map(
        (x) => x.matchedFields[0]!['name'],
      );
      assert.deepEqual(matched, ['name', 'name', 'name', 'name', 'description']);
      assert.equal((r['searchAcrossEntities'] as Json)['total'], 5);
      // In a word: `sers`; a typo: `usres` finds the near names.
      assert.ok(urnsOf(await gqlData(catalog, SEARCH, { q: 'sers' })).includes(ds('db.users')));
      assert.ok(urnsOf(await gqlData(catalog, SEARCH, { q: 'usres' })).includes(ds('db.users')));
      // Paging.
      const page = await gqlData(catalog, SEARCH, { q: 'users', start: 1, count: 2 });
      assert.deepEqual(urnsOf(page), [ds('users_daily'), ds('db.users')]);
    });

    test('autoCompleteForMultiple: one entry per type with names and entities; type and platform filters', async (t) => {
      const catalog = await testCatalog(t, { compat, sample: true });
      const all = (await gqlData(catalog, MULTI, { q: 'users' }))['autoCompleteForMultiple'] as {
        suggestions: Array<{ type: string; suggestions: string[]; entities: Array<{ urn: string }> }>;
      };
      const byType = Object.fromEntries(all.suggestions.map((s) => [s.type, s]));
      assert.equal(byType['DATASET']?.suggestions[0], 'db.users');
      assert.equal(byType['MLFEATURE_TABLE']?.suggestions[0], 'users_table');
      const tables = (await gqlData(catalog, MULTI, { q: 'users', types: ['MLFEATURE_TABLE'] }))[
        'autoCompleteForMultiple'
      ] as { suggestions: Array<{ type: string }> };
      assert.deepEqual(
        tables.suggestions.map((s) => s.type),
        ['MLFEATURE_TABLE'],
      );
      // A platform filter, by URN in either namespace word (the spec mode treats them as one), or by name.
      for (const value of [
        'urn:li:dataPlatform:kafka',
        'kafka',
        ...(compat === 'spec' ? ['urn:svc:dataPlatform:kafka'] : []),
      ]) {
        const kafka = (
          await gqlData(catalog, MULTI, {
            q: 'e',
            types: ['DATASET'],
            orFilters: [{ and: [{ field: 'platform', values: [value] }] }],
          })
        )['autoCompleteForMultiple'] as { suggestions: Array<{ suggestions: string[] }> };
        assert.deepEqual(kafka.suggestions[0]?.suggestions, ['events.clicks'], value);
      }
      const notHive = (
        await gqlData(catalog, MULTI, {
          q: 'users',
          types: ['DATASET'],
          orFilters: [{ and: [{ field: 'platform', values: ['hive'], negated: true }] }],
        })
      )['autoCompleteForMultiple'] as { suggestions: unknown[] };
      assert.deepEqual(notHive.suggestions, []);
    });

    test('the index follows writes: a new dataset, then a changed description', async (t) => {
      const catalog = await testCatalog(t, { compat });
      assert.deepEqual(urnsOf(await gqlData(catalog, SEARCH, { q: 'churn_scores' })), []);
      await write(catalog, 'dataset', ds('ml.churn_scores'), 'datasetProperties', { name: 'churn_scores' });
      assert.deepEqual(urnsOf(await gqlData(catalog, SEARCH, { q: 'churn_scores' })), [ds('ml.churn_scores')]);
      await write(catalog, 'dataset', ds('ml.churn_scores'), 'editableDatasetProperties', {
        description: 'Daily propensity.',
      });
      assert.deepEqual(urnsOf(await gqlData(catalog, SEARCH, { q: 'propensity' })), [ds('ml.churn_scores')]);
    });

    test('bad input is named', async (t) => {
      const catalog = await testCatalog(t, { compat });
      const limit = await gql(catalog, 'query { autoComplete(input: { query: "x", limit: -1 }) { query } }');
      assert.match(onlyError(limit).message, /autoComplete\(input\)\.limit: must be between 0 and 1000, found -1/);
      const field = await gql(catalog, MULTI, { q: 'x', orFilters: [{ and: [{ field: 'owners', values: ['a'] }] }] });
      assert.match(
        onlyError(field).message,
        /orFilters\[0\]\.and\[0\]\.field: 'owners' is not a field this catalog filters by/,
      );
      const empty = await gql(catalog, MULTI, { q: ' ' });
      assert.match(onlyError(empty).message, /autoCompleteForMultiple\(input\)\.query: type something to complete/);
    });
  });

describe('a database of the previous version', () => {
  test('is indexed when it opens', () => {
    const dir = mkdtempSync(join(tmpdir(), 'catalog-lens-search-'));
    try {
      const file = join(dir, 'old.db');
      const store = new AspectStore(file, 'normal', 'li');
      const stamp = { time: 1, actor: 'urn:li:corpuser:x' };
      store.transaction(() =>
        store.put({
          urn: ds('db.legacy_users'),
          aspect: 'datasetProperties',
          entityType: 'dataset',
          value: { name: 'legacy_users', description: 'Old.' },
          version: 1,
          created: stamp,
          lastModified: stamp,
          systemMetadata: {},
        }),
      );
      store.close();
      // What the previous version left: no search table, no record of one.
      const raw = new Database(file);
      raw.exec("DROP TABLE search_index; DELETE FROM catalog_meta WHERE key = 'search_index_version'");
      raw.close();
      const reopened = new AspectStore(file, 'normal', 'li');
      assert.deepEqual(
        reopened.search.search({ query: 'legacy', start: 0, count: 5 }).hits.map((h) => h.key),
        [ds('db.legacy_users')],
      );
      reopened.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
