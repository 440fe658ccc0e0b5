/**
 * The workspace index in the server: built in the background after
 * `initialized` (with progress where the editor shows it), kept current through
 * `workspace/didChangeWatchedFiles` (registered by the server when the editor lets it), open
 * documents' edits and workspace folder changes; and the LSP features that read it —
 * references, document highlights, definition (the docs-as-code YAML entry), workspace symbols,
 * rename (with prepareRename) and code lenses on docs-as-code entries ("used in N files").
 *
 * The workspace boundary: only files of the workspace folders enter the index, whoever
 * reports them (the listing, the watcher, the editor's open documents), never through a symbolic
 * link or a linked folder that leads out, and from disk only regular files (workspace.ts
 * readCapped); each file under one spelling of its URI (workspace.ts normalUri), the open
 * document found under whatever spelling the editor used; and a rename's WorkspaceEdit is checked
 * (workspace.ts editOutsideWorkspace) before it is returned.
 */
import { lstat } from 'node:fs/promises';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DidChangeWatchedFilesNotification,
  DocumentHighlightKind,
  FileChangeType,
  ResponseError,
  ErrorCodes,
  SymbolKind,
  type CodeLens,
  type CodeLensParams,
  type Connection,
  type DefinitionParams,
  type DocumentHighlightParams,
  type PrepareRenameParams,
  type PrepareRenameResult,
  type ReferenceParams,
  type RenameParams,
  type WorkspaceSymbolParams,
  type DocumentHighlight,
  type Location,
  type SymbolInformation,
  type TextEdit,
  type WorkspaceEdit,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { entityName, kindWord } from '../../../model/src/entityNames';
import { inertText } from '../../../model/src/inertText';
import { IndexedNotification, UsagesRequest, type IndexedParams, type Settings } from '../../../model/src/protocol';
import { entityKey, parseUrn, printUrn, type Urn } from '../../../model/src/urn';
import { renameAt, renamedUrn, renameEdits } from '../features/rename';
import { occurrenceAt } from '../features/urnAt';
import { onCustomRequest, sendCustomNotification, type guardWith, type Log } from '../lsp';
import { scanText } from '../pipeline/check';
import type { OpenDocuments } from '../pipeline/openDocuments';
import { clearParseCache } from '../scan/parseCache';
import {
  editOutsideWorkspace,
  fileNameOf,
  LANGUAGE_BY_EXTENSION,
  normalUri,
  outsideWorkspace,
  readCapped,
  type IndexedFiles,
} from '../workspace';
import { WorkspaceIndex } from './workspaceIndex';

export interface IndexServiceDeps {
  connection: Connection;
  documents: { get(uri: string): TextDocument | undefined; all(): TextDocument[] };
  openDocuments: OpenDocuments;
  settingsFor(uri?: string): Promise<Settings>;
  folders(): string[];
  log: Log;
  /** Runs a custom request's handler, turning a failure into `fallback` (server/src/lsp.ts guardWith). */
  guard: ReturnType<typeof guardWith>;
  /** What the editor said at initialize. */
  capabilities(): {
    progress: boolean;
    watchedFiles: boolean;
    changeAnnotations: boolean;
    indexedNotifications: boolean;
  };
}

const SYMBOL_KINDS: Partial<Record<Urn['kind'], SymbolKind>> = {
  dataset: SymbolKind.Struct,
  mlFeature: SymbolKind.Field,
  mlFeatureTable: SymbolKind.Class,
  mlModel: SymbolKind.Function,
  mlModelGroup: SymbolKind.Module,
};

/** The glob the server watches: every extension Check Workspace reads. */
const WATCHED = `**/*.{${Object.keys(LANGUAGE_BY_EXTENSION)
  .map((e) => e.slice(1))
  .join(',')}}`;

/** How long after the last edit an open document is indexed again. */
const EDIT_DEBOUNCE_MS = 300;

export interface IndexService {
  index: WorkspaceIndex;
  /** Resolves when the builds started so far have ended. */
  ready(): Promise<void>;
  /** An open document changed: indexed again after a pause in typing. */
  changed(uri: string): void;
  /** A document closed: its file is read again (unsaved edits are gone). */
  closed(uri: string): void;
  /** After `initialized`: registers the file watcher and builds the index of the folders. */
  initialized(): void;
  /** Workspace folders added (indexed) and removed (their files dropped). */
  foldersChanged(added: string[], removed: string[]): void;
  /**
   * For Check Workspace: the index's account of `folder` once built, or undefined when the index
   * cannot vouch for it — the editor does not report file changes (the index would miss a
   * `git checkout`), the build was cancelled or ran with other settings, or the index is full.
   */
  filesToCheck(folder: string, settings: Settings): Promise<IndexedFiles | undefined>;
}

