// `npm run package`: builds the production bundles, packs catalog-lens-<version>.vsix with vsce,
// lists what is in it, and proves the unpacked package works on its own: the client bundle loads
// with no node_modules but better-sqlite3's, the server starts, and the local catalog opens its
// database through the shipped native module (better-sqlite3, built for the Node ABI it runs on).
//
// How better-sqlite3 ships: vsce's npm dependency detection (`--dependencies`) offers every
// production dependency, and .vscodeignore keeps only better-sqlite3's lib/, its binary and its
// run-time dependencies `bindings` and `file-uri-to-path`; all other dependencies are inside the
// esbuild bundles. The binary is built for this machine's platform and Node ABI.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const vsixName = `${pkg.name}-${pkg.version}.vsix`;
const vsixPath = path.join(ROOT, vsixName);

function run(what, command, args) {
  console.log(`\n> ${what}`);
  const r = spawnSync(command, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) fail(`${what} failed (exit code ${r.status ?? r.signal})`);
}

function fail(message) {
  console.error(`\npackage: ${message}`);
  process.exit(1);
}

const binary = path.join(ROOT, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
if (!existsSync(binary))
  fail(
    `${binary} is missing: better-sqlite3 was installed without its build step (see notes/native-modules.md, allowScripts)`,
  );

run('build (production)', process.execPath, [path.join(ROOT, 'scripts', 'build.mjs'), '--production']);
rmSync(vsixPath, { force: true });
// Without a repository field or LICENSE file vsce would ask on stdin; these flags answer for it.
run(`vsce package → ${vsixName}`, process.execPath, [
  require.resolve('@vscode/vsce/vsce'),
  'package',
  '--out',
  vsixPath,
  '--dependencies',
  '--no-yarn',
  '--allow-missing-repository',
  '--skip-license',
  '--no-rewrite-relative-links',
]);

const entries = await readZip(vsixPath);
console.log(`\n${vsixName}: ${formatSize(statSync(vsixPath).size)}, ${entries.size} files`);
for (const [name, data] of [...entries].sort(([a], [b]) => a.localeCompare(b)))
  console.log(`  ${formatSize(data.length).padStart(9)}  ${name}`);

const work = mkdtempSync(path.join(tmpdir(), 'catalog-lens-vsix-'));
try {
  for (const [name, data] of entries) {
    const file = path.join(work, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, data);
  }
  await verify(path.join(work, 'extension'), [...entries.keys()]);
  console.log('\nverified: the unpacked package loads and runs on its own');
} finally {
  rmSync(work, { recursive: true, force: true });
}

async function verify(ext, names) {
  const shipped = names.filter((n) => n.startsWith('extension/')).map((n) => n.slice('extension/'.length));
  for (const must of [
    'package.json',
    'dist/package.json',
    'dist/extension.js',
    'dist/server.js',
    'dist/server-core.js',
    'dist/server-wiring.js',
    'dist/scanWorker.js',
    'dist/catalog.js',
    'images/icon.png',
    'syntaxes/urn.injection.tmLanguage.json',
    'node_modules/better-sqlite3/build/Release/better_sqlite3.node',
    'node_modules/bindings/bindings.js',
    'node_modules/file-uri-to-path/index.js',
  ]) {
    if (!shipped.includes(must)) fail(`${must} is not in the package`);
  }
  const modules = new Set(shipped.filter((n) => n.startsWith('node_modules/')).map((n) => n.split('/')[1]));
  const unexpected = [...modules].filter((m) => !['better-sqlite3', 'bindings', 'file-uri-to-path'].includes(m));
  if (unexpected.length > 0) fail(`node_modules holds more than better-sqlite3 needs: ${unexpected.join(', ')}`);
  const stray = shipped.filter((n) => /\.(ts|map)$/.test(n) || /^(client|server|catalog|model|test|scripts)\//.test(n));
  if (stray.length > 0) fail(`sources or source maps in the package: ${stray.join(', ')}`);

  // The client bundle with a stand-in `vscode` (the only external): it must need no other module.
  const stub = path.join(ext, '..', 'vscode-stub.cjs');
  writeFileSync(
    stub,
    [
      "const Module = require('module');",
      "const fake = new Proxy(function () {}, { get: (t, k) => (k === Symbol.toPrimitive ? () => '' : k === 'then' ? undefined : fake), apply: () => fake, construct: () => fake });",
      'const resolve = Module._resolveFilename;',
      "Module._resolveFilename = function (request, ...rest) { return request === 'vscode' ? 'vscode' : resolve.call(this, request, ...rest); };",
      "require.cache.vscode = { id: 'vscode', filename: 'vscode', loaded: true, exports: fake };",
    ].join('\n'),
  );
  await check('dist/extension.js loads from the package (vscode-languageclient inside the bundle)', process.execPath, [
    '-r',
    stub,
    '-e',
    "const e = require(process.argv[1]); if (typeof e.activate !== 'function' || typeof e.deactivate !== 'function') throw new Error('no activate/deactivate');",
    path.join(ext, 'dist', 'extension.js'),
  ]);
  await check(
    'dist/server.js starts from the package',
    process.execPath,
    [path.join(ext, 'dist', 'server.js'), '--version'],
    /catalog-lens-server \d/,
  );
  await checkServerSession(path.join(ext, 'dist', 'server.js'));
  await check('better-sqlite3 opens a database from the package', process.execPath, [
    '-e',
    "const D = require(process.argv[1]); const db = new D(':memory:'); db.prepare('select 1').get(); db.close();",
    path.join(ext, 'node_modules', 'better-sqlite3'),
  ]);
  await checkCatalog(path.join(ext, 'dist', 'catalog.js'));
}

/** @returns {Promise<void>} */
function check(what, command, args, expect) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: path.dirname(args[args.length - 1]),
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_PATH: '' },
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.on('exit', (code) => {
      if (code !== 0 || (expect && !expect.test(out))) fail(`${what}: exit code ${code}\n${out}`);
      console.log(`ok: ${what}`);
      resolve();
    });
  });
}

