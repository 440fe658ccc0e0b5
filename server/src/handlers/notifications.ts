/**
 * What the editor tells the server without asking: documents changed and closed, files changed
 * on disk, workspace folders added and removed, settings changed. Each is routed to the parts that
 * follow it; a failure is logged, never thrown at the connection.
 */
import type { Connection, TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ClientSession } from '../clientSession';
import type { IndexService } from '../index/indexService';
import { CODE_CACHE_STATUS, codeCacheLine } from '../../../model/src/codeCache';
import type { Log } from '../lsp';
import type { OpenDocuments } from '../pipeline/openDocuments';
import type { SettingsStore } from '../settings';

export interface NotificationDeps {
  connection: Connection;
  documents: TextDocuments<TextDocument>;
  openDocuments: OpenDocuments;
  index: IndexService;
  settings: SettingsStore;
  session: () => ClientSession;
  /** Settings changed: every catalog client is made anew. */
  resetClients(): void;
  /** Settings changed: the editor is told to ask for inlay hints again (when it can be told). */
  refreshInlayHints(): void;
  log: Log;
}

export function registerNotifications(deps: NotificationDeps): void {
  const { connection, documents, openDocuments, index, settings } = deps;
  const session = deps.session;
  const safely =
    <P>(name: string, handler: (params: P) => void) =>
    (params: P): void => {
      try {
        handler(params);
      } catch (e) {
        deps.log(`${name} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      }
    };

  documents.onDidChangeContent(
    safely('didChange', (e) => {
      openDocuments.changed(e.document.uri);
      index.changed(e.document.uri);
    }),
  );
  documents.onDidClose(
    safely('didClose', (e) => {
      settings.forget(e.document.uri);
      openDocuments.closed(e.document.uri);
      index.closed(e.document.uri);
    }),
  );
  connection.onDidChangeWatchedFiles(safely('didChangeWatchedFiles', (p) => index.filesChanged(p.changes)));
  connection.onDidChangeConfiguration(
    safely('didChangeConfiguration', (change) => {
      const pushed = (change.settings as { catalogLens?: unknown } | null | undefined)?.catalogLens;
      if (pushed !== undefined) settings.replaceInitial(pushed);
      else settings.clear();
      deps.resetClients();
      deps.refreshInlayHints();
      openDocuments.forgetScans();
      openDocuments.revalidateAll();
    }),
  );
  connection.onInitialized(
    safely('initialized', () => {
      const cache = codeCacheLine((globalThis as Record<symbol, unknown>)[CODE_CACHE_STATUS]);
      if (cache !== undefined) deps.log(cache);
      index.initialized();
      if (!session().workspaceFolders) return;
      // Folders added and removed: the index builds the new ones and drops the files of the old.
      connection.workspace.onDidChangeWorkspaceFolders(
        safely('didChangeWorkspaceFolders', (e) => {
          const removed = e.removed.map((r) => r.uri);
          const added = e.added.map((a) => a.uri);
          session().folders = session()
            .folders.filter((f) => !removed.includes(f))
            .concat(added);
          index.foldersChanged(added, removed);
        }),
      );
    }),
  );
}
