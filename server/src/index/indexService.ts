/**
 * The workspace index kept current: built in the background after `initialized` (with progress
 * where the editor shows it), and followed through `workspace/didChangeWatchedFiles` (a watcher the
 * server registers when the editor lets it), open documents' edits and workspace folders added and
 * removed. The features that read it (references, highlights, definition, symbols, rename, code
 * lenses) are the language service's (service/languageService.ts).
 *
 * The workspace boundary: only files of the workspace folders enter the index, whoever
 * reports them (the listing, the watcher, the editor's open documents), never through a symbolic
 * link or a linked folder that leads out, and from disk only regular files (workspace.ts
 * readCapped); each file under one spelling of its URI (workspace.ts normalUri), the open
 * document found under whatever spelling the editor used.
 */
import { lstat } from 'node:fs/promises';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileChangeType, type FileEvent, type WorkDoneProgressServerReporter } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { IndexedParams, Settings } from '../../../model/src/protocol';
import { scanTextForIndex } from '../pipeline/check';
import type { OpenDocuments } from '../pipeline/openDocuments';
import { clearParseCache } from '../scan/parseCache';
import {
  LANGUAGE_BY_EXTENSION,
  normalUri,
  outsideWorkspace,
  readCapped,
  type IndexedFiles,
  type ScanFiles,
} from '../workspace';
import { createScanPool, workersPay, type ScanPool } from './scanPool';
import { WorkspaceIndex } from './workspaceIndex';

export interface IndexServiceDeps {
  documents: { get(uri: string): TextDocument | undefined; all(): TextDocument[] };
  openDocuments: OpenDocuments;
  settingsFor(uri?: string): Promise<Settings>;
  folders(): string[];
  log: (message: string) => void;
  /** A progress shown in the editor, when it shows the server's. */
  progress(): Promise<WorkDoneProgressServerReporter | undefined>;
  /** Registers a file watcher with the editor, when it lets the server; false when it does not. */
  registerWatcher(globPattern: string): Promise<boolean>;
  /** What the index holds now, for a client that asked (`catalogLens/indexed`). */
  announce(params: IndexedParams): void;
  /** The structured property definitions files of the workspace give changed: documents are checked again. */
  definitionsChanged?(): void;
  /**
   * The worker threads that read and scan files; default a pool of its own (scanPool.ts) on a
   * machine of more than two cores, none when null.
   */
  pool?: ScanPool | null;
}

/** The glob the server watches: every extension Check Workspace reads. */
const WATCHED = `**/*.{${Object.keys(LANGUAGE_BY_EXTENSION)
  .map((e) => e.slice(1))
  .join(',')}}`;

/** The least time between two progress reports of a build. */
const PROGRESS_MS = 100;

/** How long after the last edit an open document is indexed again. */
const EDIT_DEBOUNCE_MS = 300;

export interface IndexService {
  index: WorkspaceIndex;
  /** Resolves when the builds started so far have ended. */
  ready(): Promise<void>;
  /** The open document of a file, under any spelling of its URI. */
  openDocumentFor(uri: string): TextDocument | undefined;
  /** A file the index names, read from disk: a regular file of the workspace folders, or nothing. */
  readDocument(uri: string): Promise<TextDocument | undefined>;
  /** An open document changed: indexed again after a pause in typing. */
  changed(uri: string): void;
  /** A document closed: its file is read again (unsaved edits are gone). */
  closed(uri: string): void;
  /** After `initialized`: registers the file watcher and builds the index of the folders. */
  initialized(): void;
  /** Workspace folders added (indexed) and removed (their files dropped). */
  foldersChanged(added: string[], removed: string[]): void;
  /** Files created, changed or deleted on disk (the watcher). */
  filesChanged(changes: readonly FileEvent[]): void;
  /**
   * For Check Workspace: the index's account of `folder` once built, or undefined when the index
   * cannot vouch for it — the editor does not report file changes (the index would miss a
   * `git checkout`), the build was cancelled or ran with other settings, or the index is full.
   */
  filesToCheck(folder: string, settings: Settings): Promise<IndexedFiles | undefined>;
  /** Check Workspace's reads and scans, in the index's worker threads. */
  scanFiles: ScanFiles | undefined;
}

/** A build of fewer files reads them on the main thread (a worker's start costs more). */
const MIN_FILES_FOR_WORKERS = 64;

