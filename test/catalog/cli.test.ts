/**
 * The command line (`node out/catalog/src/main.js`): the start banner other tests parse, the
 * request log, auth from the environment, bad flags, the default database file, clean stop on
 * SIGTERM, and the request counts over HTTP.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { SAMPLE } from '../../catalog/src/sample';
import { startCatalogProcess, type CatalogProcess } from '../support/catalogProcess';
import { batchDocument } from './documents';

const MAIN = path.resolve(__dirname, '..', '..', 'catalog', 'src', 'main.js');

/** Resolves once the process output matches (no sleeping: it listens for output). */
function waitForOutput(p: CatalogProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = (): boolean => {
      const m = pattern.exec(p.output());
      if (m) {
        p.child.stdout!.off('data', onData);
        p.child.off('exit', onExit);
        resolve(m[0]);
      }
      return m !== null;
    };
    const onData = (): void => {
      setImmediate(check);
    };
    const onExit = (): void => reject(new Error(`exited before printing ${pattern}; output:\n${p.output()}`));
    if (check()) return;
    p.child.stdout!.on('data', onData);
    p.child.once('exit', onExit);
  });
}

async function postGraphQL(
  url: string,
  query: string,
  variables?: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${url}/api/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
}

describe('catalog command line', () => {
  test('prints the listening line, the endpoints, auth off and a curl command that works', async (t) => {
    const p = await startCatalogProcess({ sample: true });
    t.after(() => p.stop());
    const out = p.output();
    assert.match(out.split('\n')[0]!, /^catalog-lens catalog listening on http:\/\/127\.0\.0\.1:\d+$/);
    assert.ok(out.includes(`POST ${p.url}/api/graphql`));
    assert.ok(out.includes(`POST ${p.url}/aspects?action=ingestProposal`));
    assert.ok(out.includes(`GET  ${p.url}/aspects/{url-encoded urn}?aspect=<name>&version=0`));
    assert.ok(
      out.includes(
        'auth: off — no token (set CATALOG_LENS_CATALOG_TOKEN or --token-file FILE): every request to the names below is accepted',
      ),
    );
    assert.ok(
      out.includes(
        `requests: Host 127.0.0.1:${p.port}, localhost:${p.port}, [::1]:${p.port} only; POST with Content-Type: application/json; no CORS`,
      ),
    );
    const curl = /try: curl -s (\S+) -H 'Content-Type: application\/json' -d '(.*)'$/m.exec(out);
    assert.ok(curl, out);
    assert.equal(curl[1], `${p.url}/api/graphql`);
    const res = await fetch(curl[1], {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: curl[2]!,
    });
    const body = (await res.json()) as { data: { dataset: { urn: string; properties: { description: string } } } };
    assert.equal(body.data.dataset.urn, SAMPLE.datasets.users);
    assert.equal(body.data.dataset.properties.description, 'One row per registered user of the product.');
    const line = await waitForOutput(p, /^\S+ POST \/api\/graphql 200 \d+(\.\d+)?ms$/m);
    assert.ok(line.includes('POST /api/graphql 200'));
  });

  test('--quiet logs no request lines; SIGTERM closes cleanly with exit code 0', async () => {
    const p = await startCatalogProcess({ args: ['--quiet'] });
    const res = await fetch(`${p.url}/health`);
    assert.equal(res.status, 200);
    await res.text();
    await p.stop();
    assert.equal(p.child.exitCode, 0);
    assert.match(p.output(), /SIGTERM, closing/);
    assert.doesNotMatch(p.output(), /GET \/health/);
  });

  test('a token from CATALOG_LENS_CATALOG_TOKEN turns auth on; the banner never shows the token', async (t) => {
    const token = 'env-token-7d2e';
    const p = await startCatalogProcess({ sample: true, env: { CATALOG_LENS_CATALOG_TOKEN: token } });
    t.after(() => p.stop());
    assert.match(
      p.output(),
      /auth: on \(token from CATALOG_LENS_CATALOG_TOKEN, not shown\) — every request except GET \/health and GET \/config needs "Authorization: Bearer <token>"/,
    );
    assert.match(p.output(), /-H "Authorization: Bearer \$CATALOG_LENS_CATALOG_TOKEN"/);
    const doc = 'query($urn: String!) { mlFeature(urn: $urn) { name } }';
    const denied = await postGraphQL(p.url, doc, { urn: SAMPLE.features.age });
    assert.equal(denied.status, 401);
    await denied.text();
    const ok = await postGraphQL(p.url, doc, { urn: SAMPLE.features.age }, { Authorization: `Bearer ${token}` });
    assert.equal(ok.status, 200);
    await ok.text();
    await waitForOutput(p, /POST \/api\/graphql 200/);
    assert.ok(!p.output().includes(token), 'the token appears nowhere in the output');
  });

  test('--token-file FILE turns auth on, the banner names the file and never the token; --token works but warns that ps shows it', async (t) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'catalog-token-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'token');
    const token = 'file-token-93b1';
    writeFileSync(file, `${token}\n`, { mode: 0o600 });
    const p = await startCatalogProcess({ sample: true, args: ['--token-file', file] });
    t.after(() => p.stop());
    assert.ok(p.output().includes(`auth: on (token from --token-file ${file}, not shown)`), p.output());
    assert.doesNotMatch(p.output(), /warning/);
    const doc = 'query($urn: String!) { mlFeature(urn: $urn) { name } }';
    assert.equal((await postGraphQL(p.url, doc, { urn: SAMPLE.features.age })).status, 401);
    const ok = await postGraphQL(p.url, doc, { urn: SAMPLE.features.age }, { Authorization: `Bearer ${token}` });
    assert.equal(ok.status, 200);
    await ok.text();
    assert.ok(!p.output().includes(token));

    chmodSync(file, 0o644);
    const flag = await startCatalogProcess({ args: ['--token', 'flag-token-5e0a'] });
    t.after(() => flag.stop());
    assert.match(
      flag.output(),
      /catalog-lens-catalog: warning: --token puts the token on the command line, where any user of this machine can read it \(ps\); set CATALOG_LENS_CATALOG_TOKEN or use --token-file FILE instead/,
    );
    assert.match(flag.output(), /^ {2}warning: --token puts the token on the command line/m);
    const readable = await startCatalogProcess({ args: ['--token-file', file] });
    t.after(() => readable.stop());
    assert.match(
      readable.output(),
      new RegExp(
        `warning: the token file ${file.replace(/[.]/g, '\\.')} can be read by other users \\(mode 644\\); chmod 600 it`,
      ),
    );
    // The tests' own helper passes the token in the environment, where ps does not show it.
    const helper = await startCatalogProcess({ token: 'env-token-1f7c' });
    t.after(() => helper.stop());
    assert.ok(!helper.child.spawnargs.some((a) => a.includes('env-token-1f7c')), helper.child.spawnargs.join(' '));
    assert.match(helper.output(), /auth: on \(token from CATALOG_LENS_CATALOG_TOKEN, not shown\)/);
  });

  test('bad flags print a clear message and exit with code 2; --help exits 0', () => {
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8', timeout: 20_000 });
    const cases: Array<[string[], RegExp]> = [
      [['--bogus'], /unknown option '--bogus'/],
      [['--port', 'abc'], /--port must be a whole number, found 'abc'/],
      [['--port', '70000'], /--port must be between 0 and 65535/],
      [['--port'], /--port needs a value/],
      [['--durability', 'sometimes'], /--durability must be full or normal/],
      [['--namespaces', 'li,1x'], /--namespaces: '1x' is not a namespace word/],
      [['--max-body', '0'], /--max-body must be between 1/],
      [['--sample=yes'], /--sample takes no value/],
      [['--compat', 'gms'], /--compat must be spec or datahub, found 'gms'/],
      [['--token', 'a', '--token-file', 'b'], /give the token one way: --token-file FILE or --token T, not both/],
      [
        ['--token-file', '/nonexistent/catalog-token'],
        /--token-file: cannot read \/nonexistent\/catalog-token: ENOENT/,
      ],
      [['--allowed-hosts', 'evil.example/x'], /--allowed-hosts: 'evil\.example\/x' is not a host name/],
      [['--max-connections', '0'], /--max-connections must be between 1/],
      [['--headers-timeout-ms', '90000'], /--headers-timeout-ms must be between 1 and 60000/],
      [
        ['--graphql-complexity-limit', '100'],
        /--graphql-complexity-limit applies to the DataHub mode only: add --compat datahub/,
      ],
      [
        ['--compat', 'datahub', '--graphql-depth-limit', 'x'],
        /--graphql-depth-limit must be a whole number, found 'x'/,
      ],
    ];
    for (const [args, message] of cases) {
      const r = run(...args);
      assert.equal(r.status, 2, args.join(' '));
      assert.match(r.stderr, message);
      assert.match(r.stderr, /Run with --help/);
    }
    const help = run('--help');
    assert.equal(help.status, 0);
    assert.match(
      help.stdout,
      /--port N .*--db FILE .*--token-file FILE .*CATALOG_LENS_CATALOG_TOKEN.*--token T .*ps.*--sample/s,
    );
  });

  test('--compat datahub: the banner names the mode and its limits, and the limit options apply', async (t) => {
    const p = await startCatalogProcess({
      sample: true,
      args: ['--compat', 'datahub', '--graphql-complexity-limit', '5', '--graphql-depth-limit', '7'],
    });
    t.after(() => p.stop());
    assert.match(
      p.output(),
      /^ {2}mode: DataHub \(--compat datahub\) — answers as a real DataHub where it differs from the spec .*GraphQL limits: depth 7, complexity 5$/m,
    );
    assert.match(p.output(), /namespaces: li, svc \(each a different entity, as at DataHub\)/);
    const res = await postGraphQL(
      p.url,
      'query($u: String!) { a: dataset(urn: $u) { urn name } b: dataset(urn: $u) { urn name } }',
      { u: SAMPLE.datasets.users },
    );
    assert.deepEqual(await res.json(), {
      errors: [
        { message: 'maximum query complexity exceeded 6 > 5', extensions: { classification: 'ExecutionAborted' } },
      ],
      extensions: {},
    });
    const spec = await startCatalogProcess({ args: ['--quiet'] });
    t.after(() => spec.stop());
    assert.match(spec.output(), /^ {2}mode: spec — answers as shared\/spec\/catalog-interface\.md says/m);
  });

  test('without --db the database is .catalog-lens/catalog.db under the current directory', async (t) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'catalog-cwd-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const child = spawn(process.execPath, [MAIN, '--port', '0', '--quiet'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (s: string) => {
        out += s;
        if (out.includes('\n')) resolve();
      });
      child.once('exit', () => reject(new Error(`exited: ${out}`)));
    });
    assert.match(out, /listening on http:\/\/127\.0\.0\.1:\d+/);
    assert.ok(existsSync(path.join(dir, '.catalog-lens', 'catalog.db')));
    process.kill(child.pid!, 'SIGTERM');
    assert.equal(await exited, 0);
  });

  test('GET /_catalog-lens/stats counts GraphQL requests (and by operation name) and aspect reads and writes; POST …/reset zeroes them', async (t) => {
    const p = await startCatalogProcess({ sample: true, args: ['--quiet'] });
    t.after(() => p.stop());
    const stats = async () =>
      (await fetch(`${p.url}/_catalog-lens/stats`)).json() as Promise<{
        graphql: number;
        aspectWrites: number;
        aspectReads: number;
        byPath: Record<string, number>;
        graphqlOperations: Record<string, number>;
      }>;
    const reset = await fetch(`${p.url}/_catalog-lens/stats/reset`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
    });
    assert.deepEqual(await reset.json(), {
      graphql: 0,
      aspectWrites: 0,
      aspectReads: 0,
      byPath: {},
      graphqlOperations: {},
    });
    const { query, variables } = batchDocument([
      { kind: 'mlFeature', urn: SAMPLE.features.age },
      { kind: 'dataset', urn: SAMPLE.datasets.users },
    ]);
    for (let i = 0; i < 3; i++) await (await postGraphQL(p.url, query, variables)).text();
    await (await postGraphQL(p.url, '{ __typename }', {})).text();
    await (
      await fetch(`${p.url}/aspects/${encodeURIComponent(SAMPLE.features.age)}?aspect=mlFeatureProperties&version=0`)
    ).text();
    const s = await stats();
    assert.equal(s.graphql, 4);
    assert.deepEqual(s.graphqlOperations, { resolveEntities: 3, '(anonymous)': 1 });
    assert.equal(s.aspectReads, 1);
    assert.equal(s.aspectWrites, 0);
    assert.equal(s.byPath['/api/graphql'], 4);
    await fetch(`${p.url}/_catalog-lens/stats/reset`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
    }).then((r) => r.text());
    assert.equal((await stats()).graphql, 0);
    assert.deepEqual((await stats()).graphqlOperations, {});
  });
});
