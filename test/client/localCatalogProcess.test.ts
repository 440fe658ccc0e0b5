/**
 * Start Local Catalog's process handling: the user's `node` is checked
 * for existence and for loading better-sqlite3 before the catalog starts, with a clear message
 * for each failure; the catalog is a real child process whose "listening on" line gives its URL,
 * which answers HTTP, and which the test stops by its own handle.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createServer, type Server } from 'node:net';
import {
  catalogEnv,
  checkNodeForCatalog,
  errorLine,
  newCatalogToken,
  portOf,
  startCatalogOnPort,
  startCatalogProcess,
} from '../../client/src/localCatalogProcess';
import { LISTENING_RE, LOCAL_CATALOG_TOKEN_ENV } from '../../model/src/localCatalog';

/** The repository root, seen from out/test/client. */
const ROOT = path.resolve(__dirname, '..', '..', '..');
const BETTER_SQLITE3 = path.join(ROOT, 'node_modules', 'better-sqlite3');
/** The compiled local catalog (tsc builds it to out/; the extension ships the same code as dist/catalog.js). */
const CATALOG_MAIN = path.join(ROOT, 'out', 'catalog', 'src', 'main.js');

/** Listens on a free loopback port; the caller closes it. */
function listenFree(): Promise<{ server: Server; port: number }> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port }));
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'catalog-lens-client-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe("checking the user's node before starting the catalog", () => {
  test('a node that loads better-sqlite3 passes and says its version', async () => {
    const r = await checkNodeForCatalog(process.execPath, BETTER_SQLITE3, process.env);
    assert.deepEqual(r, { ok: true, version: process.version });
  });

  test('no node at that path: "missing", with a message that says to install it and put it on PATH', async (t) => {
    const r = await checkNodeForCatalog(path.join(tempDir(t), 'node'), BETTER_SQLITE3, process.env);
    assert.equal(r.ok, false);
    assert.ok(!r.ok && r.reason === 'missing');
    assert.match(!r.ok ? r.message : '', /not found on PATH.*install it/);
  });

  test('a node that cannot load better-sqlite3 there: "cannotLoad", naming the module and the Node error', async (t) => {
    const r = await checkNodeForCatalog(process.execPath, path.join(tempDir(t), 'better-sqlite3'), process.env);
    assert.ok(!r.ok && r.reason === 'cannotLoad');
    assert.match(
      !r.ok ? r.message : '',
      new RegExp(`Node\\.js ${process.version.replace(/\./g, '\\.')} on PATH cannot load .*better-sqlite3`),
    );
    assert.match(!r.ok ? r.message : '', /Cannot find module/);
  });

  test("the ABI mismatch line of Node's error is the one shown", () => {
    const stderr = [
      'node:internal/modules/cjs/loader:1465',
      '  return process.dlopen(module, path.toNamespacedPath(filename));',
      '',
      "Error: The module '/ext/node_modules/better-sqlite3/build/Release/better_sqlite3.node'",
      'was compiled against a different Node.js version using',
      'NODE_MODULE_VERSION 115. This version of Node.js requires',
    ].join('\n');
    assert.match(errorLine(stderr) ?? '', /^Error: The module/);
  });
});