export function registerWorkspaceIndex(deps: IndexServiceDeps): IndexService {
  const { connection, openDocuments, log } = deps;
  /** The editor's spelling of each open document's URI, by the index's (normalUri). */
  const spellings = new Map<string, string>();
  /** The open document of a file, under any spelling of its URI. */
  const openDocumentFor = (uri: string): TextDocument | undefined => {
    const doc = deps.documents.get(uri);
    if (doc || spellings.size === 0) return doc;
    const spelled = spellings.get(normalUri(uri));
    return spelled === undefined ? undefined : deps.documents.get(spelled);
  };
  /** Files the log has said were left out; said again only after they were indexed. */
  const toldLeftOut = new Set<string>();
  const leaveOut = (key: string, why: string): void => {
    index.remove(key);
    if (toldLeftOut.has(key)) return;
    toldLeftOut.add(key);
    log(`workspace index: ${key} is not indexed: ${why}`);
  };
  const index = new WorkspaceIndex({
    settingsFor: (uri) => deps.settingsFor(uri),
    openDocument: openDocumentFor,
    scan: scanText,
    log,
  });
  let building: Promise<void> = Promise.resolve();
  /** Tells a client that asked (`catalogLens/indexed`) what the index holds now. */
  const announce = (reason: IndexedParams['reason']): void => {
    if (deps.capabilities().indexedNotifications)
      sendCustomNotification(connection, IndexedNotification, {
        reason,
        files: index.fileCount,
        urns: index.occurrenceCount,
      });
  };

  /** Indexes the folders in the background; requests that read the index wait for it. */
  const buildFolders = (folders: string[]): void => {
    if (folders.length === 0) return;
    const previous = building;
    building = (async () => {
      await previous;
      const started = performance.now();
      const progress = deps.capabilities().progress ? await connection.window.createWorkDoneProgress() : undefined;
      progress?.begin('Catalog Lens: indexing the workspace', 0, 'listing files', true);
      try {
        await index.build(
          folders,
          (done, of) => progress?.report(of === 0 ? 100 : Math.round((done / of) * 100), `${done} of ${of} files`),
          () => progress?.token.isCancellationRequested ?? false,
        );
        log(
          `workspace index: ${index.occurrenceCount} URNs in ${index.fileCount} files, ${Math.round(performance.now() - started)} ms${index.isFull ? '; full: files were left out (said above)' : ''}`,
        );
      } catch (e) {
        log(`workspace index failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      } finally {
        progress?.done();
        // The build parsed every URN of the workspace; the parse cache need only serve the open documents.
        clearParseCache();
        announce('build');
      }
    })();
  };

  /**
   * Reads `uri` from disk again (created, changed, or closed with its unsaved edits dropped): a
   * regular file of a workspace folder, not through a link that leads out of it.
   */
  const reindexFile = async (uri: string): Promise<void> => {
    const key = normalUri(uri);
    if (!key.startsWith('file:') || openDocumentFor(key)) return;
    const languageId = LANGUAGE_BY_EXTENSION[extname(key).toLowerCase()];
    const settings = await deps.settingsFor(uri);
    if (!languageId || !settings.languages.includes(languageId) || !listable(key, deps.folders(), settings))
      return index.remove(key);
    const path = fileURLToPath(key);
    const outside = await outsideWorkspace(path, deps.folders());
    if (outside) return leaveOut(key, outside);
    const text = await readCapped(path, settings.maxFileSize);
    if (typeof text !== 'string')
      return text.notRegular ? leaveOut(key, `${text.notRegular}, not a regular file`) : index.passOver(key, text);
    toldLeftOut.delete(key);
    index.setText(key, text, languageId, settings);
  };

  /**
   * Why the open document `key` stays out of the index, if it does: only files of the workspace
   * folders are indexed, not a link to one (the listing indexes its target under its own name).
   */
  const openLeftOut = async (key: string): Promise<string | undefined> => {
    if (!key.startsWith('file:')) return 'not a file';
    const path = fileURLToPath(key);
    const outside = await outsideWorkspace(path, deps.folders());
    if (outside) return outside;
    return (await lstat(path).catch(() => undefined))?.isSymbolicLink() ? 'a symbolic link' : undefined;
  };

  const pending = new Map<string, NodeJS.Timeout>();
  const reindexOpen = (uri: string): void => {
    spellings.set(normalUri(uri), uri);
    clearTimeout(pending.get(uri));
    pending.set(
      uri,
      setTimeout(() => {
        pending.delete(uri);
        void (async () => {
          const open = await openDocuments.open(uri);
          if (!open) return;
          const key = normalUri(uri);
          const why = await openLeftOut(key);
          if (why !== undefined) return key.startsWith('file:') ? leaveOut(key, why) : index.remove(key);
          toldLeftOut.delete(key);
          index.setScan(key, open.doc.getText(), open.scan, open.settings);
        })().catch((e: unknown) => log(`workspace index: ${uri}: ${String(e)}`));
      }, EDIT_DEBOUNCE_MS),
    );
  };

  // Called by the server's `initialized` handler (a connection has one).
  let watching = false;
  /** Settles when the editor has answered the file watcher's registration (Check Workspace waits for it). */
  let registered: Promise<void> = Promise.resolve();
  const initialized = (): void => {
    if (deps.capabilities().watchedFiles)
      registered = connection.client
        .register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: WATCHED }] })
        .then(() => {
          watching = true;
          log('workspace index: watching the files of the workspace');
        })
        .catch((e: unknown) => log(`workspace index: file watching not registered: ${String(e)}`));
    buildFolders(deps.folders());
  };

  connection.onDidChangeWatchedFiles((params) => {
    for (const change of params.changes) {
      if (change.type === FileChangeType.Deleted) {
        index.remove(change.uri);
        toldLeftOut.delete(normalUri(change.uri));
        announce('file');
      } else
        void reindexFile(change.uri)
          .catch((e: unknown) => log(`workspace index: ${change.uri}: ${String(e)}`))
          .finally(() => announce('file'));
    }
  });

  const ready = async (): Promise<void> => {
    await building;
  };

  /** The entity URN at a position of an open document, with the document and its scan. */
  const entityAt = async (uri: string, position: { line: number; character: number }) => {
    const open = await openDocuments.open(uri);
    if (!open?.scan) return undefined;
    const offset = open.doc.offsetAt(position);
    const at = occurrenceAt(open.scan, offset);
    if (!at || at.column !== undefined) return undefined;
    const occ = at.occurrence;
    if (!occ.parsed?.ok || occ.template) return undefined;
    return { open, occ, offset };
  };

  connection.onReferences(
    deps.guard('references', null as Location[] | null, async (params: ReferenceParams) => {
      const found = await entityAt(params.textDocument.uri, params.position);
      if (!found) return null;
      await ready();
      return index.placesOf(found.occ.urn).map((p): Location => ({ uri: p.uri, range: p.range }));
    }),
  );

  onCustomRequest(
    connection,
    UsagesRequest,
    deps.guard('usages', { error: 'the workspace index could not be read' }, async (params) => {
      // Other editors send what they like: the params are checked before use.
      const urn = (params as { urn?: unknown } | null | undefined)?.urn;
      if (typeof urn !== 'string') return { error: 'catalogLens/usages: urn must be a string' };
      const parsed = parseUrn(urn);
      if (!parsed.ok) return { error: `catalogLens/usages: ${inertText(urn, 'plain', 200)} is not a URN` };
      await ready();
      const places = index.placesOf(urn);
      return { places, files: new Set(places.map((p) => p.uri)).size };
    }),
  );

  connection.onDocumentHighlight(
    deps.guard('documentHighlight', null as DocumentHighlight[] | null, async (params: DocumentHighlightParams) => {
      const found = await entityAt(params.textDocument.uri, params.position);
      if (!found) return null;
      const key = entityKey(found.occ.urn);
      const { doc, scan } = found.open;
      return scan!.occurrences
        .filter((o) => o.parent === undefined && !o.template && o.parsed?.ok && entityKey(o.urn) === key)
        .map((o): DocumentHighlight => ({
          range: { start: doc.positionAt(o.start), end: doc.positionAt(o.end) },
          kind: DocumentHighlightKind.Text,
        }));
    }),
  );

  connection.onDefinition(
    deps.guard('definition', null as Location[] | null, async (params: DefinitionParams) => {
      const found = await entityAt(params.textDocument.uri, params.position);
      if (!found) return null;
      await ready();
      const entries = index.placesOf(found.occ.urn).filter((p) => p.entry);
      return entries.length > 0 ? entries.map((p): Location => ({ uri: p.uri, range: p.range })) : null;
    }),
  );

  connection.onWorkspaceSymbol(
    deps.guard('workspaceSymbol', [] as SymbolInformation[], async (params: WorkspaceSymbolParams) => {
      await ready();
      return index.symbols(params.query).flatMap(({ urn, name }): SymbolInformation[] => {
        const places = index.placesOf(printUrn(urn));
        const place = places.find((p) => p.entry) ?? places[0];
        if (!place) return [];
        return [
          {
            name,
            kind: SYMBOL_KINDS[urn.kind] ?? SymbolKind.Object,
            location: { uri: place.uri, range: place.range },
            containerName: 'platform' in urn ? `${kindWord(urn.kind)} · ${urn.platform}` : kindWord(urn.kind),
          },
        ];
      });
    }),
  );

  connection.onCodeLens(
    deps.guard('codeLens', [] as CodeLens[], async (params: CodeLensParams) => {
      const open = await openDocuments.open(params.textDocument.uri);
      if (!open?.scan || open.scan.descriptions.length === 0) return [];
      await ready();
      return open.scan.descriptions.flatMap((d): CodeLens[] => {
        const occ = open.scan!.occurrences[d.owner];
        if (!occ?.parsed?.ok) return [];
        const others = index.filesNaming(occ.urn).filter((u) => u !== normalUri(open.doc.uri)).length;
        return [
          {
            range: { start: open.doc.positionAt(occ.start), end: open.doc.positionAt(occ.end) },
            command: {
              title:
                others === 0
                  ? 'not used elsewhere in the workspace'
                  : `used in ${others} file${others === 1 ? '' : 's'}`,
              command: '',
            },
          },
        ];
      });
    }),
  );

  connection.onPrepareRename(
    deps.guard('prepareRename', null as PrepareRenameResult | null, async (params: PrepareRenameParams) => {
      const open = await openDocuments.open(params.textDocument.uri);
      if (!open?.scan) return null;
      const at = renameAt(open.doc, open.scan, open.doc.offsetAt(params.position));
      if (typeof at === 'string') throw new ResponseError(ErrorCodes.InvalidRequest, at);
      return {
        range: { start: open.doc.positionAt(at.range.start), end: open.doc.positionAt(at.range.end) },
        placeholder: at.text,
      };
    }),
  );

  connection.onRenameRequest(
    deps.guard('rename', null as WorkspaceEdit | null, async (params: RenameParams): Promise<WorkspaceEdit> => {
      const open = await openDocuments.open(params.textDocument.uri);
      if (!open?.scan) throw new ResponseError(ErrorCodes.InvalidRequest, 'This document is not scanned for URNs.');
      const at = renameAt(open.doc, open.scan, open.doc.offsetAt(params.position));
      if (typeof at === 'string') throw new ResponseError(ErrorCodes.InvalidRequest, at);
      const target = renamedUrn(at, params.newName);
      if ('error' in target) throw new ResponseError(ErrorCodes.InvalidRequest, `Cannot rename: ${target.error}.`);
      await ready();
      const from = at.occurrence.urn;
      // The index's spelling of each file (normalUri); an open one is edited under the editor's own.
      const here = normalUri(open.doc.uri);
      const uris = [...new Set([here, ...index.filesNaming(from)])].sort();
      const changes: Array<{ uri: string; version: number | null; edits: TextEdit[] }> = [];
      const refused: string[] = [];
      for (const uri of uris) {
        const opened = uri === here ? open.doc : openDocumentFor(uri);
        const doc = opened ?? (await readDocument(uri, deps));
        if (!doc) continue;
        const s = await deps.settingsFor(doc.uri);
        const scan = opened ? openDocuments.scanOf(doc, s) : scanText(doc.getText(), doc.languageId, s);
        if (!scan) continue;
        const r = renameEdits(doc, scan, from, target.urn);
        for (const offset of r.refused) {
          const p = doc.positionAt(offset);
          refused.push(`${fileNameOf(uri)}:${p.line + 1}`);
        }
        if (r.edits.length > 0) changes.push({ uri: doc.uri, version: opened?.version ?? null, edits: r.edits });
      }
      if (refused.length > 0)
        throw new ResponseError(
          ErrorCodes.InvalidRequest,
          `Cannot rename: ${refused.length} place${refused.length === 1 ? '' : 's'} write${refused.length === 1 ? 's' : ''} it in a way no edit can change safely (an escape, a joined or formatted string, a variable): ${refused.slice(0, 5).join(', ')}${refused.length > 5 ? ', …' : ''}. Nothing was renamed.`,
        );
      const places = changes.reduce((n, c) => n + c.edits.length, 0);
      const parsed = at.occurrence.parsed;
      const what = inertText(parsed?.ok ? entityName(parsed.urn) : from, 'plain', 80);
      const full = index.isFull
        ? ' The workspace index is full, so files it left out are not renamed (the log names the first).'
        : '';
      const note = `Only files change: the catalog still has ${what} as it was. Rename it there too, or keep the files pointing at an entity the catalog does not know.${full}`;
      // Annotated, not marked as needing confirmation: VS Code leaves such edits unchecked in its
      // preview (Apply would change nothing) and forces the preview on every rename.
      const edit: WorkspaceEdit = deps.capabilities().changeAnnotations
        ? {
            documentChanges: changes.map((c) => ({
              textDocument: { uri: c.uri, version: c.version },
              edits: c.edits.map((e) => ({ ...e, annotationId: 'catalogLens.rename' })),
            })),
            changeAnnotations: {
              'catalogLens.rename': { label: 'Rename in the workspace', description: note, needsConfirmation: false },
            },
          }
        : { changes: Object.fromEntries(changes.map((c) => [c.uri, c.edits])) };
      // The one check before any WorkspaceEdit leaves: no file outside the workspace folders.
      const outside = await editOutsideWorkspace(edit, deps.folders());
      if (outside !== undefined)
        throw new ResponseError(ErrorCodes.InvalidRequest, `Cannot rename: ${outside}. Nothing was renamed.`);
      log(`rename: ${from} → ${target.urn} in ${places} places of ${changes.length} files`);
      // Said whether or not the editor previews the edit (VS Code: Ctrl+Enter in the rename box).
      void connection.window.showInformationMessage(
        `Catalog Lens: rename of ${inertText(at.text, 'plain', 80)} to ${inertText(params.newName, 'plain', 80)}: ${places} place${places === 1 ? '' : 's'} in ${changes.length} file${changes.length === 1 ? '' : 's'}. ${note}`,
      );
      return edit;
    }),
  );

  return {
    index,
    ready,
    initialized,
    changed: reindexOpen,
    closed: (uri) => {
      clearTimeout(pending.get(uri));
      pending.delete(uri);
      if (spellings.get(normalUri(uri)) === uri) spellings.delete(normalUri(uri));
      toldLeftOut.delete(normalUri(uri));
      void reindexFile(uri).catch((e: unknown) => log(`workspace index: ${uri}: ${String(e)}`));
    },
    filesToCheck: async (folder, settings) => {
      await ready();
      await registered;
      if (!watching) return undefined;
      const open = deps.documents.all().map((d) => d.uri);
      return index.filesToCheck(folder, settings, open);
    },
    foldersChanged: (added, removed) => {
      for (const folder of removed) index.removeFolder(folder);
      if (removed.length > 0) announce('folders');
      buildFolders(added);
    },
  };
}

/**
 * Whether the listing of a workspace folder would hold `uri` (workspace.ts listFiles): under a
 * folder, in no excluded or hidden folder. The watcher reports every matching file, node_modules too.
 */
function listable(uri: string, folders: readonly string[], settings: Settings): boolean {
  const folder = folders.map(normalUri).find((f) => uri.startsWith(f.endsWith('/') ? f : `${f}/`));
  if (folder === undefined) return false;
  const dirs = decodeURIComponent(uri.slice(folder.replace(/\/$/, '').length + 1))
    .split('/')
    .slice(0, -1);
  return dirs.every((d) => !settings.excludeFolders.includes(d) && !d.startsWith('.'));
}

/** A file the index names, read from disk for a rename: a regular file of the workspace folders, or nothing. */
async function readDocument(uri: string, deps: IndexServiceDeps): Promise<TextDocument | undefined> {
  if (!uri.startsWith('file:')) return undefined;
  const languageId = LANGUAGE_BY_EXTENSION[extname(uri).toLowerCase()];
  if (!languageId) return undefined;
  const path = fileURLToPath(uri);
  if (await outsideWorkspace(path, deps.folders())) return undefined;
  const s = await deps.settingsFor(uri);
  const text = await readCapped(path, s.maxFileSize);
  return typeof text === 'string' ? TextDocument.create(uri, languageId, 0, text) : undefined;
}
