/**
 * What Check Workspace keeps of each file for the next check (server/src/pipeline/checkedFiles.ts):
 * found again only with the same URI, metadata and settings while its answers are fresh; a file
 * modified close to the check that read it is not kept; kept files carry over whole.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CheckedFiles, RACY_MS, textHashes, type FileStamp } from '../../server/src/pipeline/checkedFiles';

const readAt = 1_800_000_000_000;
const st: FileStamp = { size: 120, mtimeMs: readAt - 60_000, ctimeMs: readAt - 50_000, ino: 4242 };
const uri = 'file:///w/pkg/job_1.py';
const client = {};

function kept(): CheckedFiles {
  const b = CheckedFiles.builder();
  b.add(uri, st, readAt, 'settings-1', 2, readAt + 300_000, ['urn:a', 'urn:b', 'urn:a2']);
  b.add('file:///w/pkg/job_2.py', { ...st, ino: 4243 }, readAt, 'settings-1', 0, Infinity, []);
  return b.finish(client, 7);
}

describe('what Check Workspace keeps of a file for the next check', () => {
  test('found with the same URI, metadata and settings while its answers are fresh', () => {
    const k = kept();
    assert.equal(k.size, 2);
    assert.equal(k.client, client);
    assert.equal(k.replaced, 7);
    const slot = k.find(uri, st, 'settings-1', readAt + 1000);
    assert.ok(slot >= 0);
    assert.equal(k.diagnostics(slot), 2);
    const urns: Array<[number, number]> = [];
    k.forEachUrn(slot, (a, b) => urns.push([a, b]));
    assert.deepEqual(urns, [textHashes('urn:a'), textHashes('urn:b'), textHashes('urn:a2')]);
    assert.equal(k.freshest, Infinity, 'one file read no answer');
    const other = k.find('file:///w/pkg/job_2.py', { ...st, ino: 4243 }, 'settings-1', readAt + 10 ** 9);
    assert.ok(other >= 0, 'no answers read: fresh whenever');
    assert.equal(k.diagnostics(other), 0);
  });

  test('anything else differs: not found', () => {
    const k = kept();
    const now = readAt + 1000;
    assert.equal(k.find('file:///w/pkg/job_3.py', st, 'settings-1', now), -1, 'another URI');
    assert.equal(k.find(uri, { ...st, size: 121 }, 'settings-1', now), -1, 'size');
    assert.equal(k.find(uri, { ...st, mtimeMs: st.mtimeMs + 1 }, 'settings-1', now), -1, 'modified');
    assert.equal(k.find(uri, { ...st, ctimeMs: st.ctimeMs + 1 }, 'settings-1', now), -1, 'changed (times set back)');
    assert.equal(k.find(uri, { ...st, ino: 1 }, 'settings-1', now), -1, 'another file in its place');
    assert.equal(k.find(uri, st, 'settings-2', now), -1, 'other settings');
    assert.equal(k.find(uri, st, 'settings-1', readAt + 300_000), -1, 'an answer it read expired');
  });

  test('a file modified or changed within RACY_MS of the check that read it is not kept', () => {
    const b = CheckedFiles.builder();
    b.add(uri, { ...st, mtimeMs: readAt - RACY_MS + 1 }, readAt, 's', 0, Infinity, []);
    b.add('file:///w/late.py', { ...st, mtimeMs: readAt + 5 }, readAt, 's', 0, Infinity, []);
    b.add('file:///w/edge.py', { ...st, mtimeMs: readAt - RACY_MS }, readAt, 's', 0, Infinity, []);
    // An old modification time set back (cp -p, rsync -t) with a change time of now.
    b.add('file:///w/copied.py', { ...st, ctimeMs: readAt - 1 }, readAt, 's', 0, Infinity, []);
    b.add('file:///w/old.py', { ...st, mtimeMs: readAt - RACY_MS - 1 }, readAt, 's', 0, Infinity, []);
    const k = b.finish(client, 0);
    assert.equal(k.size, 1);
    assert.equal(k.find(uri, { ...st, mtimeMs: readAt - RACY_MS + 1 }, 's', readAt), -1);
    assert.ok(k.find('file:///w/old.py', { ...st, mtimeMs: readAt - RACY_MS - 1 }, 's', readAt) >= 0);
  });

  test('a kept file carries over whole into the next check', () => {
    const k = kept();
    const b = CheckedFiles.builder();
    b.carry(uri, k, k.find(uri, st, 'settings-1', readAt), 'settings-1');
    const next = b.finish(client, 8);
    const slot = next.find(uri, st, 'settings-1', readAt + 1000);
    assert.ok(slot >= 0);
    assert.equal(next.diagnostics(slot), 2);
    let n = 0;
    next.forEachUrn(slot, () => n++);
    assert.equal(n, 3);
    assert.equal(next.find(uri, st, 'settings-1', readAt + 300_000), -1, 'its freshness carried too');
    assert.equal(next.freshest, readAt + 300_000);
    assert.equal(CheckedFiles.builder().finish(client, 0).freshest, -Infinity);
  });

  test('two URIs on one first hash: the first is found under its own only, the other is not kept', () => {
    // These two share the 30 bits of their first hash (found by a search of 600,000 names).
    const [one, two] = ['file:///w/p/f168724.py', 'file:///w/p/f598200.py'];
    assert.equal(textHashes(one)[0] & 0x3fffffff, textHashes(two)[0] & 0x3fffffff);
    const b = CheckedFiles.builder();
    b.add(one, st, readAt, 's', 1, Infinity, []);
    b.add(two, st, readAt, 's', 2, Infinity, []);
    const k = b.finish(client, 0);
    assert.equal(k.size, 1);
    assert.equal(k.diagnostics(k.find(one, st, 's', readAt)), 1);
    assert.equal(k.find(two, st, 's', readAt), -1, "its second hash is not the first's");
  });

  test('the client is not kept alive by what is kept', () => {
    const k = CheckedFiles.builder().finish(client, 0);
    assert.equal(k.client, client);
    assert.equal(CheckedFiles.builder().finish(undefined, 0).client, undefined);
  });

  test('many URIs: each found under its own, none under another', () => {
    const b = CheckedFiles.builder();
    const n = 20_000;
    for (let i = 0; i < n; i++) b.add(`file:///w/p/f${i}.py`, { ...st, ino: i }, readAt, 's', i % 3, Infinity, []);
    const k = b.finish(client, 0);
    let found = 0;
    for (let i = 0; i < n; i++) {
      const slot = k.find(`file:///w/p/f${i}.py`, { ...st, ino: i }, 's', readAt);
      if (slot < 0) continue; // a first-hash collision within the check: read again, never mixed up
      found++;
      assert.equal(k.diagnostics(slot), i % 3);
      assert.equal(k.find(`file:///w/p/f${i}.py`, { ...st, ino: i + 1 }, 's', readAt), -1);
    }
    assert.ok(found >= n - 2, `${found} of ${n} found`);
  });
});
