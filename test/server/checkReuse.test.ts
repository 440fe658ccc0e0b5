/**
 * Check Workspace keeps what it found of each closed file for the next check
 * (server/src/pipeline/checkedFiles.ts), over LSP against the real catalog: a file the same on
 * disk, under the same settings and answers, is not read again and keeps what the editor shows;
 * a change of its text (even under the same size and times), a write through the server, an
 * expired answer, other settings, or an open and close of the file each make it read again.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { LspSession } from '../support/lspClient';
import { S, sampleCatalog, serverFor, type Catalog } from '../support/fixture';

interface CheckResult {
  files: number;
  skipped: number;
  urns: number;
  diagnostics: number;
  cancelled: boolean;
}

/**
 * Writes `files` (name → text) under a new folder, modified a minute ago. Their change times are
 * now: a check keeps only files changed more than two seconds before it (the tests wait for that).
 */
function tree(files: Record<string, string>): { dir: string; path(name: string): string; uri(name: string): string } {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-lens-reuse-'));
  for (const [name, text] of Object.entries(files)) age(join(dir, name), text);
  return { dir, path: (n) => join(dir, n), uri: (n) => pathToFileURL(join(dir, n)).toString() };
}

/** Writes `text` (when given) to `path` and sets its times a minute back. */
function age(path: string, text?: string): void {
  if (text !== undefined) writeFileSync(path, text);
  const old = (Date.now() - 60_000) / 1000;
  utimesSync(path, old, old);
}

/** The number of files the last check took as they were, from its log line. */
function reusedOf(lsp: LspSession): string | undefined {
  const line = [...lsp.logs].reverse().find((l) => l.includes('as they were at the last check'));
  return line && /(\d+ of \d+) files/.exec(line)?.[1];
}

