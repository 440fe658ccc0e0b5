/**
 * The search's matching and ranking in memory (catalog/src/searchIndex.ts) find, order and count
 * exactly as the SQL they replaced: the FTS5 match (LIKE under three characters), `ORDER BY rank,
 * length(name), key` (rank from nameRank, 4 for a description-only hit), with lengths in
 * characters and keys in UTF-8 byte order; checked here against that SQL on names and
 * descriptions with accents, astral characters, a Kelvin sign and a long s (FTS5 folds them to
 * `k` and `s`, LIKE keeps them), upper case, equal lengths, descriptions only, type and platform
 * filters, and pages — matched in memory, and with every match found by SQLite.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { nameRank, type SearchQuery } from '../../catalog/src/searchIndex';
import { AspectStore } from '../../catalog/src/store';

const NAMES = [
  'users',
  'Users_daily',
  'db.users',
  'superusers',
  'orders',
  'usérs',
  'zz_users',
  // Same platform, rank and length in characters: UTF-8 order puts U+FFFF first, UTF-16 order the emoji.
  'users😀',
  'users\uffff',
  'aa_users',
  'ab.users',
  'USERS',
  'u',
  'us',
  'event_log',
  'x'.repeat(40),
];

/**
 * Descriptions in turn: ASCII in both cases, accents (LIKE folds ASCII letters only: `én` is not
 * in `ÉNORME` for it), a Kelvin sign (JavaScript and FTS5 lower-case it to `k`, LIKE keeps it), a
 * dotted capital I (JavaScript lower-cases it to two characters, FTS5 keeps it), a long s, an
 * astral character, none.
 */
const DESCRIPTIONS: Array<(i: number) => string | undefined> = [
  () => 'Every event of the users.',
  (i) => `Table ${i}.`,
  () => 'ÉVÉNEMENT des usérs, one row per event',
  () => '\u212Aelvin readings of the USERS',
  () => undefined,
  () => 'Sessions 😀 of users, ONE ROW PER EVENT',
  (i) => `table ${i} of orders`,
  () => 'ÉNORME table',
  () => 'İSTANBUL sales',
  () => 'bike rides',
  // FTS5 folds `ſ` to `s`; JavaScript's toLowerCase keeps it.
  () => 'ſtrange readings',
];

/** What the catalog answered before: the FTS5 match, ranked and paged in SQLite. */
function reference(db: Database.Database, q: SearchQuery): { total: number; keys: string[] } {
  const text = q.query.trim();
  const all = text === '' || text === '*';
  const where: string[] = [];
  const params: unknown[] = [];
  if (q.types) {
    where.push(`type IN (${q.types.map(() => '?').join(',') || 'NULL'})`);
    params.push(...q.types);
  }
  if (q.platforms) {
    where.push(`platform IN (${q.platforms.map(() => '?').join(',') || 'NULL'})`);
    params.push(...q.platforms);
  }
  if (!all) {
    if ([...text].length < 3) {
      const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      where.push("(name LIKE ? ESCAPE '\\' OR description LIKE ? ESCAPE '\\')");
      params.push(like, like);
    } else {
      where.push('search_index MATCH ?');
      params.push(`"${text.replace(/"/g, '""')}"`);
    }
  }
  const cond = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const total = (db.prepare(`SELECT count(*) AS n FROM search_index ${cond}`).get(...params) as { n: number }).n;
  const keys = db
    .prepare(
      `SELECT key, ${all ? '0' : 'search_rank(name, ?)'} AS rank FROM search_index ${cond} ORDER BY rank, length(name), key LIMIT ? OFFSET ?`,
    )
    .all(...(all ? [] : [text]), ...params, q.count, q.start)
    .map((r) => (r as { key: string }).key);
  return { total, keys };
}

