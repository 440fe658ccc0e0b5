#!/usr/bin/env node
// `npm start`: the demo, one command. Builds if the bundles are stale, starts the local catalog
// with the sample data (port 9410, or a free one when it is taken; database in .catalog-lens/,
// a folder only its owner can open) and a new random token, and opens a copy of examples/
// (.catalog-lens/workspace: the demo edits and auto-saves files, the tracked examples never
// change) in VS Code with the extension loaded and handed that token. Each run starts from a
// new copy and a new sample catalog, so the YAML and the catalog agree at start (--keep keeps both):
//   - desktop VS Code when `code` is on PATH (a separate profile in .catalog-lens/vscode-user,
//     the extension loaded from this folder with --extensionDevelopmentPath);
//   - otherwise code-server (installed by scripts/e2e-setup.mjs) on a unix socket in a 0700
//     folder, behind the editor gate (scripts/editorGate.ts) on 127.0.0.1:9420, with the freshly
//     packaged .vsix installed; open the printed URL, which carries the gate's secret, in a browser.
// Ctrl-C stops everything it started, by pid.
//
//   npm start                    as above
//   npm start -- --code-server   code-server even when `code` is on PATH
//   npm start -- --smoke         (also when CI=true) start everything, check that the catalog
//                                needs its token and the gate its secret and its own Host, and
//                                that the workbench answers through the gate; stop, exit 0
//   npm start -- --no-build      use dist/ and the .vsix as they are
//   npm start -- --keep          keep the catalog and the workspace copy of the last run
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { delimiter, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openPrivateLog } from './privateLog.mjs';
import { buildIfNeeded, packageIfNeeded } from './startBuild.mjs';
import { smokeCatalog, smokeEditor } from './startSmoke.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const stateDir = join(root, '.catalog-lens');
const tokenFile = join(stateDir, 'catalog.token');
const examples = join(root, 'examples');
/** The copy of examples/ the demo opens and edits. */
const workspace = join(stateDir, 'workspace');
const catalogDb = join(stateDir, 'catalog.db');
const args = process.argv.slice(2);
const keep = args.includes('--keep');
const smoke = args.includes('--smoke') || process.env.CI === 'true';
const noBuild = args.includes('--no-build');
const PREFERRED_CATALOG_PORT = 9410;
const PREFERRED_EDITOR_PORT = 9420;
const SAMPLE_DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
// The names the catalog (catalog/src/cliOptions.ts) and the extension (client/src/localCatalogHandOff.ts) read.
const CATALOG_TOKEN_ENV = 'CATALOG_LENS_CATALOG_TOKEN';
const HAND_OFF_URL_ENV = 'CATALOG_LENS_LOCAL_CATALOG_URL';
const HAND_OFF_TOKEN_FILE_ENV = 'CATALOG_LENS_LOCAL_CATALOG_TOKEN_FILE';
const PAGES_SECRET_ENV = 'CATALOG_LENS_PAGES_SECRET';
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
/** What is not a process: the gate, the socket folder, the token file; undone at shutdown, last first. */
const cleanups = [];
let stopping = false;

