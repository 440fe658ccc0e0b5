/**
 * The workspace boundary, each attack performed over LSP against the real server process, on a
 * real workspace on disk:
 * - a symlink out of the workspace folder, made after the index was built and reported by the
 *   watcher (or opened in the editor), is not indexed: not in references, not in a rename's edit;
 *   a rename asked in a document outside the workspace folders is refused, naming it;
 * - symlinks to /dev/zero reported by the watcher: the server stays up and answers;
 * - FIFOs reported by the watcher: rename, references and Check Workspace still answer;
 * - a file name with `(`, `)`, `[`, `]` and spaces, open under VS Code's spelling of its URI and
 *   on disk: one file for references and rename;
 * - a URN longer than DataHub's 512 characters (URL-encoded) is not indexed; past
 *   `catalogLens.index.maxBytes` the index stops adding and says so;
 * - a rename refusal names files readable and inert.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import type { Location, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { positionOf, startSession, type LspSession, type SessionOptions } from '../support/lspClient';

const renameme = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.renameme,PROD)';
const datasetNamed = (name: string): string => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;
const posix = process.platform !== 'win32';

/** A workspace folder `ws` and, beside it, a folder `out` outside the workspace. */
class Workspace {
  readonly root = mkdtempSync(join(tmpdir(), 'catalog-lens-boundary-'));
  readonly ws = join(this.root, 'ws');
  readonly out = join(this.root, 'out');
  lsp!: LspSession;

  constructor(files: Record<string, string>, outside: Record<string, string> = {}) {
    mkdirSync(this.ws);
    mkdirSync(this.out);
    for (const [name, content] of Object.entries(files)) this.write(name, content);
    for (const [name, content] of Object.entries(outside)) writeFileSync(join(this.out, name), content);
  }

  /** Starts the server on the folder `ws` and waits for the index's first build to end. */
  async start(opts: SessionOptions = {}): Promise<LspSession> {
    this.lsp = await startSession({
      ...opts,
      initializationOptions: { indexedNotifications: true, ...opts.initializationOptions },
      workspaceFolders: [{ uri: pathToFileURL(this.ws).toString(), name: 'ws' }],
      workspaceCapabilities: {
        didChangeWatchedFiles: { dynamicRegistration: true },
        workspaceEdit: { documentChanges: true, changeAnnotationSupport: { groupsOnLabel: true } },
      },
    });
    await this.until(
      () => this.lsp.logs.some((l) => /^workspace index: \d+ URNs in \d+ files/.test(l)),
      'the index build',
    );
    await this.until(
      () => this.lsp.logs.includes('workspace index: watching the files of the workspace'),
      'the file watcher',
    );
    return this.lsp;
  }

  async stop(): Promise<void> {
    await this.lsp?.stop();
    rmSync(this.root, { recursive: true, force: true });
  }

  write(rel: string, content: string): void {
    mkdirSync(dirname(join(this.ws, rel)), { recursive: true });
    writeFileSync(join(this.ws, rel), content);
  }

  text(rel: string): string {
    return readFileSync(join(this.ws, rel), 'utf8');
  }

  /** The URI Node spells for a file of the workspace (the same as VS Code's for plain names). */
  uri(rel: string): string {
    return pathToFileURL(join(this.ws, rel)).toString();
  }

  /** The file a URI names, relative to the workspace folder (either spelling). */
  rel(uri: string): string {
    return decodeURIComponent(uri.slice(pathToFileURL(this.ws).toString().length + 1));
  }

  /**
   * Waits until `done` holds, checking it after each notification from the server (a log line,
   * `catalogLens/indexed` for a file the watcher reported …); fails naming `what`, with the server's logs.
   */
  until(done: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
    return this.lsp.waitUntil(done, what, ms);
  }

  /** Whether the server logged that it left `name` out of the index. */
  leftOut(name: string): boolean {
    return this.lsp.logs.some((l) => l.startsWith('workspace index:') && l.includes(name) && l.includes('not indexed'));
  }

  async watched(changes: Array<[string, 1 | 2 | 3]>): Promise<void> {
    await this.lsp.connection.sendNotification('workspace/didChangeWatchedFiles', {
      changes: changes.map(([uri, type]) => ({ uri, type })),
    });
  }

  async references(uri: string, text: string, needle: string): Promise<string[]> {
    const locs = await this.lsp.connection.sendRequest<Location[] | null>('textDocument/references', {
      textDocument: { uri },
      position: positionOf(text, needle, 2),
      context: { includeDeclaration: true },
    });
    return (locs ?? []).map((l) => `${l.uri}:${l.range.start.line + 1}`);
  }

