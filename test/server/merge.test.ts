/** removeAll (server/src/writes/merge.ts), the inverse of appendUnique: what a remove writes. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { appendUnique, removeAll } from '../../server/src/writes/merge';

const f = (name: string, ns = 'li'): string => `urn:${ns}:mlFeature:(users_table,${name})`;

describe('removeAll', () => {
  test('takes out the members given, in either namespace word, keeps the others in order, names what it took as spelt', () => {
    assert.deepEqual(removeAll([f('a'), f('b'), f('c')], [f('b', 'svc'), f('z')]), {
      next: [f('a'), f('c')],
      removed: [f('b')],
    });
  });

  test('undefined when none is there, or there is no list', () => {
    assert.equal(removeAll([f('a')], [f('b')]), undefined);
    assert.equal(removeAll(undefined, [f('b')]), undefined);
    assert.equal(removeAll(null, [f('b')]), undefined);
  });

  test('undoes appendUnique exactly: the members added, never those there before', () => {
    const old = [f('a'), f('b')];
    const next = appendUnique(old, [f('b'), f('c'), f('d')])!;
    const added = next.slice(old.length);
    assert.deepEqual(added, [f('c'), f('d')]);
    assert.deepEqual(removeAll(next, added)?.next, old);
  });
});
