/**
 * A database file another version of the catalog wrote: the layout of an older version (search
 * index version 2, before the looked-up-only kinds were indexed) opens in this one with every row
 * kept and its search index rebuilt; a file a newer version wrote (a newer index, kinds this
 * version does not know) opens without a crash and keeps those rows; a file the catalog cannot
 * open is refused with its path and what to do, and is left byte for byte as it was. Each old
 * layout is written here with that version's own SQL.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import Database from 'better-sqlite3';
import { AspectStore, DatabaseFileError } from '../../catalog/src/store';
import { gqlData, testCatalog, write, type Json } from './helpers';

const USERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
const TAG = 'urn:li:tag:pii';

/** The tables of the catalog at a09c138 (store.ts and searchIndex.ts of that commit). */
const OLD_DDL = `
CREATE TABLE aspects (
  urn TEXT NOT NULL,
  aspect TEXT NOT NULL,
  entity_type TEXT NOT NULL,
  value TEXT NOT NULL,
  version INTEGER NOT NULL,
  created_time INTEGER NOT NULL,
  created_actor TEXT NOT NULL,
  modified_time INTEGER NOT NULL,
  modified_actor TEXT NOT NULL,
  system_metadata TEXT NOT NULL,
  PRIMARY KEY (urn, aspect)
) WITHOUT ROWID;
CREATE INDEX aspects_by_name ON aspects (aspect, urn);
CREATE TABLE catalog_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE VIRTUAL TABLE search_index USING fts5(
  name, description, key UNINDEXED, type UNINDEXED, platform UNINDEXED, tokenize = 'trigram'
);
CREATE TABLE search_keys (key TEXT PRIMARY KEY, row INTEGER NOT NULL) WITHOUT ROWID;
`;

function tempDir(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-lens-dbupgrade-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A file in the old layout, in WAL mode as the old catalog left it, holding `rows` (urn, aspect, type, value). */
function oldFile(
  file: string,
  indexVersion: string,
  rows: Array<[string, string, string, Json]>,
  indexed: Array<[string, string, string]> = [],
): void {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec(OLD_DDL);
  const meta = db.prepare('INSERT INTO catalog_meta (key, value) VALUES (?, ?)');
  for (const [k, v] of [
    ['schema_version', '1'],
    ['canonical_namespace', 'li'],
    ['key_form', 'canonical'],
    ['search_index_version', indexVersion],
  ])
    meta.run(k, v);
  const put = db.prepare(
    `INSERT INTO aspects VALUES (?, ?, ?, ?, 1, 1000, 'urn:li:corpuser:old', 1000, 'urn:li:corpuser:old', '{"runId":"old"}')`,
  );
  for (const [urn, aspect, type, value] of rows) put.run(urn, aspect, type, JSON.stringify(value));
  // What the old index held: rows the new build must replace, not keep beside its own.
  for (const [name, key, type] of indexed) {
    const r = db
      .prepare('INSERT INTO search_index (name, description, key, type, platform) VALUES (?, NULL, ?, ?, NULL)')
      .run(name, key, type);
    db.prepare('INSERT INTO search_keys (key, row) VALUES (?, ?)').run(key, r.lastInsertRowid);
  }
  db.close();
}

function rowsOf(file: string): Array<{ urn: string; aspect: string; value: string }> {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT urn, aspect, value FROM aspects ORDER BY urn, aspect').all() as Array<{
      urn: string;
      aspect: string;
      value: string;
    }>;
  } finally {
    db.close();
  }
}

