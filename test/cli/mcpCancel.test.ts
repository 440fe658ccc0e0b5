/**
 * A tool call the caller cancels stops its work: against a catalog that accepts connections and
 * never answers, an MCP `callTool` aborted by the SDK's client (notifications/cancelled) and a
 * `catalogLens/tool` request cancelled by the editor ($/cancelRequest, what VS Code sends when a
 * language model tool invocation's token is cancelled) each close the catalog connection at once
 * (long before the request timeout), the call ends promptly, and the next call is answered.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CancellationTokenSource, ResponseError } from 'vscode-languageserver-protocol';
import { ToolRequest, type ToolResult } from '../../model/src/protocol';
import { serverFor } from '../support/fixture';
import type { LspSession } from '../support/lspClient';

const ROOT = join(__dirname, '..', '..', '..');
const BIN = join(ROOT, 'bin', 'catalog-lens.js');
const USERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
/** Far longer than the test waits: only the cancellation can end a catalog request in time. */
const TIMEOUT_MS = 120_000;
/** How long a cancelled call may take to end, and its catalog connection to close. */
const PROMPT_MS = 3_000;

/** A TCP server on 127.0.0.1 that accepts connections and never answers: a hung catalog. */
async function hungCatalog(): Promise<{
  url: string;
  /** Resolves with the connection that carried a request whose text matches `what`. */
  request(what: RegExp): Promise<Socket>;
  close(): Promise<void>;
}> {
  const sockets = new Set<Socket>();
  const received = new Map<Socket, string>();
  let waiting: Array<() => void> = [];
  const server: Server = createServer((s) => {
    sockets.add(s);
    received.set(s, '');
    s.on('close', () => sockets.delete(s));
    s.on('data', (d: Buffer) => {
      received.set(s, received.get(s)! + d.toString('utf8'));
      for (const w of waiting) w();
      waiting = [];
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    request: async (what) => {
      for (;;) {
        const found = [...received].find(([, text]) => what.test(text));
        if (found) {
          received.delete(found[0]);
          return found[0];
        }
        await new Promise<void>((resolve) => waiting.push(resolve));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Resolves with the time it took once `socket` is closed, or rejects after `ms`. */
function closedWithin(socket: Socket, ms: number, started: number): Promise<number> {
  return new Promise((resolve, reject) => {
    if (socket.destroyed) return resolve(Date.now() - started);
    const timer = setTimeout(() => reject(new Error(`the catalog connection is still open after ${ms} ms`)), ms);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(Date.now() - started);
    });
  });
}

/** `p`, or a rejection saying it did not settle within `ms`. */
function within<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

function hermeticEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !k.startsWith('CATALOG_LENS_') && !k.startsWith('DATAHUB_')) env[k] = v;
  return { ...env, DATAHUB_SKIP_CONFIG: 'true', ...extra };
}

describe('a cancelled tool call against a hung catalog', () => {
  let hung: Awaited<ReturnType<typeof hungCatalog>>;
  let dir: string;

  before(async () => {
    hung = await hungCatalog();
    dir = mkdtempSync(join(tmpdir(), 'catalog-lens-cancel-'));
    writeFileSync(join(dir, 'users.py'), `USERS = "${USERS}"\n`);
    writeFileSync(join(dir, '.catalog-lens.json'), JSON.stringify({ requestTimeoutMs: TIMEOUT_MS }));
  });
  after(async () => {
    await hung?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('over MCP: the SDK client aborts callTool; the catalog request is aborted and the next call is answered', async (t) => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', dir],
      env: hermeticEnv({ CATALOG_LENS_URL: hung.url }),
      stderr: 'pipe',
    });
    const client = new Client({ name: 'catalog-lens-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const abort = new AbortController();
      const call = client.callTool({ name: 'impact', arguments: { urn: USERS } }, undefined, {
        signal: abort.signal,
        timeout: TIMEOUT_MS,
      });
      const socket = await hung.request(/query entityLineage/);
      const started = Date.now();
      abort.abort();
      await assert.rejects(within(call, PROMPT_MS), /abort/i);
      const ended = Date.now() - started;
      const closed = await closedWithin(socket, PROMPT_MS, started);
      t.diagnostic(`the call ended ${ended} ms after the abort; the catalog connection closed after ${closed} ms`);
      assert.ok(ended < PROMPT_MS, `the call ended after ${ended} ms`);
      // The next call is answered: one that needs no catalog at once, and a catalog one cancelled again.
      const next = (await client.callTool({ name: 'where_used', arguments: { urn: USERS } })) as CallToolResult;
      assert.ok(!next.isError, JSON.stringify(next));
      assert.equal((next.structuredContent as { total: number }).total, 1);
      const again = new AbortController();
      const second = client.callTool({ name: 'search', arguments: { query: 'users' } }, undefined, {
        signal: again.signal,
      });
      const socket2 = await hung.request(/query searchEntities/);
      const started2 = Date.now();
      again.abort();
      await assert.rejects(second, /abort/i);
      await closedWithin(socket2, PROMPT_MS, started2);
    } finally {
      await client.close();
    }
  });

  test('over catalogLens/tool: the editor cancels the request; the catalog request is aborted and the next call is answered', async (t) => {
    let lsp: LspSession | undefined;
    try {
      lsp = await serverFor(hung.url, {
        settings: { requestTimeoutMs: TIMEOUT_MS },
        workspaceFolders: [{ uri: pathToFileURL(dir).toString(), name: 'cancel' }],
      });
      const source = new CancellationTokenSource();
      const call = lsp.connection.sendRequest<ToolResult>(
        ToolRequest.method,
        { name: 'impact', input: { urn: USERS } },
        source.token,
      );
      const socket = await hung.request(/query entityLineage/);
      const started = Date.now();
      source.cancel();
      const closed = await closedWithin(socket, PROMPT_MS, started);
      // The server answers the cancelled request itself (RequestCancelled), at once.
      await assert.rejects(
        within(call, PROMPT_MS),
        (e: unknown) => e instanceof ResponseError && /cancel/i.test(e.message),
      );
      const ended = Date.now() - started;
      t.diagnostic(`the request ended ${ended} ms after the cancel; the catalog connection closed after ${closed} ms`);
      assert.ok(ended < PROMPT_MS, `the request ended after ${ended} ms`);
      const next = await lsp.connection.sendRequest<ToolResult>(ToolRequest.method, {
        name: 'where_used',
        input: { urn: USERS },
      });
      assert.equal(next.structured?.['total'], 1, JSON.stringify(next));
    } finally {
      await lsp?.stop();
    }
  });
});
