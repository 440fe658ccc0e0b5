/**
 * The tests' one forwarding proxy (test/support/proxy.ts), against a small target that echoes what
 * it got: forwarding and recording, faults by predicate and count, hang and reset, delay and hold,
 * the path and answer rewrites, its own answers, refusing and accepting connections, and stop.
 */
import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { listenOnLoopback } from '../support/loopbackServer';
import { startProxy, type TestProxy } from '../support/proxy';

interface Got {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request through plain node:http (no keep-alive), its whole answer, or the error that ended it. */
function send(url: string, path: string, opts: { method?: string; body?: string; timeoutMs?: number } = {}) {
  return new Promise<Got>((resolve, reject) => {
    const req = request(
      new URL(path, url),
      { method: opts.method ?? 'GET', agent: false, headers: { 'x-test': 'yes' } },
      (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(parts).toString() }),
        );
        res.on('error', reject);
      },
    );
    if (opts.timeoutMs !== undefined) req.setTimeout(opts.timeoutMs, () => req.destroy(new Error('client timeout')));
    req.on('error', reject);
    req.end(opts.body);
  });
}

describe('the test proxy', () => {
  let target: { url: string; close(): Promise<void> };
  let proxy: TestProxy;
  before(async () => {
    target = await listenOnLoopback(
      createServer((req, res) => {
        const parts: Buffer[] = [];
        req.on('data', (c: Buffer) => parts.push(c));
        req.on('end', () =>
          res
            .writeHead(200, { 'Content-Type': 'application/json', 'X-Target': 'echo' })
            .end(JSON.stringify({ method: req.method, path: req.url, body: Buffer.concat(parts).toString() })),
        );
      }),
    );
  });
  after(() => target.close());
  const fresh = async (opts: Parameters<typeof startProxy>[0] = {}): Promise<TestProxy> => {
    await proxy?.stop();
    proxy = await startProxy({ target: target.url, ...opts });
    return proxy;
  };
  after(() => proxy?.stop());

  test('forwards method, path, headers and body, and keeps each exchange with its answer', async () => {
    const p = await fresh();
    const got = await send(p.url, '/a?b=1', { method: 'POST', body: 'hello' });
    assert.equal(got.status, 200);
    assert.equal(got.headers['x-target'], 'echo');
    assert.deepEqual(JSON.parse(got.body), { method: 'POST', path: '/a?b=1', body: 'hello' });
    assert.equal(p.exchanges.length, 1);
    const [e] = p.exchanges;
    assert.equal(e!.method, 'POST');
    assert.equal(e!.path, '/a?b=1');
    assert.equal(e!.body, 'hello');
    assert.equal(e!.headers['x-test'], 'yes');
    assert.equal(e!.answeredBy, 'target');
    assert.equal(e!.forwardedAs, '/a?b=1');
    assert.equal(e!.answer?.status, 200);
    assert.equal(e!.answer?.body, got.body);
  });

  test('a fault answers the requests its predicate picks, as many times as asked; the rule is named on the exchange', async () => {
    const p = await fresh();
    const rule = p.fault(
      { status: 503, contentType: 'text/plain', body: 'down' },
      { when: (r) => r.path === '/x', times: 2 },
    );
    assert.equal((await send(p.url, '/y')).status, 200);
    assert.deepEqual(await send(p.url, '/x').then((g) => [g.status, g.body]), [503, 'down']);
    assert.equal((await send(p.url, '/x')).status, 503);
    assert.equal((await send(p.url, '/x')).status, 200, 'two times only');
    assert.equal(p.exchanges[1]!.fault, rule);
    assert.equal(p.exchanges[1]!.answeredBy, 'fault');
    const always = p.fault({ status: 500 });
    assert.equal((await send(p.url, '/z')).status, 500);
    always.remove();
    assert.equal((await send(p.url, '/z')).status, 200);
  });

  test('a hang keeps the request open; a reset closes the connection; neither has an answer', async () => {
    const p = await fresh();
    const hang = p.fault({ hang: true });
    await assert.rejects(send(p.url, '/h', { timeoutMs: 200 }), /client timeout/);
    hang.remove();
    p.fault({ reset: true }, { times: 1 });
    await assert.rejects(send(p.url, '/r'), /socket hang up|ECONNRESET/);
    assert.deepEqual(
      p.exchanges.map((e) => e.answer),
      [undefined, undefined],
    );
  });

  test('a drip sends the head, then a chunk at a time, never ending', async () => {
    const p = await fresh();
    p.fault({ drip: '.', everyMs: 20 });
    const chunks = await new Promise<number>((resolve, reject) => {
      const req = request(new URL('/d', p.url), { agent: false }, (res) => {
        let n = 0;
        res.on('data', () => {
          if (++n === 3) {
            req.destroy();
            resolve(n);
          }
        });
      });
      req.on('error', (e) => (req.destroyed ? undefined : reject(e)));
      req.end();
    });
    assert.equal(chunks, 3);
  });

  test('a delay holds the requests it picks for its time; a hold until released; the others pass at once', async () => {
    const p = await fresh();
    p.delay(150, (r) => r.path === '/slow');
    const t0 = Date.now();
    await send(p.url, '/slow');
    assert.ok(Date.now() - t0 >= 140, `${Date.now() - t0} ms`);
    const hold = p.hold((r) => r.path === '/held');
    const held = send(p.url, '/held');
    assert.equal((await send(p.url, '/free')).status, 200);
    await p.waitFor((all) => all.some((e) => e.path === '/held'), 'the held request to arrive');
    assert.equal(hold.held, 1);
    assert.equal(p.exchanges.find((e) => e.path === '/held')!.answer, undefined, 'not answered while held');
    hold.release();
    assert.equal((await held).status, 200);
    assert.equal(hold.held, 0);
  });

  test('rewrites: the path the target is asked for, and the answer it gave', async () => {
    const p = await fresh({ rewritePath: (path) => path.replace(/^\/api\/gms/, '') });
    p.rewriteAnswer((a) => ({ ...a, body: a.body.toUpperCase() }));
    const got = await send(p.url, '/api/gms/entities?x=1');
    assert.equal(JSON.parse(got.body).PATH, '/ENTITIES?X=1');
    assert.equal(p.exchanges[0]!.path, '/api/gms/entities?x=1');
    assert.equal(p.exchanges[0]!.forwardedAs, '/entities?x=1');
  });

  test('its own answers come before forwarding; without a target nothing else is answered but a 502', async () => {
    const p = await fresh({ ownAnswers: (r) => (r.path === '/config' ? { status: 200, body: 'own' } : undefined) });
    assert.equal((await send(p.url, '/config')).body, 'own');
    assert.equal(p.exchanges[0]!.answeredBy, 'proxy');
    assert.equal(p.exchanges[0]!.forwardedAs, undefined);
    await p.stop();
    proxy = await startProxy();
    assert.equal((await send(proxy.url, '/any')).status, 502);
  });

  test('refuse stops listening (the connection is refused, nothing recorded); accept listens again on the same port', async () => {
    const p = await fresh();
    await p.refuse();
    await assert.rejects(send(p.url, '/r'), /ECONNREFUSED/);
    await p.accept();
    assert.equal((await send(p.url, '/r')).status, 200);
    assert.equal(p.exchanges.length, 1);
  });

  test('stop closes the connections it holds: a hanging request ends', async () => {
    const p = await fresh();
    p.fault({ hang: true });
    const hanging = send(p.url, '/h');
    await p.waitFor((all) => all.length === 1, 'the request to arrive');
    await p.stop();
    await assert.rejects(hanging, /socket hang up|ECONNRESET/);
  });
});