  rename(uri: string, text: string, needle: string, newName: string): Promise<WorkspaceEdit> {
    return this.lsp.connection.sendRequest<WorkspaceEdit>('textDocument/rename', {
      textDocument: { uri },
      position: positionOf(text, needle, 2),
      newName,
    });
  }

  async usages(urn: string): Promise<string[]> {
    const r = await this.lsp.connection.sendRequest<{ places?: Array<{ uri: string }> }>('catalogLens/usages', { urn });
    return (r.places ?? []).map((p) => this.rel(p.uri));
  }
}

/** The files a WorkspaceEdit changes, as URIs. */
function editedUris(edit: WorkspaceEdit): string[] {
  return [
    ...(edit.documentChanges ?? []).flatMap((c) => ('textDocument' in c ? [c.textDocument.uri] : [])),
    ...Object.keys(edit.changes ?? {}),
  ].sort();
}

describe('symlinks that leave the workspace folder (probe finding 5)', { skip: !posix }, () => {
  let w: Workspace;
  // The victims outside also hold a malformed URN: a file Check Workspace reads gets its Error.
  const victim = `V = "${renameme}"\nBAD = "urn:li:dataset:(broken"\n`;
  beforeEach(async () => {
    w = new Workspace(
      { 'src.py': `A = "${renameme}"\n`, 'other.py': `B = "${renameme}"\n` },
      { 'victim.py': victim, 'victim2.py': victim },
    );
    await w.start();
    await w.lsp.open(w.uri('src.py'), 'python', w.text('src.py'));
  });
  afterEach(async () => {
    await w?.stop();
  });
  const inside = (): string[] => [`${w.uri('other.py')}:1`, `${w.uri('src.py')}:1`];

  test('a symlink made after the build and reported by the watcher (to a file, or through a linked folder) is in no reference and no rename edit, and Check Workspace does not read it', async () => {
    symlinkSync(join(w.out, 'victim.py'), join(w.ws, 'late_link.py'));
    symlinkSync(w.out, join(w.ws, 'linked_dir'));
    await w.watched([
      [w.uri('late_link.py'), 1],
      [w.uri('linked_dir/victim.py'), 1],
    ]);
    // Either the server says it left them out, or (without the boundary) they show up in references.
    await w.until(
      async () =>
        (w.leftOut('late_link.py') && w.leftOut('victim.py')) ||
        (await w.references(w.uri('src.py'), w.text('src.py'), 'db.renameme')).length > 2,
      'the symlinks handled',
    );
    assert.deepEqual(await w.references(w.uri('src.py'), w.text('src.py'), 'db.renameme'), inside());
    const edit = await w.rename(w.uri('src.py'), w.text('src.py'), 'db.renameme', 'db.renamed');
    assert.deepEqual(editedUris(edit), [w.uri('other.py'), w.uri('src.py')]);
    const check = await w.lsp.command<{ files: number }>('catalogLens.checkWorkspace', {});
    assert.equal(check.files, 2, JSON.stringify(check));
    assert.equal(w.lsp.latestDiagnostics(w.uri('late_link.py')), undefined);
    assert.equal(w.lsp.latestDiagnostics(w.uri('linked_dir/victim.py')), undefined);
  });

  test('an open document that is a symlink out of the folder is not indexed, and a rename asked in it is refused', async () => {
    symlinkSync(join(w.out, 'victim2.py'), join(w.ws, 'open_link.py'));
    const linkText = readFileSync(join(w.out, 'victim2.py'), 'utf8');
    await w.lsp.open(w.uri('open_link.py'), 'python', linkText);
    await w.until(
      async () =>
        w.leftOut('open_link.py') ||
        (await w.references(w.uri('src.py'), w.text('src.py'), 'db.renameme')).some((r) => r.includes('open_link')),
      'the open symlink handled',
    );
    assert.deepEqual(
      (await w.references(w.uri('src.py'), w.text('src.py'), 'db.renameme')).filter((r) => r.includes('open_link')),
      [],
    );
    await assert.rejects(
      w.rename(w.uri('open_link.py'), linkText, 'db.renameme', 'db.renamed'),
      /Cannot rename: open_link\.py is outside the workspace folders/,
    );
  });

  test('a rename asked in a document outside every workspace folder is refused, naming it; nothing is edited', async () => {
    const outside = pathToFileURL(join(w.out, 'victim.py')).toString();
    const text = readFileSync(join(w.out, 'victim.py'), 'utf8');
    await w.lsp.open(outside, 'python', text);
    await assert.rejects(
      w.rename(outside, text, 'db.renameme', 'db.renamed'),
      /Cannot rename: victim\.py is outside the workspace folders.*Nothing was renamed\./,
    );
  });
});

