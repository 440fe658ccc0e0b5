/**
 * The index's read of a listed file (server/src/index/readListed.ts) against workspace.ts
 * readCappedSync with `listedRegular`: the same answer for every kind of entry and size, around
 * the cap and around the reused buffer's size — a small file read without a stat, and what is not
 * settled by its reads (an empty file, a FIFO without a writer, a device, a folder, a file that
 * fills the buffer) stated as readSteps states it.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { readListedSync } from '../../server/src/index/readListed';
import { readCappedSync } from '../../server/src/workspace';

test('readListedSync answers as readCappedSync with listedRegular, file by file', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-lens-listed-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const paths: string[] = [];
  const file = (name: string, text: string | Buffer): void => {
    const p = join(dir, name);
    writeFileSync(p, text);
    paths.push(p);
  };
  file('empty.py', '');
  file('one.py', 'x');
  file('accents.py', 'x = "é€😀"\nurn:li:dataset:(urn:li:dataPlatform:hive,é,PROD)\n');
  // A UTF-8 sequence cut by the cap or left unfinished at the end.
  file('cut.py', Buffer.from([0x61, 0xe2, 0x82]));
  const scratch = 64 << 10;
  for (const size of [scratch - 2, scratch - 1, scratch, scratch + 1, 3 * scratch + 7])
    file(`size${size}.py`, 'abcdefghij\n'.repeat(Math.ceil(size / 11)).slice(0, size));
  mkdirSync(join(dir, 'folder.py'));
  paths.push(join(dir, 'folder.py'), join(dir, 'gone.py'));
  if (process.platform !== 'win32') {
    symlinkSync(join(dir, 'one.py'), join(dir, 'link.py'));
    symlinkSync(join(dir, 'nowhere.py'), join(dir, 'dangling.py'));
    execFileSync('mkfifo', [join(dir, 'fifo.py')]);
    paths.push(join(dir, 'link.py'), join(dir, 'dangling.py'), join(dir, 'fifo.py'), '/dev/null');
  }
  // A file whose stat says 0 bytes though it has text: read to a read of nothing.
  if (process.platform === 'linux') paths.push('/proc/version');
  // Fractional caps too (a setting is a number): a file is over the cap or read whole, never cut.
  const caps = [
    0,
    1,
    1.5,
    2,
    10,
    10.2,
    scratch - 2,
    scratch - 1.5,
    scratch - 1,
    scratch,
    scratch + 1,
    2 * scratch,
    10 << 20,
  ];
  let compared = 0;
  // Twice: the reused buffer holds the last file's bytes the second time round.
  for (let round = 0; round < 2; round++)
    for (const p of paths)
      for (const max of caps) {
        // A fractional cap is its whole part (settings give whole numbers; the reader holds to it too).
        assert.deepEqual(
          readListedSync(p, max),
          readCappedSync(p, Math.floor(max), { listedRegular: true }),
          `${p} at ${max}`,
        );
        compared++;
      }
  assert.equal(compared, 2 * paths.length * caps.length);
  // The answers include texts, over-cap files and each refusal.
  assert.equal(
    readListedSync(join(dir, 'accents.py'), 1000),
    'x = "é€😀"\nurn:li:dataset:(urn:li:dataPlatform:hive,é,PROD)\n',
  );
  assert.deepEqual(readListedSync(join(dir, 'one.py'), 0), { tooLarge: true });
  assert.deepEqual(readListedSync(join(dir, 'gone.py'), 10), { error: 'ENOENT' });
  assert.deepEqual(readListedSync(join(dir, 'folder.py'), 10), { error: 'EISDIR' });
  if (process.platform !== 'win32') {
    assert.deepEqual(readListedSync(join(dir, 'link.py'), 10), { notRegular: 'a symbolic link' });
    assert.deepEqual(readListedSync(join(dir, 'fifo.py'), 10), { notRegular: 'a FIFO' });
    assert.deepEqual(readListedSync('/dev/null', 10), { notRegular: 'a device' });
  }
});

test('readListedSync reads on after a short read, as readCappedSync does (a network or FUSE file system)', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-lens-listed-short-'));
  // The module object itself (the reader's import reads its properties when called).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fs = require('node:fs') as typeof import('node:fs');
  const original = fs.readSync;
  t.after(() => {
    (fs as { readSync: typeof fs.readSync }).readSync = original;
    rmSync(dir, { recursive: true, force: true });
  });
  const small = join(dir, 'small.py');
  const large = join(dir, 'large.py');
  writeFileSync(small, 'x'.repeat(5000));
  writeFileSync(large, 'y'.repeat(100_000));
  // At most 1,000 bytes a read.
  (fs as { readSync: typeof fs.readSync }).readSync = ((
    fd: number,
    buffer: Buffer,
    offset: number,
    length: number,
    position: null,
  ) => original(fd, buffer, offset, Math.min(length, 1000), position)) as typeof fs.readSync;
  assert.equal(readListedSync(small, 1 << 20), 'x'.repeat(5000));
  assert.equal(readListedSync(large, 1 << 20), 'y'.repeat(100_000));
  assert.deepEqual(readListedSync(large, 50_000), { tooLarge: true });
});
