/**
 * The wiring: creates the pieces and registers the handler modules, once the editor's `initialize`
 * is answered (server.ts) and before any other message is handled. A request goes handler
 * (handlers/) → language service (service/) → features (features/), with the catalog's answers from
 * resolution/ and the open documents' pipeline (pipeline/); docs/dev/architecture.md draws it.
 */
import { DidChangeWatchedFilesNotification, TextDocuments, type Connection } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { readFileSync } from 'node:fs';
import { IndexedNotification, SERVER_TOKEN_ENV } from '../../model/src/protocol';
import { CODE_CACHE_WRITER, type CodeCacheWriter } from '../../model/src/codeCache';
import type { CatalogClient } from './catalogClient/client';
import type { Fetch } from './catalogClient/http';
import { nodeFetch } from './catalogClient/transport';
import { CatalogClients } from './catalogClient/registry';
import type { ClientSession } from './clientSession';
import { registerCustomRequests } from './handlers/customRequests';
import { registerDocumentHandlers } from './handlers/documentHandlers';
import { registerNotifications } from './handlers/notifications';
import { registerServerCommands } from './handlers/serverCommands';
import { statusNotices } from './handlers/statusNotices';
import { confirmToken } from './handlers/tokenPrompt';
import { createIndexService } from './index/indexService';
import { collectDiagnostics, type ToolHost } from './tools/tools';
import { guardWith, sendCustomNotification, toLspDiagnostic, type Log } from './lsp';
import type { PipelineDeps } from './pipeline/check';
import { OpenDocuments } from './pipeline/openDocuments';
import { ClosedDiagnostics } from './pipeline/closedDiagnostics';
import { CatalogResolution } from './resolution/resolution';
import { CatalogLanguageService } from './service/languageService';
import { SettingsStore } from './settings';
import { normalUri, type ScanFiles, type WorkspaceDeps } from './workspace';
import { releaseMemoryWhenIdle, WorkInFlight } from './idleRelease';

/** How long the server waits to tell the editor to ask for inlay hints again, gathering the documents checked meanwhile. */
const REFRESH_INLAY_MS = 50;

export interface Runtime {
  env: NodeJS.ProcessEnv;
  fetch?: Fetch;
}

/** The wired server, for what the editor says at `initialize`. */
export interface WiredServer {
  /** Takes what the editor said at `initialize`: its session, settings and token. */
  initialize(session: ClientSession): void;
}

/**
 * Creates the pieces over `connection` (already listening) and registers every handler but
 * `initialize`'s; `initial` is what the editor said at `initialize`.
 */
