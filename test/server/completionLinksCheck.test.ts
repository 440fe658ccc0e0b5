/** Completion, document links, Check Workspace, multi-root and standalone use, over LSP against the real catalog. */
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { caret, hoverText, positionOf, startSession } from '../support/lspClient';
import { S, sampleCatalog, serverFor, useSampleServer, type Catalog } from '../support/fixture';

describe('completion and links', () => {
  const env = useSampleServer();

  test('after urn:<ns>: the entity kinds; after ( the platforms seen; after the name the envs', async () => {
    const a = caret(`x = "urn:li:|"`);
    await env.lsp.open('file:///w/c1.py', 'python', `${S.users}\n${a.text}`);
    const kinds = await env.lsp.completion('file:///w/c1.py', { line: 1, character: a.position.character });
    const bySort = [...kinds].sort((p, q) => (p.sortText ?? '').localeCompare(q.sortText ?? ''));
    assert.deepEqual(
      bySort
        .slice(0, 7)
        .map((k) => k.label)
        .sort(),
      ['corpuser', 'dataPlatform', 'dataset', 'mlFeature', 'mlFeatureTable', 'mlModel', 'mlModelGroup'],
    );
    assert.equal(kinds.length, 66, "then every other type of DataHub's entity registry");
    const snippet = (label: string): string | undefined => {
      const edit = kinds.find((k) => k.label === label)?.textEdit;
      return edit && 'newText' in edit ? edit.newText : undefined;
    };
    assert.equal(snippet('entityType'), 'entityType:${1:id}');
    assert.equal(snippet('schemaField'), 'schemaField:(${1:parent},${2:field path})');
    assert.equal(
      snippet('dataPlatformInstance'),
      'dataPlatformInstance:(urn:li:dataPlatform:${1:platform},${2:instance})',
    );
    const b = caret(`y = "urn:li:dataset:(|"`);
    await env.lsp.open('file:///w/c2.py', 'python', `"urn:li:dataset:(urn:li:dataPlatform:vertica,a,PROD)"\n${b.text}`);
    const platforms = (await env.lsp.completion('file:///w/c2.py', { line: 1, character: b.position.character })).map(
      (i) => i.label,
    );
    assert.equal(platforms[0] !== undefined, true);
    assert.ok(platforms.includes('urn:li:dataPlatform:vertica'), 'a platform seen in the workspace');
    assert.ok(platforms.includes('urn:li:dataPlatform:hive'));
    const c = caret(`z = "urn:li:dataset:(urn:li:dataPlatform:hive,db.users,|"`);
    await env.lsp.open('file:///w/c3.py', 'python', c.text);
    const envs = await env.lsp.completion('file:///w/c3.py', c.position);
    assert.ok(envs.some((e) => e.label === 'PROD' && e.sortText === '0'));
  });

  test('each URN links to its page in the catalog UI (DataHub page pattern, a template setting)', async () => {
    const text = `a = "${S.users}"\nb = "${S.age}"\n`;
    await env.lsp.open('file:///w/l.py', 'python', text);
    const links = await env.lsp.links('file:///w/l.py');
    assert.deepEqual(
      links.map((l) => l.target),
      [`${env.catalog.url}/dataset/${S.users}`, `${env.catalog.url}/features/${S.age}`],
    );
    env.lsp.settings['uiUrl'] = 'https://datahub.example.com';
    await env.lsp.configurationChanged();
    const again = await env.lsp.links('file:///w/l.py');
    assert.equal(again[0]!.target, `https://datahub.example.com/dataset/${S.users}`);
    delete env.lsp.settings['uiUrl'];
    await env.lsp.configurationChanged();
  });

  test('a URN too long for a page URL gets no link and its hover no "open" link, but is still found', async () => {
    const long = `urn:li:dataset:(urn:li:dataPlatform:hive,${'x'.repeat(20_000)},PROD)`;
    const text = `a = "${long}"\nb = "${S.users}"\n`;
    await env.lsp.open('file:///w/long.py', 'python', text);
    const links = await env.lsp.links('file:///w/long.py');
    assert.deepEqual(
      links.map((l) => l.target),
      [`${env.catalog.url}/dataset/${S.users}`],
    );
    // A user's hover shows the link to its page, when it has one.
    const user = (name: string): string => `u = "urn:li:corpuser:${name}"\n`;
    await env.lsp.open('file:///w/user.py', 'python', user('asmith') + user('y'.repeat(20_000)));
    const short = hoverText(await env.lsp.hover('file:///w/user.py', { line: 0, character: 8 }));
    assert.ok(short.includes(`${env.catalog.url}/user/urn:li:corpuser:asmith`), short);
    const h = hoverText(await env.lsp.hover('file:///w/user.py', { line: 1, character: 8 }));
    assert.match(h, /y{20}/);
    assert.ok(!h.includes(env.catalog.url), `no link to a page in the hover: ${h.slice(0, 300)}`);
    assert.ok(h.length < 5000, `the hover is bounded (${h.length} characters)`);
  });
});

