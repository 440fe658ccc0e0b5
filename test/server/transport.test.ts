/**
 * The catalog client's HTTP transport (server/src/catalogClient/transport.ts) against a local
 * server: one connection kept for requests in a row, the body sent with its length, compressed
 * answers read, the size limit, credentials in the URL sent as Basic authentication, redirects
 * answered and not followed.
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import * as zlib from 'node:zlib';
import { nodeFetch, type FetchInit } from '../../server/src/catalogClient/transport';

describe('the HTTP transport', () => {
  let server: http.Server;
  let base: string;
  const sockets = new Set<unknown>();
  const seen: Array<{ method: string | undefined; headers: http.IncomingHttpHeaders; body: string }> = [];

  before(async () => {
    server = http.createServer((req, res) => {
      sockets.add(req.socket);
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ method: req.method, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        const json = JSON.stringify({ data: { ok: true, path: req.url } });
        if (req.url === '/gzip') {
          res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
          res.end(zlib.gzipSync(json));
        } else if (req.url === '/br') {
          res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'br' });
          res.end(zlib.brotliCompressSync(json));
        } else if (req.url === '/big') {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end('x'.repeat(10_000));
        } else if (req.url === '/moved') {
          res.writeHead(302, { Location: 'http://elsewhere.invalid/' });
          res.end();
        } else {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end(json);
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const init = (over: Partial<FetchInit> = {}): FetchInit => ({
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: '{"query":"{ x }"}',
    redirect: 'manual',
    size: 1024,
    signal: new AbortController().signal,
    ...over,
  });

  test('requests in a row share one kept-alive connection; the body goes with its length', async () => {
    sockets.clear();
    seen.length = 0;
    for (let i = 0; i < 3; i++) {
      const r = await nodeFetch(`${base}/graphql`, init());
      assert.equal(r.status, 200);
      assert.deepEqual(JSON.parse(await r.text()), { data: { ok: true, path: '/graphql' } });
    }
    assert.equal(sockets.size, 1);
    assert.equal(seen[0]!.body, '{"query":"{ x }"}');
    assert.equal(seen[0]!.headers['content-length'], String('{"query":"{ x }"}'.length));
    assert.equal(seen[0]!.headers['connection'], 'keep-alive');
  });

  test('gzip and brotli answers are read decompressed', async () => {
    for (const path of ['/gzip', '/br']) {
      const r = await nodeFetch(`${base}${path}`, init());
      assert.deepEqual(JSON.parse(await r.text()), { data: { ok: true, path } });
    }
  });

  test('a body over the size limit fails the request with "over limit"', async () => {
    const r = await nodeFetch(`${base}/big`, init());
    await assert.rejects(r.text(), /over limit/);
  });

  test('a user and password in the URL go as Basic authentication, unless an Authorization header is set', async () => {
    seen.length = 0;
    await (await nodeFetch(`${base.replace('//', '//alice:p%40ss@')}/graphql`, init())).text();
    assert.equal(seen[0]!.headers['authorization'], `Basic ${Buffer.from('alice:p@ss').toString('base64')}`);
    const withToken = init({ headers: { Authorization: 'Bearer t' } });
    await (await nodeFetch(`${base.replace('//', '//alice:pw@')}/graphql`, withToken)).text();
    assert.equal(seen[1]!.headers['authorization'], 'Bearer t');
  });

  test('a redirect is answered as it is, not followed', async () => {
    const r = await nodeFetch(`${base}/moved`, init({ method: 'GET' }));
    assert.equal(r.status, 302);
    assert.equal(r.headers.get('location'), 'http://elsewhere.invalid/');
  });

  test('an aborted request rejects', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(nodeFetch(`${base}/graphql`, init({ signal: controller.signal })));
  });
});
