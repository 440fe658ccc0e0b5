/**
 * The workspace boundary's parts, unit by unit: the one file reader
 * (workspace.ts readCapped / readCappedSync: regular files only, never blocking, at most
 * maxFileSize bytes whatever stat says), VS Code's spelling of a file's URI (fileUri, normalUri),
 * the folder test (outsideWorkspace) and the WorkspaceEdit check (editOutsideWorkspace), DataHub's
 * URN length rule (model/src/urn.ts), and the index's byte budget.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { DEFAULT_SETTINGS } from '../../model/src/protocol';
import { MAX_URN_ENCODED_LENGTH, overUrnLengthLimit, urlEncodedLength } from '../../model/src/urn';
import { WorkspaceIndex } from '../../server/src/index/workspaceIndex';
import { scanText } from '../../server/src/pipeline/check';
import {
  editOutsideWorkspace,
  fileUri,
  normalUri,
  oneSpelling,
  outsideWorkspace,
  readCapped,
  readCappedSync,
  readSteps,
  type ReadStep,
} from '../../server/src/workspace';

const posix = process.platform !== 'win32';

describe('the file reader', { skip: !posix }, () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'catalog-lens-files-'));
    writeFileSync(join(dir, 'a.py'), 'x = "é"\n');
    symlinkSync(join(dir, 'a.py'), join(dir, 'link.py'));
    symlinkSync('/dev/zero', join(dir, 'zero.py'));
    execFileSync('mkfifo', [join(dir, 'fifo.py')]);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const [name, read] of [
    ['readCapped', (p: string, max: number) => readCapped(p, max)],
    ['readCappedSync', (p: string, max: number) => Promise.resolve(readCappedSync(p, max))],
  ] as const) {
    test(`${name}: a regular file's text; a link, a FIFO and a device are not read; a folder is EISDIR`, async () => {
      assert.equal(await read(join(dir, 'a.py'), 100), 'x = "é"\n');
      assert.deepEqual(await read(join(dir, 'a.py'), 4), { tooLarge: true });
      assert.deepEqual(await read(join(dir, 'link.py'), 100), { notRegular: 'a symbolic link' });
      assert.deepEqual(await read(join(dir, 'zero.py'), 100), { notRegular: 'a symbolic link' });
      assert.deepEqual(await read('/dev/zero', 100), { notRegular: 'a device' });
      // Opening a FIFO for reading waits for a writer: it is never opened.
      assert.deepEqual(await read(join(dir, 'fifo.py'), 100), { notRegular: 'a FIFO' });
      assert.deepEqual(await read(dir, 100), { error: 'EISDIR' });
      assert.deepEqual(await read(join(dir, 'gone.py'), 100), { error: 'ENOENT' });
    });

    test(`${name}: an empty file, and a file of many reads' worth, whole (the read stops at the stat's size)`, async () => {
      writeFileSync(join(dir, 'empty.py'), '');
      assert.equal(await read(join(dir, 'empty.py'), 100), '');
      const big = 'urn:li:corpuser:x é\n'.repeat(40_000);
      writeFileSync(join(dir, 'big.py'), big);
      assert.equal(await read(join(dir, 'big.py'), 1 << 20), big);
      assert.deepEqual(await read(join(dir, 'big.py'), Buffer.byteLength(big) - 1), { tooLarge: true });
      assert.equal(await read(join(dir, 'big.py'), Buffer.byteLength(big)), big);
    });

    test(
      `${name}: at most maxFileSize bytes are read whatever the size stat gives (a /proc file says 0)`,
      { skip: process.platform !== 'linux' },
      async () => {
        assert.deepEqual(await read('/proc/self/status', 10), { tooLarge: true });
        const text = await read('/proc/self/status', 1 << 20);
        assert.ok(typeof text === 'string' && text.includes('VmRSS'), String(text));
      },
    );
  }

  test('readCapped follows a link only when asked (a file the command line names)', async () => {
    assert.equal(await readCapped(join(dir, 'link.py'), 100, { followLink: true }), 'x = "é"\n');
    assert.deepEqual(await readCapped(join(dir, 'zero.py'), 100, { followLink: true }), { notRegular: 'a device' });
  });
});

describe('the steps of a read, answered by a script (readSteps)', () => {
  /** A regular file's stat as fstat answers it. */
  const stat = (size: number) => ({ isFile: () => true, size }) as unknown as import('node:fs').Stats;
  /**
   * Drives readSteps with `reads` (the bytes each read gives, written into its buffer) and a
   * file of `size` bytes by its stat; returns the operations asked, in order, and the result.
   */
  const run = (size: number, reads: string[], maxSize = 100) => {
    const ops: string[] = [];
    const steps = readSteps('/x', maxSize, { listedRegular: true });
    let next = steps.next();
    while (!next.done) {
      const step: ReadStep = next.value;
      ops.push(step.op);
      let answer: unknown;
      if (step.op === 'open') answer = 7;
      else if (step.op === 'fstat') answer = stat(size);
      else if (step.op === 'read') {
        const chunk = Buffer.from(reads.shift() ?? '', 'latin1');
        assert.ok(
          chunk.length <= step.length,
          `a read asked for ${step.length} bytes, the script gives ${chunk.length}`,
        );
        chunk.copy(step.buffer, step.offset);
        answer = chunk.length;
      }
      next = steps.next(answer);
    }
    return { ops, text: next.value };
  };

  test('a read that reaches the size fstat gave ends the file: no second read', () => {
    assert.deepEqual(run(10, ['0123456789']), { ops: ['open', 'fstat', 'read', 'close'], text: '0123456789' });
  });

  test('a file that grew after its stat is read on, into a larger buffer, to a read of nothing', () => {
    const { ops, text } = run(4, ['01234', '56', '']);
    assert.deepEqual(ops, ['open', 'fstat', 'read', 'read', 'read', 'close']);
    assert.equal(text, '0123456');
  });

  test('a file that shrank after its stat is read to a read of nothing', () => {
    assert.deepEqual(run(10, ['0123', '']), { ops: ['open', 'fstat', 'read', 'read', 'close'], text: '0123' });
  });

  test('a /proc file (stat size 0) is read to a read of nothing, and refused past maxSize', () => {
    assert.deepEqual(run(0, ['a', 'b', 'cd', '']), {
      ops: ['open', 'fstat', 'read', 'read', 'read', 'read', 'close'],
      text: 'abcd',
    });
    assert.deepEqual(run(0, ['a', 'b', 'cd', 'e'], 4).text, { tooLarge: true });
  });
});

