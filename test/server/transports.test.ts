/**
 * The server process over each transport its command line names (server/src/transport): stdio,
 * --socket=N, --socket N, --pipe=NAME and --node-ipc each answer initialize, a hover of several
 * hundred bytes with multibyte text, and shut down. Over a byte stream each message leaves in one
 * write; the reader on this side does not care, so what is checked here is that every transport
 * still speaks the protocol.
 */
import assert from 'node:assert/strict';
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, describe, test } from 'node:test';
import {
  createClientPipeTransport,
  createClientSocketTransport,
  createProtocolConnection,
  IPCMessageReader,
  IPCMessageWriter,
  StreamMessageReader,
  StreamMessageWriter,
  type Hover,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node';
import { SERVER_BUNDLE } from '../support/lspClient';

const URI = 'file:///transport/probe.py';
const TEXT = '# données: ü 中 😀\nu = "urn:li:dataset:(urn:li:dataPlatform:hive,db.é_table,PROD)"\n';

/** Initializes, opens a document, hovers on its URN and shuts the server down; returns the hover. */
async function converse(connection: ProtocolConnection, child: ChildProcess): Promise<Hover | null> {
  connection.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => ({})));
  connection.onRequest('client/registerCapability', () => null);
  connection.onRequest('window/workDoneProgress/create', () => null);
  connection.listen();
  const init = await connection.sendRequest<{ capabilities: { hoverProvider?: unknown } }>('initialize', {
    processId: process.pid,
    rootUri: null,
    capabilities: {},
  });
  assert.ok(init.capabilities.hoverProvider);
  await connection.sendNotification('initialized', {});
  await connection.sendNotification('textDocument/didOpen', {
    textDocument: { uri: URI, languageId: 'python', version: 1, text: TEXT },
  });
  const hover = await connection.sendRequest<Hover | null>('textDocument/hover', {
    textDocument: { uri: URI },
    position: { line: 1, character: 20 },
  });
  await connection.sendRequest('shutdown');
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await connection.sendNotification('exit');
  assert.equal(await exited, 0);
  connection.dispose();
  return hover;
}

function hoverValue(hover: Hover | null): string {
  const contents = hover?.contents as { value?: string } | undefined;
  return contents?.value ?? '';
}

function stopIfRunning(child: ChildProcess | undefined): void {
  if (child && child.exitCode === null && child.signalCode === null) child.kill();
}

describe('the server process over each transport', () => {
  const folder = mkdtempSync(path.join(tmpdir(), 'cl-transports-'));
  const env: NodeJS.ProcessEnv = { ...process.env, CATALOG_LENS_CODE_CACHE: 'off' };
  delete env.CATALOG_LENS_TOKEN;
  let child: ChildProcess | undefined;
  after(() => {
    stopIfRunning(child);
    rmSync(folder, { recursive: true, force: true });
  });

  const check = (hover: Hover | null): void => {
    const text = hoverValue(hover);
    assert.match(text, /db\.é_table/);
    assert.ok(text.length > 100, text);
  };

  test('--stdio', async () => {
    child = spawn(process.execPath, [SERVER_BUNDLE, '--stdio'], { env, stdio: ['pipe', 'pipe', 'inherit'] });
    const connection = createProtocolConnection(
      new StreamMessageReader(child.stdout!),
      new StreamMessageWriter(child.stdin!),
    );
    check(await converse(connection, child));
  });

  test('--stdio: the end of stdin ends the server, code 1 without a shutdown request, 0 after one', async () => {
    for (const shutdownFirst of [false, true]) {
      const server = spawn(process.execPath, [SERVER_BUNDLE, '--stdio'], { env, stdio: ['pipe', 'pipe', 'inherit'] });
      child = server;
      const connection = createProtocolConnection(
        new StreamMessageReader(server.stdout),
        new StreamMessageWriter(server.stdin),
      );
      connection.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => ({})));
      connection.onRequest('client/registerCapability', () => null);
      connection.onRequest('window/workDoneProgress/create', () => null);
      connection.listen();
      await connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {} });
      await connection.sendNotification('initialized', {});
      await connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri: URI, languageId: 'python', version: 1, text: TEXT },
      });
      if (shutdownFirst) await connection.sendRequest('shutdown');
      const exited = new Promise<number | string | null>((resolve) => {
        server.once('exit', (code) => resolve(code));
        // A server that outlives its editor would hold its catalog and files for good.
        setTimeout(() => resolve('still running 10 s after stdin ended'), 10_000).unref();
      });
      // The editor went away: no exit notification, its end of the pipe closed.
      server.stdin.end();
      assert.equal(await exited, shutdownFirst ? 0 : 1, shutdownFirst ? 'after shutdown' : 'without shutdown');
      connection.dispose();
    }
  });

  for (const form of ['--socket=N', '--socket N'])
    test(form, async () => {
      const transport = await createClientSocketTransport(0);
      const port = String(transport.port());
      const args = form === '--socket=N' ? [`--socket=${port}`] : ['--socket', port];
      child = spawn(process.execPath, [SERVER_BUNDLE, ...args], { env, stdio: ['ignore', 'ignore', 'inherit'] });
      const [reader, writer] = await transport.onConnected();
      transport.close();
      check(await converse(createProtocolConnection(reader, writer), child));
    });

  test('--pipe=NAME', async () => {
    const name = path.join(folder, 'lsp.sock');
    const transport = await createClientPipeTransport(name);
    child = spawn(process.execPath, [SERVER_BUNDLE, `--pipe=${name}`], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    const [reader, writer] = await transport.onConnected();
    transport.close();
    check(await converse(createProtocolConnection(reader, writer), child));
  });

  test('--node-ipc', async () => {
    child = fork(SERVER_BUNDLE, ['--node-ipc'], { env, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    const connection = createProtocolConnection(new IPCMessageReader(child), new IPCMessageWriter(child));
    check(await converse(connection, child));
  });
});
