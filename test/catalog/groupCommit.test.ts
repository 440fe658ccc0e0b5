/**
 * Group commit and the search index: writes that share one transaction (and one fsync) have their
 * entity's search row made once, before the commit, from the state the group leaves; a write the
 * group refuses (its savepoint rolled back) and a transaction rolled back whole leave the index as
 * the rows are.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { GroupCommit } from '../../catalog/src/groupCommit';
import { AspectStore } from '../../catalog/src/store';
import { writeAspect, type AspectWrite } from '../../catalog/src/writes';

const USERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';

function described(description: string, ifVersionMatch?: string): AspectWrite {
  return {
    key: USERS,
    requestedUrn: USERS,
    entityType: 'dataset',
    aspectName: 'datasetProperties',
    value: { name: 'users', description },
    ...(ifVersionMatch !== undefined ? { ifVersionMatch } : {}),
  };
}

const found = (store: AspectStore, q: string): Array<string | null> =>
  store.search.search({ query: q, start: 0, count: 10 }).hits.map((h) => h.description);

test('one group of writes to an entity: its search row is the group’s last state; a refused write is not in it', async () => {
  const store = new AspectStore(':memory:', 'full', 'li');
  const group = new GroupCommit(store);
  const write = (w: AspectWrite): Promise<unknown> =>
    group.submit(() => store.transaction(() => writeAspect(store, w, 'urn:li:corpuser:t', 1, 'spec')));
  const outcomes = await Promise.allSettled([
    write(described('first words')),
    write(described('second words')),
    write(described('refused words', '7')),
    write(described('third words')),
  ]);
  assert.deepEqual(
    outcomes.map((o) => o.status),
    ['fulfilled', 'fulfilled', 'rejected', 'fulfilled'],
  );
  assert.deepEqual(found(store, 'users'), ['third words']);
  assert.deepEqual(found(store, 'refused'), []);
  assert.deepEqual(found(store, 'second'), []);
  store.close();
});

test('a transaction rolled back whole leaves the search row as the stored rows are', () => {
  const store = new AspectStore(':memory:', 'full', 'li');
  store.transaction(() => writeAspect(store, described('kept words'), 'urn:li:corpuser:t', 1, 'spec'));
  assert.throws(() =>
    store.transaction(() => {
      writeAspect(store, described('lost words'), 'urn:li:corpuser:t', 2, 'spec');
      throw new Error('refused after the write');
    }),
  );
  assert.deepEqual(found(store, 'users'), ['kept words']);
  assert.deepEqual(found(store, 'lost'), []);
  // The next write indexes only itself.
  store.transaction(() => writeAspect(store, described('later words'), 'urn:li:corpuser:t', 3, 'spec'));
  assert.deepEqual(found(store, 'users'), ['later words']);
  store.close();
});

test('a search inside the writing transaction sees the write', () => {
  const store = new AspectStore(':memory:', 'full', 'li');
  const seen = store.transaction(() => {
    writeAspect(store, described('inside words'), 'urn:li:corpuser:t', 1, 'spec');
    return found(store, 'inside');
  });
  assert.deepEqual(seen, ['inside words']);
  store.close();
});

test('a write makes its search row from the descriptions and the presence of the existence aspects: the schema is not parsed', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'catalog-group-'));
  try {
    const file = path.join(dir, 'c.db');
    let store = new AspectStore(file, 'normal', 'li');
    store.transaction(() => {
      writeAspect(store, described('stored words'), 'urn:li:corpuser:t', 1, 'spec');
      writeAspect(
        store,
        { ...described(''), aspectName: 'schemaMetadata', value: { schemaName: 'users', fields: [] } },
        'urn:li:corpuser:t',
        1,
        'spec',
      );
    });
    store.close();
    // A schema no write here reads: a search row that parsed it would throw.
    const db = new Database(file);
    db.prepare("UPDATE aspects SET value = '{not json' WHERE aspect = 'schemaMetadata'").run();
    db.close();
    store = new AspectStore(file, 'normal', 'li');
    const edited: AspectWrite = {
      key: USERS,
      requestedUrn: USERS,
      entityType: 'dataset',
      aspectName: 'editableDatasetProperties',
      value: { description: 'edited words' },
    };
    store.transaction(() => writeAspect(store, edited, 'urn:li:corpuser:t', 2, 'spec'));
    assert.deepEqual(found(store, 'users'), ['edited words']);
    assert.equal(store.has(USERS, 'schemaMetadata'), true);
    assert.equal(store.has(USERS, 'ownership'), false);
    store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