describe("a file's URI, spelled as VS Code spells it", () => {
  test('fileUri percent-encodes all but letters, digits, - . _ ~ and /, as vscode-uri does', () => {
    assert.equal(fileUri('/tmp/b (copy) [1].py'), 'file:///tmp/b%20%28copy%29%20%5B1%5D.py');
    assert.equal(fileUri("/w/$x!'*+,;=@&#?%~é.py"), 'file:///w/%24x%21%27%2A%2B%2C%3B%3D%40%26%23%3F%25~%C3%A9.py');
    assert.equal(fileUri('/w/plain-name_1.2.py'), 'file:///w/plain-name_1.2.py');
    assert.equal(fileUri('C:/w/a.py'), 'file:///c%3A/w/a.py');
  });

  test("normalUri: Node's spelling, VS Code's, and lower-case escapes are one URI; other schemes unchanged", () => {
    const vscode = 'file:///tmp/b%20%28copy%29%20%5B1%5D.py';
    assert.equal(normalUri(pathToFileURL('/tmp/b (copy) [1].py').toString()), vscode);
    assert.equal(normalUri(vscode), vscode);
    assert.equal(normalUri('file:///tmp/%c3%a9.py'), 'file:///tmp/%C3%A9.py');
    assert.equal(normalUri('untitled:Untitled-1'), 'untitled:Untitled-1');
  });

  test('fileUri is already in the one spelling: normalUri leaves it as it is (the index build relies on it)', () => {
    const paths = [
      '/tmp/b (copy) [1].py',
      "/w/$x!'*+,;=@&#?%~é.py",
      '/w/plain-name_1.2.py',
      '/w/%41 literal percent.md',
      '/w/日本/データ.yaml',
      '/w/emoji 🙂.sql',
      '/w/a\\b.py',
    ];
    for (const p of paths) assert.equal(normalUri(fileUri(p)), fileUri(p), p);
  });

  test(
    'a path of letters, digits, `-._` and `/` is spelled alike by fileUri and Node (Check Workspace looks an open document up once); `~` is not',
    {
      skip: process.platform === 'win32',
    },
    () => {
      let alike = 0;
      for (let c = 0x20; c < 0x7f; c++) {
        const ch = String.fromCharCode(c);
        const p = `/w/a${ch}b/c.py`;
        if (!/^[A-Za-z0-9\-._/]$/.test(ch)) continue;
        assert.equal(fileUri(p), pathToFileURL(p).toString(), p);
        alike++;
      }
      assert.equal(alike, 26 + 26 + 10 + 4);
      // The rule Check Workspace looks an open document up by: every path it takes is spelled alike.
      for (const p of ['//a/b.py', '/a/./b.py', '/a/../b.py', '/.', '/..', '/a/~b.py', '/a b.py', 'a/b.py'])
        assert.equal(oneSpelling(p), false, p);
      const alphabet = 'ab.-_/';
      let taken = 0;
      for (let n = 0; n < 6 ** 6; n++) {
        let p = '/';
        for (let k = n, i = 0; i < 6; i++, k = Math.floor(k / 6)) p += alphabet[k % 6];
        if (!oneSpelling(p)) continue;
        taken++;
        assert.equal(fileUri(p), pathToFileURL(p).toString(), p);
      }
      assert.ok(taken > 10_000, `${taken} paths taken`);
      assert.notEqual(fileUri('/w/a~b.py'), pathToFileURL('/w/a~b.py').toString(), 'Node encodes `~`');
    },
  );
});

