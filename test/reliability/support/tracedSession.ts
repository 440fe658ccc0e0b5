/**
 * The real server process (dist/server.js over stdio) with everything it produces kept from the
 * first byte: the raw JSON-RPC stream it writes (responses, notifications, `$/logTrace`,
 * logMessage, showMessage, requests to the client) and its stderr. Tests grep all of it; the
 * session also answers the server's requests like an editor would, and records them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { PassThrough } from 'node:stream';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node';
import { SERVER_BUNDLE } from '../../support/lspClient';

export interface TracedSession {
  connection: ProtocolConnection;
  child: ChildProcess;
  /** Everything the server wrote to stdout and stderr, so far. */
  output(): string;
  /** Server → client notifications and requests by method, with their params. */
  received: Array<{ method: string; params: unknown }>;
  /** Settings answered to workspace/configuration. */
  settings: Record<string, unknown>;
  open(uri: string, languageId: string, text: string): Promise<void>;
  request<T = unknown>(method: string, params: unknown): Promise<T>;
  command<T = unknown>(command: string, arg: unknown): Promise<T>;
  /** The next publishDiagnostics for `uri` (or the one already received). */
  diagnostics(uri: string): Promise<unknown[]>;
  stop(): Promise<void>;
}

export interface TracedOptions {
  settings: Record<string, unknown>;
  env?: NodeJS.ProcessEnv;
  initializationOptions?: Record<string, unknown>;
  workspaceFolders?: Array<{ uri: string; name: string }>;
  /** How the editor answers showMessageRequest (the title of the item it picks, or null). */
  answerMessage?: (message: string, items: string[]) => string | null;
}

const WAIT_MS = 20_000;

export async function startTracedSession(opts: TracedOptions): Promise<TracedSession> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...opts.env };
  if (!opts.env || !('CATALOG_LENS_TOKEN' in opts.env)) delete env['CATALOG_LENS_TOKEN'];
  const child = spawn(process.execPath, [SERVER_BUNDLE, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'], env });
  let out = '';
  // A tap beside the protocol reader: both see every byte from the first.
  const toReader = new PassThrough();
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString('utf8');
    toReader.write(d);
  });
  child.stdout.on('end', () => toReader.end());
  child.stderr.on('data', (d: Buffer) => {
    out += d.toString('utf8');
  });
  const connection = createProtocolConnection(new StreamMessageReader(toReader), new StreamMessageWriter(child.stdin));
  const received: TracedSession['received'] = [];
  const settings = { ...opts.settings };
  const published = new Map<string, unknown[]>();
  const waiters: Array<{ uri: string; resolve: (d: unknown[]) => void }> = [];

  connection.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => settings));
  connection.onRequest('window/workDoneProgress/create', (p: unknown) => {
    received.push({ method: 'window/workDoneProgress/create', params: p });
    return null;
  });
  connection.onRequest('client/registerCapability', () => null);
  connection.onRequest('window/showMessageRequest', (p: { message: string; actions?: Array<{ title: string }> }) => {
    received.push({ method: 'window/showMessageRequest', params: p });
    const title =
      opts.answerMessage?.(
        p.message,
        (p.actions ?? []).map((a) => a.title),
      ) ?? null;
    return title === null ? null : { title };
  });
  // No notification has a handler of its own, so every one arrives here.
  connection.onUnhandledNotification(({ method, params }) => {
    received.push({ method, params });
    if (method === 'textDocument/publishDiagnostics') {
      const p = params as { uri: string; diagnostics: unknown[] };
      published.set(p.uri, p.diagnostics);
      for (const w of waiters.filter((x) => x.uri === p.uri)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(p.diagnostics);
      }
    }
  });
  connection.listen();

  await connection.sendRequest('initialize', {
    processId: process.pid,
    rootUri: opts.workspaceFolders?.[0]?.uri ?? null,
    workspaceFolders: opts.workspaceFolders ?? null,
    trace: 'verbose',
    capabilities: {
      workspace: { configuration: true, workspaceFolders: true },
      window: { workDoneProgress: true },
      textDocument: { hover: { contentFormat: ['markdown'] } },
    },
    initializationOptions: opts.initializationOptions ?? { clientCommands: true },
  });
  await connection.sendNotification('initialized', {});
  await connection.sendNotification('$/setTrace', { value: 'verbose' });

  const bounded = <T>(p: Promise<T>, what: string): Promise<T> =>
    new Promise((resolve, reject) => {
      const t = setTimeout(
        () => reject(new Error(`no ${what} within ${WAIT_MS} ms; server output:\n${out.slice(-3000)}`)),
        WAIT_MS,
      );
      p.then(
        (v) => {
          clearTimeout(t);
          resolve(v);
        },
        (e: unknown) => {
          clearTimeout(t);
          reject(e instanceof Error ? e : new Error(String(e)));
        },
      );
    });

  return {
    connection,
    child,
    received,
    settings,
    output: () => out,
    open: (uri, languageId, text) =>
      connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version: 1, text } }),
    request: (method, params) => bounded(connection.sendRequest(method, params), `answer to ${method}`),
    command: (command, arg) =>
      bounded(
        connection.sendRequest('workspace/executeCommand', { command, arguments: [arg] }),
        `answer to ${command}`,
      ),
    diagnostics(uri) {
      const known = published.get(uri);
      if (known) return Promise.resolve(known);
      return bounded(new Promise<unknown[]>((resolve) => waiters.push({ uri, resolve })), `diagnostics of ${uri}`);
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise<void>((r) => child.once('exit', () => r()));
        await bounded(connection.sendRequest('shutdown'), 'answer to shutdown');
        await connection.sendNotification('exit');
        await bounded(exited, 'exit of the server');
      }
      connection.dispose();
    },
  };
}
