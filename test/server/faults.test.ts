/**
 * The catalog stopped, slow, refusing the token, failing or answering garbage: the right
 * message, no crash, one status instead of a flood of diagnostics, and recovery without a
 * restart. A fault proxy sits in front of the real local catalog.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { hoverText, positionOf, type LspSession } from '../support/lspClient';
import { startFaultProxy, type FaultMode, type FaultProxy } from '../support/faultProxy';
import { S, sampleCatalog, serverFor, type Catalog } from '../support/fixture';

describe('catalog faults', () => {
  let catalog: Catalog;
  let proxy: FaultProxy;
  let lsp: LspSession;
  let n = 0;
  before(async () => {
    catalog = await sampleCatalog();
    proxy = await startFaultProxy(catalog.url, 60000);
    lsp = await serverFor(proxy.url, {
      settings: { requestTimeoutMs: 1500, cache: { ttlSeconds: 0, maxEntries: 100 } },
    });
  });
  after(async () => {
    await lsp.stop();
    await proxy.close();
    await catalog.close();
  });

  /** Hover a fresh URN (ttl 0: nothing cached) while the proxy misbehaves. */
  async function hoverWhile(mode: FaultMode): Promise<string> {
    await proxy.setMode(mode);
    const uri = `file:///w/fault${n++}.py`;
    const text = `x = "${S.users}"\n`;
    await lsp.open(uri, 'python', text);
    const h = hoverText(await lsp.hover(uri, positionOf(text, 'db.users')));
    await lsp.close(uri);
    return h;
  }

  const cases: Array<[FaultMode, RegExp, string]> = [
    ['refuse', /connection refused at http:\/\/127\.0\.0\.1:\d+\/api\/graphql/, 'unreachable'],
    ['slow', /no answer from http:\/\/127\.0\.0\.1:\d+\/api\/graphql within 1500 ms/, 'unreachable'],
    ['drip', /no answer from .* within 1500 ms/, 'unreachable'],
    ['status401', /refused the access token \(401\)/, 'unauthorized'],
    ['status403', /answered 403/, 'unauthorized'],
    ['status404', /answered 404.*is this the catalog's address\?/, 'error'],
    ['status500', /answered 500: Internal server error occurred/, 'error'],
    ['status502', /answered 502/, 'error'],
    ['html', /answered an HTML page \(status 200\) instead of JSON/, 'error'],
    ['garbage', /answered text that is not JSON/, 'error'],
    ['truncated', /answered truncated or invalid JSON/, 'error'],
  ];
  for (const [mode, message, state] of cases) {
    test(`${mode}: the hover says why in one line, still shows the parts, and the status is ${state}`, async () => {
      const h = await hoverWhile(mode);
      assert.match(h, message);
      assert.match(h, /platform: `hive` · name: `db\.users` · env: `PROD`/);
      await lsp.waitForStatus((s) => s.state === state);
      assert.equal(lsp.child.exitCode, null, 'the server is still running');
    });
  }

  test('GraphQL errors beside partial data: the failing URN gets the error, the others resolve', async () => {
    await proxy.setMode('partialErrors');
    const uri = 'file:///w/partial.py';
    const text = `a = "${S.users}"\nb = "${S.orders}"\n`;
    await lsp.open(uri, 'python', text);
    // One batch: the proxy fails its first alias (db.users) and leaves db.orders as the catalog answered.
    const ds = await lsp.diagnostics(uri, (d) => d.some((x) => x.code === 'missing-description'));
    assert.deepEqual(
      ds.map((d) => (d.data as { urn: string }).urn),
      [S.orders],
    );
    const first = hoverText(await lsp.hover(uri, positionOf(text, 'db.users')));
    assert.match(first, /An unknown error occurred/);
    await lsp.close(uri);
  });

  test('while the catalog is down there is no flood of per-URN diagnostics, and they come back when it does', async () => {
    await proxy.setMode('refuse');
    const uri = 'file:///w/down.py';
    const text = `a = "${S.ghost}"\nb = "${S.orders}"\nbad = "urn:li:dataset:(x)"\n`;
    await lsp.open(uri, 'python', text);
    const down = await lsp.diagnostics(uri);
    assert.deepEqual(
      down.map((d) => d.code),
      ['malformed-urn'],
      'only what needs no catalog',
    );
    await lsp.waitForStatus((s) => s.state === 'unreachable');
    await proxy.setMode('forward');
    await lsp.waitForStatus((s) => s.state === 'connected');
    const back = await lsp.diagnostics(uri, (ds) => ds.some((d) => d.code === 'unknown-urn'));
    assert.deepEqual(back.map((d) => String(d.code)).sort(), ['malformed-urn', 'missing-description', 'unknown-urn']);
  });
});

describe('tokens', () => {
  test('a catalog started with a token: without it the status is unauthorized; with CATALOG_LENS_TOKEN it connects, and the token reaches only the catalog', async () => {
    const token = 'tok-3f9a1c7e5b';
    const catalog = await sampleCatalog({ token });
    const proxy = await startFaultProxy(catalog.url);
    const without = await serverFor(proxy.url);
    const withToken = await serverFor(proxy.url, { env: { CATALOG_LENS_TOKEN: token } });
    try {
      const text = `x = "${S.users}"\n`;
      await without.open('file:///w/t.py', 'python', text);
      await without.waitForStatus((s) => s.state === 'unauthorized');
      await withToken.open('file:///w/t.py', 'python', text);
      await withToken.waitForStatus((s) => s.state === 'connected');
      assert.match(
        hoverText(await withToken.hover('file:///w/t.py', positionOf(text, 'db.users'))),
        /One row per registered user/,
      );
      assert.ok(proxy.authorizations.length > 0);
      assert.ok(proxy.authorizations.every((a) => a === `Bearer ${token}`));
      for (const s of [without, withToken]) {
        assert.ok(!s.logs.join('\n').includes(token), 'the token is in no log line');
        assert.ok(!JSON.stringify(s.statuses).includes(token), 'the token is in no status');
      }
    } finally {
      await without.stop();
      await withToken.stop();
      await proxy.close();
      await catalog.close();
    }
  });
});