test('in-memory ranking = the SQL ranking it replaced (order, total, pages, filters)', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-lens-searchorder-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 's.db');
  const store = new AspectStore(file, 'normal', 'li');
  const stamp = { time: 1, actor: 'urn:li:corpuser:t' };
  store.transaction(() => {
    NAMES.forEach((name, i) => {
      const platform = i % 3 === 0 ? 'kafka' : 'hive';
      store.put({
        urn: `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},PROD)`,
        aspect: 'datasetProperties',
        entityType: 'dataset',
        value: { name, description: DESCRIPTIONS[i % DESCRIPTIONS.length]!(i) },
        version: 1,
        created: stamp,
        lastModified: stamp,
        systemMetadata: {},
      });
    });
    store.put({
      urn: 'urn:li:mlFeature:(users_table,users_age)',
      aspect: 'mlFeatureProperties',
      entityType: 'mlFeature',
      value: { description: 'Age of the users.' },
      version: 1,
      created: stamp,
      lastModified: stamp,
      systemMetadata: {},
    });
  });
  const raw = new Database(file, { readonly: true });
  raw.function('search_rank', { deterministic: true }, (name: unknown, query: unknown) =>
    typeof name === 'string' && typeof query === 'string' ? (nameRank(name, query) ?? 4) : 4,
  );
  try {
    const queries: SearchQuery[] = [];
    for (const query of [
      'users',
      'USERS',
      'usé',
      'user',
      'sers',
      'event',
      'us',
      'u',
      '*',
      '',
      'the users',
      'zz',
      'kelvin',
      'elv',
      'K',
      'én',
      'vénement',
      'one row per event',
      'ROW PER',
      '😀',
      'of ',
      'ta',
      '% ',
      'én',
      'istanbul',
      'stanbul',
      'sales',
      'ke',
      'kel',
      'strange',
      'st',
    ])
      for (const [start, count] of [
        [0, 50],
        [0, 3],
        [2, 4],
        [5, 100],
      ] as const) {
        queries.push({ query, start, count });
        queries.push({ query, start, count, platforms: ['hive'] });
        queries.push({ query, start, count, types: ['mlFeature'] });
        queries.push({ query, start, count, types: ['dataset'], platforms: ['kafka', 'hive'] });
      }
    // In memory: the FTS5 rowids as they are (few matches), the folded texts in memory (as a query
    // matching many is: manyMatches 0), and SQLite alone.
    const ways = [
      { inMemoryMatching: true, manyMatches: 2000 },
      { inMemoryMatching: true, manyMatches: 0 },
      { inMemoryMatching: false, manyMatches: 2000 },
    ];
    let found = 0;
    for (const way of ways) {
      Object.assign(store.search, way);
      for (const q of queries) {
        const expected = reference(raw, q);
        const got = store.search.search(q);
        if (expected.total === 0) continue; // the near-name pass answers those, as before
        found++;
        assert.deepEqual(
          { total: got.total, keys: got.hits.map((h) => h.key) },
          expected,
          `${JSON.stringify(q)} ${JSON.stringify(way)}`,
        );
      }
    }
    assert.ok(found > 200, `${found} queries matched`);
  } finally {
    raw.close();
    store.close();
  }
});

test('the names in memory follow writes, and a rolled-back transaction', () => {
  const store = new AspectStore(':memory:', 'normal', 'li');
  const stamp = { time: 1, actor: 'urn:li:corpuser:t' };
  const put = (name: string): void =>
    store.put({
      urn: `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`,
      aspect: 'datasetProperties',
      entityType: 'dataset',
      value: { name },
      version: 1,
      created: stamp,
      lastModified: stamp,
      systemMetadata: {},
    });
  const names = (q: string): string[] => store.search.search({ query: q, start: 0, count: 10 }).hits.map((h) => h.name);
  store.transaction(() => put('alpha_one'));
  assert.deepEqual(names('alpha'), ['alpha_one']);
  store.transaction(() => put('alpha_two'));
  assert.deepEqual(names('alpha'), ['alpha_one', 'alpha_two']);
  assert.throws(() =>
    store.transaction(() => {
      put('alpha_three');
      assert.deepEqual(names('alpha'), ['alpha_one', 'alpha_two', 'alpha_three']);
      throw new Error('rolled back');
    }),
  );
  assert.deepEqual(names('alpha'), ['alpha_one', 'alpha_two']);
  store.close();
});
