/**
 * A small LSP client for protocol-level tests: spawns the real server bundle (dist/server.js)
 * over stdio and speaks JSON-RPC to it with vscode-languageserver-protocol. Waits are for
 * events (a diagnostics publish, a status notification), never sleeps.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
  type Diagnostic,
  type Hover,
  type CodeAction,
  type Position,
  type Range,
  type InitializeResult,
  type CompletionItem,
  type DocumentLink,
  type InlayHint,
} from 'vscode-languageserver-protocol/node';
import { IndexedNotification, type CatalogStatus, type IndexedParams } from '../../model/src/protocol';

export const SERVER_BUNDLE = join(__dirname, '..', '..', '..', 'dist', 'server.js');

export interface LspSession {
  connection: ProtocolConnection;
  child: ChildProcess;
  init: InitializeResult;
  /** Settings answered to workspace/configuration; change them and call `configurationChanged`. */
  settings: Record<string, unknown>;
  statuses: CatalogStatus[];
  logs: string[];
  /** Scopes asked for through workspace/configuration, in order (undefined = no scope). */
  configurationScopes: Array<string | undefined>;
  open(uri: string, languageId: string, text: string): Promise<void>;
  change(uri: string, text: string): Promise<void>;
  close(uri: string): Promise<void>;
  hover(uri: string, position: Position): Promise<Hover | null>;
  completion(uri: string, position: Position): Promise<CompletionItem[]>;
  links(uri: string): Promise<DocumentLink[]>;
  /** `textDocument/inlayHint` over `range` (default: the whole of a short document). */
  inlayHints(uri: string, range?: Range): Promise<InlayHint[]>;
  /** How many `workspace/inlayHint/refresh` requests the server sent so far. */
  inlayHintRefreshes(): number;
  codeActions(uri: string, range: Range, diagnostics: Diagnostic[], only?: string[]): Promise<CodeAction[]>;
  command<T = unknown>(command: string, arg: unknown): Promise<T>;
  configurationChanged(): Promise<void>;
  /** The latest diagnostics published for `uri` if they satisfy `accept` (default: any), else the next that do. */
  diagnostics(uri: string, accept?: (d: Diagnostic[]) => boolean, timeoutMs?: number): Promise<Diagnostic[]>;
  latestDiagnostics(uri: string): Diagnostic[] | undefined;
  /** How many publishDiagnostics the server has sent for `uri`. */
  publishCount(uri: string): number;
  /** What the server wrote to stderr so far (VS Code shows it in the server's output as errors). */
  stderr(): string;
  /** The current status if it satisfies `accept`, else the next one that does. */
  waitForStatus(accept: (s: CatalogStatus) => boolean, timeoutMs?: number): Promise<CatalogStatus>;
  /**
   * The next `catalogLens/indexed` notification that satisfies `accept`, from now on: call it before
   * what changes the index (the session must ask for them: `initializationOptions.indexedNotifications`).
   */
  nextIndexed(accept?: (p: IndexedParams) => boolean, timeoutMs?: number): Promise<IndexedParams>;
  /** The latest `catalogLens/indexed` notification if it satisfies `accept`, else the next one that does. */
  waitForIndexed(accept: (p: IndexedParams) => boolean, timeoutMs?: number): Promise<IndexedParams>;
  /**
   * Resolves when `done` holds: checked now and again after each notification the server sends (a
   * log line, diagnostics, a status, `catalogLens/indexed` …), so `done` must read what a
   * notification changes or what the server has done by the time it sends one. Fails naming `what`,
   * with the server's logs, when `timeoutMs` passes or the server exits first.
   */
  waitUntil(done: () => boolean | Promise<boolean>, what: string, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export interface SessionOptions {
  settings?: Record<string, unknown>;
  env?: NodeJS.ProcessEnv;
  initializationOptions?: Record<string, unknown>;
  workspaceFolders?: Array<{ uri: string; name: string }>;
  /** Omit workspace/configuration support (settings then come from initializationOptions). */
  noConfiguration?: boolean;
  /** Node options for the server process, e.g. `--pending-deprecation`. */
  execArgv?: string[];
  /** More workspace client capabilities (didChangeWatchedFiles, workspaceEdit …), merged into the declared ones. */
  workspaceCapabilities?: Record<string, unknown>;
  /**
   * Declare `textDocument.documentLink.tooltipSupport` and send `hoverShowsLinkTooltips`, as the
   * Catalog Lens extension in VS Code does (VS Code shows link tooltips in hovers).
   */
  documentLinkTooltips?: boolean;
  /** Declare inlay hints (`textDocument.inlayHint`) and their refresh (`workspace.inlayHint.refreshSupport`), as VS Code does. */
  inlayHints?: boolean;
  /**
   * Be a generic LSP client (Neovim, Emacs, Helix): none of the Catalog Lens extension's flags. By
   * default the session sends `hoverShowsDiagnostics`, as the extension does (VS Code's hover box
   * shows the diagnostics), merged under `initializationOptions`.
   */
  genericClient?: boolean;
  /** The hover formats the client declares (`textDocument.hover.contentFormat`); default `['markdown']`. */
  hoverContentFormat?: string[];
  /** The completion documentation formats it declares (`completionItem.documentationFormat`); default none. */
  documentationFormat?: string[];
  /** More completion client capabilities (`completionItem.resolveSupport`, `completionList.itemDefaults` …). */
  completionCapabilities?: { completionItem?: Record<string, unknown>; completionList?: Record<string, unknown> };
  /**
   * The server's command line instead of `node dist/server.js --stdio` (e.g. an installed
   * `catalog-lens-server --stdio`), run in `cwd`; `env` is then the whole environment, not added
   * to this process's.
   */
  serverCommand?: { command: string; args: string[]; cwd: string };
  /**
   * Declare `window.showMessage` (message actions) and answer each `window/showMessageRequest`
   * with what this returns (the title of an action, or null: dismissed).
   */
  answerMessageRequest?: (p: { message: string; actions?: Array<{ title: string }> }) => string | null;
}

export async function startSession(opts: SessionOptions = {}): Promise<LspSession> {
  const env: NodeJS.ProcessEnv = opts.serverCommand ? {} : { ...process.env };
  // Hermetic: no token, and no DataHub CLI configuration of the machine, unless the test gives one.
  delete env['CATALOG_LENS_TOKEN'];
  for (const k of Object.keys(env)) if (k.startsWith('DATAHUB_')) delete env[k];
  env['DATAHUB_SKIP_CONFIG'] = 'true';
  Object.assign(env, opts.env);
  const child = opts.serverCommand
    ? spawn(opts.serverCommand.command, opts.serverCommand.args, {
        stdio: ['pipe', 'pipe', 'pipe'],
        env,
        cwd: opts.serverCommand.cwd,
      })
    : spawn(process.execPath, [...(opts.execArgv ?? []), SERVER_BUNDLE, '--stdio'], {
        stdio: ['pipe', 'pipe', 'pipe'],
        env,
      });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const connection = createProtocolConnection(
    new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin),
  );
  const settings: Record<string, unknown> = { ...opts.settings };
  const statuses: CatalogStatus[] = [];
  const logs: string[] = [];
  const published = new Map<string, Diagnostic[]>();
  const publishCounts = new Map<string, number>();
  const diagWaiters: Array<{ uri: string; accept: (d: Diagnostic[]) => boolean; resolve: (d: Diagnostic[]) => void }> =
    [];
  const statusWaiters: Array<{ accept: (s: CatalogStatus) => boolean; resolve: (s: CatalogStatus) => void }> = [];

  /** Called after each notification from the server is handled (waitUntil checks again). */
  const notified = new Set<() => void>();
  const changed = (): void => {
    for (const f of [...notified]) f();
  };

  const configurationScopes: Array<string | undefined> = [];
  connection.onRequest('workspace/configuration', (params: { items: Array<{ section?: string; scopeUri?: string }> }) =>
    params.items.map((item) => {
      configurationScopes.push(item.scopeUri);
      return settings;
    }),
  );
  connection.onRequest('window/workDoneProgress/create', () => null);
  let inlayHintRefreshes = 0;
  connection.onRequest('workspace/inlayHint/refresh', () => {
    inlayHintRefreshes++;
    logs.push('inlayHintRefresh');
    changed();
    return null;
  });
  connection.onRequest('client/registerCapability', (p: unknown) => {
    logs.push(`registerCapability: ${JSON.stringify(p)}`);
    changed();
    return null;
  });
  connection.onNotification('window/logMessage', (p: { message: string }) => {
    logs.push(p.message);
    changed();
  });
  connection.onNotification('window/showMessage', (p: { message: string }) => {
    logs.push(`showMessage: ${p.message}`);
    changed();
  });
  connection.onRequest('window/showMessageRequest', (p: { message: string; actions?: Array<{ title: string }> }) => {
    logs.push(`showMessageRequest: ${p.message}`);
    changed();
    const title = opts.answerMessageRequest?.(p) ?? null;
    return title === null ? null : { title };
  });
  connection.onNotification('$/progress', () => changed());
  connection.onNotification('catalogLens/skipped', (p: unknown) => {
    logs.push(`skipped-notice: ${JSON.stringify(p)}`);
    changed();
  });
  connection.onNotification('textDocument/publishDiagnostics', (p: { uri: string; diagnostics: Diagnostic[] }) => {
    published.set(p.uri, p.diagnostics);
    publishCounts.set(p.uri, (publishCounts.get(p.uri) ?? 0) + 1);
    for (const w of [...diagWaiters]) {
      if (w.uri === p.uri && w.accept(p.diagnostics)) {
        diagWaiters.splice(diagWaiters.indexOf(w), 1);
        w.resolve(p.diagnostics);
      }
    }
    changed();
  });
  const indexedWaiters: Array<{ accept: (p: IndexedParams) => boolean; resolve: (p: IndexedParams) => void }> = [];
  let lastIndexed: IndexedParams | undefined;
  const nextIndexed = (accept: (p: IndexedParams) => boolean = () => true, timeoutMs = 20000): Promise<IndexedParams> =>
    withTimeout(
      new Promise<IndexedParams>((resolve) => {
        indexedWaiters.push({ accept, resolve });
      }),
      timeoutMs,
      'a catalogLens/indexed notification',
    );
  connection.onNotification(IndexedNotification.method, (p: IndexedParams) => {
    lastIndexed = p;
    for (const w of [...indexedWaiters]) {
      if (w.accept(p)) {
        indexedWaiters.splice(indexedWaiters.indexOf(w), 1);
        w.resolve(p);
      }
    }
    changed();
  });
  connection.onNotification('catalogLens/status', (s: CatalogStatus) => {
    statuses.push(s);
    for (const w of [...statusWaiters]) {
      if (w.accept(s)) {
        statusWaiters.splice(statusWaiters.indexOf(w), 1);
        w.resolve(s);
      }
    }
    changed();
  });
  connection.listen();

  const versions = new Map<string, number>();
  const init = await connection.sendRequest<InitializeResult>('initialize', {
    processId: process.pid,
    rootUri: opts.workspaceFolders?.[0]?.uri ?? null,
    workspaceFolders: opts.workspaceFolders ?? null,
    capabilities: {
      workspace: {
        configuration: !opts.noConfiguration,
        workspaceFolders: true,
        ...(opts.inlayHints ? { inlayHint: { refreshSupport: true } } : {}),
        ...opts.workspaceCapabilities,
      },
      window: {
        workDoneProgress: true,
        ...(opts.answerMessageRequest
          ? { showMessage: { messageActionItem: { additionalPropertiesSupport: false } } }
          : {}),
      },
      textDocument: {
        codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'refactor'] } } },
        hover: { contentFormat: opts.hoverContentFormat ?? ['markdown'] },
        ...(opts.documentationFormat || opts.completionCapabilities
          ? {
              completion: {
                ...opts.completionCapabilities,
                completionItem: {
                  ...opts.completionCapabilities?.completionItem,
                  ...(opts.documentationFormat ? { documentationFormat: opts.documentationFormat } : {}),
                },
              },
            }
          : {}),
        ...(opts.documentLinkTooltips ? { documentLink: { tooltipSupport: true } } : {}),
        ...(opts.inlayHints ? { inlayHint: { dynamicRegistration: false } } : {}),
      },
    },
    initializationOptions: {
      ...(opts.genericClient ? {} : { hoverShowsDiagnostics: true, statusNotifications: true }),
      ...(opts.documentLinkTooltips ? { hoverShowsLinkTooltips: true } : {}),
      ...(opts.initializationOptions ?? (opts.noConfiguration ? { settings } : {})),
    },
  });
  await connection.sendNotification('initialized', {});

  const withTimeout = <T>(p: Promise<T>, ms: number, what: string): Promise<T> =>
    new Promise((resolve, reject) => {
      const t = setTimeout(
        () =>
          reject(
            new Error(
              `timed out after ${ms} ms waiting for ${what}; server stderr:\n${stderr}\nlogs:\n${logs.join('\n')}`,
            ),
          ),
        ms,
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
    init,
    settings,
    statuses,
    logs,
    configurationScopes,
    async open(uri, languageId, text) {
      versions.set(uri, 1);
      await connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri, languageId, version: 1, text },
      });
    },
    async change(uri, text) {
      const v = (versions.get(uri) ?? 1) + 1;
      versions.set(uri, v);
      await connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: v },
        contentChanges: [{ text }],
      });
    },
    async close(uri) {
      await connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
    },
    hover: (uri, position) =>
      connection.sendRequest<Hover | null>('textDocument/hover', { textDocument: { uri }, position }),
    completion: async (uri, position) => {
      const r = await connection.sendRequest<CompletionItem[] | { items: CompletionItem[] } | null>(
        'textDocument/completion',
        { textDocument: { uri }, position },
      );
      return Array.isArray(r) ? r : (r?.items ?? []);
    },
    links: async (uri) =>
      (await connection.sendRequest<DocumentLink[] | null>('textDocument/documentLink', { textDocument: { uri } })) ??
      [],
    inlayHints: async (uri, range = { start: { line: 0, character: 0 }, end: { line: 10_000, character: 0 } }) =>
      (await connection.sendRequest<InlayHint[] | null>('textDocument/inlayHint', { textDocument: { uri }, range })) ??
      [],
    inlayHintRefreshes: () => inlayHintRefreshes,
    codeActions: async (uri, range, diagnostics, only) =>
      (await connection.sendRequest<CodeAction[] | null>('textDocument/codeAction', {
        textDocument: { uri },
        range,
        context: { diagnostics, ...(only ? { only } : {}) },
      })) ?? [],
    command: (command, arg) => connection.sendRequest('workspace/executeCommand', { command, arguments: [arg] }),
    async configurationChanged() {
      await connection.sendNotification('workspace/didChangeConfiguration', { settings: null });
    },
    diagnostics(uri, accept = () => true, timeoutMs = 20000) {
      const latest = published.get(uri);
      if (latest && accept(latest)) return Promise.resolve(latest);
      return withTimeout(
        new Promise<Diagnostic[]>((resolve) => {
          diagWaiters.push({ uri, accept, resolve });
        }),
        timeoutMs,
        `diagnostics of ${uri}`,
      );
    },
    latestDiagnostics: (uri) => published.get(uri),
    publishCount: (uri) => publishCounts.get(uri) ?? 0,
    stderr: () => stderr,
    waitForStatus(accept, timeoutMs = 20000) {
      const last = statuses[statuses.length - 1];
      if (last && accept(last)) return Promise.resolve(last);
      return withTimeout(
        new Promise<CatalogStatus>((resolve) => {
          statusWaiters.push({ accept, resolve });
        }),
        timeoutMs,
        'a catalog status',
      );
    },
    nextIndexed,
    waitForIndexed(accept, timeoutMs = 20000) {
      if (lastIndexed && accept(lastIndexed)) return Promise.resolve(lastIndexed);
      return nextIndexed(accept, timeoutMs);
    },
    waitUntil(done, what, timeoutMs = 10_000) {
      return new Promise<void>((resolve, reject) => {
        let checking = false;
        let again = false;
        const finish = (err?: Error): void => {
          notified.delete(check);
          child.off('exit', onExit);
          clearTimeout(timer);
          if (err) reject(err);
          else resolve();
        };
        const failure = (why: string): Error =>
          new Error(`${what}: not seen (${why})\nlogs:\n${logs.join('\n')}\nstderr:\n${stderr}`);
        // One check at a time; a notification during a check asks for one more after it.
        const check = (): void => {
          if (checking) {
            again = true;
            return;
          }
          checking = true;
          void Promise.resolve()
            .then(done)
            .then(
              (ok) => {
                checking = false;
                if (ok) finish();
                else if (again) {
                  again = false;
                  check();
                }
              },
              (e: unknown) => finish(e instanceof Error ? e : new Error(String(e))),
            );
        };
        const onExit = (): void => finish(failure('the server exited'));
        const timer = setTimeout(() => finish(failure(`timed out after ${timeoutMs} ms`)), timeoutMs);
        if (child.exitCode !== null || child.signalCode !== null) return onExit();
        child.once('exit', onExit);
        notified.add(check);
        check();
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise<void>((r) => child.once('exit', () => r()));
        try {
          await withTimeout(connection.sendRequest('shutdown'), 5000, 'shutdown');
          await connection.sendNotification('exit');
        } catch {
          child.kill('SIGKILL');
        }
        await withTimeout(exited, 5000, 'the server to exit').catch(() => {
          child.kill('SIGKILL');
        });
      }
      connection.dispose();
    },
  };
}

/** Text with one `|` caret marker: the text without it, and the caret's position. */
export function caret(marked: string): { text: string; position: Position; offset: number } {
  const offset = marked.indexOf('|');
  if (offset < 0) throw new Error('no | caret in the text');
  const text = marked.slice(0, offset) + marked.slice(offset + 1);
  return { text, offset, position: positionAt(text, offset) };
}

export function positionAt(text: string, offset: number): Position {
  const before = text.slice(0, offset);
  const line = before.split('\n').length - 1;
  return { line, character: offset - (before.lastIndexOf('\n') + 1) };
}

/** Position of the `nth` occurrence of `needle` in `text`, plus `delta` characters. */
export function positionOf(text: string, needle: string, delta = 0, nth = 0): Position {
  let i = -1;
  for (let k = 0; k <= nth; k++) {
    i = text.indexOf(needle, i + 1);
    if (i < 0) throw new Error(`'${needle}' not found in the text`);
  }
  return positionAt(text, i + delta);
}

export function hoverText(h: Hover | null): string {
  if (!h) return '';
  const c = h.contents as { value?: string } | string | Array<string | { value: string }>;
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) return c.map((x) => (typeof x === 'string' ? x : x.value)).join('\n');
  return c.value ?? '';
}
