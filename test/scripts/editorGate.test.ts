/**
 * The gate in front of code-server (scripts/editorGate.ts), as a real server in front of a small
 * real upstream (HTTP and WebSocket) on a unix socket, as code-server listens behind it: a
 * foreign Host is refused even when Origin agrees with it (DNS rebinding), so is a request without
 * the secret or with a wrong one; the right secret is traded for a cookie, and with the cookie
 * HTTP and WebSocket traffic reach the upstream with Host unchanged.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, beforeEach, describe, test } from 'node:test';
import {
  codeServerListenArgs,
  cookieValue,
  createSocketDir,
  forwardedHeaders,
  SECRET_PARAM,
  secretMatches,
  startEditorGate,
  type EditorGate,
} from '../../scripts/editorGate';
import { send } from '../support/rawHttp';
import { acceptEchoSocket, upgrade } from '../support/webSocket';

const SECRET = 'gate-test-secret-7Qm2Zx9pLr4vW8kN';
const EVIL = 'evil.example';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** The upstream: records what reaches it, answers HTTP with two cookies, echoes WebSocket frames. */
async function startUpstream(socket: string): Promise<{ server: Server; requests: Seen[]; upgrades: Seen[] }> {
  const requests: Seen[] = [];
  const upgrades: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res
        .writeHead(
          200,
          [
            ['Content-Type', 'text/plain'],
            ['Set-Cookie', 'a=1'],
            ['Set-Cookie', 'b=2'],
          ].flat(),
        )
        .end(`upstream ${req.method} ${req.url}`);
    });
  });
  server.on('upgrade', (req, sock, head) => {
    upgrades.push({ method: req.method!, url: req.url!, headers: req.headers, body: '' });
    acceptEchoSocket(req, sock as Socket, head);
  });
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  return { server, requests, upgrades };
}

