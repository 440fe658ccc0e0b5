/**
 * Connection exhaustion (security-probe finding 4), at the process level: a catalog started with
 * a cap of 8 connections and a short headers timeout. Eight idle sockets fill it; a ninth is
 * closed unanswered (and logged); the catalog closes the idle ones itself; then it answers again.
 * Every wait is for an event (a socket's close, a log line), never for a time.
 */
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { describe, test } from 'node:test';
import { defaultMaxConnections } from '../../catalog/src/connections';
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
  test('idle sockets fill the cap; one more is closed unanswered; the catalog closes the idle ones and answers again', async (t) => {
    const p = await startCatalogProcess({ args: ['--max-connections', '8', '--headers-timeout-ms', '3000'] });
    t.after(() => p.stop());
    const idle = await Promise.all(Array.from({ length: 8 }, () => open(p.port)));
    const idleClosed = idle.map(closed);
    // A request on top of the eight: dropped as soon as Node accepts it.
    const extra = await open(p.port);
    const extraAnswer = closed(extra);
    extra.write(`GET /health HTTP/1.1\r\nHost: 127.0.0.1:${p.port}\r\n\r\n`);
    assert.equal(await extraAnswer, '', 'the ninth connection got no answer');
    await outputMatches(p, /connection refused: 8 connections are open \(--max-connections\); 1 refused so far/);
    // The idle sockets never send a header: the catalog closes each (the headers timeout).
    const sent = await Promise.all(idleClosed);
    for (const s of sent)
      assert.ok(s === '' || /^HTTP\/1\.1 408 /.test(s), `an idle socket got ${JSON.stringify(s.slice(0, 80))}`);
    const res = await fetch(`${p.url}/health`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { status: 'GOOD' });
  });

  test('the default cap is half the open-file limit, at most 1000, at least 16', () => {
    assert.equal(defaultMaxConnections(20_000), 1000);
    assert.equal(defaultMaxConnections(1024), 512);
    assert.equal(defaultMaxConnections(20), 16);
    assert.equal(defaultMaxConnections(undefined), 500);
  });
});
