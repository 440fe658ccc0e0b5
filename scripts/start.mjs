#!/usr/bin/env node
// `npm start`: the demo, one command. Builds if the bundles are stale, starts the local catalog
// with the sample data (port 9410, or a free one when it is taken; database in .catalog-lens/),
// and opens examples/ in VS Code with the extension loaded:
//   - desktop VS Code when `code` is on PATH (a separate profile in .catalog-lens/vscode-user,
//     the extension loaded from this folder with --extensionDevelopmentPath);
//   - otherwise code-server (installed by scripts/e2e-setup.mjs) on 127.0.0.1, with the freshly
//     packaged .vsix installed; open the printed URL in a browser.
// Ctrl-C stops everything it started, by pid.
//
//   npm start                    as above
//   npm start -- --code-server   code-server even when `code` is on PATH
//   npm start -- --smoke         (also when CI=true) start everything, check that the catalog's
//                                GraphQL and code-server answer, stop, exit 0
//   npm start -- --no-build      use dist/ and the .vsix as they are
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const stateDir = join(root, '.catalog-lens');
const examples = join(root, 'examples');
const args = process.argv.slice(2);
const smoke = args.includes('--smoke') || process.env.CI === 'true';
const noBuild = args.includes('--no-build');
const PREFERRED_CATALOG_PORT = 9410;
const PREFERRED_EDITOR_PORT = 9420;
const SAMPLE_DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
const started = Date.now();

function say(message) {
  process.stdout.write(`${message}\n`);
}

function log(message) {
  process.stderr.write(`[start] ${message}\n`);
}

async function timed(label, fn) {
  const t = Date.now();
  log(`${label} …`);
  const result = await fn();
  log(`${label}: done in ${((Date.now() - t) / 1000).toFixed(1)}s`);
  return result;
}

// ---- processes: each in its own group, stopped by its own pid ---------------------------

const children = [];
let stopping = false;

function startChild(name, command, commandArgs, { logFile, env, cwd = root, inheritOutput = false, onExit }) {
  const child = spawn(command, commandArgs, {
    cwd,
    env: env ?? process.env,
    detached: true,
    stdio: ['ignore', inheritOutput ? 'inherit' : 'pipe', inheritOutput ? 'inherit' : 'pipe'],
  });
  let output = '';
  const listeners = new Set();
  if (!inheritOutput) {
    const file = createWriteStream(logFile);
    const append = (chunk) => {
      output += chunk;
      file.write(chunk);
      for (const l of listeners) l();
    };
    child.stdout.setEncoding('utf8').on('data', append);
    child.stderr.setEncoding('utf8').on('data', append);
    child.once('exit', () => file.end());
  }
  const entry = { name, child, pid: child.pid, exited: false, exit: '' };
  entry.done = new Promise((resolveDone) => {
    child.once('exit', (code, signal) => {
      entry.exited = true;
      entry.exit = `code ${code}, signal ${signal}`;
      for (const l of listeners) l();
      resolveDone();
      if (stopping) return;
      if (onExit) {
        onExit();
      } else {
        log(`${name} (pid ${entry.pid}) exited unexpectedly (${entry.exit})${logFile ? `; see ${logFile}` : ''}`);
        void shutdown(1);
      }
    });
  });
  child.once('error', (err) => log(`${name}: ${err.message}`));
  entry.waitFor = (pattern, timeoutMs) =>
    new Promise((resolveWait, reject) => {
      const check = () => {
        const m = pattern.exec(output);
        if (m) finish(() => resolveWait(m));
        else if (entry.exited) finish(() => reject(new Error(`${name} exited (${entry.exit}) before it was ready:\n${output.slice(-3000)}`)));
      };
      const timer = setTimeout(() => finish(() => reject(new Error(`${name} was not ready within ${timeoutMs / 1000}s:\n${output.slice(-3000)}`))), timeoutMs);
      const finish = (settle) => {
        clearTimeout(timer);
        listeners.delete(check);
        settle();
      };
      listeners.add(check);
      check();
    });
  children.push(entry);
  return entry;
}

function signalGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch (err) {
    if (err.code !== 'ESRCH') log(`could not send ${signal} to process group ${pid}: ${err.message}`);
  }
}

async function stopChildren() {
  for (const entry of [...children].reverse()) {
    if (!entry.exited) {
      signalGroup(entry.pid, 'SIGTERM');
      const timer = setTimeout(() => signalGroup(entry.pid, 'SIGKILL'), 5000);
      await entry.done;
      clearTimeout(timer);
    }
    // Whatever the leader left behind in its group (code-server's extension host, the language server).
    signalGroup(entry.pid, 'SIGKILL');
  }
}

async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  await stopChildren();
  process.exit(code);
}

process.once('SIGINT', () => {
  log('SIGINT: stopping everything started here');
  void shutdown(0);
});
process.once('SIGTERM', () => {
  log('SIGTERM: stopping everything started here');
  void shutdown(0);
});

// ---- build --------------------------------------------------------------------------------