describe('the workspace folders', { skip: !posix }, () => {
  let root: string;
  let ws: string;
  let folders: string[];
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'catalog-lens-folders-'));
    ws = join(root, 'ws');
    mkdirSync(join(ws, 'sub'), { recursive: true });
    mkdirSync(join(root, 'out'));
    writeFileSync(join(ws, 'sub', 'a.py'), '');
    writeFileSync(join(root, 'out', 'victim.py'), '');
    symlinkSync(join(root, 'out', 'victim.py'), join(ws, 'out_link.py'));
    symlinkSync(join(ws, 'sub', 'a.py'), join(ws, 'in_link.py'));
    symlinkSync(join(root, 'out'), join(ws, 'linked'));
    folders = [pathToFileURL(ws).toString()];
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  test('outsideWorkspace: by real path; a link or a linked folder leading out is outside', async () => {
    assert.equal(await outsideWorkspace(join(ws, 'sub', 'a.py'), folders), undefined);
    assert.equal(await outsideWorkspace(join(ws, 'in_link.py'), folders), undefined);
    assert.equal(await outsideWorkspace(join(ws, 'sub', 'new.py'), folders), undefined);
    assert.equal(await outsideWorkspace(join(root, 'out', 'victim.py'), folders), 'outside the workspace folders');
    assert.match((await outsideWorkspace(join(ws, 'out_link.py'), folders)) ?? '', /a symbolic link leads out/);
    assert.match((await outsideWorkspace(join(ws, 'linked', 'victim.py'), folders)) ?? '', /a symbolic link leads out/);
    assert.match((await outsideWorkspace(join(ws, 'gone', 'x.py'), folders)) ?? '', /its folder is gone/);
    assert.equal(await outsideWorkspace(join(ws, 'sub', 'a.py'), []), 'outside the workspace folders');
  });

  test('editOutsideWorkspace: every file an edit names, in changes and documentChanges (text edits, create, rename, delete)', async () => {
    const inside = pathToFileURL(join(ws, 'sub', 'a.py')).toString();
    const link = pathToFileURL(join(ws, 'out_link.py')).toString();
    const outside = pathToFileURL(join(root, 'out', 'victim.py')).toString();
    assert.equal(await editOutsideWorkspace({ changes: { [inside]: [] } }, folders), undefined);
    assert.equal(
      await editOutsideWorkspace({ documentChanges: [{ textDocument: { uri: 'untitled:Untitled-1' } }] }, folders),
      undefined,
    );
    assert.equal(
      await editOutsideWorkspace({ changes: { [inside]: [], [link]: [] } }, folders),
      'out_link.py is outside the workspace folders (a symbolic link leads out)',
    );
    assert.equal(
      await editOutsideWorkspace({ documentChanges: [{ textDocument: { uri: inside } }, { uri: outside }] }, folders),
      'victim.py is outside the workspace folders',
    );
    assert.match(
      (await editOutsideWorkspace({ documentChanges: [{ oldUri: inside, newUri: outside }] }, folders)) ?? '',
      /victim\.py/,
    );
  });
});