export function wireServer(connection: Connection, runtime: Runtime, initial: ClientSession): WiredServer {
  const documents = new TextDocuments(TextDocument);
  const settings = new SettingsStore(undefined, {});
  const log: Log = (m) => connection.console.log(m);
  const guard = guardWith(log);
  /** What the editor said at initialize; read by the pieces when they need it. */
  let session: ClientSession = initial;
  const sessionNow = (): ClientSession => session;
  /** What the server awaits while its event loop is idle: the idle memory release waits for it. */
  const work = new WorkInFlight();
  const fetchOf = runtime.fetch ?? nodeFetch;

  const notices = statusNotices(
    {
      notify: (method, params) => void connection.sendNotification(method, params),
      showMessage: (type, message) => void connection.sendNotification('window/showMessage', { type, message }),
    },
    () => session.statusNotifications,
  );

  const catalogClients = new CatalogClients({
    token: runtime.env[SERVER_TOKEN_ENV] || undefined,
    fetch: (url, init) => work.track(fetchOf(url, init)),
    log,
    onStatus: (status) => {
      log(`catalog: ${status.state} — ${status.message}`);
      notices.status(status);
    },
    // The catalog answers again: the open documents are checked with it.
    onRecovered: () => openDocuments.revalidateAll(),
    confirmToken: (origin, why, kind) => confirmToken(connection, log, session.clientCommands, origin, why, kind),
    allowedOrigins: () => session.allowedOrigins,
    environment: {
      env: runtime.env,
      home: runtime.env['HOME'] ?? runtime.env['USERPROFILE'],
      readText: readTextFile,
      trusted: () => session.trusted,
    },
  });
  const resolution = new CatalogResolution(catalogClients, log);
  // Told to ask for inlay hints again at most once per REFRESH_INLAY_MS: documents checked together send one.
  let inlayRefresh: NodeJS.Timeout | undefined;
  const refreshInlayHints = (): void => {
    if (!session.inlayHints || !session.inlayHintRefresh || inlayRefresh) return;
    inlayRefresh = setTimeout(() => {
      inlayRefresh = undefined;
      connection.languages.inlayHint.refresh().catch((e: unknown) => log(`inlay hint refresh failed: ${String(e)}`));
    }, REFRESH_INLAY_MS);
  };

  const pipelineDeps: PipelineDeps<CatalogClient> = {
    settingsFor: (uri) => settings.get(uri),
    clientFor: (s) => catalogClients.clientFor(s),
    log,
    // Structured property values are checked against the definitions files of the workspace give.
    propertyDefinitions: (urn) => index.index.propertyDefinition(urn),
  };
  // What Check Workspace last sent each closed file: a check that finds the same sends nothing.
  const closedDiagnostics = new ClosedDiagnostics(normalUri);
  const clear = (uri: string): void => {
    closedDiagnostics.forget(uri);
    void connection.sendDiagnostics({ uri, diagnostics: [] });
  };
  const openDocuments = new OpenDocuments({
    ...pipelineDeps,
    documents,
    publish: (doc, diagnostics) => {
      closedDiagnostics.forget(doc.uri);
      void connection.sendDiagnostics({
        uri: doc.uri,
        version: doc.version,
        diagnostics: diagnostics.map((d) => toLspDiagnostic(doc, d)),
      });
    },
    clear,
    skipped: (file) => notices.skipped(file),
    suggest: (s, items, signal) => resolution.suggest(s, items, signal),
    // New answers of the catalog: the names beside ids may have changed.
    answered: (_uri, s) => {
      if (s.inlayHints.names) refreshInlayHints();
    },
  });
  const index = createIndexService({
    documents,
    openDocuments,
    settingsFor: (uri) => settings.get(uri),
    folders: () => session.folders,
    log,
    progress: async () => {
      // Called as each build starts: in flight until the builds started so far have ended.
      void work.track(index.ready());
      return session.progress ? connection.window.createWorkDoneProgress() : undefined;
    },
    registerWatcher: async (globPattern) => {
      if (!session.watchedFiles) return false;
      await connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern }] });
      return true;
    },
    announce: (params) => {
      if (session.indexedNotifications) sendCustomNotification(connection, IndexedNotification, params);
    },
    definitionsChanged: () => openDocuments.revalidateAll(),
  });
  const workspace: WorkspaceDeps = {
    ...pipelineDeps,
    workspaceFolders: () => session.folders,
    openDocument: (uri) => documents.get(uri),
    scanOf: (doc, s) => openDocuments.scanOf(doc, s),
    // An open document's diagnostics go through its pipeline, which keeps what the editor shows for the hover.
    publish: (doc, diagnostics) => {
      const open = documents.get(doc.uri) ?? index.openDocumentFor(doc.uri);
      if (open) {
        // Opened since the check read it from disk, or open under another spelling: its own
        // pipeline publishes what the editor has, under the editor's spelling.
        if (open.uri === doc.uri && open.version === doc.version) openDocuments.publish(doc, diagnostics);
        return;
      }
      const lsp = diagnostics.map((d) => toLspDiagnostic(doc, d));
      if (closedDiagnostics.changed(doc.uri, JSON.stringify(lsp)))
        void connection.sendDiagnostics({ uri: doc.uri, diagnostics: lsp });
    },
    clear,
    // Check Workspace reads the files the index names as holding URNs, when it can vouch for them.
    indexedFiles: (folder, s) => index.filesToCheck(folder, s),
    // What a check found of each closed file, for the next one: a file the same on disk, whose
    // answers are the same and whose diagnostics the editor still shows, is not read again.
    reuse: { kept: undefined, stillShown: (uri) => closedDiagnostics.shown(uri) },
    // Its files read and scanned in the index's worker threads.
    ...(index.scanFiles ? { scanFiles: trackedScan(work, index.scanFiles) } : {}),
  };
  // The agent bridge's tools over the server's own index, resolution and Check Workspace.
  const tools: ToolHost = {
    folders: () => session.folders,
    settingsFor: (uri) => settings.get(uri),
    index: async () => {
      await index.ready();
      return index.index;
    },
    resolution,
    // Check Workspace's reading (open documents, the index's files), its diagnostics collected, not published.
    check: () => collectDiagnostics(workspace),
    catalogStatus: () => catalogClients.current(),
  };
  const service = new CatalogLanguageService({ openDocuments, resolution, index, settings, session: sessionNow, log });

  const initialize = (given: ClientSession): void => {
    session = given;
    settings.replaceInitial(session.initialSettings);
    if (session.configuration) {
      settings.useFetcher((scopeUri) =>
        connection.workspace.getConfiguration(
          scopeUri ? { scopeUri, section: 'catalogLens' } : { section: 'catalogLens' },
        ),
      );
    }
    if (session.token !== undefined) catalogClients.useToken(session.token);
  };
  initialize(initial);

  registerNotifications({
    connection,
    documents,
    openDocuments,
    index,
    settings,
    session: sessionNow,
    resetClients: () => catalogClients.reset(),
    refreshInlayHints,
    log,
  });
  registerDocumentHandlers(connection, service, guard, documents);
  registerCustomRequests(connection, service, guard, tools);
  registerServerCommands({
    connection,
    workspace,
    writing: {
      ...pipelineDeps,
      get trusted() {
        return session.trusted;
      },
      revalidateAll: () => openDocuments.revalidateAll(),
    },
    openDocuments,
    resolution,
    settings,
    progress: () => session.progress,
    writeNotices: () =>
      session.clientCommands
        ? undefined
        : { messageActions: session.messageActions, showDocument: session.showDocument },
    messageActions: () => session.messageActions,
    dataHubYaml: (params, token) => service.dataHubYaml(params, token),
    inFlight: (check) => work.track(check),
    log,
  });

  // Memory a burst of work grew to, given back once the server is idle again. When the first burst
  // has ended, the entry's code cache is written too (boot.ts), if it is due: on the entry's own
  // timer it fell among the first requests or right after them, where its work made the looks see
  // a busy loop and put the release off (its time in `tidy` is not counted as work).
  let writeCodeCache: (() => void) | undefined;
  const idle = releaseMemoryWhenIdle(runtime.env, log, {
    work,
    tidy: () => {
      writeCodeCache?.();
      catalogClients.compactCaches();
    },
  });
  const codeCacheWriter = (globalThis as Record<symbol, unknown>)[CODE_CACHE_WRITER] as CodeCacheWriter | undefined;
  if (idle && codeCacheWriter) writeCodeCache = codeCacheWriter.whenIdle();
  documents.onDidChangeContent(() => work.arrived());
  documents.onDidClose(() => work.arrived());
  documents.listen(connection);
  connection.onShutdown(() => {
    // A session that was busy to its end never had its idle release: the code cache, when due, is written now.
    writeCodeCache?.();
    idle?.stop();
    catalogClients.dispose();
  });
  return { initialize };
}

/** `scan` with each run counted as work in flight. */
function trackedScan(work: WorkInFlight, scan: ScanFiles): ScanFiles {
  const tracked: ScanFiles = (files, take, stop) => work.track(scan(files, take, stop));
  if (scan.hold) tracked.hold = () => scan.hold!();
  return tracked;
}

function readTextFile(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