function newestMtime(paths) {
  let newest = 0;
  const visit = (p) => {
    if (!existsSync(p)) return;
    const s = statSync(p);
    if (s.isDirectory()) for (const name of readdirSync(p)) visit(join(p, name));
    else newest = Math.max(newest, s.mtimeMs);
  };
  for (const p of paths) visit(join(root, p));
  return newest;
}

function oldestMtime(paths) {
  let oldest = Infinity;
  for (const p of paths) {
    const full = join(root, p);
    oldest = Math.min(oldest, existsSync(full) ? statSync(full).mtimeMs : 0);
  }
  return oldest;
}

const SOURCES = ['client/src', 'server/src', 'catalog/src', 'model/src', 'syntaxes', 'package.json', 'scripts/build.mjs'];
const BUNDLES = ['dist/server.js', 'dist/catalog.js', 'dist/extension.js'];

function npmRun(script) {
  const r = spawnSync('npm', ['run', script], { cwd: root, stdio: ['ignore', 2, 2] });
  if (r.status !== 0) throw new Error(`npm run ${script} failed (exit ${r.status ?? r.signal})`);
}

function buildIfNeeded() {
  if (noBuild) return;
  if (oldestMtime(BUNDLES) >= newestMtime(SOURCES)) {
    log('dist/ is up to date');
    return;
  }
  npmRun('build');
}

function vsixPath() {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return join(root, `catalog-lens-${version}.vsix`);
}

function packageIfNeeded() {
  const vsix = vsixPath();
  if (!noBuild && (!existsSync(vsix) || statSync(vsix).mtimeMs < newestMtime([...BUNDLES, 'package.json', 'syntaxes', 'README.md']))) {
    npmRun('package');
  }
  if (!existsSync(vsix)) throw new Error(`${vsix} is missing: run \`npm run package\``);
  return vsix;
}

// ---- ports --------------------------------------------------------------------------------

/** The preferred port when it is free on 127.0.0.1, else 0 (the child picks one and prints it). */
function portOrAny(preferred) {
  return new Promise((resolvePort) => {
    const probe = createServer();
    probe.once('error', () => resolvePort(0));
    probe.listen(preferred, '127.0.0.1', () => probe.close(() => resolvePort(preferred)));
  });
}

// ---- the catalog --------------------------------------------------------------------------

async function startLocalCatalog() {
  const port = await portOrAny(PREFERRED_CATALOG_PORT);
  if (port === 0) log(`port ${PREFERRED_CATALOG_PORT} is taken: the catalog takes a free one`);
  const catalog = startChild('catalog', process.execPath, [
    join(root, 'bin', 'catalog-lens-catalog.js'), '--port', String(port), '--sample', '--db', join(stateDir, 'catalog.db'),
  ], { logFile: join(stateDir, 'catalog.log') });
  const m = await catalog.waitFor(/catalog-lens catalog listening on (http:\/\/\S+)/, 30_000);
  return m[1];
}