export function createIndexService(deps: IndexServiceDeps): IndexService {
  const { openDocuments, log } = deps;
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
  const pool =
    deps.pool === undefined ? (workersPay() ? createScanPool({ log }) : undefined) : (deps.pool ?? undefined);
  const index = new WorkspaceIndex({
    settingsFor: (uri) => deps.settingsFor(uri),
    openDocument: openDocumentFor,
    scan: scanTextForIndex,
    log,
    ...(pool
      ? {
          readFiles: async (files, take, cancelled) =>
            files.length < MIN_FILES_FOR_WORKERS
              ? 0
              : pool.run(
                  'index',
                  files,
                  (i, r) => take(i, 'packed' in r ? r.packed : 'failed' in r ? r.failed : {}),
                  cancelled,
                ),
        }
      : {}),
  });
  const scanFiles: ScanFiles | undefined = pool
    ? Object.assign(
        (...[files, take, stop]: Parameters<ScanFiles>) =>
          pool.run('check', files, (i, r) => take(i, 'packed' in r ? { failed: {} } : r), stop),
        { hold: () => pool.hold() },
      )
    : undefined;
  let building: Promise<void> = Promise.resolve();
  let definitions = index.definitionsKey();
  const announce = (reason: IndexedParams['reason']): void => {
    deps.announce({ reason, files: index.fileCount, urns: index.occurrenceCount });
    const now = index.definitionsKey();
    if (now === definitions) return;
    definitions = now;
    deps.definitionsChanged?.();
  };

  /** Indexes the folders in the background; requests that read the index wait for it. */
  const buildFolders = (folders: string[]): void => {
    if (folders.length === 0) return;
    const previous = building;
    building = (async () => {
      await previous;
      const started = performance.now();
      // The folders' settings asked now, while the editor creates the progress: the two round trips
      // at once instead of one after the other (the build's own ask then finds the answer kept:
      // settings.ts keeps each scope's), so the listing starts one round trip sooner.
      for (const folder of folders)
        if (folder.startsWith('file:')) void deps.settingsFor(folder).catch(() => undefined);
      const progress = await deps.progress();
      progress?.begin('Catalog Lens: indexing the workspace', 0, 'listing files', true);
      // One progress message per PROGRESS_MS at most, and the last: each is a write to the editor.
      let reported = -Infinity;
      try {
        await index.build(
          folders,
          (done, of) => {
            const t = performance.now();
            if (!progress || (done < of && t - reported < PROGRESS_MS)) return;
            reported = t;
            progress.report(of === 0 ? 100 : Math.round((done / of) * 100), `${done} of ${of} files`);
          },
          () => progress?.token.isCancellationRequested ?? false,
        );
        log(
          `workspace index: ${index.occurrenceCount} URNs in ${index.fileCount} files (occurrences: each place one is written, a URN inside another too), ${Math.round(performance.now() - started)} ms${index.isFull ? '; full: files were left out (said above)' : ''}`,
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
        })()
          .catch((e: unknown) => log(`workspace index: ${uri}: ${String(e)}`))
          .finally(() => announce('open'));
      }, EDIT_DEBOUNCE_MS),
    );
  };

  let watching = false;
  /** Settles when the editor has answered the file watcher's registration (Check Workspace waits for it). */
  let registered: Promise<void> = Promise.resolve();
  const initialized = (): void => {
    registered = deps
      .registerWatcher(WATCHED)
      .then((ok) => {
        watching = ok;
        if (ok) log('workspace index: watching the files of the workspace');
      })
      .catch((e: unknown) => log(`workspace index: file watching not registered: ${String(e)}`));
    buildFolders(deps.folders());
  };

  const filesChanged = (changes: readonly FileEvent[]): void => {
    for (const change of changes) {
      if (change.type === FileChangeType.Deleted) {
        index.remove(change.uri);
        toldLeftOut.delete(normalUri(change.uri));
        announce('file');
      } else
        void reindexFile(change.uri)
          .catch((e: unknown) => log(`workspace index: ${change.uri}: ${String(e)}`))
          .finally(() => announce('file'));
    }
  };

  const ready = async (): Promise<void> => {
    await building;
  };

  return {
    index,
    ready,
    openDocumentFor,
    readDocument: (uri) => readDocument(uri, deps),
    initialized,
    filesChanged,
    changed: reindexOpen,
    closed: (uri) => {
      clearTimeout(pending.get(uri));
      pending.delete(uri);
      if (spellings.get(normalUri(uri)) === uri) spellings.delete(normalUri(uri));
      toldLeftOut.delete(normalUri(uri));
      void reindexFile(uri)
        .catch((e: unknown) => log(`workspace index: ${uri}: ${String(e)}`))
        .finally(() => announce('file'));
    },
    scanFiles,
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