describe("DataHub's URN length", () => {
  test('URL-encoded as Java does: letters, digits, . - * _ and space one character, other bytes three', () => {
    assert.equal(urlEncodedLength('aZ09.-*_ '), 9);
    assert.equal(urlEncodedLength('urn:li:x'), 12);
    assert.equal(urlEncodedLength('é'), 6);
    assert.equal(urlEncodedLength('€'), 9);
    assert.equal(urlEncodedLength('😀'), 12);
    const name = (n: number): string => `urn:li:dataset:(urn:li:dataPlatform:hive,${'n'.repeat(n)},PROD)`;
    assert.equal(urlEncodedLength(name(445)), MAX_URN_ENCODED_LENGTH);
    assert.equal(overUrnLengthLimit(name(445), 'dataset'), false);
    assert.equal(overUrnLengthLimit(name(446), 'dataset'), true);
    assert.equal(overUrnLengthLimit(name(5000), 'schemaField'), false);
  });
});

describe("the index's byte budget", () => {
  const host = {
    settingsFor: () => Promise.resolve(DEFAULT_SETTINGS),
    openDocument: () => undefined,
    scan: scanText,
    log: (m: string) => logs.push(m),
  };
  const logs: string[] = [];
  const urn = (n: string): string => `urn:li:dataset:(urn:li:dataPlatform:hive,${n},PROD)`;
  const text = (...names: string[]): string => names.map((n, i) => `X${i} = "${urn(n)}"\n`).join('');

  test('each entity counted once however many files name it, freed when no file names it; past the budget a file is left out and the log says so', () => {
    const index = new WorkspaceIndex(host);
    const settings = { ...DEFAULT_SETTINGS, index: { maxBytes: 400 } };
    index.setText('file:///w/a.py', text('db.one'), 'python', settings);
    const one = index.byteCount;
    // spelling + lower-case name + key
    assert.equal(one, urn('db.one').length + 'db.one'.length + urn('db.one').replace(/urn:li:/g, 'urn:_:').length);
    index.setText('file:///w/b.py', text('db.one', 'db.one'), 'python', settings);
    assert.equal(index.byteCount, one);
    index.setText('file:///w/c.py', text('db.two', 'db.three', 'db.four'), 'python', settings);
    assert.equal(index.filesNaming(urn('db.two')).length, 0, 'c.py does not fit');
    assert.ok(index.isFull);
    assert.deepEqual(logs, [
      'workspace index: full at 400 bytes of URN text (catalogLens.index.maxBytes); file:///w/c.py and later files are left out',
    ]);
    index.remove('file:///w/a.py');
    assert.equal(index.byteCount, one);
    index.remove('file:///w/b.py');
    assert.equal(index.byteCount, 0);
  });
});