describe('a database file written by another version', () => {
  test('the older layout (search index 2) opens: every row kept, the index rebuilt, reads and writes work', async (t) => {
    const file = join(tempDir(t), 'old.db');
    oldFile(
      file,
      '2',
      [
        [USERS, 'datasetProperties', 'dataset', { name: 'users', description: 'Registered users.' }],
        [TAG, 'tagProperties', 'tag', { name: 'PII', description: 'Personal data.' }],
        [TAG, 'tagKey', 'tag', { name: 'pii' }],
      ],
      [['stale_name_only_the_old_index_had', USERS, 'dataset']],
    );
    const before = rowsOf(file);
    const catalog = await testCatalog(t, { db: file });
    const read = await gqlData(
      catalog,
      'query ($urn: String!) { dataset(urn: $urn) { urn properties { name description } } }',
      { urn: USERS },
    );
    assert.deepEqual(read['dataset'], {
      urn: USERS,
      properties: { name: 'users', description: 'Registered users.' },
    });
    const search = (q: string, types?: string[]): Promise<Json> =>
      gqlData(
        catalog,
        'query ($q: String!, $types: [EntityType!]) { searchAcrossEntities(input: { query: $q, types: $types, start: 0, count: 10 }) { total searchResults { entity { urn } } } }',
        { q, ...(types ? { types } : {}) },
      );
    assert.deepEqual(await search('users'), {
      searchAcrossEntities: { total: 1, searchResults: [{ entity: { urn: USERS } }] },
    });
    // The looked-up-only kind the old version did not index is found now.
    assert.deepEqual(await search('pii', ['TAG']), {
      searchAcrossEntities: { total: 1, searchResults: [{ entity: { urn: TAG } }] },
    });
    assert.equal(
      ((await search('stale_name')) as { searchAcrossEntities: { total: number } }).searchAcrossEntities.total,
      0,
    );
    await write(catalog, 'dataset', USERS, 'editableDatasetProperties', { description: 'Edited after the upgrade.' });
    await catalog.close();
    const after = rowsOf(file);
    for (const row of before)
      assert.ok(
        after.some((r) => r.urn === row.urn && r.aspect === row.aspect && r.value === row.value),
        `${row.urn} ${row.aspect} kept`,
      );
    assert.equal(after.length, before.length + 1);
  });

  test('a file a newer version wrote (newer search index, kinds unknown here) opens and keeps those rows', (t) => {
    const file = join(tempDir(t), 'newer.db');
    oldFile(
      file,
      '99',
      [
        [USERS, 'datasetProperties', 'dataset', { name: 'users' }],
        ['urn:li:someFutureKind:x', 'someFutureKindInfo', 'someFutureKind', { name: 'x' }],
      ],
      [['x', 'urn:li:someFutureKind:x', 'someFutureKind']],
    );
    const store = new AspectStore(file, 'normal', 'li');
    try {
      assert.deepEqual(
        store.search.search({ query: 'users', start: 0, count: 5 }).hits.map((h) => h.key),
        [USERS],
      );
      assert.deepEqual(store.getRaw('urn:li:someFutureKind:x', 'someFutureKindInfo')?.value, { name: 'x' });
    } finally {
      store.close();
    }
  });

  test('a file the catalog cannot open: the error names it and says what to do; its bytes are left as they were', (t) => {
    const file = join(tempDir(t), 'not-a-catalog.db');
    const bytes = Buffer.from('this is not an SQLite database, but someone may need it\n'.repeat(200));
    writeFileSync(file, bytes);
    assert.throws(
      () => new AspectStore(file, 'full', 'li'),
      (e: unknown) =>
        e instanceof DatabaseFileError &&
        e.message.startsWith(`${file}: the catalog could not open this database file (`) &&
        /Nothing in it was changed or removed/.test(e.message) &&
        /another --db file/.test(e.message),
    );
    assert.deepEqual(readFileSync(file), bytes);
  });

  test('a newer schema version is refused, naming the file and what to do, and nothing is changed', (t) => {
    const file = join(tempDir(t), 'schema2.db');
    oldFile(file, '3', [[USERS, 'datasetProperties', 'dataset', { name: 'users' }]]);
    const db = new Database(file);
    db.prepare("UPDATE catalog_meta SET value = '2' WHERE key = 'schema_version'").run();
    db.close();
    const before = rowsOf(file);
    assert.throws(
      () => new AspectStore(file, 'full', 'li'),
      (e: unknown) =>
        e instanceof DatabaseFileError &&
        e.message.startsWith(`${file}: database schema version 2 is not the one this catalog reads (1)`) &&
        /another --db file/.test(e.message),
    );
    assert.deepEqual(rowsOf(file), before);
  });
});
