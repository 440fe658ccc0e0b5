/**
 * Every write reports what came of it. A write against a catalog that is down or paused ends
 * in a failure within the request timeout, turns the status to its error state at once, and
 * the server logs each write (entity, command, path, result) without the token.
 */
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { after, describe, test } from 'node:test';
import type { WriteResult } from '../../model/src/protocol';
import { S, serverFor, useSampleServer } from '../support/fixture';
import type { LspSession } from '../support/lspClient';

/** A TCP server on 127.0.0.1 that accepts connections and never answers: a paused catalog. */
async function pausedCatalog(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port nothing listens on (it was free a moment ago). */
async function closedPortUrl(): Promise<string> {
  const p = await pausedCatalog();
  await p.close();
  return p.url;
}

const TOKEN = 'speak-secret-token-5f1c';

describe('a write against a catalog that is down', () => {
  const sessions: LspSession[] = [];
  after(async () => {
    for (const s of sessions) await s.stop();
  });

  test('connection refused: the write fails (unreachable) and the status is unreachable by the time it answers', async () => {
    const lsp = await serverFor(await closedPortUrl(), { env: { CATALOG_LENS_TOKEN: TOKEN } });
    sessions.push(lsp);
    const r = await lsp.command<WriteResult>('catalogLens.setDatasetDescription', {
      urn: S.orders,
      description: 'Kept by the user.',
    });
    assert.equal(r.status, 'failed');
    assert.equal(r.kind, 'unreachable', r.message);
    // Sent before the answer: the status notification is already here.
    assert.ok(
      lsp.statuses.some((s) => s.state === 'unreachable'),
      `statuses: ${JSON.stringify(lsp.statuses)}`,
    );
    const line = lsp.logs.find((l) => l.startsWith('write catalogLens.setDatasetDescription'));
    assert.ok(line, `a write line in ${lsp.logs.join('\n')}`);
    assert.match(line, /db\.orders/);
    assert.match(line, /aspects path/);
    assert.match(line, /failed \(unreachable\)/);
    assert.ok(!lsp.logs.join('\n').includes(TOKEN), 'the token is never logged');
  });

  test('a paused catalog (accepts, never answers): the write fails (timeout) within about one request timeout', async () => {
    const paused = await pausedCatalog();
    try {
      const timeoutMs = 400;
      const lsp = await serverFor(paused.url, { settings: { requestTimeoutMs: timeoutMs } });
      sessions.push(lsp);
      const started = Date.now();
      const r = await lsp.command<WriteResult>('catalogLens.addFeaturesToTable', {
        table: S.usersTable,
        features: [S.signupDays],
      });
      const took = Date.now() - started;
      assert.equal(r.status, 'failed');
      assert.equal(r.kind, 'timeout', r.message);
      assert.match(r.message, /no answer/);
      assert.ok(took < timeoutMs * 3, `took ${took} ms, request timeout ${timeoutMs} ms`);
      assert.ok(lsp.statuses.some((s) => s.state === 'unreachable'));
    } finally {
      await paused.close();
    }
  });
});

describe('the server logs each write', () => {
  const env = useSampleServer({ env: { CATALOG_LENS_TOKEN: TOKEN } });

  test('written, unchanged and refused writes each log one line with entity, command, path and result, never the token', async () => {
    const written = await env.lsp.command<WriteResult>('catalogLens.setDatasetDescription', {
      urn: S.orders,
      description: 'Orders, one row each.',
    });
    assert.equal(written.status, 'written', written.message);
    const unchanged = await env.lsp.command<WriteResult>('catalogLens.setDatasetDescription', {
      urn: S.orders,
      description: 'Orders, one row each.',
    });
    assert.equal(unchanged.status, 'unchanged');
    const refused = await env.lsp.command<WriteResult>('catalogLens.addFeaturesToTable', {
      table: S.usersTable,
      features: [S.ghostFeature],
    });
    assert.equal(refused.status, 'failed');
    const lines = env.lsp.logs.filter((l) => l.startsWith('write '));
    assert.equal(lines.length, 3, lines.join('\n'));
    assert.match(
      lines[0]!,
      /^write catalogLens\.setDatasetDescription dataset db\.orders .*aspects path: written editableDatasetProperties/,
    );
    assert.match(lines[1]!, /setDatasetDescription dataset db\.orders .*: unchanged/);
    assert.match(lines[2]!, /addFeaturesToTable feature table users_table \(\+1\) .*: failed \(notFound\)/);
    assert.ok(!env.lsp.logs.join('\n').includes(TOKEN), 'the token is never logged');
  });
});