/**
 * @param {string} name
 * @param {string} command
 * @param {string[]} commandArgs
 * @param {{ logFile?: string, env?: NodeJS.ProcessEnv, cwd?: string, inheritOutput?: boolean, onExit?: () => void }} options
 *   output goes to `logFile` unless `inheritOutput`
 */
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
    if (!logFile || !child.stdout || !child.stderr) throw new Error(`${name}: piped output needs a log file`);
    // 0600, also when an older run left it 0644.
    const file = openPrivateLog(logFile);
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
      resolveDone(undefined);
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
        else if (entry.exited)
          finish(() =>
            reject(new Error(`${name} exited (${entry.exit}) before it was ready:\n${output.slice(-3000)}`)),
          );
      };
      const timer = setTimeout(
        () =>
          finish(() => reject(new Error(`${name} was not ready within ${timeoutMs / 1000}s:\n${output.slice(-3000)}`))),
        timeoutMs,
      );
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
  } catch (caught) {
    const err = /** @type {NodeJS.ErrnoException} */ (caught);
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
  for (const cleanup of cleanups.splice(0).reverse()) {
    await Promise.resolve()
      .then(cleanup)
      .catch((err) => log(`cleanup: ${err.message}`));
  }
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

/**
 * A new random token for this run, in a file only its owner can read (for curl and for the
 * editor), never on a command line (`ps` shows those) and never printed.
 */
function writeCatalogToken() {
  const token = randomBytes(32).toString('base64url');
  rmSync(tokenFile, { force: true });
  writeFileSync(tokenFile, `${token}\n`, { mode: 0o600, flag: 'wx' });
  cleanups.push(() => rmSync(tokenFile, { force: true }));
  return token;
}

/**
 * A new secret for this run's page links through code-server's port proxy: code-server opens
 * `http://127.0.0.1:9410/…` as `http://127.0.0.1:<editor>/proxy/9410/…`, which reaches the catalog
 * with the editor's Host; the catalog serves its pages to that Host only under `/_pages/<secret>/`
 * (catalog/src/security.ts), and the editor's links (catalogLens.uiUrl) carry that prefix.
 */
const pagesSecret = randomBytes(18).toString('base64url');

/** Restarts of a catalog that exited on its own, in the last minute; a fourth within a minute stops the demo. */
const catalogRestarts = [];
/** The running catalog's child entry (a restart replaces it). */
let catalogEntry;

/**
 * The local catalog with the sample data, on the preferred port or a free one. When it exits on
 * its own (killed, crashed) it is started again on the same port with the same database and
 * token, without `--sample` (what the user wrote in it stays): the editor reconnects by itself.
 */
async function startLocalCatalog(token, restartOn) {
  const port = restartOn ?? (await portOrAny(PREFERRED_CATALOG_PORT));
  if (port === 0) log(`port ${PREFERRED_CATALOG_PORT} is taken: the catalog takes a free one`);
  const catalog = startChild(
    'catalog',
    process.execPath,
    [
      join(root, 'bin', 'catalog-lens-catalog.js'),
      '--port',
      String(port),
      ...(restartOn === undefined ? ['--sample'] : []),
      '--db',
      catalogDb,
    ],
    {
      logFile: join(stateDir, 'catalog.log'),
      env: { ...process.env, [CATALOG_TOKEN_ENV]: token, [PAGES_SECRET_ENV]: pagesSecret },
      onExit: () => void restartCatalog(token, catalog),
    },
  );
  catalogEntry = catalog;
  const m = await catalog.waitFor(/catalog-lens catalog listening on (http:\/\/\S+)/, 30_000);
  catalog.url = m[1];
  return m[1];
}

async function restartCatalog(token, exited) {
  const now = Date.now();
  while (catalogRestarts.length > 0 && catalogRestarts[0] < now - 60_000) catalogRestarts.shift();
  if (!exited.url || catalogRestarts.length >= 3) {
    log(`catalog (pid ${exited.pid}) exited unexpectedly (${exited.exit}); see ${join(stateDir, 'catalog.log')}`);
    void shutdown(1);
    return;
  }
  catalogRestarts.push(now);
  // Its pid may be reused: the exited entry is no longer signalled at shutdown.
  children.splice(children.indexOf(exited), 1);
  log(
    `catalog (pid ${exited.pid}) exited unexpectedly (${exited.exit}): starting it again on the same port and database`,
  );
  try {
    const url = await startLocalCatalog(token, Number(new URL(exited.url).port));
    log(`catalog restarted: ${url} (pid ${catalogEntry.pid})`);
  } catch (err) {
    log(`the catalog could not be restarted: ${err instanceof Error ? err.message : String(err)}`);
    void shutdown(1);
  }
}

/** Smoke: kill the catalog and wait until its restart answers on the same URL. */
async function smokeCatalogRestart(catalogUrl, token) {
  const before = catalogEntry;
  const t = Date.now();
  process.kill(before.pid, 'SIGKILL');
  const deadline = Date.now() + 30_000;
  while (catalogEntry === before || !catalogEntry.url) {
    if (Date.now() > deadline || stopping) throw new Error('the killed catalog was not started again within 30 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  if (catalogEntry.url !== catalogUrl)
    throw new Error(`the catalog came back on ${catalogEntry.url}, not ${catalogUrl}`);
  const answer = await smokeCatalog(catalogUrl, token, SAMPLE_DATASET);
  return `killed (pid ${before.pid}) and back on the same URL in ${((Date.now() - t) / 1000).toFixed(1)}s, ${answer}`;
}

function curlExample(url) {
  const query = `{ dataset(urn: \\"${SAMPLE_DATASET}\\") { urn properties { description } } }`;
  const rel = relative(process.cwd(), tokenFile);
  const file = rel.startsWith('..') || isAbsolute(rel) ? tokenFile : rel;
  return `curl -s ${url}/api/graphql -H "Authorization: Bearer $(cat ${file})" -H 'Content-Type: application/json' -d '{"query":"${query}"}'`;
}

/**
 * A new sample catalog and a new copy of examples/ for this run, unless --keep (and they exist).
 * SQLite's write-ahead log and shared-memory files go with the database.
 */
function freshDemoState() {
  if (keep && existsSync(catalogDb) && existsSync(workspace)) {
    log(`--keep: reusing ${catalogDb} and ${workspace} from the last run`);
    return;
  }
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${catalogDb}${suffix}`, { force: true });
  rmSync(workspace, { recursive: true, force: true });
  cpSync(examples, workspace, { recursive: true });
}

/** The editor's environment: where the extension finds the local catalog's token (client/src/localCatalogHandOff.ts). */
function editorEnv(catalogUrl, base = process.env) {
  const env = { ...base, [HAND_OFF_URL_ENV]: catalogUrl, [HAND_OFF_TOKEN_FILE_ENV]: tokenFile };
  delete env[CATALOG_TOKEN_ENV];
  return env;
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
    throw new Error(
      `${file} is not plain JSON (${err instanceof Error ? err.message : String(err)}); fix or delete it`,
    );
  }
}

/** Desktop VS Code with its own profile: the user's own settings are left alone. */
async function openDesktopVsCode(catalogUrl) {
  const userDataDir = join(stateDir, 'vscode-user');
  const settingsFile = join(userDataDir, 'User', 'settings.json');
  mkdirSync(dirname(settingsFile), { recursive: true });
  // A local window reads machine-scoped settings (catalogLens.url) from User settings.
  writeFileSync(
    settingsFile,
    JSON.stringify({ ...readJsonObject(settingsFile), 'catalogLens.url': catalogUrl }, null, 2) + '\n',
  );
  // Closing the window ends `code --wait`: then the demo is over.
  startChild(
    'VS Code',
    'code',
    ['--user-data-dir', userDataDir, '--new-window', '--wait', `--extensionDevelopmentPath=${root}`, workspace],
    {
      inheritOutput: true,
      env: editorEnv(catalogUrl),
      onExit: () => {
        log('the VS Code window was closed: stopping the catalog');
        void shutdown(0);
      },
    },
  );
  say(`VS Code opens ${workspace} (a copy of examples/) with Catalog Lens from ${root} (profile ${userDataDir}).`);
  say('Close the window or press Ctrl-C to stop the catalog.');
}

async function startCodeServerEditor(catalogUrl) {
  const { ensureCodeServer } = await import('./e2e-setup.mjs');
  const tools = await timed('code-server (and Node 24 to run it)', () => ensureCodeServer());
  const vsix = await timed('package the extension (.vsix)', () => packageIfNeeded(root, { noBuild }));
  const base = join(stateDir, 'code-server');
  const userDataDir = join(base, 'user-data');
  const extensionsDir = join(base, 'extensions');
  const configFile = join(base, 'config.yaml');
  rmSync(extensionsDir, { recursive: true, force: true });
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  mkdirSync(join(userDataDir, 'Machine'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  // Without a config file code-server writes one to ~/.config; the listening flags are given below.
  writeFileSync(configFile, 'cert: false\n');
  const userSettings = join(userDataDir, 'User', 'settings.json');
  // The demo profile's defaults; what the user changed there since is kept. A quiet start: VS Code
  // asks whether to trust the folder on every start until it is trusted (writes need trust), no
  // Git prompt about the repository around .catalog-lens/, no empty secondary side bar.
  writeFileSync(
    userSettings,
    JSON.stringify(
      {
        'telemetry.telemetryLevel': 'off',
        'workbench.startupEditor': 'readme',
        'chat.disableAIFeatures': true,
        'extensions.autoCheckUpdates': false,
        'extensions.autoUpdate': false,
        'security.workspace.trust.startupPrompt': 'always',
        'git.openRepositoryInParentFolders': 'never',
        'workbench.secondarySideBar.defaultVisibility': 'hidden',
        ...readJsonObject(userSettings),
      },
      null,
      2,
    ) + '\n',
  );
  // A fresh workspace copy: the editor state of the last run (open tabs of files that are gone) goes too.
  if (!keep) rmSync(join(userDataDir, 'User', 'workspaceStorage'), { recursive: true, force: true });
  // code-server's window is a remote window: machine-scoped settings live in Machine/settings.json.
  const machineSettings = join(userDataDir, 'Machine', 'settings.json');
  writeFileSync(
    machineSettings,
    JSON.stringify(
      {
        ...readJsonObject(machineSettings),
        'catalogLens.url': catalogUrl,
        // Page links through code-server's port proxy (pagesSecret above).
        'catalogLens.uiUrl': `${catalogUrl}/_pages/${pagesSecret}`,
      },
      null,
      2,
    ) + '\n',
  );
  const env = {
    ...editorEnv(catalogUrl),
    NODE_OPTIONS: '',
    XDG_DATA_HOME: join(base, 'xdg-data'),
    XDG_CONFIG_HOME: join(base, 'xdg-config'),
    XDG_CACHE_HOME: join(base, 'xdg-cache'),
  };
  const common = [
    tools.codeServerEntry,
    '--config',
    configFile,
    '--user-data-dir',
    userDataDir,
    '--extensions-dir',
    extensionsDir,
    '--disable-telemetry',
    '--disable-update-check',
  ];
  await timed('install the .vsix into code-server', () => {
    const r = spawnSync(tools.node, [...common, '--install-extension', vsix], { env, encoding: 'utf8' });
    if (r.status !== 0 || !/successfully installed/.test(`${r.stdout}${r.stderr}`))
      throw new Error(`installing ${vsix} failed:\n${r.stdout}${r.stderr}`);
  });
  // code-server on a unix socket in a 0700 folder (no other local user reaches it), reached only
  // through the gate, which wants the secret of the printed URL and its own Host. Workspace trust
  // stays on: VS Code asks whether to trust the workspace (write commands need a trusted folder).
  const gateModule = createRequire(import.meta.url)(join(root, 'dist', 'editorGate.js'));
  const socketDir = gateModule.createSocketDir();
  cleanups.push(() => socketDir.remove());
  const codeServer = startChild(
    'code-server',
    tools.node,
    [...common, ...gateModule.codeServerListenArgs(socketDir.socket), '--disable-getting-started-override', workspace],
    { env, logFile: join(stateDir, 'code-server.log') },
  );
  await codeServer.waitFor(gateModule.CODE_SERVER_SOCKET_RE, 60_000);
  const gate = await startGate(gateModule, socketDir.socket);
  cleanups.push(() => gate.close());
  const path = `/?folder=${encodeURIComponent(workspace)}`;
  return { url: gate.urlWithSecret(path), path, gate, tools, common, env };
}

/** The gate on port 9420, or on a free port when that one is taken. */
async function startGate(gateModule, upstreamSocket) {
  try {
    return await gateModule.startEditorGate({ upstreamSocket, port: PREFERRED_EDITOR_PORT });
  } catch (err) {
    if (/** @type {NodeJS.ErrnoException} */ (err).code !== 'EADDRINUSE') throw err;
    log(`port ${PREFERRED_EDITOR_PORT} is taken: the editor takes a free one`);
    return gateModule.startEditorGate({ upstreamSocket, port: 0 });
  }
}

function checkExtensionInstalled(editor) {
  const r = spawnSync(editor.tools.node, [...editor.common, '--list-extensions'], {
    env: editor.env,
    encoding: 'utf8',
  });
  if (!/^catalog-lens\.catalog-lens$/m.test(r.stdout))
    throw new Error(`catalog-lens is not among code-server's extensions:\n${r.stdout}${r.stderr}`);
  return 'extension installed';
}

// ---- main ---------------------------------------------------------------------------------

async function main() {
  // The token file, the database and code-server's profile live here: its owner's only.
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  chmodSync(stateDir, 0o700);
  await timed('build (if stale)', () => buildIfNeeded(root, { noBuild, log }));
  freshDemoState();
  const token = writeCatalogToken();
  const catalogUrl = await timed('start the local catalog', () => startLocalCatalog(token));
  say('');
  say(
    `Catalog:  ${catalogUrl}   (sample data${keep ? '' : ', fresh'}; database ${catalogDb}, log ${join(stateDir, 'catalog.log')})`,
  );
  say(`Pages:    ${catalogUrl}/   (read-only, in a browser; "Open in catalog" links land there)`);
  say(`Files:    ${workspace}   (a copy of examples/${keep ? '' : ', fresh'})`);
  say(`Token:    in ${tokenFile} (a new one each run; the editor is handed it)`);
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
    say(`smoke: catalog ${await smokeCatalog(catalogUrl, token, SAMPLE_DATASET)}`);
    const pages = {
      catalogPort: new URL(catalogUrl).port,
      pagesPath: `/_pages/${pagesSecret}`,
      dataset: SAMPLE_DATASET,
    };
    say(`smoke: code-server ${await smokeEditor(editor.gate, editor.path, pages)}, ${checkExtensionInstalled(editor)}`);
    say(`smoke: catalog ${await smokeCatalogRestart(catalogUrl, token)}`);
    say(`smoke: everything answered in ${((Date.now() - started) / 1000).toFixed(1)}s; stopping`);
    await shutdown(0);
    return;
  }
  say('');
  say(
    `Open ${editor.url} in a browser (the URL holds the editor's secret: keep it to yourself). Ctrl-C stops the catalog and code-server.`,
  );
}

main().catch(async (err) => {
  log(`failed: ${err instanceof Error ? err.message : String(err)}`);
  await shutdown(1);
});