describe('Check Workspace: files as they were at the last check are not read again', () => {
  let catalog: Catalog;
  const dirs: string[] = [];
  /** One tree per test, written before them all: changed more than two seconds before any check. */
  const trees: Array<ReturnType<typeof tree>> = [];
  before(async () => {
    catalog = await sampleCatalog();
    for (let i = 0; i < 3; i++) trees.push(tree(files));
    dirs.push(...trees.map((t) => t.dir));
    await new Promise((resolve) => setTimeout(resolve, 2100));
  });
  after(async () => {
    await catalog.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  const files = {
    'ghost.py': `x = "${S.ghost}"\n`,
    'users.py': `x = "${S.users}"\n`,
    'orders.py': `x = "${S.orders}"\ny = "${S.ghost}"\n`,
    'bad.py': 'x = "urn:li:dataset:(urn:li:dataPlatform:hive,only_two)"\n',
  };

  test('the same files: the same result, nothing sent; a file changed under the same size and times is read again', async () => {
    const t = trees[0]!;
    const lsp = await serverFor(catalog.url, {
      workspaceFolders: [{ uri: pathToFileURL(t.dir).toString(), name: 'w' }],
    });
    try {
      const check = () => lsp.command<CheckResult>('catalogLens.checkWorkspace', {});
      const first = await check();
      assert.deepEqual(first, { files: 4, skipped: 0, urns: 3, diagnostics: 4, cancelled: false });
      assert.equal(reusedOf(lsp), '0 of 4', 'nothing kept before the first check');
      const sent = lsp.publishCount(t.uri('ghost.py'));
      assert.equal(sent, 1);

      assert.deepEqual(await check(), first, 'the same counts: files, distinct URNs, diagnostics');
      assert.equal(reusedOf(lsp), '4 of 4');
      assert.equal(lsp.publishCount(t.uri('ghost.py')), sent, 'nothing sent again');
      assert.deepEqual(
        lsp
          .latestDiagnostics(t.uri('orders.py'))!
          .map((d) => d.code)
          .sort(),
        ['missing-description', 'unknown-urn'],
      );

      // db.ghost → db.users: the same size; the times set back to exactly what they were. Only the
      // change time (which no one can set) tells: the file is read again and its diagnostics cleared.
      const ghost = t.path('ghost.py');
      const before = readFileSync(ghost, 'utf8');
      const times = statSync(ghost);
      writeFileSync(ghost, before.replace('db.ghost', 'db.users'));
      utimesSync(ghost, times.atime, times.mtime);
      assert.equal(statSync(ghost).mtimeMs, times.mtimeMs);
      assert.equal(statSync(ghost).size, times.size);
      assert.deepEqual(await check(), { ...first, diagnostics: 3 });
      assert.equal(reusedOf(lsp), '3 of 4');
      assert.deepEqual(lsp.latestDiagnostics(t.uri('ghost.py')), [], 'its diagnostics cleared');

      // A new file and a deleted one; ghost.py, changed within two seconds of the check that read
      // it, is read again too.
      age(t.path('more.py'), `x = "${S.ghost}"\n`);
      rmSync(t.path('users.py'));
      assert.deepEqual(await check(), { ...first, diagnostics: 4 });
      assert.equal(reusedOf(lsp), '2 of 4');
      assert.deepEqual(
        lsp.latestDiagnostics(t.uri('more.py'))!.map((d) => d.code),
        ['unknown-urn'],
      );
    } finally {
      await lsp.stop();
    }
  });

  test('a write through the server, an open and close of a file, other settings: read again', async () => {
    const t = trees[1]!;
    // A catalog of its own: the write changes it.
    const own = await sampleCatalog();
    const lsp = await serverFor(own.url, { workspaceFolders: [{ uri: pathToFileURL(t.dir).toString(), name: 'w' }] });
    try {
      const check = () => lsp.command<CheckResult>('catalogLens.checkWorkspace', {});
      const first = await check();
      await check();
      assert.equal(reusedOf(lsp), '4 of 4');

      // Opened and closed: the editor was sent the open document's diagnostics and a clear.
      const uri = t.uri('ghost.py');
      await lsp.open(uri, 'python', files['ghost.py']);
      await lsp.diagnostics(uri, (d) => d.length === 1 && lsp.publishCount(uri) > 1);
      await lsp.close(uri);
      await lsp.diagnostics(uri, (d) => d.length === 0);
      const sent = lsp.publishCount(uri);
      assert.deepEqual(await check(), first);
      assert.equal(reusedOf(lsp), '3 of 4', 'the file whose diagnostics the editor no longer shows is read');
      assert.equal(lsp.publishCount(uri), sent + 1);
      assert.deepEqual(
        lsp.latestDiagnostics(uri)!.map((d) => d.code),
        ['unknown-urn'],
      );

      // A write through the server: the answers it changed are asked again, so every file is read.
      const written = await lsp.command<{ status: string }>('catalogLens.setDatasetDescription', {
        urn: S.orders,
        description: 'Orders, one row each.',
      });
      assert.equal(written.status, 'written');
      assert.deepEqual(await check(), { ...first, diagnostics: 3 });
      assert.equal(reusedOf(lsp), '0 of 4');
      assert.deepEqual(
        lsp.latestDiagnostics(t.uri('orders.py'))!.map((d) => d.code),
        ['unknown-urn'],
        'the description written is seen',
      );
      await check();
      assert.equal(reusedOf(lsp), '4 of 4');

      // Other settings: every file is read with them.
      lsp.settings['diagnostics'] = { unknown: 'off' };
      await lsp.configurationChanged();
      const quiet = await check();
      assert.equal(reusedOf(lsp), '0 of 4');
      assert.ok(quiet.diagnostics < 3, JSON.stringify(quiet));
    } finally {
      await lsp.stop();
      await own.close();
    }
  });

  test('an answer expired (cache.ttlSeconds), or files modified just before the check: read again', async () => {
    const t = trees[2]!;
    const lsp = await serverFor(catalog.url, {
      workspaceFolders: [{ uri: pathToFileURL(t.dir).toString(), name: 'w' }],
      settings: { cache: { ttlSeconds: 1 } },
    });
    try {
      const check = () => lsp.command<CheckResult>('catalogLens.checkWorkspace', {});
      const first = await check();
      await new Promise((resolve) => setTimeout(resolve, 1100));
      assert.deepEqual(await check(), first);
      // bad.py reads no answer (its URN is malformed): it stays as it was.
      assert.equal(reusedOf(lsp), '1 of 4');
    } finally {
      await lsp.stop();
    }

    const young = mkdtempSync(join(tmpdir(), 'catalog-lens-reuse-'));
    dirs.push(young);
    for (const [name, text] of Object.entries(files)) writeFileSync(join(young, name), text);
    const lsp2 = await serverFor(catalog.url, {
      workspaceFolders: [{ uri: pathToFileURL(young).toString(), name: 'w' }],
    });
    try {
      const check = () => lsp2.command<CheckResult>('catalogLens.checkWorkspace', {});
      const first = await check();
      assert.deepEqual(await check(), first);
      assert.equal(reusedOf(lsp2), '0 of 4', 'modified within two seconds of the check that read them');
    } finally {
      await lsp2.stop();
    }
  });
});