describe('the local catalog process', () => {
  test('starts on a free port with sample data, answers HTTP at the URL it printed, and stops by its handle', async (t) => {
    const dir = tempDir(t);
    const lines: string[] = [];
    const catalog = await startCatalogProcess({
      node: process.execPath,
      script: CATALOG_MAIN,
      cwd: dir,
      env: process.env,
      args: ['--sample', '--port', '0', '--db', path.join(dir, 'catalog.db')],
      onOutput: (l) => lines.push(l),
    });
    t.after(() => catalog.stop());
    assert.match(catalog.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.ok(
      lines.some((l) => LISTENING_RE.test(l)),
      'the banner reaches the log',
    );
    const health = await fetch(`${catalog.url}/health`);
    assert.equal(health.status, 200);
    await health.arrayBuffer();
    await catalog.stop();
    const exit = await catalog.exited;
    assert.ok(exit.code === 0 || exit.signal === 'SIGTERM', `exit ${JSON.stringify(exit)}`);
    await assert.rejects(fetch(`${catalog.url}/health`), 'nothing listens after stop');
  });

  test('a catalog that exits before listening rejects with its own output', async (t) => {
    await assert.rejects(
      startCatalogProcess({
        node: process.execPath,
        script: CATALOG_MAIN,
        cwd: tempDir(t),
        env: process.env,
        args: ['--no-such-flag'],
      }),
      /exited \(code 2.*before listening[\s\S]*unknown option '--no-such-flag'/,
    );
  });

  test('a node that does not exist rejects with the command named', async (t) => {
    const dir = tempDir(t);
    await assert.rejects(
      startCatalogProcess({ node: path.join(dir, 'node'), script: CATALOG_MAIN, cwd: dir, env: process.env, args: [] }),
      /could not be started with '.*node'.*ENOENT/,
    );
  });
});

describe("the local catalog's port across restarts", () => {
  const argsFor = (dir: string) => (port: number) => ['--port', String(port), '--db', path.join(dir, 'catalog.db')];

  test('it starts on the port of its last run when that port is free', async (t) => {
    const dir = tempDir(t);
    const { server, port } = await listenFree();
    await close(server);
    const catalog = await startCatalogOnPort(
      { node: process.execPath, script: CATALOG_MAIN, cwd: dir, env: process.env },
      argsFor(dir),
      port,
    );
    t.after(() => catalog.stop());
    assert.equal(catalog.url, `http://127.0.0.1:${port}`);
    assert.equal(portOf(catalog.url), port);
    const health = await fetch(`${catalog.url}/health`);
    assert.equal(health.status, 200);
    await health.arrayBuffer();
  });

  test('when that port is taken it starts on a free one and says why', async (t) => {
    const dir = tempDir(t);
    const { server, port } = await listenFree();
    t.after(() => close(server));
    const lines: string[] = [];
    const catalog = await startCatalogOnPort(
      { node: process.execPath, script: CATALOG_MAIN, cwd: dir, env: process.env, onOutput: (l) => lines.push(l) },
      argsFor(dir),
      port,
    );
    t.after(() => catalog.stop());
    const newPort = portOf(catalog.url);
    assert.ok(newPort !== undefined && newPort !== port, `${catalog.url} is not on the taken port ${port}`);
    assert.ok(
      lines.some((l) => l.includes('EADDRINUSE')),
      "the catalog's own error reaches the log",
    );
    assert.ok(lines.includes(`port ${port} is taken; starting on a free port`));
  });

  test('no remembered port (first run, or a value that is not a port): a free port', async (t) => {
    for (const remembered of [undefined, 0, -1, 70_000, 1.5]) {
      const dir = tempDir(t);
      const catalog = await startCatalogOnPort(
        { node: process.execPath, script: CATALOG_MAIN, cwd: dir, env: process.env },
        argsFor(dir),
        remembered,
      );
      try {
        assert.ok((portOf(catalog.url) ?? 0) > 0, `${remembered}: ${catalog.url}`);
      } finally {
        await catalog.stop();
      }
    }
  });

  test("a failure other than a taken port is not retried: it rejects with the catalog's output", async (t) => {
    const dir = tempDir(t);
    let starts = 0;
    await assert.rejects(
      startCatalogOnPort(
        { node: process.execPath, script: CATALOG_MAIN, cwd: dir, env: process.env },
        () => {
          starts++;
          return ['--no-such-flag'];
        },
        40_000,
      ),
      /unknown option '--no-such-flag'/,
    );
    assert.equal(starts, 1);
  });
});

describe('Start Local Catalog gives each catalog a token of its own', () => {
  const query = JSON.stringify({
    query: '{ dataset(urn: "urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)") { urn } }',
  });
  const graphql = async (url: string, authorization?: string): Promise<number> => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (authorization !== undefined) headers.authorization = authorization;
    const res = await fetch(`${url}/api/graphql`, { method: 'POST', headers, body: query });
    await res.arrayBuffer();
    return res.status;
  };

  test('the catalog refuses requests without the token (401) and answers with it (200); the token is in its environment, not its command line', async (t) => {
    const dir = tempDir(t);
    const token = newCatalogToken();
    const env = catalogEnv(
      { ...process.env, ELECTRON_RUN_AS_NODE: '1', [LOCAL_CATALOG_TOKEN_ENV]: 'inherited-from-the-shell' },
      token,
    );
    const catalog = await startCatalogOnPort(
      { node: process.execPath, script: CATALOG_MAIN, cwd: dir, env },
      (port) => ['--sample', '--port', String(port), '--db', path.join(dir, 'catalog.db')],
      undefined,
    );
    t.after(() => catalog.stop());
    assert.equal(await graphql(catalog.url), 401);
    assert.equal(await graphql(catalog.url, 'Bearer inherited-from-the-shell'), 401);
    assert.equal(await graphql(catalog.url, `Bearer ${token}x`), 401);
    assert.equal(await graphql(catalog.url, `Bearer ${token}`), 200);
    const cmdline = readFileSync(`/proc/${catalog.pid}/cmdline`, 'utf8');
    assert.ok(!cmdline.includes(token), `the token is on the command line: ${cmdline}`);
    const environ = readFileSync(`/proc/${catalog.pid}/environ`, 'utf8').split('\0');
    assert.ok(environ.includes(`${LOCAL_CATALOG_TOKEN_ENV}=${token}`));
    assert.ok(
      !environ.some((e) => e.startsWith('ELECTRON_RUN_AS_NODE=')),
      "the extension host's ELECTRON_RUN_AS_NODE is not passed on",
    );
  });

  test('every start makes a new random token of 32 bytes', () => {
    const tokens = new Set(Array.from({ length: 50 }, () => newCatalogToken()));
    assert.equal(tokens.size, 50);
    for (const token of tokens) assert.match(token, /^[A-Za-z0-9_-]{43}$/);
  });
});
