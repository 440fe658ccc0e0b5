// A small LSP client for the benchmarks, after test/support/lspClient.ts: spawns the real server
// bundle (dist/server.js) over stdio and speaks JSON-RPC to it. It answers workspace/configuration
// with `settings`, records every publishDiagnostics with its arrival time, and waits for events,
// never for time.
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { DIST, startChild, stopChild } from './processes.mjs';
import { now } from './measure.mjs';

const require = createRequire(import.meta.url);
const {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
} = require('vscode-languageserver-protocol/node');

/** What VS Code declares of completion (vscode-languageclient 11, CompletionItemFeature.fillClientCapabilities). */
const VSCODE_COMPLETION = {
  dynamicRegistration: true,
  contextSupport: true,
  completionItem: {
    snippetSupport: true,
    commitCharactersSupport: true,
    documentationFormat: ['markdown', 'plaintext'],
    deprecatedSupport: true,
    preselectSupport: true,
    tagSupport: { valueSet: [1] },
    insertReplaceSupport: true,
    resolveSupport: { properties: ['documentation', 'detail', 'additionalTextEdits'] },
    insertTextModeSupport: { valueSet: [1, 2] },
    labelDetailsSupport: true,
  },
  insertTextMode: 2,
  completionList: {
    itemDefaults: ['commitCharacters', 'editRange', 'insertTextFormat', 'insertTextMode', 'data'],
    applyKindSupport: true,
  },
};

/** The server bundle of the build being measured (processes.mjs useBuild). */
export const serverBundle = () => path.join(DIST, 'server.js');

/**
 * Starts the server and initializes it. `initMs` is the time from spawn to the initialize result.
 * `nodeArgs` go before the bundle (e.g. --cpu-prof).
 * `inlayHints` declares inlay hints and their refresh, as VS Code does.
 * `completion` declares VS Code's completion capabilities (vscode-languageclient 11: documentation
 * resolved lazily through completionItem/resolve, the list's default edit range …).
 * `env` is added to this process's environment for the server.
 * @param {{ settings?: object, workspaceFolders?: Array<{ uri: string, name: string }>, nodeArgs?: string[], bundle?: string, inlayHints?: boolean, completion?: boolean, env?: Record<string, string> }} [options]
 */
