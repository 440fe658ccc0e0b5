/**
 * Check Workspace's file reader: a file that went away after the listing, or is larger than
 * maxFileSize, is reported as such (and passed over by the check), never thrown.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { readCapped } from '../../server/src/workspace';

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
