/**
 * Check Workspace's file reader: a file that went away after the listing, or is larger than
 * maxFileSize, is reported as such (and passed over by the check), never thrown.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { readCapped, readCappedSync } from '../../server/src/workspace';

test('readCapped: the text; "tooLarge" over the cap; the error code of a file that is gone or is a folder', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-lens-read-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'a.py');
  writeFileSync(file, 'x = "é"\n');
  assert.equal(await readCapped(file, 100), 'x = "é"\n');
  assert.deepEqual(await readCapped(file, 4), { tooLarge: true });
  assert.deepEqual(await readCapped(join(dir, 'gone.py'), 100), { error: 'ENOENT' });
  assert.deepEqual(await readCapped(dir, 1 << 20), { error: 'EISDIR' });
});

test('readCapped / readCappedSync with listedRegular (no stat first): the same answers, a link or a FIFO put in its place still refused', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-lens-read-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'a.py');
  writeFileSync(file, 'x = "é"\n');
  const listed = { listedRegular: true };
  for (const read of [
    (p: string, max: number) => readCapped(p, max, listed),
    (p: string, max: number) => Promise.resolve(readCappedSync(p, max, listed)),
  ]) {
    assert.equal(await read(file, 100), 'x = "é"\n');
    assert.deepEqual(await read(file, 4), { tooLarge: true });
    assert.deepEqual(await read(join(dir, 'gone.py'), 100), { error: 'ENOENT' });
    assert.deepEqual(await read(dir, 1 << 20), { error: 'EISDIR' });
    if (process.platform !== 'win32') {
      const link = join(dir, 'link.py');
      rmSync(link, { force: true });
      symlinkSync(file, link);
      assert.deepEqual(await read(link, 100), { notRegular: 'a symbolic link' });
      const fifo = join(dir, 'fifo.py');
      if (!existsSync(fifo)) execFileSync('mkfifo', [fifo]);
      assert.deepEqual(await read(fifo, 100), { notRegular: 'a FIFO' });
    }
  }
});