async function checkCatalog(url) {
  const query = `{ dataset(urn: "${SAMPLE_DATASET}") { properties { description } } }`;
  const res = await fetch(`${url}/api/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
  const body = await res.text();
  if (res.status !== 200 || !body.includes('One row per registered user')) throw new Error(`catalog GraphQL answered ${res.status}: ${body.slice(0, 500)}`);
  return `GraphQL ${res.status}, db.users described`;
}

function curlExample(url) {
  const query = `{ dataset(urn: \\"${SAMPLE_DATASET}\\") { urn properties { description } } }`;
  return `curl -s ${url}/api/graphql -H 'Content-Type: application/json' -d '{"query":"${query}"}'`;
}

// ---- editors ------------------------------------------------------------------------------

function onPath(command) {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, command)));
}

function readJsonObject(file) {
  if (!existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`${file} is not plain JSON (${err.message}); fix or delete it`);
  }
}

/** Desktop VS Code with its own profile: the user's own settings are left alone. */
async function openDesktopVsCode(catalogUrl) {
  const userDataDir = join(stateDir, 'vscode-user');
  const settingsFile = join(userDataDir, 'User', 'settings.json');
  mkdirSync(dirname(settingsFile), { recursive: true });
  // A local window reads machine-scoped settings (catalogLens.url) from User settings.
  writeFileSync(settingsFile, JSON.stringify({ ...readJsonObject(settingsFile), 'catalogLens.url': catalogUrl }, null, 2) + '\n');
  // Closing the window ends `code --wait`: then the demo is over.
  startChild('VS Code', 'code', [
    '--user-data-dir', userDataDir, '--new-window', '--wait', `--extensionDevelopmentPath=${root}`, examples,
  ], {
    inheritOutput: true,
    onExit: () => {
      log('the VS Code window was closed: stopping the catalog');
      void shutdown(0);
    },
  });
  say(`VS Code opens ${examples} with Catalog Lens from ${root} (profile ${userDataDir}).`);
  say('Close the window or press Ctrl-C to stop the catalog.');
}

async function startCodeServerEditor(catalogUrl) {
  const { ensureE2eTools } = await import('./e2e-setup.mjs');
  const tools = await timed('e2e tools (Node 24, code-server)', () => ensureE2eTools());
  const vsix = await timed('package the extension (.vsix)', () => packageIfNeeded());
  const base = join(stateDir, 'code-server');
  const userDataDir = join(base, 'user-data');
  const extensionsDir = join(base, 'extensions');
  const configFile = join(base, 'config.yaml');
  rmSync(extensionsDir, { recursive: true, force: true });
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  mkdirSync(join(userDataDir, 'Machine'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  writeFileSync(configFile, 'auth: none\nbind-addr: 127.0.0.1:0\ncert: false\n');
  const userSettings = join(userDataDir, 'User', 'settings.json');
  if (!existsSync(userSettings)) {
    writeFileSync(userSettings, JSON.stringify({
      'telemetry.telemetryLevel': 'off',
      'workbench.startupEditor': 'readme',
      'chat.disableAIFeatures': true,
      'extensions.autoCheckUpdates': false,
      'extensions.autoUpdate': false,
    }, null, 2) + '\n');
  }
  // code-server's window is a remote window: machine-scoped settings live in Machine/settings.json.
  const machineSettings = join(userDataDir, 'Machine', 'settings.json');
  writeFileSync(machineSettings, JSON.stringify({ ...readJsonObject(machineSettings), 'catalogLens.url': catalogUrl }, null, 2) + '\n');
  const env = {
    ...process.env,
    NODE_OPTIONS: '',
    XDG_DATA_HOME: join(base, 'xdg-data'),
    XDG_CONFIG_HOME: join(base, 'xdg-config'),
    XDG_CACHE_HOME: join(base, 'xdg-cache'),
  };
  const common = [tools.codeServerEntry, '--config', configFile, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir, '--disable-telemetry', '--disable-update-check'];
  await timed('install the .vsix into code-server', () => {
    const r = spawnSync(tools.node, [...common, '--install-extension', vsix], { env, encoding: 'utf8' });
    if (r.status !== 0 || !/successfully installed/.test(`${r.stdout}${r.stderr}`)) throw new Error(`installing ${vsix} failed:\n${r.stdout}${r.stderr}`);
  });
  const port = await portOrAny(PREFERRED_EDITOR_PORT);
  const codeServer = startChild('code-server', tools.node, [
    ...common, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--disable-workspace-trust', '--disable-getting-started-override', examples,
  ], { env, logFile: join(stateDir, 'code-server.log') });
  const m = await codeServer.waitFor(/HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)\//, 60_000);
  return { url: `${m[1]}/?folder=${encodeURIComponent(examples)}`, base: m[1], tools, common, env };
}

async function checkCodeServer(editor) {
  const res = await fetch(editor.url);
  const body = await res.text();
  if (res.status !== 200 || !body.includes('workbench')) throw new Error(`code-server answered ${res.status} for ${editor.url}`);
  const health = await fetch(`${editor.base}/healthz`);
  if (health.status !== 200) throw new Error(`code-server /healthz answered ${health.status}`);
  const r = spawnSync(editor.tools.node, [...editor.common, '--list-extensions'], { env: editor.env, encoding: 'utf8' });
  if (!/^catalog-lens\.catalog-lens$/m.test(r.stdout)) throw new Error(`catalog-lens is not among code-server's extensions:\n${r.stdout}${r.stderr}`);
  return `workbench ${res.status}, /healthz ${health.status}, extension installed`;
}

// ---- main ---------------------------------------------------------------------------------

async function main() {
  mkdirSync(stateDir, { recursive: true });
  await timed('build (if stale)', () => buildIfNeeded());
  const catalogUrl = await timed('start the local catalog', () => startLocalCatalog());
  say('');
  say(`Catalog:  ${catalogUrl}   (sample data; database ${join(stateDir, 'catalog.db')}, log ${join(stateDir, 'catalog.log')})`);
  say(`Try:      ${curlExample(catalogUrl)}`);

  const desktop = !smoke && !args.includes('--code-server') && onPath('code');
  if (desktop) {
    await openDesktopVsCode(catalogUrl);
    return;
  }
  if (!smoke && !onPath('code')) log('`code` is not on PATH: serving VS Code with code-server instead');
  const editor = await startCodeServerEditor(catalogUrl);
  say(`VS Code:  ${editor.url}   (code-server; log ${join(stateDir, 'code-server.log')})`);
  if (smoke) {
    say(`smoke: catalog ${await checkCatalog(catalogUrl)}`);
    say(`smoke: code-server ${await checkCodeServer(editor)}`);
    say(`smoke: everything answered in ${((Date.now() - started) / 1000).toFixed(1)}s; stopping`);
    await shutdown(0);
    return;
  }
  say('');
  say(`Open ${editor.url} in a browser. Ctrl-C stops the catalog and code-server.`);
}

main().catch(async (err) => {
  log(`failed: ${err instanceof Error ? err.message : String(err)}`);
  await shutdown(1);
});
