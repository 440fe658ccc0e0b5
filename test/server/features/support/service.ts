/**
 * The language service (server/src/service/languageService.ts) as server.ts builds it, without a
 * connection: the real OpenDocuments over an in-memory documents store, the real SettingsStore
 * and ClientSession, the real index service (createIndexService) with no workspace folders — its
 * WorkspaceIndex is given each open document's text directly (setText), as the index would read
 * it — and a stand-in resolution (support/fakeResolution.ts). Diagnostics the pipeline publishes
 * are kept by URI; what the service logs, in order.
 */
import { TextDocument } from 'vscode-languageserver-textdocument';
import { CancellationTokenSource, type CancellationToken } from 'vscode-languageserver';
import type { Resolution as Answer } from '../../../../server/src/catalogClient/client';
import { defaultSession, type ClientSession } from '../../../../server/src/clientSession';
import type { PlainDiagnostic } from '../../../../server/src/features/diagnostics';
import { createIndexService } from '../../../../server/src/index/indexService';
import { OpenDocuments } from '../../../../server/src/pipeline/openDocuments';
import type { Resolver } from '../../../../server/src/resolution/resolve';
import { CatalogLanguageService } from '../../../../server/src/service/languageService';
import { SettingsStore } from '../../../../server/src/settings';
import { normalUri } from '../../../../server/src/workspace';
import { fakeResolution, type CatalogTable, type FakeResolution } from './fakeResolution';

export interface ServiceUnderTest {
  service: CatalogLanguageService;
  resolution: FakeResolution;
  openDocuments: OpenDocuments;
  /** What the editor said at initialize. */
  session: ClientSession;
  log: string[];
  /** The diagnostics last published per URI. */
  published: Map<string, PlainDiagnostic[]>;
  /** Opens a document in the editor (the in-memory store) and gives its text to the workspace index. */
  open(uri: string, languageId: string, text: string, version?: number): Promise<TextDocument>;
  /** A file of the workspace the editor does not have open: in the index only. */
  indexFile(uri: string, languageId: string, text: string): Promise<void>;
  token: CancellationToken;
}

export function serviceUnderTest(
  table: CatalogTable = {},
  opts: { session?: Partial<ClientSession>; settings?: unknown } = {},
): ServiceUnderTest {
  const docs = new Map<string, TextDocument>();
  const documents = { get: (uri: string) => docs.get(uri), all: () => [...docs.values()] };
  const settings = new SettingsStore(undefined, opts.settings ?? {});
  const settingsFor = (uri?: string) => settings.get(uri);
  const log: string[] = [];
  const say = (m: string): void => void log.push(m);
  const resolution = fakeResolution(table);
  // The pipeline's own catalog client: the same answers, through the client's resolve.
  const client: Resolver = {
    resolve: async (items) => {
      const out = new Map<string, Answer>();
      for (const { urn } of items) {
        const a = resolution.answer(urn);
        if (a) out.set(urn, a);
      }
      return out;
    },
    cached: (urn) => resolution.answer(urn),
  };
  const published = new Map<string, PlainDiagnostic[]>();
  const openDocuments = new OpenDocuments({
    settingsFor,
    clientFor: () => client,
    log: say,
    documents,
    publish: (doc, diagnostics) => void published.set(doc.uri, diagnostics),
    clear: (uri) => void published.delete(uri),
    skipped: () => undefined,
    suggest: (s, items, signal) => resolution.suggest(s, items, signal),
  });
  // VS Code's hover box unless the test says otherwise: the diagnostics at the place are its to show.
  const session: ClientSession = { ...defaultSession(), hoverShowsDiagnostics: true, ...opts.session };
  const index = createIndexService({
    documents,
    openDocuments,
    settingsFor,
    folders: () => session.folders,
    log: say,
    progress: async () => undefined,
    registerWatcher: async () => false,
    announce: () => undefined,
  });
  const service = new CatalogLanguageService({
    openDocuments,
    resolution,
    index,
    settings,
    session: () => session,
    log: say,
  });
  const indexFile = async (uri: string, languageId: string, text: string): Promise<void> => {
    index.index.setText(normalUri(uri), text, languageId, await settingsFor(uri));
  };
  return {
    service,
    resolution,
    openDocuments,
    session,
    log,
    published,
    open: async (uri, languageId, text, version = 1) => {
      const doc = TextDocument.create(uri, languageId, version, text);
      docs.set(uri, doc);
      await indexFile(uri, languageId, text);
      return doc;
    },
    indexFile,
    token: new CancellationTokenSource().token,
  };
}