export async function startServer({
  settings = {},
  workspaceFolders,
  nodeArgs = [],
  bundle = serverBundle(),
  inlayHints = false,
  completion = false,
  env: extraEnv = {},
} = {}) {
  const env = { ...process.env, ...extraEnv };
  delete env.CATALOG_LENS_TOKEN;
  const spawnedAt = now();
  const handle = startChild(process.execPath, [...nodeArgs, bundle, '--stdio'], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env,
  });
  let stderr = '';
  let onStderr;
  handle.child.stderr.setEncoding('utf8');
  handle.child.stderr.on('data', (d) => {
    stderr += d;
    onStderr?.();
  });
  // With --inspect=127.0.0.1:0 the process says on stderr where its inspector listens.
  const inspectorUrl = nodeArgs.some((a) => a.startsWith('--inspect'))
    ? new Promise((resolve) => {
        onStderr = () => {
          const m = /Debugger listening on (ws:\/\/\S+)/.exec(stderr);
          if (m) {
            onStderr = undefined;
            resolve(m[1]);
          }
        };
        onStderr();
      })
    : undefined;
  if (!handle.child.stdin) throw new Error('the server was spawned without a stdin pipe');
  const connection = createProtocolConnection(
    new StreamMessageReader(handle.child.stdout),
    new StreamMessageWriter(handle.child.stdin),
  );
  const waiters = [];
  /** Listeners of every publishDiagnostics (onPublish). */
  const listeners = new Set();
  const logs = [];
  let publishes = 0;
  connection.onRequest('workspace/configuration', (params) => params.items.map(() => settings));
  connection.onRequest('window/workDoneProgress/create', () => null);
  connection.onRequest('client/registerCapability', () => null);
  connection.onRequest('window/showMessageRequest', () => null);
  connection.onRequest('workspace/inlayHint/refresh', () => null);
  connection.onNotification('window/logMessage', (p) => {
    logs.push(p.message);
  });
  connection.onNotification('window/showMessage', (p) => {
    logs.push(p.message);
  });
  connection.onNotification('$/progress', () => undefined);
  connection.onNotification('catalogLens/status', () => undefined);
  connection.onNotification('catalogLens/skipped', (p) => {
    logs.push(`skipped ${JSON.stringify(p)}`);
  });
  connection.onNotification('textDocument/publishDiagnostics', (p) => {
    const at = now();
    publishes++;
    for (const l of [...listeners]) l(p.uri, p.diagnostics, at);
    for (const w of [...waiters]) {
      if (w.uri === p.uri && w.accept(p.diagnostics)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve({ diagnostics: p.diagnostics, at });
      }
    }
  });
  connection.listen();
  const init = await connection.sendRequest('initialize', {
    processId: process.pid,
    rootUri: workspaceFolders?.[0]?.uri ?? null,
    workspaceFolders: workspaceFolders ?? null,
    capabilities: {
      workspace: {
        configuration: true,
        workspaceFolders: true,
        ...(inlayHints ? { inlayHint: { refreshSupport: true } } : {}),
      },
      window: { workDoneProgress: true },
      textDocument: {
        hover: { contentFormat: ['markdown'] },
        ...(inlayHints ? { inlayHint: {} } : {}),
        ...(completion ? { completion: VSCODE_COMPLETION } : {}),
      },
    },
    initializationOptions: {},
  });
  const initMs = now() - spawnedAt;
  await connection.sendNotification('initialized', {});

  const versions = new Map();
  const failWith = (what) =>
    new Error(`${what}; server stderr:\n${stderr.slice(-4000)}\nlogs:\n${logs.slice(-20).join('\n')}`);
  return {
    connection,
    init,
    initMs,
    pid: handle.pid,
    settings,
    logs,
    inspectorUrl,
    get publishes() {
      return publishes;
    },
    open(uri, languageId, text) {
      versions.set(uri, 1);
      return connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri, languageId, version: 1, text },
      });
    },
    change(uri, text) {
      const version = (versions.get(uri) ?? 1) + 1;
      versions.set(uri, version);
      return connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version },
        contentChanges: [{ text }],
      });
    },
    close(uri) {
      return connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
    },
    hover: (uri, position) => connection.sendRequest('textDocument/hover', { textDocument: { uri }, position }),
    command: (command, arg) => connection.sendRequest('workspace/executeCommand', { command, arguments: [arg] }),
    /** Calls `listener(uri, diagnostics, at)` for every publishDiagnostics; returns what stops it. */
    onPublish(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** The next publish for `uri` that `accept` takes: `{diagnostics, at}` (arrival time). */
    nextDiagnostics(uri, accept = () => true, timeoutMs = 120_000) {
      return new Promise((resolve, reject) => {
        const waiter = {
          uri,
          accept,
          resolve: (v) => {
            clearTimeout(timer);
            resolve(v);
          },
        };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(failWith(`no accepted diagnostics for ${uri} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    /** shutdown + exit, then wait for the process; SIGTERM/SIGKILL by pid if it does not go. */
    async stop() {
      if (handle.child.exitCode === null && handle.child.signalCode === null) {
        const bye = (async () => {
          await connection.sendRequest('shutdown');
          await connection.sendNotification('exit');
        })();
        const timeout = new Promise((resolve) => {
          const t = setTimeout(resolve, 5000);
          t.unref();
        });
        await Promise.race([
          bye.catch((e) => {
            logs.push(`shutdown failed: ${e.message}`);
          }),
          timeout,
        ]);
        const timer = setTimeout(() => {
          void stopChild(handle, 2000);
        }, 5000);
        await handle.exited;
        clearTimeout(timer);
      }
      connection.dispose();
    },
    stderr: () => stderr,
  };
}

/** The RSS of a process in MiB, from /proc/<pid>/status (VmRSS). */
export async function rssMiB(pid) {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const m = /VmRSS:\s+(\d+)\s+kB/.exec(status);
  if (!m) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(m[1]) / 1024;
}

/** Position (line, character) of a UTF-16 offset. */
export function positionAt(text, offset) {
  let line = 0;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, character: offset - lineStart };
}