describe('special files reported by the watcher (probe findings 6 and 8)', { skip: !posix }, () => {
  // A server of its own for each: a thread pool blocked by one attack would fail the other.
  let w: Workspace;
  beforeEach(async () => {
    w = new Workspace({ 'src.py': `A = "${renameme}"\n`, 'other.py': `B = "${renameme}"\n` });
    await w.start();
    await w.lsp.open(w.uri('src.py'), 'python', w.text('src.py'));
  });
  afterEach(async () => {
    await w?.stop();
  });
  /**
   * A regular file written after the special ones and reported after them: once it is indexed,
   * the server has handled the reports before it (a blocked thread pool never gets to it).
   */
  const sentinel = async (name: string): Promise<void> => {
    w.write(name, `S = "${renameme}"\n`);
    await w.watched([[w.uri(name), 1]]);
    await w.until(async () => (await w.usages(renameme)).includes(name), `${name} indexed after them`, 20_000);
  };

  test('symlinks to /dev/zero: none is read, the server stays up and answers', { timeout: 120_000 }, async () => {
    const links = Array.from({ length: 10 }, (_, i) => `z${i}.py`);
    for (const l of links) symlinkSync('/dev/zero', join(w.ws, l));
    await w.watched(links.map((l) => [w.uri(l), 1]));
    // Without the boundary each read holds ~600 MB until V8's string limit, and ten crash the server (~25 s).
    await w.until(() => links.every((l) => w.leftOut(l)), 'every /dev/zero link left out', 60_000);
    await sentinel('after_zero.py');
    const refs = (await w.references(w.uri('src.py'), w.text('src.py'), 'db.renameme')).map((r) => w.rel(r));
    assert.deepEqual(refs, ['after_zero.py:1', 'other.py:1', 'src.py:1']);
    assert.equal(w.lsp.child.exitCode, null);
    if (process.platform === 'linux') {
      // Peak resident memory: one read of /dev/zero alone held ~600 MB.
      const peak = /VmHWM:\s*(\d+) kB/.exec(readFileSync(`/proc/${w.lsp.child.pid}/status`, 'utf8'));
      assert.ok(peak && Number(peak[1]) < 512 * 1024, `peak RSS ${peak?.[1]} kB`);
    }
  });

  test(
    'FIFOs: never opened for reading, so the index stays current and rename, references and Check Workspace answer',
    { timeout: 60_000 },
    async () => {
      // As many as libuv has threads (4): each blocking open() would hold one.
      const fifos = ['p0.py', 'p1.py', 'p2.py', 'p3.py'];
      execFileSync(
        'mkfifo',
        fifos.map((f) => join(w.ws, f)),
      );
      await w.watched(fifos.map((f) => [w.uri(f), 1]));
      await sentinel('after_fifo.py');
      // Each reported file is read on its own: a FIFO's line may come just after the sentinel's index.
      await w.until(() => fifos.every((f) => w.leftOut(f)), 'every FIFO left out', 20_000);
      const edit = await w.rename(w.uri('src.py'), w.text('src.py'), 'db.renameme', 'db.renamed');
      assert.ok(editedUris(edit).includes(w.uri('other.py')), JSON.stringify(edit));
      assert.ok(
        (await w.references(w.uri('src.py'), w.text('src.py'), 'db.renameme')).includes(`${w.uri('other.py')}:1`),
      );
      const check = await w.lsp.command<{ files: number; cancelled: boolean }>('catalogLens.checkWorkspace', {});
      assert.equal(check.cancelled, false);
    },
  );
});