describe('the editor gate in front of code-server', () => {
  let socketDir: ReturnType<typeof createSocketDir>;
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let gate: EditorGate;
  let cookie: string;

  // A gate and an upstream of its own for each test: what reached the upstream is that test's doing.
  beforeEach(async () => {
    socketDir = createSocketDir();
    upstream = await startUpstream(socketDir.socket);
    gate = await startEditorGate({ upstreamSocket: socketDir.socket, port: 0, secret: SECRET });
    cookie = `${gate.cookieName}=${SECRET}`;
  });
  afterEach(async () => {
    await gate?.close();
    await new Promise((resolve) => upstream?.server.close(resolve));
    socketDir?.remove();
  });

  test('code-server behind it has no password of its own and listens only on the socket, mode 600', () => {
    assert.deepEqual(codeServerListenArgs('/s/code-server.sock'), [
      '--auth',
      'none',
      '--socket',
      '/s/code-server.sock',
      '--socket-mode',
      '600',
    ]);
  });

  test('a foreign Host is refused, also when Origin names the same host (a DNS rebind), for HTTP and WebSocket', async () => {
    const rebound = `${EVIL}:${gate.port}`;
    for (const headers of [
      { Host: rebound, Cookie: cookie },
      { Host: rebound, Origin: `http://${rebound}`, Cookie: cookie },
      { Host: `127.0.0.1:${gate.port + 1}`, Cookie: cookie },
      { Host: `127.0.0.1`, Cookie: cookie },
    ] as Record<string, string>[]) {
      const page = await send(gate.port, { path: '/?folder=/tmp', headers });
      assert.equal(page.status, 403, JSON.stringify(headers));
      assert.match(page.body, /answers only at http:\/\/127\.0\.0\.1:\d+\/ and http:\/\/localhost:\d+\//);
      const withSecret = await send(gate.port, { path: `/?${SECRET_PARAM}=${SECRET}`, headers });
      assert.equal(withSecret.status, 403, 'the secret does not make a foreign Host acceptable');
      const ws = await upgrade(
        gate.port,
        '/?reconnectionToken=abc&reconnection=false&skipWebSocketFrames=false',
        headers,
      );
      assert.equal(ws.status, 403, `upgrade ${JSON.stringify(headers)}`);
      assert.match(ws.body, /refused/);
    }
    assert.equal(upstream.requests.length + upstream.upgrades.length, 0, 'nothing reached the upstream');
  });

  test('without the secret, or with a wrong one, nothing reaches the upstream: 403 and which URL to open', async () => {
    for (const headers of [
      {},
      { Cookie: `${gate.cookieName}=wrong-secret-of-some-length` },
      { Cookie: `other=${SECRET}` },
    ] as Record<string, string>[]) {
      const page = await send(gate.port, { path: '/', headers });
      assert.equal(page.status, 403);
      assert.match(page.body, /needs the secret of the URL that `npm start` printed .*Open that URL/);
      assert.equal(page.headers['content-type'], 'text/plain; charset=utf-8');
      assert.ok(!page.body.includes(SECRET));
      const ws = await upgrade(gate.port, '/', headers);
      assert.equal(ws.status, 403);
    }
    const wrong = await send(gate.port, { path: `/?${SECRET_PARAM}=${SECRET.slice(0, -1)}X` });
    assert.equal(wrong.status, 403);
    assert.equal(wrong.headers['set-cookie'], undefined);
    assert.equal(upstream.requests.length + upstream.upgrades.length, 0, 'nothing reached the upstream');
  });

  test('the right secret is traded for an HttpOnly SameSite=Strict cookie and a redirect to the URL without it', async () => {
    const url = new URL(gate.urlWithSecret('/?folder=/work/examples'));
    assert.equal(url.searchParams.get(SECRET_PARAM), SECRET);
    assert.equal(url.searchParams.get('folder'), '/work/examples');
    for (const host of [`127.0.0.1:${gate.port}`, `LOCALHOST:${gate.port}`]) {
      const answer = await send(gate.port, { path: url.pathname + url.search, headers: { Host: host } });
      assert.equal(answer.status, 302);
      assert.equal(answer.headers.location, `http://${host}/?folder=%2Fwork%2Fexamples`);
      assert.deepEqual(answer.headers['set-cookie'], [
        `${gate.cookieName}=${SECRET}; Path=/; HttpOnly; SameSite=Strict`,
      ]);
    }
    // A target that names another host still redirects to this one.
    const sneaky = await send(gate.port, { path: `//${EVIL}/x?${SECRET_PARAM}=${SECRET}` });
    assert.equal(new URL(sneaky.headers.location!).host, `127.0.0.1:${gate.port}`);
    assert.throws(() => gate.urlWithSecret(`http://${EVIL}/`), /not a path on/);
    assert.equal(upstream.requests.length, 0);
  });

  test("with the cookie, requests reach the upstream with Host unchanged, without the gate's cookie or forwarding headers", async () => {
    const get = await send(gate.port, {
      path: '/static/x.js?v=1',
      headers: {
        Host: `localhost:${gate.port}`,
        Cookie: `theme=dark; ${cookie}; lang=en`,
        'X-Forwarded-Host': EVIL,
        Forwarded: `host=${EVIL}`,
      },
    });
    assert.equal(get.status, 200);
    assert.equal(get.body, 'upstream GET /static/x.js?v=1');
    assert.deepEqual(get.headers['set-cookie'], ['a=1', 'b=2'], 'every header of the answer comes back');
    const seen = upstream.requests.at(-1)!;
    assert.equal(seen.headers.host, `localhost:${gate.port}`);
    assert.equal(seen.headers.cookie, 'theme=dark; lang=en');
    assert.equal(seen.headers['x-forwarded-host'], undefined);
    assert.equal(seen.headers.forwarded, undefined);

    const post = await send(gate.port, {
      method: 'POST',
      path: '/upload',
      headers: { Cookie: cookie, Origin: gate.origin, 'Content-Type': 'text/plain' },
      body: 'hello',
    });
    assert.equal(post.status, 200);
    assert.equal(upstream.requests.at(-1)!.body, 'hello');

    const before = upstream.requests.length;
    const crossOrigin = await send(gate.port, {
      method: 'POST',
      path: '/upload',
      headers: { Cookie: cookie, Origin: `http://127.0.0.1:${gate.port + 1}` },
      body: 'x',
    });
    assert.equal(crossOrigin.status, 403, 'a same-site page on another port sends the cookie: its Origin is refused');
    assert.equal(upstream.requests.length, before);
  });

  test('with the cookie, a WebSocket upgrade is proxied and frames flow both ways; another Origin is refused', async () => {
    const ws = await upgrade(gate.port, '/?reconnectionToken=abc', { Cookie: cookie, Origin: gate.origin });
    try {
      assert.equal(ws.status, 101);
      assert.equal(await ws.exchange('hello'), 'echo:hello');
      assert.equal(await ws.exchange('x'.repeat(300)), `echo:${'x'.repeat(300)}`);
    } finally {
      ws.socket.destroy();
    }
    const seen = upstream.upgrades.at(-1)!;
    assert.equal(seen.url, '/?reconnectionToken=abc');
    assert.equal(seen.headers.host, `127.0.0.1:${gate.port}`);
    assert.equal(seen.headers.cookie, undefined);

    const count = upstream.upgrades.length;
    const foreign = await upgrade(gate.port, '/', { Cookie: cookie, Origin: `http://${EVIL}` });
    assert.equal(foreign.status, 403);
    assert.match(foreign.body, /another origin/);
    assert.equal(upstream.upgrades.length, count);
  });

  test('close() ends open WebSocket connections', async () => {
    const other = await startEditorGate({ upstreamSocket: socketDir.socket, port: 0 });
    const url = new URL(other.urlWithSecret('/'));
    const secret = url.searchParams.get(SECRET_PARAM)!;
    assert.ok(secret.length >= 40, 'a random secret of 32 bytes');
    assert.notEqual(other.cookieName, gate.cookieName, 'one cookie per port');
    const ws = await upgrade(other.port, '/', {
      Host: `127.0.0.1:${other.port}`,
      Cookie: `${other.cookieName}=${secret}`,
    });
    assert.equal(ws.status, 101);
    const closed = new Promise((resolve) => ws.socket.once('close', resolve));
    await other.close();
    await closed;
  });
});

describe("the gate's helpers", () => {
  test('secretMatches compares whole secrets only', () => {
    assert.equal(secretMatches(SECRET, SECRET), true);
    for (const other of [undefined, '', SECRET.slice(1), `${SECRET}x`, SECRET.toUpperCase()])
      assert.equal(secretMatches(other, SECRET), false);
  });

  test('cookieValue finds one cookie by its exact name', () => {
    assert.equal(cookieValue('a=1; gate=s3; b=2', 'gate'), 's3');
    assert.equal(cookieValue('xgate=s3', 'gate'), undefined);
    assert.equal(cookieValue(undefined, 'gate'), undefined);
  });

  test("forwardedHeaders drops the gate's cookie (and an emptied Cookie header) and every forwarding header", () => {
    assert.deepEqual(
      forwardedHeaders(
        { host: 'h:1', cookie: 'g=s', 'x-forwarded-for': '1.2.3.4', forwarded: 'for=x', accept: '*/*' },
        'g',
      ),
      { host: 'h:1', accept: '*/*' },
    );
  });

  test('bad options are refused with a clear error', async () => {
    await assert.rejects(startEditorGate({ upstreamSocket: '/nowhere', port: 70_000 }), /not a port: 70000/);
    await assert.rejects(
      startEditorGate({ upstreamSocket: '/nowhere', port: 0, secret: 'short' }),
      /at least 16 characters/,
    );
    await assert.rejects(
      startEditorGate({ upstreamSocket: '/nowhere', port: 0, secret: 'a;b=c-long-enough-secret' }),
      /of A-Z, a-z, 0-9, - and _/,
    );
  });
});

test('when code-server does not answer, the gate says so with 502', async () => {
  const dir = createSocketDir();
  const gate = await startEditorGate({ upstreamSocket: dir.socket, port: 0, secret: SECRET });
  try {
    const answer = await send(gate.port, { path: '/', headers: { Cookie: `${gate.cookieName}=${SECRET}` } });
    assert.equal(answer.status, 502);
    assert.match(answer.body, /code-server did not answer \(connect ENOENT/);
  } finally {
    await gate.close();
    dir.remove();
  }
});
