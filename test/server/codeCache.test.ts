/**
 * dist/server.js runs the server bundle through V8's code cache (server/src/boot.ts): where the
 * cache lives, which folders it refuses, and, with the real process, that the first start writes
 * the cache, the next one uses it, a damaged file is refused by V8 and written again, and a folder
 * others may write to is never used. The server answers in each case.
 */
import assert from 'node:assert/strict';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { crc32 } from 'node:zlib';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  CODE_CACHE_ENV,
  OTHER_CACHES_KEPT,
  codeCacheFile,
  codeCacheParts,
  codeCacheFolder,
  crc32Portable,
  readCodeCachePart,
  removeOtherCaches,
  sealCodeCache,
  unsafeFolder,
} from '../../server/src/codeCache';
import { codeCacheLine } from '../../model/src/codeCache';
import { startSession, type LspSession } from '../support/lspClient';
import { sampleCatalog, S } from '../support/fixture';
import { startProxy } from '../support/proxy';

const POSIX = process.platform !== 'win32';

/**
 * V8's data of the first bundle, when the bytes are a whole cache file (every part it holds
 * checked through codeCacheParts); undefined otherwise (a torn write, a flipped bit, another format).
 */
function openCodeCache(bytes: Buffer): Buffer | undefined {
  const parts = codeCacheParts(bytes);
  if (parts === undefined || parts.count === 0) return undefined;
  const all = Array.from({ length: parts.count }, (_, i) => parts.part(i));
  const first = all[0];
  return all.includes('damaged') || !Buffer.isBuffer(first) ? undefined : first;
}

