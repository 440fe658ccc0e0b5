/**
 * The wiring: LSP handlers on one side, the document pipeline (pipeline/) and the pure services
 * (features/) on the other. A handler finds the open document with its settings and scan, asks
 * the catalog when its feature needs an answer, calls the feature, and translates the result to
 * the protocol (lsp.ts). The server commands are one table built here.
 */
import {
  CodeActionKind,
  TextDocuments,
  TextDocumentSyncKind,
  type CancellationToken,
  type CompletionItem,
  type CompletionList,
  type Connection,
  type InitializeParams,
  type InitializeResult,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { readFileSync } from 'node:fs';
import {
  KnownUrnsRequest,
  EntityPageRequest,
  LineageRequest,
  MembersRequest,
  SEARCH_PAGE,
  SearchRequest,
  SERVER_TOKEN_ENV,
  SkippedNotification,
  StatusNotification,
  UrnAtRequest,
  type EntityPageParams,
  type LineageParams,
  type SearchParams,
  type ServerInitializationOptions,
  type Settings,
} from '../../model/src/protocol';
import { PRODUCT_VERSION } from '../../model/src/version';
import { ServerCommands as Commands } from '../../model/src/commandIds';
import type { Fetch } from './catalogClient/http';
import type { CatalogClient, ResolutionLookup } from './catalogClient/client';
import { contextOf, type EntityContext } from './catalogClient/context';
import { lineageOf } from './catalogClient/lineage';
import { searchCatalog } from './catalogClient/search';
import { RESOLVABLE_KINDS, isResolvable, type ResolvableKind } from './catalogClient/queries';
import { hintFor } from './catalogClient/errors';
import { CatalogClients } from './catalogClient/registry';
import { registerCommands, type CommandTable } from './commands';
import { REFACTOR_KIND, codeActionsFor } from './features/codeActions';
import { completionsAt } from './features/completion';
import { nameItems, nameSlotAt } from './features/completeNames';
import { hoverAt, hoverLookupAt } from './features/hover';
import { linksIn } from './features/links';
import { lookupOf, type Lookup } from './features/lookup';
import { urnAtOffset } from './features/urnAt';
import { parseUrnCached } from './scan/parseCache';
import { entityPageUrl } from '../../model/src/entityPage';
import { inertText } from '../../model/src/inertText';
import {
  cancelled,
  guardWith,
  onCustomRequest,
  sendCustomNotification,
  signalOf,
  toLspDiagnostic,
  toLspDocumentLink,
  toLspHover,
  type Log,
} from './lsp';
import { resolveItems, type PipelineContext } from './pipeline/check';
import { OpenDocuments } from './pipeline/openDocuments';
import { registerWorkspaceIndex } from './index/indexService';
import { suggestNear } from './pipeline/suggest';
import { SettingsStore } from './settings';
import { checkWorkspace, type WorkspaceContext } from './workspace';
import { listMembers } from './writes/members';
import { writeCommands, type WriteContext } from './writes/writeCommands';

export interface Runtime {
  env: NodeJS.ProcessEnv;
  fetch?: Fetch;
}

export function startServer(connection: Connection, runtime: Runtime): void {
  const documents = new TextDocuments(TextDocument);
  const settings = new SettingsStore(undefined, {});
  const log: Log = (m) => connection.console.log(m);
  const guard = guardWith(log);
  /** What the client said at initialize (options and capabilities), and its workspace folders since. */
  const session = {
    clientCommands: false,
    trusted: true,
    canProgress: false,
    /** The editor shows a document link's tooltip in the hover over it (VS Code): hovers then leave their link out. */
    linkTooltips: false,
    allowedOrigins: [] as string[],
    folders: [] as string[],
    /** The editor tells of workspace folders added and removed. */
    workspaceFolders: false,
    /** The client asked for `catalogLens/indexed` notifications. */
    indexedNotifications: false,
    /** The editor lets the server register file watchers (the workspace index follows files on disk). */
    watchedFiles: false,
    /** The editor shows a WorkspaceEdit's change annotations (rename: "the catalog is not changed"). */
    changeAnnotations: false,
  };

  const catalogClients = new CatalogClients({
    token: runtime.env[SERVER_TOKEN_ENV] || undefined,
    ...(runtime.fetch ? { fetch: runtime.fetch } : {}),
    log,
    onStatus: (status) => {
      log(`catalog: ${status.state} — ${status.message}`);
      sendCustomNotification(connection, StatusNotification, status);
    },
    // The catalog answers again: the open documents (made just below) are checked with it.
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

  const context: PipelineContext<CatalogClient> = {
    settingsFor: (uri) => settings.get(uri),
    clientFor: (s) => catalogClients.clientFor(s),
    log,
  };
  const clear = (uri: string): void => void connection.sendDiagnostics({ uri, diagnostics: [] });
  const openDocuments = new OpenDocuments({
    ...context,
    documents,
    publish: (doc, diagnostics) =>
      void connection.sendDiagnostics({
        uri: doc.uri,
        version: doc.version,
        diagnostics: diagnostics.map((d) => toLspDiagnostic(doc, d)),
      }),
    clear,
    skipped: (file) => sendCustomNotification(connection, SkippedNotification, file),
    suggest: (s, items, signal) => suggestNear(catalogClients.clientFor(s), items, signal),
  });
  const workspace: WorkspaceContext = {
    ...context,
    workspaceFolders: () => session.folders,
    openDocument: (uri) => documents.get(uri),
    scanOf: (doc, s) => openDocuments.scanOf(doc, s),
    // An open document's diagnostics go through its pipeline, which keeps what the editor shows for the hover.
    publish: (doc, diagnostics) =>
      documents.get(doc.uri)?.version === doc.version
        ? openDocuments.publish(doc, diagnostics)
        : void connection.sendDiagnostics({
            uri: doc.uri,
            diagnostics: diagnostics.map((d) => toLspDiagnostic(doc, d)),
          }),
    clear,
  };
  const writing: WriteContext = {
    ...context,
    get trusted() {
      return session.trusted;
    },
    revalidateAll: () => openDocuments.revalidateAll(),
  };

  /** What the catalog answers about the one URN a request needs (none asked: no answers); a cancelled request ends here. */
  const answerFor = async (
    lookup: Lookup | undefined,
    s: Settings,
    token: CancellationToken,
  ): Promise<ResolutionLookup> => {
    if (!lookup) return () => undefined;
    const resolved = await resolveItems(catalogClients.clientFor(s), [lookup], signalOf(token));
    if (token.isCancellationRequested) throw cancelled();
    return resolved;
  };

  /**
   * What else the catalog knows of the entity a hover is on (not of a column); undefined when the
   * catalog cannot say, which the log notes once per kind of failure: the hover goes on without it.
   */
  const contextFor = async (
    lookup: Lookup | undefined,
    s: Settings,
    token: CancellationToken,
  ): Promise<EntityContext | undefined> => {
    if (!lookup || lookup.column !== undefined) return undefined;
    const client = catalogClients.clientFor(s);
    // An entity the catalog said it lacks has nothing more to say.
    if (client.cached(lookup.urn)?.state === 'missing') return undefined;
    const answer = await contextOf(client, lookup.urn, lookup.kind, signalOf(token));
    if (!('kind' in answer)) return answer;
    if (answer.kind !== 'cancelled' && answer.kind !== 'notConfigured' && !contextFailures.has(answer.kind)) {
      contextFailures.add(answer.kind);
      log(`hover: owners, tags, deprecation and lineage not shown: ${answer.message}`);
    }
    return undefined;
  };
  const contextFailures = new Set<string>();

  /** Settings for page links: the catalog actually used, also when it came from DataHub's CLI configuration. */
  const linkSettings = (s: Settings): Settings => (s.url ? s : { ...s, url: catalogClients.endpointFor(s).url });

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const caps = params.capabilities;
    // Other editors send what they like: every option is checked before it is used.
    const init = (params.initializationOptions ?? {}) as Partial<Record<keyof ServerInitializationOptions, unknown>>;
    session.clientCommands = init.clientCommands === true;
    session.indexedNotifications = init.indexedNotifications === true;
    session.allowedOrigins = allowedOriginsOf(init);
    const token =
      typeof init.token === 'string' && init.token !== '' && !runtime.env[SERVER_TOKEN_ENV] ? init.token : undefined;
    if (init.trusted === false) session.trusted = false;
    settings.replaceInitial(init.settings ?? {});
    if (caps.workspace?.configuration) {
      settings.useFetcher((scopeUri) =>
        connection.workspace.getConfiguration(
          scopeUri ? { scopeUri, section: 'catalogLens' } : { section: 'catalogLens' },
        ),
      );
    }
    session.canProgress = caps.window?.workDoneProgress === true;
    session.watchedFiles = caps.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
    session.changeAnnotations =
      caps.workspace?.workspaceEdit?.documentChanges === true &&
      caps.workspace.workspaceEdit.changeAnnotationSupport !== undefined;
    session.linkTooltips = caps.textDocument?.documentLink?.tooltipSupport === true;
    session.folders = (params.workspaceFolders ?? []).map((f) => f.uri);
    session.workspaceFolders = caps.workspace?.workspaceFolders === true;
    if (session.folders.length === 0 && params.rootUri) session.folders = [params.rootUri];
    if (token !== undefined) catalogClients.useToken(token);
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        hoverProvider: true,
        completionProvider: { triggerCharacters: [':', '(', ','] },
        documentLinkProvider: { resolveProvider: false },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, REFACTOR_KIND] },
        executeCommandProvider: { commands: Object.values(Commands) },
        referencesProvider: true,
        documentHighlightProvider: true,
        definitionProvider: true,
        workspaceSymbolProvider: true,
        renameProvider: { prepareProvider: true },
        codeLensProvider: { resolveProvider: false },
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      },
      serverInfo: { name: 'catalog-lens-server', version: PRODUCT_VERSION },
    };
  });

  connection.onInitialized(() => {
    workspaceIndex.initialized();
    if (session.workspaceFolders) {
      // Folders added and removed: the index builds the new ones and drops the files of the old.
      connection.workspace.onDidChangeWorkspaceFolders((e) => {
        session.folders = session.folders
          .filter((f) => !e.removed.some((r) => r.uri === f))
          .concat(e.added.map((a) => a.uri));
        workspaceIndex.foldersChanged(
          e.added.map((a) => a.uri),
          e.removed.map((r) => r.uri),
        );
      });
    }
  });

  connection.onDidChangeConfiguration((change) => {
    const pushed = (change.settings as { catalogLens?: unknown } | null | undefined)?.catalogLens;
    if (pushed !== undefined) settings.replaceInitial(pushed);
    else settings.clear();
    catalogClients.reset();
    openDocuments.forgetScans();
    openDocuments.revalidateAll();
  });

  const workspaceIndex = registerWorkspaceIndex({
    connection,
    documents,
    openDocuments,
    settingsFor: (uri) => settings.get(uri),
    folders: () => session.folders,
    log,
    guard,
    capabilities: () => ({
      progress: session.canProgress,
      watchedFiles: session.watchedFiles,
      changeAnnotations: session.changeAnnotations,
      indexedNotifications: session.indexedNotifications,
    }),
  });

  // Check Workspace reads the files the index names as holding URNs, when it can vouch for them.
  workspace.indexedFiles = (folder, s) => workspaceIndex.filesToCheck(folder, s);

  documents.onDidChangeContent((e) => {
    openDocuments.changed(e.document.uri);
    workspaceIndex.changed(e.document.uri);
  });
  documents.onDidClose((e) => {
    settings.forget(e.document.uri);
    openDocuments.closed(e.document.uri);
    workspaceIndex.closed(e.document.uri);
  });

  connection.onHover(
    guard('hover', null, async (params, token) => {
      const open = await openDocuments.open(params.textDocument.uri);
      if (!open?.scan) return null;
      const offset = open.doc.offsetAt(params.position);
      const lookup = hoverLookupAt(open.scan, offset);
      // What else the catalog knows (owners, tags, deprecation, lineage) is asked beside the entity.
      const [resolved, context] = await Promise.all([
        answerFor(lookup, open.settings, token),
        contextFor(lookup, open.settings, token),
      ]);
      const shown = openDocuments.shownDiagnostics(open.doc);
      const hover = hoverAt(
        open.scan,
        offset,
        linkSettings(open.settings),
        resolved,
        { linkTooltips: session.linkTooltips, lineageLinks: session.clientCommands, ...(shown ? { shown } : {}) },
        context,
      );
      return hover ? toLspHover(open.doc, hover) : null;
    }),
  );

  /** The catalog search of the newest completion: a newer one stops it (typing on makes it moot). */
  let completing: AbortController | undefined;
  /** Whether the last completion's search failed: a failure is logged once until one succeeds again. */
  let completionFailing = false;
  connection.onCompletion(
    guard('completion', [] as CompletionItem[] | CompletionList, async (params, token) => {
      // Opening scans the document: platforms of this very document count as seen.
      const open = await openDocuments.open(params.textDocument.uri);
      if (!open || !open.settings.languages.includes(open.doc.languageId)) return [];
      const { doc } = open;
      const slot = nameSlotAt(doc.getText(), doc.offsetAt(params.position), open.settings.namespaces, doc.languageId);
      if (slot) {
        completing?.abort();
        const abort = (completing = new AbortController());
        token.onCancellationRequested(() => abort.abort());
        const found = await searchCatalog(
          catalogClients.clientFor(open.settings),
          {
            query: slot.typed,
            kinds: [slot.kind],
            ...(slot.platform ? { platform: slot.platform } : {}),
            count: SEARCH_PAGE,
            mode: 'complete',
          },
          abort.signal,
        );
        if (completing === abort) completing = undefined;
        if (token.isCancellationRequested) throw cancelled();
        if (found.error !== undefined) {
          // Logged once until a search succeeds: completion goes on quietly without the catalog's names.
          if (!completionFailing) log(`completion: no names from the catalog: ${found.error}`);
          completionFailing = true;
          return { isIncomplete: true, items: [] };
        }
        completionFailing = false;
        const range = { start: doc.positionAt(slot.from), end: doc.positionAt(slot.to) };
        return {
          // More than listed: the editor asks again as the name grows; else it filters this list itself.
          isIncomplete: found.total > found.items.length || found.items.length >= SEARCH_PAGE,
          items: nameItems(slot, found.items, range, (urn, reason) =>
            log(`completion: not offering ${inertText(urn, 'plain', 200)}: ${reason}`),
          ),
        };
      }
      const line = doc.getText({ start: { line: params.position.line, character: 0 }, end: params.position });
      return completionsAt(line, params.position, open.settings.namespaces, openDocuments.knownPlatforms());
    }),
  );

  connection.onDocumentLinks(
    guard('documentLinks', [], async (params) => {
      const open = await openDocuments.open(params.textDocument.uri);
      if (!open?.scan) return [];
      return linksIn(open.scan, linkSettings(open.settings)).map((l) => toLspDocumentLink(open.doc, l));
    }),
  );

  connection.onCodeAction(
    guard('codeAction', [], async (params) => {
      const open = await openDocuments.open(params.textDocument.uri);
      if (!open?.scan) return [];
      const { doc, scan, settings: s } = open;
      const { trusted, clientCommands } = session;
      const cached: ResolutionLookup = (urn) => catalogClients.clientFor(s).cached(urn);
      return codeActionsFor({ doc, scan, params, trusted, clientCommands, cached });
    }),
  );

  onCustomRequest(
    connection,
    UrnAtRequest,
    guard('urnAt', null, async (params) => {
      const open = await openDocuments.open(params.textDocument.uri);
      return open?.scan ? urnAtOffset(open.scan, open.doc.offsetAt(params.position)) : null;
    }),
  );

  onCustomRequest(
    connection,
    KnownUrnsRequest,
    guard('knownUrns', [], (params) =>
      openDocuments.knownUrns(params.kind, typeof params.uri === 'string' ? params.uri : undefined),
    ),
  );

  onCustomRequest(
    connection,
    MembersRequest,
    guard('members', { error: 'the members could not be read' }, async (params, token) => {
      const s = await settings.get(typeof params?.uri === 'string' ? params.uri : undefined);
      return listMembers(catalogClients.clientFor(s), params, signalOf(token));
    }),
  );

  onCustomRequest(
    connection,
    EntityPageRequest,
    guard('entityPage', { error: 'the page could not be made' }, async (params) => {
      // Other editors send what they like: the params are checked before use.
      const p = params as Partial<Record<keyof EntityPageParams, unknown>> | null | undefined;
      if (typeof p?.urn !== 'string') return { error: 'catalogLens/entityPage: urn must be a string' };
      const parsed = parseUrnCached(p.urn);
      if (!parsed.ok) return { error: `Not a URN: ${parsed.error.message}` };
      const s = await settings.get(typeof p.uri === 'string' ? p.uri : undefined);
      return entityPageUrl(linkSettings(s), parsed.urn, p.urn);
    }),
  );

  onCustomRequest(
    connection,
    LineageRequest,
    guard('lineage', { error: 'the lineage could not be read' }, async (params, token) => {
      // Other editors send what they like: the params are checked before use.
      const p = params as Partial<Record<keyof LineageParams, unknown>> | null | undefined;
      if (p?.direction !== 'upstream' && p?.direction !== 'downstream')
        return { error: `catalogLens/lineage: direction must be "upstream" or "downstream"` };
      if (typeof p.urn !== 'string') return { error: 'catalogLens/lineage: urn must be a string' };
      const parsed = parseUrnCached(p.urn);
      const lookup = parsed.ok ? lookupOf(parsed.urn, p.urn) : undefined;
      if (!lookup || lookup.column !== undefined)
        return { error: `catalogLens/lineage: ${inertText(p.urn, 'plain', 200)} is not a dataset or ML entity` };
      const s = await settings.get(typeof p.uri === 'string' ? p.uri : undefined);
      return lineageOf(catalogClients.clientFor(s), lookup.urn, lookup.kind, p.direction, signalOf(token));
    }),
  );

  onCustomRequest(
    connection,
    SearchRequest,
    guard('search', { error: 'the catalog could not be searched' }, async (params, token) => {
      // Other editors send what they like: the params are checked before use.
      const p = params as Partial<Record<keyof SearchParams, unknown>> | null | undefined;
      if (typeof p?.query !== 'string') return { error: 'catalogLens/search: query must be a string' };
      const kinds = p.kinds === undefined ? [] : Array.isArray(p.kinds) ? p.kinds : [p.kinds];
      const wrong = kinds.find((k) => typeof k !== 'string' || !isResolvable(k as ResolvableKind));
      if (wrong !== undefined)
        return {
          error: `catalogLens/search: kinds: ${inertText(String(wrong), 'plain', 60)} is not one of ${RESOLVABLE_KINDS.join(', ')}`,
        };
      if (p.platform !== undefined && (typeof p.platform !== 'string' || !/^[\w.-]+$/.test(p.platform)))
        return { error: 'catalogLens/search: platform must be a platform name such as hive' };
      if (p.count !== undefined && (typeof p.count !== 'number' || !Number.isInteger(p.count) || p.count < 1))
        return { error: 'catalogLens/search: count must be a positive whole number' };
      const s = await settings.get(typeof p.uri === 'string' ? p.uri : undefined);
      return searchCatalog(
        catalogClients.clientFor(s),
        {
          query: p.query,
          kinds: kinds as ResolvableKind[],
          ...(p.platform !== undefined ? { platform: p.platform } : {}),
          ...(p.count !== undefined ? { count: p.count } : {}),
          mode: 'search',
        },
        signalOf(token),
      );
    }),
  );

  const commands: CommandTable = {
    ...writeCommands(writing),
    [Commands.checkWorkspace]: async (_args, token) => {
      const progress = session.canProgress ? await connection.window.createWorkDoneProgress() : undefined;
      progress?.begin('Catalog Lens: checking workspace', 0, 'listing files', true);
      try {
        return await checkWorkspace(workspace, {
          report: (percentage, message) => progress?.report(percentage, message),
          cancelled: () => token.isCancellationRequested || (progress?.token.isCancellationRequested ?? false),
          signal: signalOf(token),
        });
      } finally {
        progress?.done();
      }
    },
    [Commands.refresh]: async () => {
      for (const c of catalogClients.all()) c.clearCache();
      openDocuments.forgetScans();
      openDocuments.revalidateAll();
      return { refreshed: documents.all().length };
    },
    [Commands.testConnection]: async (args) => {
      const uri =
        typeof (args as { uri?: unknown } | undefined)?.uri === 'string' ? (args as { uri: string }).uri : undefined;
      const s = await settings.get(uri);
      const client = catalogClients.clientFor(s);
      const error = await client.ping();
      return error
        ? { ...catalogClients.current(), ok: false, message: `${error.message}. ${hintFor(error)}` }
        : { ...catalogClients.current(), ok: true };
    },
  };
  registerCommands(connection, commands, log);

  documents.listen(connection);
  connection.onShutdown(() => catalogClients.dispose());
  connection.listen();
}

