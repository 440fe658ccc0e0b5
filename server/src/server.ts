/**
 * Wires LSP handlers to the pure services in features/. Handlers are thin: they find the
 * document, its settings and scan, ask the catalog, and translate results to the protocol.
 */
import {
  CodeActionKind,
  DiagnosticSeverity,
  ResponseError,
  LSPErrorCodes,
  TextDocuments,
  TextDocumentSyncKind,
  type CancellationToken,
  type Connection,
  type Diagnostic,
  type InitializeParams,
  type InitializeResult,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { readFileSync } from 'node:fs';
import {
  Commands,
  KnownUrnsRequest,
  SkippedNotification,
  StatusNotification,
  UrnAtRequest,
  type Settings,
} from '../../model/src/protocol';
import type { Fetch } from './catalog/http';
import type { Resolution } from './catalog/client';
import { hintFor } from './catalog/errors';
import type { ResolvableKind } from './catalog/queries';
import { lookupOf } from './features/lookup';
import { Catalogs } from './catalogs';
import { completionsAt } from './features/completion';
import { diagnosticsFor, type PlainDiagnostic } from './features/diagnostics';
import { hoverFor } from './features/hover';
import { entityUrlFor } from './features/links';
import { occurrenceAt } from './features/urnAt';
import { scanDocument } from './scan';
import type { ScanResult } from './scan/types';
import { SettingsStore } from './settings';
import { registerCommands } from './commands';
import { REFACTOR_KIND, codeActionsFor } from './features/codeActions';
import { checkWorkspace } from './workspace';

export interface Runtime {
  env: NodeJS.ProcessEnv;
  fetch?: Fetch;
}

const DEBOUNCE_MS = 200;
/** How long diagnostics wait for the catalog before malformed URNs are shown on their own. */
const SYNTAX_FIRST_MS = 300;

export interface ServerState {
  connection: Connection;
  documents: TextDocuments<TextDocument>;
  settings: SettingsStore;
  catalogs: Catalogs;
  trusted: boolean;
  scanOf(doc: TextDocument, s: Settings): ScanResult | undefined;
  resolveScan(scan: ScanResult, s: Settings, signal?: AbortSignal): Promise<(urn: string) => Resolution | undefined>;
  revalidateAll(): void;
  workspaceFolders(): string[];
  log(message: string): void;
}

export function startServer(connection: Connection, runtime: Runtime): void {
  const documents = new TextDocuments(TextDocument);
  const settings = new SettingsStore(undefined, {});
  let folders: string[] = [];
  let trusted = true;
  let clientCommands = false;
  let canProgress = false;
  const scans = new Map<string, { version: number; result: ScanResult }>();
  const skippedNoticeSent = new Set<string>();
  const pending = new Map<string, { timer: NodeJS.Timeout | undefined; abort: AbortController | undefined }>();
  const log = (m: string): void => connection.console.log(m);

  let allowedOrigins: string[] = [];
  let tokenFromInit: string | undefined;
  const catalogs = new Catalogs({
    token: runtime.env['CATALOG_LENS_TOKEN'] || undefined,
    ...(runtime.fetch ? { fetch: runtime.fetch } : {}),
    log,
    onStatus: (status) => {
      log(`catalog: ${status.state} — ${status.message}`);
      void connection.sendNotification(StatusNotification.method, status);
    },
    onRecovered: () => state.revalidateAll(),
    confirmToken: async (origin, why, kind) => {
      // Only the Catalog Lens extension says it is one (clientCommands); other editors never get asked.
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
    },
    allowedOrigins: () => allowedOrigins,
    environment: {
      env: runtime.env,
      home: runtime.env['HOME'] ?? runtime.env['USERPROFILE'],
      readText: readTextFile,
      trusted: () => trusted,
    },
  });

  const scanOf = (doc: TextDocument, s: Settings): ScanResult | undefined => {
    if (!s.languages.includes(doc.languageId)) return undefined;
    const text = doc.getText();
    if (text.length > s.maxFileSize) {
      if (!skippedNoticeSent.has(doc.uri)) {
        skippedNoticeSent.add(doc.uri);
        log(`skipped ${doc.uri}: ${text.length} characters is over catalogLens.maxFileSize (${s.maxFileSize})`);
        void connection.sendNotification(SkippedNotification.method, {
          uri: doc.uri,
          size: text.length,
          limit: s.maxFileSize,
        });
      }
      return undefined;
    }
    const hit = scans.get(doc.uri);
    if (hit && hit.version === doc.version) return hit.result;
    const result = scanDocument(text, doc.languageId, { namespaces: s.namespaces });
    scans.set(doc.uri, { version: doc.version, result });
    return result;
  };

  const resolveScan = async (
    scan: ScanResult,
    s: Settings,
    signal?: AbortSignal,
  ): Promise<(urn: string) => Resolution | undefined> => {
    const client = catalogs.clientFor(s);
    const items = resolvableItems(scan);
    const res = items.length > 0 ? await client.resolve(items, signal) : new Map<string, Resolution>();
    return (urn) => res.get(urn) ?? client.cached(urn);
  };

  const publish = (doc: TextDocument, diags: PlainDiagnostic[]): void => {
    void connection.sendDiagnostics({
      uri: doc.uri,
      version: doc.version,
      diagnostics: diags.map((d) => toLspDiagnostic(doc, d)),
    });
  };

  const validate = async (uri: string): Promise<void> => {
    const doc = documents.get(uri);
    if (!doc) return;
    const p = pending.get(uri);
    p?.abort?.abort();
    const abort = new AbortController();
    pending.set(uri, { timer: undefined, abort });
    const s = await settings.get(uri);
    const scan = scanOf(doc, s);
    if (!scan) {
      void connection.sendDiagnostics({ uri, diagnostics: [] });
      return;
    }
    const version = doc.version;
    let syntaxShown = false;
    const early = setTimeout(() => {
      syntaxShown = true;
      if (!abort.signal.aborted)
        publish(
          doc,
          diagnosticsFor(scan, () => undefined, s.diagnostics),
        );
    }, SYNTAX_FIRST_MS);
    try {
      const lookup = await resolveScan(scan, s, abort.signal);
      const current = documents.get(uri);
      if (abort.signal.aborted || !current || current.version !== version) return;
      publish(doc, diagnosticsFor(scan, lookup, s.diagnostics));
    } catch (e) {
      log(`diagnostics of ${uri} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      if (!syntaxShown)
        publish(
          doc,
          diagnosticsFor(scan, () => undefined, s.diagnostics),
        );
    } finally {
      clearTimeout(early);
    }
  };

  const schedule = (uri: string, delay: number): void => {
    const p = pending.get(uri);
    if (p?.timer) clearTimeout(p.timer);
    p?.abort?.abort();
    const timer = setTimeout(() => {
      void validate(uri);
    }, delay);
    pending.set(uri, { timer, abort: undefined });
  };

  const state: ServerState = {
    connection,
    documents,
    settings,
    catalogs,
    get trusted() {
      return trusted;
    },
    scanOf,
    resolveScan,
    revalidateAll: () => {
      for (const d of documents.all()) schedule(d.uri, 0);
    },
    workspaceFolders: () => folders,
    log,
  };

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const caps = params.capabilities;
    const init = (params.initializationOptions ?? {}) as {
      settings?: unknown;
      token?: unknown;
      trusted?: unknown;
      clientCommands?: unknown;
    };
    clientCommands = init.clientCommands === true;
    allowedOrigins = allowedOriginsOf(init as Record<string, unknown>);
    if (typeof init.token === 'string' && init.token !== '' && !runtime.env['CATALOG_LENS_TOKEN'])
      tokenFromInit = init.token;
    if (init.trusted === false) trusted = false;
    settings.replaceInitial(init.settings ?? {});
    if (caps.workspace?.configuration) {
      settings.useFetcher((scopeUri) =>
        connection.workspace.getConfiguration(
          scopeUri ? { scopeUri, section: 'catalogLens' } : { section: 'catalogLens' },
        ),
      );
    }
    canProgress = caps.window?.workDoneProgress === true;
    folders = (params.workspaceFolders ?? []).map((f) => f.uri);
    if (folders.length === 0 && params.rootUri) folders = [params.rootUri];
    if (tokenFromInit !== undefined) catalogs.useToken(tokenFromInit);
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        hoverProvider: true,
        completionProvider: { triggerCharacters: [':', '(', ','] },
        documentLinkProvider: { resolveProvider: false },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, REFACTOR_KIND] },
        executeCommandProvider: { commands: Object.values(Commands) },
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      },
      serverInfo: { name: 'catalog-lens-server', version: SERVER_VERSION },
    };
  });

  connection.onInitialized(() => {
    if (folders.length > 0) {
      connection.workspace.onDidChangeWorkspaceFolders((e) => {
        folders = folders.filter((f) => !e.removed.some((r) => r.uri === f)).concat(e.added.map((a) => a.uri));
      });
    }
  });

  connection.onDidChangeConfiguration((change) => {
    const pushed = (change.settings as { catalogLens?: unknown } | null | undefined)?.catalogLens;
    if (pushed !== undefined) settings.replaceInitial(pushed);
    else settings.clear();
    catalogs.reset();
    scans.clear();
    state.revalidateAll();
  });

  // didOpen also fires a content change: a document seen for the first time is checked at once.
  const opened = new Set<string>();
  documents.onDidChangeContent((e) => {
    const first = !opened.has(e.document.uri);
    opened.add(e.document.uri);
    schedule(e.document.uri, first ? 0 : DEBOUNCE_MS);
  });
  documents.onDidClose((e) => {
    const p = pending.get(e.document.uri);
    if (p?.timer) clearTimeout(p.timer);
    p?.abort?.abort();
    pending.delete(e.document.uri);
    opened.delete(e.document.uri);
    scans.delete(e.document.uri);
    settings.forget(e.document.uri);
    skippedNoticeSent.delete(e.document.uri);
    void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  });

  connection.onHover(
    guard('hover', null, async (params, token) => {
      const doc = documents.get(params.textDocument.uri);
      if (!doc) return null;
      const s = await settings.get(doc.uri);
      const scan = scanOf(doc, s);
      if (!scan) return null;
      const at = occurrenceAt(scan, doc.offsetAt(params.position));
      if (!at) return null;
      const { occurrence, column } = at;
      let resolution: Resolution | undefined;
      const parsed = occurrence.parsed;
      const lookup = !occurrence.template && parsed?.ok ? lookupOf(parsed.urn, occurrence.urn) : undefined;
      if (lookup) {
        const client = catalogs.clientFor(s);
        const res = await client.resolve([{ urn: lookup.urn, kind: lookup.kind }], signalOf(token));
        if (token.isCancellationRequested) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'cancelled');
        resolution = res.get(lookup.urn);
      }
      const entityUrl =
        parsed?.ok && !occurrence.template ? entityUrlFor(linkSettings(s), parsed.urn, occurrence.urn) : undefined;
      const value = hoverFor({
        occurrence,
        ...(resolution ? { resolution } : {}),
        ...(column !== undefined ? { column } : {}),
        ...(entityUrl ? { entityUrl } : {}),
      });
      const range =
        column !== undefined && at.columnRange ? at.columnRange : { start: occurrence.start, end: occurrence.end };
      return {
        contents: { kind: 'markdown', value },
        range: { start: doc.positionAt(range.start), end: doc.positionAt(range.end) },
      };
    }),
  );

  connection.onCompletion(
    guard('completion', [], async (params) => {
      const doc = documents.get(params.textDocument.uri);
      if (!doc) return [];
      const s = await settings.get(doc.uri);
      if (!s.languages.includes(doc.languageId)) return [];
      const line = doc.getText({ start: { line: params.position.line, character: 0 }, end: params.position });
      scanOf(doc, s); // platforms of this very document count as seen
      return completionsAt(line, params.position, s.namespaces, knownPlatforms());
    }),
  );

  connection.onDocumentLinks(
    guard('documentLinks', [], async (params) => {
      const doc = documents.get(params.textDocument.uri);
      if (!doc) return [];
      const s = await settings.get(doc.uri);
      const scan = scanOf(doc, s);
      if (!scan) return [];
      const links = linkSettings(s);
      return scan.occurrences.flatMap((o) => {
        if (o.template || !o.parsed?.ok || o.parent !== undefined) return [];
        const target = entityUrlFor(links, o.parsed.urn, o.urn);
        return target
          ? [
              {
                range: { start: doc.positionAt(o.start), end: doc.positionAt(o.end) },
                target,
                tooltip: 'Open in catalog',
              },
            ]
          : [];
      });
    }),
  );

  connection.onCodeAction(
    guard('codeAction', [], async (params) => {
      const doc = documents.get(params.textDocument.uri);
      if (!doc) return [];
      const s = await settings.get(doc.uri);
      const scan = scanOf(doc, s);
      if (!scan) return [];
      return codeActionsFor({ doc, scan, settings: s, params, trusted, clientCommands, catalogs });
    }),
  );

  connection.onRequest(
    UrnAtRequest.method,
    guard(
      'urnAt',
      null,
      async (params: { textDocument: { uri: string }; position: { line: number; character: number } }) => {
        const doc = documents.get(params.textDocument.uri);
        if (!doc) return null;
        const s = await settings.get(doc.uri);
        const scan = scanOf(doc, s);
        const at = scan ? occurrenceAt(scan, doc.offsetAt(params.position)) : undefined;
        if (!at || !at.occurrence.parsed?.ok || at.occurrence.template) return null;
        const urn = at.occurrence.parsed.urn;
        // A schemaField is its dataset's column: palette commands (Write Column Description …) act on that.
        const lookup = urn.kind === 'schemaField' ? lookupOf(urn, at.occurrence.urn) : undefined;
        if (lookup) return { urn: lookup.urn, kind: lookup.kind, column: lookup.column };
        return { urn: at.occurrence.urn, kind: urn.kind, ...(at.column !== undefined ? { column: at.column } : {}) };
      },
    ),
  );

  connection.onRequest(
    KnownUrnsRequest.method,
    guard('knownUrns', [], async (params: { kind?: string }) => {
      const seen = new Set<string>();
      for (const d of documents.all()) {
        const s = await settings.get(d.uri);
        for (const o of scanOf(d, s)?.occurrences ?? []) {
          if (o.parsed?.ok && !o.template && (!params.kind || o.parsed.urn.kind === params.kind)) seen.add(o.urn);
        }
      }
      return [...seen].sort();
    }),
  );

  registerCommands(state, {
    [Commands.checkWorkspace]: async (_args, token) => checkWorkspace(state, token, canProgress),
    [Commands.refresh]: async () => {
      for (const c of catalogs.all()) c.clearCache();
      scans.clear();
      state.revalidateAll();
      return { refreshed: documents.all().length };
    },
    [Commands.testConnection]: async (args) => {
      const uri =
        typeof (args as { uri?: unknown } | undefined)?.uri === 'string' ? (args as { uri: string }).uri : undefined;
      const s = await settings.get(uri);
      const client = catalogs.clientFor(s);
      const error = await client.ping();
      return error
        ? { ...catalogs.current(), ok: false, message: `${error.message}. ${hintFor(error)}` }
        : { ...catalogs.current(), ok: true };
    },
  });

  /** Settings for page links: the catalog actually used, also when it came from DataHub's CLI configuration. */
  function linkSettings(s: Settings): Settings {
    return s.url ? s : { ...s, url: catalogs.endpointFor(s).url };
  }

  function knownPlatforms(): string[] {
    const seen = new Set<string>();
    for (const { result } of scans.values()) {
      for (const o of result.occurrences)
        if (o.parsed?.ok && 'platform' in o.parsed.urn) seen.add(o.parsed.urn.platform);
    }
    return [...seen];
  }

  function guard<P, R>(name: string, fallback: R, handler: (params: P, token: CancellationToken) => Promise<R>) {
    return async (params: P, token: CancellationToken): Promise<R> => {
      if (token?.isCancellationRequested) throw new ResponseError(LSPErrorCodes.RequestCancelled, 'cancelled');
      try {
        return await handler(params, token);
      } catch (e) {
        if (e instanceof ResponseError) throw e;
        const uri = (params as { textDocument?: { uri?: string } } | undefined)?.textDocument?.uri;
        log(`${name}${uri ? ` on ${uri}` : ''} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
        return fallback;
      }
    };
  }

  documents.listen(connection);
  connection.onShutdown(() => catalogs.dispose());
  connection.listen();
}

export const SERVER_VERSION = '0.1.0';

/**
 * Origins the editor already had the user allow before it started the server: `allowTokenOrigins`,
 * and `allowInsecureHosts` (host:port reached over plain HTTP) of earlier clients.
 */
function allowedOriginsOf(init: Record<string, unknown>): string[] {
  const strings = (v: unknown): string[] =>
    Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  return [...strings(init['allowTokenOrigins']), ...strings(init['allowInsecureHosts']).map((h) => `http://${h}`)];
}

function readTextFile(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

export function resolvableItems(scan: ScanResult): Array<{ urn: string; kind: ResolvableKind }> {
  const items: Array<{ urn: string; kind: ResolvableKind }> = [];
  const seen = new Set<string>();
  for (const o of scan.occurrences) {
    if (o.template || !o.parsed?.ok || seen.has(o.urn)) continue;
    const lookup = lookupOf(o.parsed.urn, o.urn);
    if (!lookup || seen.has(lookup.urn)) continue;
    seen.add(lookup.urn);
    items.push({ urn: lookup.urn, kind: lookup.kind });
  }
  return items;
}

const SEVERITY: Record<PlainDiagnostic['severity'], DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

export function toLspDiagnostic(doc: TextDocument, d: PlainDiagnostic): Diagnostic {
  return {
    range: { start: doc.positionAt(d.start), end: doc.positionAt(d.end) },
    severity: SEVERITY[d.severity],
    message: d.message,
    code: d.code,
    source: 'catalog-lens',
    data: d.data,
  };
}

export function signalOf(token: CancellationToken | undefined): AbortSignal | undefined {
  if (!token) return undefined;
  const c = new AbortController();
  if (token.isCancellationRequested) c.abort();
  else token.onCancellationRequested(() => c.abort());
  return c.signal;
}
