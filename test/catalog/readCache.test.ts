/**
 * The store's cache of entities read outside transactions (AspectStore.getAll): a write through
 * this store, a write by another connection to the same file, and a rolled-back write are all
 * seen as the file holds them; the cached values are frozen, so no reader can change them for the next.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { AspectStore } from '../../catalog/src/store';
import { writeAspect } from '../../catalog/src/writes';

const USERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';

function describe(store: AspectStore, description: string, now: number): void {
  writeAspect(
    store,
    {
      key: USERS,
      requestedUrn: USERS,
      entityType: 'dataset',
      aspectName: 'datasetProperties',
      value: { name: 'users', description },
    },
    'urn:li:corpuser:t',
    now,
    'spec',
  );
}

const shown = (store: AspectStore): unknown => store.getAll(USERS).get('datasetProperties')?.value['description'];

test('reads see this store’s writes, another connection’s commits and rollbacks; cached values are frozen', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-lens-readcache-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'c.db');
  const a = new AspectStore(file, 'normal', 'li');
  const b = new AspectStore(file, 'normal', 'li');
  try {
    a.transaction(() => describe(a, 'first', 1));
    assert.equal(shown(a), 'first');
    a.transaction(() => describe(a, 'second', 2));
    assert.equal(shown(a), 'second');
    b.transaction(() => describe(b, 'written by another connection', 3));
    assert.equal(shown(a), 'written by another connection');
    assert.throws(() =>
      a.transaction(() => {
        describe(a, 'rolled back', 4);
        assert.equal(shown(a), 'rolled back');
        throw new Error('refused');
      }),
    );
    assert.equal(shown(a), 'written by another connection');
    const value = a.getAll(USERS).get('datasetProperties')!.value;
    assert.ok(Object.isFrozen(value));
    assert.throws(() => {
      value['description'] = 'changed by a reader';
    }, TypeError);
    a.getAll(USERS).delete('datasetProperties');
    assert.equal(shown(a), 'written by another connection');
  } finally {
    a.close();
    b.close();
  }
});
