/**
 * Connection exhaustion at the process level: idle sockets that hold every descriptor, 1,000
 * sockets dripping a body that hold the cap and lock everyone out, and SIGTERM at the cap (the
 * process must still exit). A catalog started with a small cap; idle and dripping sockets fill it,
 * and a normal request is still answered; slow bodies are answered 408 and closed; SIGTERM ends the
 * process with the sockets still open. The policy itself (who gives way, per-client shares,
 * refusals) is unit-tested on ConnectionTable. Every wait is for an event (a socket's close, an
 * answer, a log line, the exit), never for a time; the dripping is the attacker's pace, and nothing
 * asserts a duration.
 */
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { describe, test } from 'node:test';
import {
  ConnectionTable,
  defaultMaxConnections,
  defaultMaxPerClient,
  MIN_BODY_BYTES,
  type Conn,
  type Phase,
} from '../../catalog/src/connections';
import { SAMPLE } from '../../catalog/src/sample';
import { startCatalogProcess, type CatalogProcess } from '../support/catalogProcess';

function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
}

/** Resolves with what the server sent before it closed the socket. */
function closed(s: Socket): Promise<string> {
  return new Promise((resolve) => {
    let got = '';
    s.setEncoding('utf8');
    s.on('data', (d: string) => {
      got += d;
    });
    s.on('error', () => undefined);
    if (s.destroyed) resolve(got);
    else s.once('close', () => resolve(got));
  });
}

/**
 * A dripping socket: complete headers of a POST with a 100,000-byte body, then one byte at a time.
 * `Expect: 100-continue` makes the catalog say when it has read the headers, so the socket is known
 * to be receiving its body when this resolves. `answer` is everything the catalog sent until it closed.
 */