describe('Check Workspace and multi-root', () => {
  let catalog: Catalog;
  let dir: string;
  before(async () => {
    catalog = await sampleCatalog();
    dir = mkdtempSync(join(tmpdir(), 'catalog-lens-ws-'));
    for (const f of ['a', 'b']) mkdirSync(join(dir, f, 'pkg'), { recursive: true });
    mkdirSync(join(dir, 'a', 'node_modules'), { recursive: true });
    writeFileSync(join(dir, 'a', 'pkg', 'one.py'), `x = "${S.ghost}"\ny = "${S.users}"\n`);
    writeFileSync(
      join(dir, 'a', 'pkg', 'two.yml'),
      `features:\n  - ${S.age}\n  - urn:li:mlFeature:(users_table,nope)\n`,
    );
    writeFileSync(join(dir, 'a', 'node_modules', 'skip.py'), `x = "${S.ghost}"\n`);
    writeFileSync(join(dir, 'b', 'pkg', 'three.sql'), `-- source: ${S.orders}\nselect 1;\n`);
    writeFileSync(join(dir, 'b', 'pkg', 'image.png'), 'not scanned');
  });
  after(async () => {
    await catalog.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('scans every matching file of every folder, resolves all URNs together, publishes per file', async () => {
    const folders = ['a', 'b'].map((f) => ({ uri: pathToFileURL(join(dir, f)).toString(), name: f }));
    const lsp = await serverFor(catalog.url, { workspaceFolders: folders });
    try {
      catalog.stats.reset();
      const asked = lsp.configurationScopes.length;
      const r = await lsp.command<{ files: number; urns: number; diagnostics: number }>(
        'catalogLens.checkWorkspace',
        {},
      );
      assert.deepEqual(r, { files: 3, skipped: 0, urns: 5, diagnostics: 3, cancelled: false });
      assert.equal(catalog.stats.graphql, 1, 'one batch for the whole workspace');
      assert.deepEqual(
        lsp.configurationScopes
          .slice(asked)
          .filter((u) => u !== undefined)
          .sort(),
        folders.map((f) => f.uri).sort(),
        'settings asked once per workspace folder, not once per file',
      );
      const one = lsp.latestDiagnostics(pathToFileURL(join(dir, 'a', 'pkg', 'one.py')).toString())!;
      assert.deepEqual(
        one.map((d) => d.code),
        ['unknown-urn'],
      );
      const three = lsp.latestDiagnostics(pathToFileURL(join(dir, 'b', 'pkg', 'three.sql')).toString())!;
      assert.deepEqual(
        three.map((d) => d.code),
        ['missing-description'],
      );
      assert.equal(
        lsp.latestDiagnostics(pathToFileURL(join(dir, 'a', 'node_modules', 'skip.py')).toString()),
        undefined,
      );
    } finally {
      await lsp.stop();
    }
  });
});

describe('Check Workspace over files that change between checks', () => {
  let catalog: Catalog;
  let dir: string;
  before(async () => {
    catalog = await sampleCatalog();
    dir = mkdtempSync(join(tmpdir(), 'catalog-lens-ws2-'));
  });
  after(async () => {
    await catalog.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a fixed file is cleared by the next check; a file without URNs gets no message; a file over maxFileSize is skipped', async () => {
    const fixed = join(dir, 'fixed.py');
    const fixedUri = pathToFileURL(fixed).toString();
    const gone = join(dir, 'gone.py');
    const goneUri = pathToFileURL(gone).toString();
    const plain = join(dir, 'plain.py');
    writeFileSync(fixed, `x = "${S.ghost}"\n`);
    writeFileSync(gone, `x = "${S.ghost}"\n`);
    writeFileSync(plain, 'print("no urns here")\n');
    writeFileSync(join(dir, 'big.py'), `x = "${S.ghost}"\n` + '#'.repeat(4096) + '\n');
    const lsp = await serverFor(catalog.url, {
      workspaceFolders: [{ uri: pathToFileURL(dir).toString(), name: 'w' }],
      settings: { maxFileSize: 2048 },
    });
    try {
      const first = await lsp.command<{ files: number; skipped: number; diagnostics: number }>(
        'catalogLens.checkWorkspace',
        {},
      );
      assert.deepEqual(first, { files: 3, skipped: 1, urns: 1, diagnostics: 2, cancelled: false });
      assert.deepEqual(
        lsp.latestDiagnostics(fixedUri)!.map((d) => d.code),
        ['unknown-urn'],
      );
      assert.equal(
        lsp.latestDiagnostics(pathToFileURL(plain).toString()),
        undefined,
        'no message for a file without URNs',
      );
      assert.equal(lsp.latestDiagnostics(pathToFileURL(join(dir, 'big.py')).toString()), undefined);

      writeFileSync(fixed, `x = "${S.users}"\n`);
      rmSync(gone);
      const second = await lsp.command<{ files: number; diagnostics: number }>('catalogLens.checkWorkspace', {});
      assert.deepEqual(second, { files: 2, skipped: 1, urns: 1, diagnostics: 0, cancelled: false });
      assert.deepEqual(lsp.latestDiagnostics(fixedUri), [], 'the fixed file is cleared');
      assert.deepEqual(lsp.latestDiagnostics(goneUri), [], 'the deleted file is cleared');
    } finally {
      await lsp.stop();
    }
  });

  test('a check that finds the same diagnostics again sends nothing; after the file was open, it sends them again', async () => {
    const sub = mkdtempSync(join(tmpdir(), 'catalog-lens-ws3-'));
    const flagged = join(sub, 'flagged.py');
    const flaggedUri = pathToFileURL(flagged).toString();
    const other = join(sub, 'other.py');
    const otherUri = pathToFileURL(other).toString();
    writeFileSync(flagged, `x = "${S.ghost}"\n`);
    writeFileSync(other, `x = "${S.ghost}"\n`);
    const lsp = await serverFor(catalog.url, { workspaceFolders: [{ uri: pathToFileURL(sub).toString(), name: 'w' }] });
    try {
      const check = () => lsp.command<{ files: number; diagnostics: number }>('catalogLens.checkWorkspace', {});
      assert.equal((await check()).diagnostics, 2);
      assert.equal(lsp.publishCount(flaggedUri), 1);
      assert.equal((await check()).diagnostics, 2, 'the check still counts what it found');
      assert.equal(lsp.publishCount(flaggedUri), 1, 'the same diagnostics are not sent again');
      assert.deepEqual(
        lsp.latestDiagnostics(flaggedUri)!.map((d) => d.code),
        ['unknown-urn'],
      );

      // A changed file is sent its new diagnostics; the unchanged one is not.
      writeFileSync(other, `x = "${S.ghost}"\ny = "${S.ghost}"\n`);
      assert.equal((await check()).diagnostics, 3);
      assert.equal(lsp.publishCount(otherUri), 2);
      assert.equal(lsp.latestDiagnostics(otherUri)!.length, 2);
      assert.equal(lsp.publishCount(flaggedUri), 1);

      // Opened and closed: the editor was sent the open document's diagnostics and a clear, so the
      // next check sends the file's diagnostics again.
      const text = `x = "${S.ghost}"\n`;
      await lsp.open(flaggedUri, 'python', text);
      await lsp.diagnostics(flaggedUri, (d) => d.length === 1 && lsp.publishCount(flaggedUri) > 1);
      await lsp.close(flaggedUri);
      await lsp.diagnostics(flaggedUri, (d) => d.length === 0);
      const before = lsp.publishCount(flaggedUri);
      await check();
      assert.equal(lsp.publishCount(flaggedUri), before + 1);
      assert.deepEqual(
        lsp.latestDiagnostics(flaggedUri)!.map((d) => d.code),
        ['unknown-urn'],
      );
    } finally {
      await lsp.stop();
      rmSync(sub, { recursive: true, force: true });
    }
  });
});

describe('standalone use (any editor)', () => {
  test('settings from initializationOptions when the client has no workspace/configuration; token from the environment', async () => {
    const token = 'standalone-tok-91c2';
    const catalog = await sampleCatalog({ token });
    const lsp = await startSession({
      noConfiguration: true,
      settings: { url: catalog.url },
      env: { CATALOG_LENS_TOKEN: token },
    });
    try {
      const text = `x = "${S.users}"\n`;
      await lsp.open('file:///w/s.py', 'python', text);
      assert.match(
        hoverText(await lsp.hover('file:///w/s.py', positionOf(text, 'db.users'))),
        /One row per registered user/,
      );
      assert.equal(lsp.init.serverInfo?.name, 'catalog-lens-server');
    } finally {
      await lsp.stop();
      await catalog.close();
    }
  });

  test('not configured: the status says so and hovers still show the parts', async () => {
    const lsp = await startSession({ settings: {} });
    try {
      const text = `x = "${S.users}"\n`;
      await lsp.open('file:///w/n.py', 'python', text);
      await lsp.waitForStatus((s) => s.state === 'notConfigured');
      const h = hoverText(await lsp.hover('file:///w/n.py', positionOf(text, 'db.users')));
      assert.match(h, /no catalog is configured/);
      assert.match(h, /platform: `hive`/);
    } finally {
      await lsp.stop();
    }
  });
});
