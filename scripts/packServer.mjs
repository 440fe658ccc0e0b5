// `npm run pack:server`: packs the language server as an npm package of its own,
// catalog-lens-server-<version>.tgz, for any editor: `npm install -g catalog-lens-server` gives
// `catalog-lens-server --stdio` (the language server) and `catalog-lens` (the command line), and
// `npx -p catalog-lens-server catalog-lens-server --stdio` runs it without installing.
//
// The package is the esbuild bundles dist/server.js (with dist/server-core.js and dist/server-wiring.js, which it runs, and dist/scanWorker.js, its worker threads) and dist/cli.js (every JavaScript dependency is
// inside them), the two bin scripts, a README with the settings the server reads, and LICENSE. It
// declares no dependencies, so it installs offline from the tarball and on any platform. The local
// catalog (dist/catalog.js) is not in it: it loads better-sqlite3, a native module built for one
// platform and Node ABI; the VS Code package ships it, and `npm run catalog` runs it from the repository.
//
//   node scripts/packServer.mjs [--no-build] [--out DIR]
//
// --no-build packs dist/ as it is (after `npm run build`); by default the production bundles are
// built first. DIR defaults to the repository's root. Prints the tarball's path on its last line.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The bundles the server package ships, as `npm run build` makes them. */
const BUNDLES = ['dist/server.js', 'dist/server-core.js', 'dist/server-wiring.js', 'dist/scanWorker.js', 'dist/cli.js'];
export const PACKAGE_NAME = 'catalog-lens-server';

/** @returns {never} */
function fail(message) {
  console.error(`pack:server: ${message}`);
  process.exit(1);
}

function run(what, command, args, cwd) {
  console.error(`> ${what}`);
  const r = spawnSync(command, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  if (r.status !== 0) fail(`${what} failed (exit code ${r.status ?? r.signal})`);
  return r.stdout;
}

/** Markdown table cell: one line, pipes escaped. */
function cell(text) {
  return String(text)
    .replace(/\r?\n+/g, ' ')
    .replace(/\|/g, '\\|');
}

/** The settings table of the README, from the extension's manifest (the one list of settings there is). */
export function settingsTable(manifest) {
  const props = manifest.contributes?.configuration?.properties ?? {};
  const rows = Object.entries(props).map(([key, p]) => {
    const name = key.replace(/^catalogLens\./, '');
    const def = JSON.stringify(p.default);
    const what = (p.markdownDescription ?? p.description ?? '')
      // VS Code's setting links (#catalogLens.url#) read as plain names elsewhere.
      .replace(/#catalogLens\.([A-Za-z.]+)#/g, '`$1`')
      .replace(/\*\*Catalog Lens: ([^*]+)\*\*/g, '(VS Code command "$1")');
    return `| \`${name}\` | \`${cell(def)}\` | ${cell(what)} |`;
  });
  return ['| setting | default | meaning |', '| --- | --- | --- |', ...rows].join('\n');
}

/** The package.json of the server package. */
export function serverManifest(manifest) {
  return {
    name: PACKAGE_NAME,
    version: manifest.version,
    description:
      'The Catalog Lens language server: hover, diagnostics, completion and quick fixes for DataHub URNs in any LSP editor.',
    license: manifest.license,
    keywords: ['datahub', 'urn', 'metadata', 'catalog', 'lsp', 'language-server'],
    bin: {
      'catalog-lens-server': 'bin/catalog-lens-server.js',
      'catalog-lens': 'bin/catalog-lens.js',
    },
    files: ['bin/', 'dist/', 'README.md', 'LICENSE'],
    engines: { node: manifest.engines?.node ?? '>=20' },
  };
}

function main() {
  const args = process.argv.slice(2);
  const outAt = args.indexOf('--out');
  const outDir = path.resolve(outAt >= 0 ? (args[outAt + 1] ?? fail('--out needs a folder')) : ROOT);
  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  if (!args.includes('--no-build'))
    run('build (production)', process.execPath, [path.join(ROOT, 'scripts', 'build.mjs'), '--production'], ROOT);
  for (const f of BUNDLES) if (!existsSync(path.join(ROOT, f))) fail(`${f} is missing: run npm run build`);

  const stage = mkdtempSync(path.join(tmpdir(), 'catalog-lens-server-pack-'));
  try {
    mkdirSync(path.join(stage, 'dist'));
    mkdirSync(path.join(stage, 'bin'));
    for (const f of [...BUNDLES, 'bin/catalog-lens-server.js', 'bin/catalog-lens.js', 'LICENSE'])
      copyFileSync(path.join(ROOT, f), path.join(stage, f));
    writeFileSync(path.join(stage, 'package.json'), JSON.stringify(serverManifest(manifest), null, 2) + '\n');
    const readme = readFileSync(path.join(ROOT, 'server', 'npm', 'README.md'), 'utf8')
      .replace('{{version}}', manifest.version)
      .replace('{{settings}}', settingsTable(manifest));
    writeFileSync(path.join(stage, 'README.md'), readme);
    mkdirSync(outDir, { recursive: true });
    const packed = JSON.parse(
      run(`npm pack → ${outDir}`, 'npm', ['pack', '--json', '--pack-destination', outDir], stage),
    );
    const tarball = path.join(outDir, packed[0].filename);
    for (const f of packed[0].files) console.error(`  ${String(f.size).padStart(9)}  ${f.path}`);
    console.log(tarball);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