async function dripping(port: number): Promise<{ socket: Socket; answer: Promise<string> }> {
  const socket = await open(port);
  const answer = closed(socket);
  await new Promise<void>((resolve, reject) => {
    let got = '';
    const onData = (d: string): void => {
      got += d;
      if (got.includes('HTTP/1.1 100 Continue\r\n\r\n')) {
        socket.off('data', onData);
        resolve();
      }
    };
    socket.on('data', onData);
    socket.once('close', () => reject(new Error(`closed before 100 Continue; got ${JSON.stringify(got)}`)));
    socket.write(
      `POST /api/graphql HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
        'Content-Length: 100000\r\nExpect: 100-continue\r\n\r\n{',
    );
  });
  return { socket, answer };
}

/** Writes one byte to each open socket every `ms`, as the attacker does; stop() ends it. */
function drip(sockets: Socket[], ms: number): { stop(): void } {
  const timer = setInterval(() => {
    for (const s of sockets) if (!s.destroyed) s.write(' ');
  }, ms);
  return { stop: () => clearInterval(timer) };
}

function outputMatches(p: CatalogProcess, pattern: RegExp): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = (): boolean => {
      if (!pattern.test(p.output())) return false;
      p.child.stdout!.off('data', onData);
      p.child.off('exit', onExit);
      resolve();
      return true;
    };
    const onData = (): void => {
      setImmediate(check);
    };
    const onExit = (): void => reject(new Error(`exited before printing ${pattern}:\n${p.output()}`));
    if (check()) return;
    p.child.stdout!.on('data', onData);
    p.child.once('exit', onExit);
  });
}

describe('connection cap and timeouts', () => {
  test('idle sockets fill the cap; a request on top is answered, the stalest idle socket closed for it; the catalog closes the idle ones', async (t) => {
    const p = await startCatalogProcess({ args: ['--max-connections', '8', '--headers-timeout-ms', '3000'] });
    t.after(() => p.stop());
    const idle: Socket[] = [];
    for (let i = 0; i < 8; i++) idle.push(await open(p.port));
    const idleClosed = idle.map(closed);
    // A request on top of the eight (Node accepts in arrival order): the stalest idle socket gives way to it.
    const res = await fetch(`${p.url}/health`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { status: 'GOOD' });
    await outputMatches(
      p,
      /connection closed to make room: 8 connections are open \(--max-connections\); the one closed \(127\.0\.0\.1, waiting\)/,
    );
    // The idle sockets never send a header: the catalog closes each (the headers timeout, or to make room).
    const sent = await Promise.all(idleClosed);
    for (const s of sent)
      assert.ok(s === '' || /^HTTP\/1\.1 408 /.test(s), `an idle socket got ${JSON.stringify(s.slice(0, 80))}`);
    const again = await fetch(`${p.url}/health`);
    assert.equal(again.status, 200);
  });

  test('finding 14: with the cap held by sockets dripping a body, /health and GraphQL are still answered', async (t) => {
    const p = await startCatalogProcess({ sample: true, args: ['--max-connections', '16'] });
    t.after(() => p.stop());
    const attackers: Array<{ socket: Socket; answer: Promise<string> }> = [];
    for (let i = 0; i < 16; i++) attackers.push(await dripping(p.port));
    const pace = drip(
      attackers.map((a) => a.socket),
      200,
    );
    t.after(() => {
      pace.stop();
      for (const a of attackers) a.socket.destroy();
    });
    const health = await fetch(`${p.url}/health`);
    assert.equal(health.status, 200);
    assert.deepEqual(await health.json(), { status: 'GOOD' });
    const graphql = await fetch(`${p.url}/api/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        query: `{ dataset(urn: ${JSON.stringify(SAMPLE.datasets.users)}) { urn } }`,
      }),
    });
    assert.equal(graphql.status, 200, await graphql.clone().text());
    const answer = (await graphql.json()) as { data: { dataset: { urn: string } } };
    assert.equal(answer.data.dataset.urn, SAMPLE.datasets.users);
    await outputMatches(
      p,
      /connection closed to make room: 16 connections are open \(--max-connections\); the one closed \(127\.0\.0\.1, body\)/,
    );
    // A dripping socket was the one to give way (its close, whenever it reaches this process).
    await Promise.race(attackers.map((a) => a.answer));
  });

  test('finding 14: a body that gains less than 1 KiB per --body-timeout-ms is answered 408 and closed', async (t) => {
    const p = await startCatalogProcess({ args: ['--body-timeout-ms', '1000'] });
    t.after(() => p.stop());
    const attackers: Array<{ socket: Socket; answer: Promise<string> }> = [];
    for (let i = 0; i < 4; i++) attackers.push(await dripping(p.port));
    const pace = drip(
      attackers.map((a) => a.socket),
      100,
    );
    t.after(() => pace.stop());
    for (const a of attackers)
      assert.match(await a.answer, /HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 408 Request Timeout\r\n/);
    await outputMatches(
      p,
      /request body too slow: \d+ bytes in [\d.]+ s from 127\.0\.0\.1 \(at least 1024 per 1 s\); answered 408 and closed/,
    );
    // A body that arrives is not affected: a normal request still goes through.
    const res = await fetch(`${p.url}/api/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    assert.equal(res.status, 200);
  });

  test('finding 17: SIGTERM while dripping and idle sockets hold the cap ends the process, and closes them', async (t) => {
    const p = await startCatalogProcess({ sample: true, args: ['--max-connections', '16'] });
    t.after(() => p.kill9());
    const attackers: Array<{ socket: Socket; answer: Promise<string> }> = [];
    for (let i = 0; i < 12; i++) attackers.push(await dripping(p.port));
    const idle: Socket[] = [];
    for (let i = 0; i < 4; i++) idle.push(await open(p.port));
    const sockets = [...attackers.map((a) => a.socket), ...idle];
    const allClosed = Promise.all(sockets.map(closed));
    const pace = drip(sockets, 200);
    t.after(() => {
      pace.stop();
      for (const s of sockets) s.destroy();
    });
    const exited = new Promise<number | null>((resolve) => p.child.once('exit', (code) => resolve(code)));
    process.kill(p.pid, 'SIGTERM');
    assert.equal(await exited, 0, p.output());
    assert.match(p.output(), /catalog-lens catalog: SIGTERM, closing/);
    await allClosed;
  });

  test('the default cap is half the open-file limit, at most 1000, at least 16', () => {
    assert.equal(defaultMaxConnections(20_000), 1000);
    assert.equal(defaultMaxConnections(1024), 512);
    assert.equal(defaultMaxConnections(20), 16);
    assert.equal(defaultMaxConnections(undefined), 500);
  });
});

describe('ConnectionTable: who gives way at the cap', () => {
  class Fake implements Conn {
    bytes = 0;
    state: Phase = 'waiting';
    closedAs: string | undefined;
    constructor(readonly address: string) {}
    bytesRead(): number {
      return this.bytes;
    }
    phase(): Phase {
      return this.state;
    }
    close(why: 'evicted' | 'slowBody'): void {
      this.closedAs = why;
    }
  }
  const limits = { maxConnections: 4, maxPerClient: 2, bodyTimeoutMs: 5000 };

  test('at the cap the connection whose last byte is oldest gives way; one being answered never does', () => {
    const log: string[] = [];
    const table = new ConnectionTable(limits, (l) => log.push(l));
    const [a, b, c, d] = ['127.0.0.1', '127.0.0.1', '127.0.0.1', '127.0.0.1'].map((x) => new Fake(x)) as [
      Fake,
      Fake,
      Fake,
      Fake,
    ];
    a.state = 'answering';
    b.state = 'body';
    c.state = 'body';
    d.state = 'waiting';
    for (const [i, x] of [a, b, c, d].entries()) assert.ok(table.admit(x, i));
    // b dripped a byte after c's last one: c is the stalest.
    b.bytes = 1;
    table.sweep(10);
    const e = new Fake('127.0.0.1');
    assert.ok(table.admit(e, 11));
    assert.equal(c.closedAs, 'evicted', 'c (last byte at 2) is staler than d (opened at 3) and b (a byte at 10)');
    assert.equal(d.closedAs, undefined);
    assert.equal(a.closedAs, undefined);
    assert.equal(table.size, 4);
    assert.match(
      log[0]!,
      /^connection closed to make room: 4 connections are open \(--max-connections\); the one closed \(127\.0\.0\.1, body\)/,
    );
  });

  test('when every connection is being answered, a new one is refused and logged', () => {
    const log: string[] = [];
    const table = new ConnectionTable(limits, (l) => log.push(l));
    const busy = Array.from({ length: 4 }, () => new Fake('127.0.0.1'));
    for (const x of busy) {
      x.state = 'answering';
      assert.ok(table.admit(x, 0));
    }
    assert.equal(table.admit(new Fake('127.0.0.1'), 1), false);
    assert.ok(busy.every((x) => x.closedAs === undefined));
    assert.deepEqual(log, [
      'connection refused: 4 connections are open (--max-connections), each being answered; 1 refused so far',
    ]);
    // An answer written in full that its client does not read gives way.
    busy[2]!.state = 'unread';
    assert.ok(table.admit(new Fake('127.0.0.1'), 2));
    assert.equal(busy[2]!.closedAs, 'evicted');
  });

  test('a client beyond loopback holds at most maxPerClient: its own stalest gives way, others keep theirs; loopback shares the cap', () => {
    const table = new ConnectionTable(limits, () => undefined);
    const mine = [new Fake('10.0.0.5'), new Fake('10.0.0.5')];
    const other = new Fake('10.0.0.9');
    for (const [i, x] of [...mine, other].entries()) assert.ok(table.admit(x, i));
    const third = new Fake('10.0.0.5');
    assert.ok(table.admit(third, 5));
    assert.equal(mine[0]!.closedAs, 'evicted');
    assert.equal(other.closedAs, undefined);
    // Its connections all being answered, a further one is refused though the cap has room.
    mine[1]!.state = 'answering';
    third.state = 'answering';
    assert.equal(table.admit(new Fake('10.0.0.5'), 6), false);
    // Loopback: no per-client share (every local client is 127.0.0.1).
    const local = new ConnectionTable({ ...limits, maxConnections: 8 }, () => undefined);
    for (let i = 0; i < 8; i++) assert.ok(local.admit(new Fake('::ffff:127.0.0.1'), i));
  });

  test('a body gaining fewer than MIN_BODY_BYTES in bodyTimeoutMs is closed as slow; one that keeps arriving is not', () => {
    const log: string[] = [];
    const table = new ConnectionTable(limits, (l) => log.push(l));
    const slow = new Fake('127.0.0.1');
    const fast = new Fake('127.0.0.1');
    const done = new Fake('127.0.0.1');
    for (const x of [slow, fast, done]) {
      assert.ok(table.admit(x, 0));
      x.state = 'body';
      table.requestStarted(x, 0);
    }
    done.state = 'answering';
    slow.bytes = MIN_BODY_BYTES - 1;
    fast.bytes = MIN_BODY_BYTES;
    table.sweep(4999);
    assert.equal(slow.closedAs, undefined, 'the window is not over');
    table.sweep(5000);
    assert.equal(slow.closedAs, 'slowBody');
    assert.equal(fast.closedAs, undefined);
    assert.equal(done.closedAs, undefined);
    assert.equal(table.size, 2);
    fast.bytes += 10;
    table.sweep(10_000);
    assert.equal(fast.closedAs, 'slowBody', 'each window needs its own KiB');
    assert.match(
      log[0]!,
      /^request body too slow: 1023 bytes in 5\.0 s from 127\.0\.0\.1 \(at least 1024 per 5 s\); answered 408 and closed; 1 so far$/,
    );
  });

  test('the default per-client share is a quarter of the cap, at least 8', () => {
    assert.equal(defaultMaxPerClient(1000), 250);
    assert.equal(defaultMaxPerClient(16), 8);
  });
});