/**
 * Asks the user (through the client) before the token first goes to `origin`. Only the Catalog
 * Lens extension says it is one (clientCommands); other editors never get asked about another origin.
 */
async function confirmToken(
  connection: Connection,
  log: Log,
  clientCommands: boolean,
  origin: string,
  why: string,
  kind: 'otherOrigin' | 'plainHttp',
): Promise<boolean> {
  if (kind === 'otherOrigin' && !clientCommands) {
    log(`access token withheld from ${origin}: ${why} List it in catalogLens.allowTokenOrigins to send it there.`);
    return false;
  }
  const send = 'Send the token';
  const answer = await connection.window.showWarningMessage(
    `Catalog Lens: ${why} Send it anyway?${kind === 'plainHttp' ? ' (Use https:// for catalogs that are not on this machine.)' : ''}`,
    { title: send },
    { title: 'Do not send' },
  );
  const allowed = answer?.title === send;
  log(`access token ${allowed ? 'allowed' : 'withheld'} for ${origin}`);
  return allowed;
}

/**
 * Origins the editor already had the user allow before it started the server: `allowTokenOrigins`,
 * and `allowInsecureHosts` (host:port reached over plain HTTP) of earlier clients.
 */
function allowedOriginsOf(init: Partial<Record<keyof ServerInitializationOptions, unknown>>): string[] {
  const strings = (v: unknown): string[] =>
    Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  return [...strings(init.allowTokenOrigins), ...strings(init.allowInsecureHosts).map((h) => `http://${h}`)];
}

function readTextFile(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
