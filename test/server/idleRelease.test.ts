/**
 * The server gives memory back when idle after work (server/src/idleRelease.ts): the collection
 * through an in-process inspector session settles and leaves no session behind, the looking can be
 * turned off, and it never keeps the process alive.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { collectAllGarbage, releaseMemoryWhenIdle } from '../../server/src/idleRelease';

describe('memory given back when idle', () => {
  test('a full collection through the inspector settles, and may be asked again', async () => {
    let garbage: unknown[] | undefined = Array.from({ length: 50_000 }, (_, i) => ({ i, s: `item ${i}` }));
    assert.equal(garbage.length, 50_000);
    garbage = undefined;
    await collectAllGarbage();
    await collectAllGarbage();
  });

  test('CATALOG_LENS_IDLE_GC=off turns it off', () => {
    assert.equal(releaseMemoryWhenIdle({ CATALOG_LENS_IDLE_GC: 'off' }), undefined);
    const on = releaseMemoryWhenIdle({});
    assert.ok(on);
    assert.equal(on.collections, 0);
    on.stop();
  });

  test('its timer does not keep a process alive', () => {
    const module = require.resolve('../../server/src/idleRelease');
    const r = spawnSync(
      process.execPath,
      ['-e', `require(${JSON.stringify(module)}).releaseMemoryWhenIdle({}); setTimeout(() => {}, 50);`],
      { timeout: 20_000, encoding: 'utf8' },
    );
    assert.equal(r.status, 0, r.stderr);
  });
});
