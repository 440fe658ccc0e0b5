/**
 * The language server as an npm package of its own (scripts/packServer.mjs): packed from the built
 * bundles, installed from the tarball into a fresh prefix with `npm install -g --prefix … --offline`
 * (it declares no dependencies, so nothing is fetched), and started from there with nothing of the
 * repository on its path or in its working folder: it initializes, and hovers a dataset of a real
 * local catalog with the catalog's description. `catalog-lens` (the command line) comes with it, and
 * `npx` (npm exec) runs the server from the tarball.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { caret, hoverText, startSession, type LspSession } from '../support/lspClient';
import { sampleCatalog, S, type Catalog } from '../support/fixture';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const NAME = 'catalog-lens-server';

describe('the server package (catalog-lens-server), installed from its tarball into a fresh prefix', () => {
  let work: string;
  let prefix: string;
  let installed: string;
  let tarball: string;
  let catalog: Catalog;
  /** PATH with the prefix's bin and the folder of the node that runs the tests, nothing else. */
  let pathEnv: string;

  before(() => {
    work = mkdtempSync(path.join(tmpdir(), 'catalog-lens-server-pkg-'));
    prefix = path.join(work, 'prefix');
    const out = execFileSync(
      process.execPath,
      [path.join(ROOT, 'scripts', 'packServer.mjs'), '--no-build', '--out', work],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    tarball = out.trim().split('\n').pop()!;
    assert.ok(existsSync(tarball), tarball);
    execFileSync(
      'npm',
      ['install', '-g', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball],
      { cwd: work, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    installed = path.join(prefix, 'lib', 'node_modules', NAME);
    pathEnv = [path.join(prefix, 'bin'), path.dirname(process.execPath)].join(path.delimiter);
  });
  after(async () => {
    await catalog?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  test('it holds the bundles, both bins, a README and LICENSE, and declares no dependency (VS Code least of all)', () => {
    const manifest = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8'));
    assert.equal(manifest.name, NAME);
    assert.equal(manifest.version, JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version);
    assert.deepEqual(Object.keys(manifest.bin).sort(), ['catalog-lens', 'catalog-lens-server']);
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies'])
      assert.equal(manifest[field], undefined);
    assert.deepEqual(readdirSync(installed).sort(), ['LICENSE', 'README.md', 'bin', 'dist', 'package.json']);
    assert.deepEqual(readdirSync(path.join(installed, 'dist')).sort(), [
      'cli.js',
      'scanWorker.js',
      'server-core.js',
      'server-wiring.js',
      'server.js',
    ]);
    // The bundles load nothing but Node's own modules.
    for (const bundle of ['server.js', 'server-core.js', 'server-wiring.js', 'scanWorker.js', 'cli.js']) {
      const text = readFileSync(path.join(installed, 'dist', bundle), 'utf8');
      // A require right after a quote is text, not a call: ajv (the MCP SDK's validator, in
      // cli.js) keeps `require("ajv/dist/runtime/…")` as the code its standalone mode would write,
      // beside the module it uses itself (bundled).
      const required = [...text.matchAll(/(?<![`'])\brequire\("([^"]+)"\)/g)].map((m) => m[1]!);
      const asText = [...text.matchAll(/[`']require\("([^"]+)"\)/g)].map((m) => m[1]!);
      assert.ok(
        asText.every((m) => /^ajv(-formats)?\//.test(m)),
        `${bundle}: requires written as text other than ajv's: ${asText.join(', ')}`,
      );
      const foreign = required.filter((m) => !m.startsWith('node:') && !builtinModules.includes(m));
      assert.deepEqual(foreign, [], `${bundle} requires ${foreign.join(', ')}`);
    }
    // The README names the settings it reads: initializationOptions and workspace/configuration.
    const readme = readFileSync(path.join(installed, 'README.md'), 'utf8');
    for (const must of [
      'initializationOptions',
      'workspace/configuration',
      'CATALOG_LENS_TOKEN',
      '| `url` |',
      '| `diagnostics.unknown` |',
    ])
      assert.ok(readme.includes(must), `README lacks ${must}`);
    assert.doesNotMatch(readme, /\{\{/);
  });

  test('catalog-lens-server --version and catalog-lens --help run from the prefix', () => {
    const env = { PATH: pathEnv };
    const version = execFileSync('catalog-lens-server', ['--version'], { cwd: work, env, encoding: 'utf8' });
    assert.match(version, /^catalog-lens-server \d+\.\d+\.\d+/);
    const help = execFileSync('catalog-lens', ['--help'], { cwd: work, env, encoding: 'utf8' });
    assert.match(help, /catalog-lens check/);
  });

  test('npx runs it from the tarball, with an empty npm cache and offline', () => {
    const out = execFileSync(
      'npm',
      ['exec', '--offline', '--yes', `--package=${tarball}`, '--', 'catalog-lens-server', '--version'],
      {
        cwd: work,
        env: { PATH: path.dirname(process.execPath), HOME: work, npm_config_cache: path.join(work, 'npm-cache') },
        encoding: 'utf8',
      },
    );
    assert.match(out, /^catalog-lens-server \d+\.\d+\.\d+/m);
  });

  test('catalog-lens-server --stdio from the prefix: initialize, then a hover with the catalog description', async () => {
    catalog = await sampleCatalog();
    let lsp: LspSession | undefined;
    try {
      lsp = await startSession({
        genericClient: true,
        settings: { url: catalog.url },
        env: { PATH: pathEnv, HOME: work },
        serverCommand: { command: path.join(prefix, 'bin', 'catalog-lens-server'), args: ['--stdio'], cwd: work },
      });
      assert.equal(lsp.init.serverInfo?.name, 'catalog-lens-server');
      const { text, position } = caret(`USERS = "${S.users.replace('db.users', 'db.us|ers')}"\n`);
      await lsp.open('file:///w/users.py', 'python', text);
      const h = hoverText(await lsp.hover('file:///w/users.py', position));
      assert.match(h, /One row per registered user/);
    } finally {
      await lsp?.stop();
    }
  });
});