describe('one URI per file (probe finding 9)', () => {
  let w: Workspace;
  const name = 'b (copy) [1].py';
  const marker = datasetNamed('db.marker');
  before(async () => {
    w = new Workspace({ 'a.py': `A = "${renameme}"\n`, [name]: `B = "${renameme}"\n` });
    await w.start();
  });
  after(async () => {
    await w?.stop();
  });

  test('a file open under VS Code’s spelling of its URI is one file for references and rename', async () => {
    // VS Code (vscode-uri) percent-encodes ( ) [ ] and spaces; Node's pathToFileURL keeps ( ).
    const vscodeUri = `${pathToFileURL(w.ws).toString()}/b%20%28copy%29%20%5B1%5D.py`;
    assert.notEqual(vscodeUri, w.uri(name));
    const text = `${w.text(name)}M = "${marker}"\n`;
    await w.lsp.open(w.uri('a.py'), 'python', w.text('a.py'));
    await w.lsp.open(vscodeUri, 'python', text);
    // The open document is indexed (its text names the marker, the file's does not) …
    await w.until(async () => (await w.usages(marker)).length > 0, 'the open document indexed');
    // … and the watcher reports the file under Node's spelling, as some editors do.
    await w.watched([[w.uri(name), 2]]);
    await w.until(async () => (await w.usages(marker)).length > 0, 'the change handled');
    assert.deepEqual(await w.references(w.uri('a.py'), w.text('a.py'), 'db.renameme'), [
      `${w.uri('a.py')}:1`,
      `${vscodeUri}:1`,
    ]);
    const edit = await w.rename(w.uri('a.py'), w.text('a.py'), 'db.renameme', 'db.renamed');
    const changes = (edit.documentChanges ?? []).flatMap((c) => ('textDocument' in c ? [c] : []));
    assert.deepEqual(
      changes.map((c) => [c.textDocument.uri, c.textDocument.version, c.edits.length]),
      [
        [w.uri('a.py'), 1, 1],
        [vscodeUri, 1, 1],
      ],
    );
  });
});

describe('what the index keeps (probe finding 7)', () => {
  test('a URN over DataHub’s 512 characters (URL-encoded) is not indexed; one within it is', async () => {
    // 47 characters around the name, 67 URL-encoded (: ( , ) each take 3).
    const over = datasetNamed('n'.repeat(600));
    const encodedOver = datasetNamed('e'.repeat(460)); // 507 characters, 527 URL-encoded
    const within = datasetNamed('w'.repeat(440)); // 507 URL-encoded
    const w = new Workspace({
      'long.py': `A = "${over}"\nB = "${encodedOver}"\nC = "${within}"\nD = "${renameme}"\n`,
    });
    try {
      await w.start();
      assert.deepEqual(await w.usages(over), []);
      assert.deepEqual(await w.usages(encodedOver), []);
      assert.deepEqual(await w.usages(within), ['long.py']);
      assert.deepEqual(await w.usages(renameme), ['long.py']);
    } finally {
      await w.stop();
    }
  });

  test('past catalogLens.index.maxBytes the index stops adding files and says so', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 10; i++)
      files[`f${i}.py`] = `A = "${datasetNamed(`db.first_${i}`)}"\nB = "${datasetNamed(`db.second_${i}`)}"\n`;
    const w = new Workspace(files);
    try {
      await w.start({ settings: { index: { maxBytes: 1000 } } });
      assert.ok(
        w.lsp.logs.some((l) =>
          /^workspace index: full at 1,000 bytes of URN text \(catalogLens\.index\.maxBytes\); .* and later files are left out$/.test(
            l,
          ),
        ),
        w.lsp.logs.join('\n'),
      );
      let indexed = 0;
      for (let i = 0; i < 10; i++) if ((await w.usages(datasetNamed(`db.first_${i}`))).length > 0) indexed++;
      assert.ok(indexed > 0 && indexed < 10, `${indexed} of 10 files indexed`);
    } finally {
      await w.stop();
    }
  });
});

describe('the rename refusal names files readable and inert (probe finding 16)', { skip: !posix }, () => {
  test('a file name holding ]( is quoted decoded, with the link syntax broken', async () => {
    const name = 'pay ments](command:x).json';
    const w = new Workspace({
      'pay.py': `P = "${renameme}"\n`,
      [name]: `{"urn": "${renameme.replace('db.renameme', 'db.renam\\u0065me')}"}\n`,
    });
    try {
      await w.start();
      await w.lsp.open(w.uri('pay.py'), 'python', w.text('pay.py'));
      await assert.rejects(w.rename(w.uri('pay.py'), w.text('pay.py'), 'db.renameme', 'db.renamed'), (e: Error) => {
        assert.match(e.message, /Cannot rename: 1 place writes it .*: pay ments\] \(command:x\)\.json:1\. Nothing/);
        assert.doesNotMatch(e.message, /\]\(/);
        return true;
      });
    } finally {
      await w.stop();
    }
  });
});