/**
 * The shipped server over stdio, as an editor starts it: `initialize`, then `initialized`, a
 * document and its links in one write; the links must be answered (its second bundle loads from the
 * package). No code cache, so no cache file is left in the user's folder.
 */
/** @returns {Promise<void>} */
function checkServerSession(script) {
  const what = 'dist/server.js answers initialize, a document and its links from the package';
  const frame = (message) => {
    const body = JSON.stringify({ jsonrpc: '2.0', ...message });
    return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  };
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, '--stdio'], {
      cwd: path.dirname(script),
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, NODE_PATH: '', CATALOG_LENS_CODE_CACHE: 'off', DATAHUB_SKIP_CONFIG: 'true' },
    });
    let out = '';
    let err = '';
    let done = false;
    let sentRest = false;
    const finish = (problem) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      child.kill();
      if (problem) fail(`${what}: ${problem}\nstdout:\n${out.slice(0, 4000)}\nstderr:\n${err}`);
      console.log(`ok: ${what}`);
      resolve();
    };
    const timer = setTimeout(() => finish('no answer within 30 s'), 30_000);
    const uri = 'file:///w/a.py';
    child.stdout.on('data', (d) => {
      out += d;
      if (/"id":1,"error"/.test(out)) finish('initialize answered an error');
      else if (!sentRest && /"id":1,"result"/.test(out)) {
        sentRest = true;
        child.stdin.write(
          frame({ method: 'initialized', params: {} }) +
            frame({
              method: 'textDocument/didOpen',
              params: { textDocument: { uri, languageId: 'python', version: 1, text: 'X = "urn:li:corpuser:jdoe"\n' } },
            }) +
            frame({ id: 2, method: 'textDocument/documentLink', params: { textDocument: { uri } } }),
        );
      }
      if (/"id":2,"error"/.test(out)) finish('documentLink answered an error');
      else if (/"id":2,"result":\[/.test(out)) finish();
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('exit', (code) => finish(`exited (code ${code}) before answering`));
    child.stdin.write(
      frame({ id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } }),
    );
  });
}

/** The shipped local catalog, started like Start Local Catalog does, asked for /health, then stopped by its pid. */
/** @returns {Promise<void>} */
function checkCatalog(script) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, '--sample', '--port', '0', '--db', ':memory:', '--quiet'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let answered = false;
    const onData = async (d) => {
      out += d;
      const m = /catalog-lens catalog listening on (http:\/\/\S+)/.exec(out);
      if (!m || answered) return;
      answered = true;
      const res = await fetch(`${m[1]}/health`).catch((e) => ({ status: String(e) }));
      child.kill('SIGTERM');
      if (res.status !== 200) fail(`the shipped local catalog did not answer /health: ${res.status}`);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code, signal) => {
      if (!answered)
        fail(`the shipped local catalog exited before listening (code ${code}, signal ${signal}):\n${out}`);
      console.log('ok: the shipped local catalog starts with sample data and answers /health');
      resolve();
    });
  });
}

function readZip(file) {
  const yauzl = createRequire(require.resolve('@vscode/vsce/package.json'))('yauzl');
  return new Promise((resolve, reject) => {
    const entries = new Map();
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      zip.on('entry', (entry) => {
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        zip.openReadStream(entry, (e, stream) => {
          if (e) return reject(e);
          const chunks = [];
          stream.on('data', (c) => chunks.push(c));
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
          stream.on('error', reject);
        });
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

function formatSize(n) {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(2)} MB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KB` : `${n} B`;
}