describe('the code cache folder', () => {
  test('CATALOG_LENS_CODE_CACHE names it, or turns it off', () => {
    assert.equal(codeCacheFolder({ [CODE_CACHE_ENV]: 'off' }, 'linux', '/home/u'), undefined);
    assert.equal(
      codeCacheFolder({ [CODE_CACHE_ENV]: '/var/cache/x' }, 'linux', '/home/u'),
      path.resolve('/var/cache/x'),
    );
  });

  test("otherwise the user's cache folder of the platform", () => {
    assert.equal(codeCacheFolder({}, 'linux', '/home/u'), path.join('/home/u', '.cache', 'catalog-lens', 'code-cache'));
    assert.equal(
      codeCacheFolder({ XDG_CACHE_HOME: '/xdg' }, 'linux', '/home/u'),
      path.join('/xdg', 'catalog-lens', 'code-cache'),
    );
    // A relative XDG_CACHE_HOME is invalid (XDG Base Directory): ignored.
    assert.equal(
      codeCacheFolder({ XDG_CACHE_HOME: 'rel' }, 'linux', '/home/u'),
      path.join('/home/u', '.cache', 'catalog-lens', 'code-cache'),
    );
    assert.equal(
      codeCacheFolder({}, 'darwin', '/Users/u'),
      path.join('/Users/u', 'Library', 'Caches', 'catalog-lens', 'code-cache'),
    );
    assert.equal(
      codeCacheFolder({ LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' }, 'win32', 'C:\\Users\\u'),
      path.join('C:\\Users\\u\\AppData\\Local', 'catalog-lens', 'Cache', 'code-cache'),
    );
    assert.equal(codeCacheFolder({}, 'linux', undefined), undefined);
  });

  test('a relative home or LOCALAPPDATA is none: the cache never lands in the folder the server runs in', () => {
    assert.equal(codeCacheFolder({}, 'linux', '.'), undefined);
    assert.equal(codeCacheFolder({}, 'darwin', 'rel/home'), undefined);
    assert.equal(codeCacheFolder({ XDG_CACHE_HOME: '/xdg' }, 'linux', 'rel'), undefined);
    assert.equal(codeCacheFolder({ LOCALAPPDATA: 'AppData' }, 'win32', '.'), undefined);
    assert.equal(
      codeCacheFolder({ LOCALAPPDATA: 'AppData' }, 'win32', 'C:\\Users\\u'),
      path.join('C:\\Users\\u', 'AppData', 'Local', 'catalog-lens', 'Cache', 'code-cache'),
    );
  });

  test('one file per bundle, V8 and architecture', () => {
    const a = codeCacheFile('/c', 'a'.repeat(64), 1000, 1_700_000_000_000);
    const b = codeCacheFile('/c', 'b'.repeat(64), 1000, 1_700_000_000_000);
    assert.notEqual(a, b);
    // The same bundle name rewritten (another size or time) gets another file.
    assert.notEqual(a, codeCacheFile('/c', 'a'.repeat(64), 1001, 1_700_000_000_000));
    assert.notEqual(a, codeCacheFile('/c', 'a'.repeat(64), 1000, 1_700_000_000_999));
    assert.match(path.basename(a), new RegExp(`^server-a{16}-[0-9a-z]+-[0-9a-z]+-v8-.+-${process.arch}\\.bin$`));
  });

  test('a cache file is used only whole: its CRC-32 checked before V8 sees it', () => {
    const data = Buffer.from('the bytes V8 made');
    const sealed = sealCodeCache(data);
    assert.deepEqual(openCodeCache(sealed), data);
    const flipped = Buffer.from(sealed);
    flipped[flipped.length - 3]! ^= 1;
    assert.equal(openCodeCache(flipped), undefined, 'a flipped bit');
    assert.equal(openCodeCache(sealed.subarray(0, sealed.length - 1)), undefined, 'a torn write');
    assert.equal(openCodeCache(data), undefined, 'another format');
  });

  test("each part's checksum in the table is its CRC-32 (as zlib's crc32 makes it), in a format of its own", () => {
    const parts = [Buffer.from('the first bundle'), Buffer.alloc(70_000, 7), Buffer.alloc(0)];
    const sealed = sealCodeCache(...parts);
    // The format line (version 3: a file of the sha256 format is not read as one), the count, then
    // each part's length and CRC-32.
    assert.equal(sealed.subarray(0, sealed.indexOf(10) + 1).toString('latin1'), 'catalog-lens code cache 3\n');
    const table = sealed.indexOf(10) + 1;
    assert.equal(sealed.readUInt32LE(table), parts.length);
    parts.forEach((part, i) => {
      const at = table + 4 + i * 8;
      assert.equal(sealed.readUInt32LE(at), part.length);
      assert.equal(sealed.readUInt32LE(at + 4), crc32(part) >>> 0);
    });
    // A file of the format before (a sha256 per part): not this format, so no part of it is used.
    const before = Buffer.concat([Buffer.from('catalog-lens code cache 2\n'), sealed.subarray(table)]);
    assert.equal(codeCacheParts(before), undefined);
  });

  test("the CRC-32 computed here (for Nodes before 20.15, without zlib's) is zlib's", () => {
    const samples = [
      Buffer.alloc(0),
      Buffer.from('a'),
      Buffer.from('123456789'),
      Buffer.alloc(70_000, 0xff),
      Buffer.from(Array.from({ length: 65_537 }, (_, i) => (i * 2_654_435_761) >>> 24)),
    ];
    for (const sample of samples) assert.equal(crc32Portable(sample), crc32(sample) >>> 0, `${sample.length} bytes`);
    // The check value of CRC-32/ISO-HDLC.
    assert.equal(crc32Portable(Buffer.from('123456789')), 0xcbf43926);
  });

  test('a change of any one byte of a part, or of a burst of up to 4 bytes, makes it damaged', () => {
    const part = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 31 + 7) & 0xff));
    const sealed = sealCodeCache(part);
    const start = sealed.length - part.length;
    for (let at = start; at < sealed.length; at++) {
      const changed = Buffer.from(sealed);
      changed[at]! ^= 0x5a;
      assert.equal(codeCacheParts(changed)!.part(0), 'damaged', `byte ${at - start}`);
      if (at + 4 <= sealed.length) {
        changed.writeUInt32LE((changed.readUInt32LE(at) ^ 0xdeadbeef) >>> 0, at);
        assert.equal(codeCacheParts(changed)!.part(0), 'damaged', `bytes ${at - start}..${at - start + 3}`);
      }
    }
  });

  test('one file holds the data of each bundle, each part checked on its own when asked for', () => {
    const core = Buffer.from('the first bundle');
    const wiring = Buffer.from('the second bundle, longer');
    const sealed = sealCodeCache(core, wiring);
    const parts = codeCacheParts(sealed)!;
    assert.equal(parts.count, 2);
    assert.deepEqual(parts.part(0), core);
    assert.deepEqual(parts.part(1), wiring);
    assert.equal(parts.part(2), 'absent', 'a bundle the file does not name');
    assert.deepEqual(openCodeCache(sealed), core);
    // A part of length 0: the file holds nothing for that bundle.
    assert.equal(codeCacheParts(sealCodeCache(core, Buffer.alloc(0)))!.part(1), 'absent');
    // A flipped bit in the second part: the first is still whole, the file as a whole is not.
    const flipped = Buffer.from(sealed);
    flipped[flipped.length - 2]! ^= 1;
    assert.deepEqual(codeCacheParts(flipped)!.part(0), core);
    assert.equal(codeCacheParts(flipped)!.part(1), 'damaged');
    assert.equal(openCodeCache(flipped), undefined);
    // A table that does not match the length (a torn write, bytes added) is no cache file.
    assert.equal(codeCacheParts(sealed.subarray(0, sealed.length - 1)), undefined);
    assert.equal(codeCacheParts(Buffer.concat([sealed, Buffer.from([0])])), undefined);
    // A damaged count: no huge table is made.
    const count = Buffer.from(sealed);
    count.writeUInt32LE(0xffffffff, sealed.indexOf('\n') + 1);
    assert.equal(codeCacheParts(count), undefined);
  });

  test(
    'reading a cache file: only a regular file of this user that others may not write',
    { skip: !POSIX && 'POSIX modes' },
    () => {
      const root = mkdtempSync(path.join(tmpdir(), 'catalog-lens-code-cache-'));
      try {
        const uid = process.getuid!();
        const file = path.join(root, 'server-x.bin');
        writeFileSync(file, sealCodeCache(Buffer.from('data')), { mode: 0o600 });
        const none = { found: false, part: 'absent' };
        assert.deepEqual(readCodeCachePart(file, uid, 0), { found: true, part: Buffer.from('data') });
        assert.deepEqual(readCodeCachePart(file, uid + 1, 0), none, 'another user');
        chmodSync(file, 0o666);
        assert.deepEqual(readCodeCachePart(file, uid, 0), none, 'others may write it');
        chmodSync(file, 0o600);
        const link = path.join(root, 'server-link.bin');
        symlinkSync(file, link);
        assert.deepEqual(readCodeCachePart(link, uid, 0), none, 'a link');
        assert.deepEqual(readCodeCachePart(path.join(root, 'missing.bin'), uid, 0), none);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  );

  test(
    "reading one bundle's part of a cache file alone: checked on its own, from a file this user alone may write",
    { skip: !POSIX && 'POSIX modes' },
    () => {
      const root = mkdtempSync(path.join(tmpdir(), 'catalog-lens-code-cache-'));
      try {
        const uid = process.getuid!();
        const core = Buffer.alloc(5000, 1);
        const wiring = Buffer.alloc(7000, 2);
        const file = path.join(root, 'server-x.bin');
        writeFileSync(file, sealCodeCache(core, wiring), { mode: 0o600 });
        assert.deepEqual(readCodeCachePart(file, uid, 0), { found: true, part: core });
        assert.deepEqual(readCodeCachePart(file, uid, 1), { found: true, part: wiring });
        assert.deepEqual(readCodeCachePart(file, uid, 2), { found: true, part: 'absent' });
        // A flipped byte in the second part: the first still reads whole.
        const bytes = sealCodeCache(core, wiring);
        bytes[bytes.length - 10]! ^= 1;
        writeFileSync(file, bytes);
        assert.deepEqual(readCodeCachePart(file, uid, 0), { found: true, part: core });
        assert.deepEqual(readCodeCachePart(file, uid, 1), { found: true, part: 'damaged' });
        // A torn file (its table says more than it holds) or another format: damaged, whichever part.
        writeFileSync(file, bytes.subarray(0, bytes.length - 1));
        assert.deepEqual(readCodeCachePart(file, uid, 0), { found: true, part: 'damaged' });
        writeFileSync(file, 'not a cache file');
        assert.deepEqual(readCodeCachePart(file, uid, 0), { found: true, part: 'damaged' });
        // No file, another user's, one others may write, a link: not found, nothing read.
        assert.deepEqual(readCodeCachePart(path.join(root, 'missing.bin'), uid, 0), { found: false, part: 'absent' });
        writeFileSync(file, sealCodeCache(core, wiring));
        assert.deepEqual(readCodeCachePart(file, uid + 1, 0), { found: false, part: 'absent' });
        chmodSync(file, 0o666);
        assert.deepEqual(readCodeCachePart(file, uid, 0), { found: false, part: 'absent' });
        chmodSync(file, 0o600);
        const link = path.join(root, 'server-link.bin');
        symlinkSync(file, link);
        assert.deepEqual(readCodeCachePart(link, uid, 0), { found: false, part: 'absent' });
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  );

  test('the cache files of other bundles: the newest few kept, the rest removed', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'catalog-lens-code-cache-'));
    try {
      const names = Array.from({ length: OTHER_CACHES_KEPT + 3 }, (_, i) => `server-old${i}.bin`);
      names.forEach((n, i) => {
        writeFileSync(path.join(root, n), '');
        utimesSync(path.join(root, n), 1_000 + i, 1_000 + i);
      });
      writeFileSync(path.join(root, 'server-now.bin'), '');
      writeFileSync(path.join(root, 'server-now.bin.123.tmp'), '');
      removeOtherCaches(root, path.join(root, 'server-now.bin'));
      assert.deepEqual(
        readdirSync(root).sort(),
        [...names.slice(-OTHER_CACHES_KEPT), 'server-now.bin', 'server-now.bin.123.tmp'].sort(),
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test(
    'a folder is made private; a link, a file, or one others may write to is refused',
    { skip: !POSIX && 'POSIX modes' },
    () => {
      const root = mkdtempSync(path.join(tmpdir(), 'catalog-lens-code-cache-'));
      try {
        const uid = process.getuid!();
        const made = path.join(root, 'made', 'here');
        assert.equal(unsafeFolder(made, uid), undefined);
        assert.equal(statSync(made).mode & 0o777, 0o700);
        const open = path.join(root, 'open');
        mkdirSync(open);
        chmodSync(open, 0o777);
        assert.match(unsafeFolder(open, uid) ?? '', /others may write to/);
        const link = path.join(root, 'link');
        symlinkSync(made, link);
        assert.match(unsafeFolder(link, uid) ?? '', /is not a folder/);
        const file = path.join(root, 'file');
        writeFileSync(file, '');
        assert.match(unsafeFolder(file, uid) ?? '', /file/);
        assert.match(unsafeFolder(made, uid + 1) ?? '', /belongs to another user/);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  );

  test('the log line says what the cache did', () => {
    assert.equal(codeCacheLine(undefined), undefined);
    assert.equal(codeCacheLine({ state: 'used', folder: '/c', bytes: 2048 }), 'code cache: used (/c, 2 KiB)');
    assert.equal(codeCacheLine({ state: 'off' }), 'code cache: off');
  });
});

describe('the server process with its code cache', () => {
  let root: string;
  before(() => {
    root = mkdtempSync(path.join(tmpdir(), 'catalog-lens-code-cache-'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  const cacheFiles = (dir: string): string[] =>
    existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.bin')) : [];

  /** Starts the server with the cache in `dir`, hovers nothing in particular, and gives back its code cache log line. */
  async function start(dir: string, whileUp?: () => Promise<void>): Promise<string> {
    const session = await startSession({ env: { [CODE_CACHE_ENV]: dir } });
    try {
      await session.waitUntil(() => session.logs.some((l) => l.startsWith('code cache:')), 'the code cache log line');
      // The server answers: a document opened and hovered.
      await session.open('file:///w/a.py', 'python', 'X = "urn:li:corpuser:jdoe"\n');
      await session.hover('file:///w/a.py', { line: 0, character: 8 });
      await whileUp?.();
      return session.logs.find((l) => l.startsWith('code cache:'))!;
    } finally {
      await session.stop();
    }
  }

  /** Polls `done` every 100 ms for up to 20 s (the server writes its cache a few seconds after it starts). */
  async function poll(done: () => boolean, what: string): Promise<void> {
    for (const until = Date.now() + 20_000; !done(); await new Promise((r) => setTimeout(r, 100)))
      if (Date.now() > until) throw new Error(`no ${what} within 20 s`);
  }
  const written = (dir: string) => () => poll(() => cacheFiles(dir).length === 1, `code cache file in ${dir}`);

  test('the first start writes the cache (private), the next one uses it', async () => {
    const dir = path.join(root, 'cache');
    assert.match(await start(dir, written(dir)), /^code cache: none yet: writing one \(/);
    const [file] = cacheFiles(dir);
    if (POSIX) assert.equal(statSync(path.join(dir, file!)).mode & 0o777, 0o600);
    assert.ok(statSync(path.join(dir, file!)).size > 100_000, 'the cache holds the compiled bundle');
    assert.match(await start(dir), /^code cache: used \(.*, \d+ KiB\)$/);
    assert.deepEqual(readdirSync(dir), [file], 'no temporary file left');
  });

  /**
   * Runs `body` with a server whose cache goes to `dir` and whose catalog's answers are held (behind a proxy), with a
   * document open whose check waits for them: the server's work stays in flight until `release` is called.
   */
  async function whileCheckHeld(
    dir: string,
    body: (s: { session: LspSession; release: () => void }) => Promise<void>,
  ): Promise<void> {
    const catalog = await sampleCatalog();
    const proxy = await startProxy({ target: catalog.url });
    const hold = proxy.hold();
    const session = await startSession({
      env: { [CODE_CACHE_ENV]: dir },
      settings: { url: proxy.url, requestTimeoutMs: 60_000 },
    });
    try {
      await session.open('file:///w/held.py', 'python', `X = "${S.users}"\n`);
      await poll(() => hold.held > 0, 'a request to the catalog');
      await body({ session, release: () => hold.release() });
    } finally {
      hold.release();
      await session.stop();
      await proxy.stop();
      await catalog.close();
    }
  }

  test('written once the first burst of work has ended, not while work is in flight', async () => {
    const dir = path.join(root, 'idle');
    await whileCheckHeld(dir, async ({ session, release }) => {
      await session.waitUntil(() => session.logs.some((l) => l.startsWith('code cache:')), 'the code cache log line');
      assert.match(
        session.logs.find((l) => l.startsWith('code cache:'))!,
        /^code cache: none yet: writing one/,
      );
      // Past the seconds after which the entry's own timer wrote it: the work is still in flight.
      await new Promise((resolve) => setTimeout(resolve, 4500));
      assert.deepEqual(cacheFiles(dir), [], 'no cache written while the check waits for the catalog');
      release();
      await written(dir)();
    });
  });

  test('written at the shutdown of a session that was busy to its end', async () => {
    const dir = path.join(root, 'busy');
    await whileCheckHeld(dir, async ({ session }) => {
      await new Promise((resolve) => setTimeout(resolve, 3500));
      assert.deepEqual(cacheFiles(dir), [], 'no cache written while the check waits for the catalog');
      // Stopped while the work is still in flight: no idle release came, the shutdown writes it.
      await session.stop();
      assert.equal(cacheFiles(dir).length, 1, 'the cache written at the shutdown');
    });
  });

  test('a damaged cache file is not given to V8, and is written again', async () => {
    const dir = path.join(root, 'damaged');
    await start(dir, written(dir));
    const file = path.join(dir, cacheFiles(dir)[0]!);
    const bytes = readFileSync(file);
    bytes[bytes.length >> 1]! ^= 0xff;
    writeFileSync(file, bytes);
    assert.match(await start(dir), /^code cache: damaged: writing a new one/);
    await start(dir, () => poll(() => openCodeCache(readFileSync(file)) !== undefined, 'code cache written again'));
    assert.match(await start(dir), /^code cache: used/);
  });

  test('whole data V8 refuses (made for another text) is written again', async () => {
    const dir = path.join(root, 'refused');
    await start(dir, written(dir));
    const file = path.join(dir, cacheFiles(dir)[0]!);
    writeFileSync(file, sealCodeCache(Buffer.alloc(4096, 7)));
    assert.match(await start(dir), /^code cache: refused by V8: writing a new one/);
  });

  test('a folder others may write to is not used', { skip: !POSIX && 'POSIX modes' }, async () => {
    const dir = path.join(root, 'open');
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    assert.match(await start(dir), /^code cache: not used: others may write to /);
    assert.deepEqual(cacheFiles(dir), []);
  });

  test('CATALOG_LENS_CODE_CACHE=off: no cache, the server starts', async () => {
    assert.equal(await start('off'), 'code cache: off');
  });
});
