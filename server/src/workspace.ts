/**
 * Check Workspace: scan every matching file of the workspace folders, resolve their URNs a chunk
 * of files at a time (batched across the chunk's files, each URN asked once per check), and
 * publish diagnostics for each file, with progress. It runs the document pipeline
 * (pipeline/check.ts) over files; no LSP connection is needed here, so a command line can run it
 * too. Worker threads may read and scan the files (`scanFiles`, the workspace index's pool).
 */
import * as fsSync from 'node:fs';
import { promises as fs, type Stats } from 'node:fs';
import { basename, dirname, extname, isAbsolute, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { inertText } from '../../model/src/inertText';
import { LANGUAGE_BY_EXTENSION } from '../../model/src/languages';
import type { CheckWorkspaceResult, Settings } from '../../model/src/protocol';
import type { PlainDiagnostic, PropertyDefinitionLookup } from './features/diagnostics';
import { diagnose, scanText, type PipelineDeps } from './pipeline/check';
import { siblingUrns } from '../../model/src/readShapes';
import type { Resolution, ResolutionLookup } from './catalogClient/client';
import { resolvableItems, resolveItems, type ResolvableItem, type Resolver } from './resolution/resolve';
import { clearParseCache } from './scan/parseCache';
import { CheckedFiles, textHashes, type CheckedFilesBuilder, type FileStamp } from './pipeline/checkedFiles';
import type { FormatPropertyDefinition, ScanResult } from './scan/types';

/** File extension → language id, from the languages table (model/src/languages.ts). */
export { LANGUAGE_BY_EXTENSION };

/** What Check Workspace is given: the folders, the open documents (their text wins over the file's), and where diagnostics go. */
export interface WorkspaceDeps extends PipelineDeps {
  /** The workspace folders' URIs (only `file:` ones are checked). */
  workspaceFolders(): string[];
  /** The open document `uri` and its scan (cached by version), or undefined when it is not open. */
  openDocument(uri: string): TextDocument | undefined;
  scanOf(doc: TextDocument, settings: Settings): ScanResult | undefined;
  /** The diagnostics of a checked file (an empty list clears what an earlier check gave it). */
  publish(doc: TextDocument, diagnostics: PlainDiagnostic[]): void;
  /** No diagnostics for `uri` any more. */
  clear(uri: string): void;
  /** Told of each file passed over: too large, or unreadable (the command line lists them). */
  skipped?(path: string, reason: string): void;
  /**
   * The workspace index's account of a folder, when it has a complete and current one for these
   * settings: the check then reads only the files it names as holding URNs, and lists nothing.
   */
  indexedFiles?(folder: string, settings: Settings): Promise<IndexedFiles | undefined>;
  /** Worker threads that read and scan files (the workspace index's pool); absent: all is read on this thread. */
  scanFiles?: ScanFiles;
  /**
   * Where a check keeps what it found of each closed file for the next one
   * (pipeline/checkedFiles.ts), and whether the editor still shows what the last check sent a
   * file. Given by a server that publishes to an editor; absent (a command line, the agent tool's
   * collection of every diagnostic), each file is read and diagnosed.
   */
  reuse?: CheckReuse | undefined;
}

/** What Check Workspace keeps between checks of a server (WorkspaceDeps.reuse). */
export interface CheckReuse {
  kept: CheckedFiles | undefined;
  /** Whether the editor still shows the diagnostics the last check sent `uri` (nothing else was sent it since). */
  stillShown(uri: string): boolean;
}

/** A folder as the workspace index knows it (server/src/index/workspaceIndex.ts filesToCheck). */
export interface IndexedFiles {
  /** The files (URIs) whose text holds a URN, well formed or not. */
  mentioning: string[];
  /** How many files were read that hold none. */
  quiet: number;
  /** The files passed over (URI, why). */
  passedOver: Array<[string, ReadFailure]>;
}

/** How the check reports and is stopped: both optional for a caller that shows nothing or never stops. */
export interface CheckRun {
  report?(percentage: number, message: string): void;
  cancelled(): boolean;
  signal?: AbortSignal | undefined;
}

/** URIs of closed files that the last Check Workspace gave diagnostics, so that the next one can clear them. */
const flaggedByCheck = new WeakMap<WorkspaceDeps, Set<string>>();

export async function checkWorkspace(ctx: WorkspaceDeps, run: CheckRun): Promise<CheckWorkspaceResult> {
  const result: CheckWorkspaceResult = { files: 0, skipped: 0, urns: 0, diagnostics: 0, cancelled: false };
  const cancelled = (): boolean => run.cancelled();
  /** Lets the worker threads end once the check is over. */
  let release: (() => void) | undefined;
  // What the last check kept of its files, when the catalog client's answers are still those it read.
  const reuse = ctx.reuse;
  const started = Date.now();
  const client = reuse ? ctx.clientFor(await ctx.settingsFor()) : undefined;
  const replacedAtStart = client?.answersReplaced;
  // None is looked at when the answers of every file kept have expired (a time-to-live of 0).
  const prev =
    reuse?.kept &&
    reuse.kept.size > 0 &&
    reuse.kept.client === client &&
    replacedAtStart === reuse.kept.replaced &&
    started < reuse.kept.freshest
      ? reuse.kept
      : undefined;
  if (reuse) reuse.kept = undefined;
  try {
    // Settings are asked once per workspace folder (its files share them), not once per file.
    // `named`: a file the command line named as a folder, read through a symbolic link if it is one.
    // `listed`: the folder's listing said it is a regular file (readdir without following links).
    const files: Array<{
      path: string;
      uri: string;
      languageId: string;
      settings: Settings;
      /** The settings as text: what a file kept by the last check is compared with. */
      sig: string;
      named?: true;
      listed?: true;
    }> = [];
    for (const folder of ctx.workspaceFolders()) {
      if (!folder.startsWith('file:')) continue;
      const settings = await ctx.settingsFor(folder);
      const sig = JSON.stringify(settings);
      const paths: string[] = [];
      const root = fileURLToPath(folder);
      let named = false;
      let listed = false;
      const indexed = await ctx.indexedFiles?.(folder, settings);
      if (indexed) {
        // The index read every file of the folder: only those that hold URNs are read again.
        ctx.log(
          `Check Workspace: ${folder}: the workspace index names ${indexed.mentioning.length} of ${indexed.mentioning.length + indexed.quiet} files as holding URNs`,
        );
        result.files += indexed.quiet;
        for (const [uri, why] of indexed.passedOver) passOver(ctx, result, fileURLToPath(uri), why, settings);
        paths.push(...indexed.mentioning.map((u) => fileURLToPath(u)));
      } else if ((await fs.stat(root).catch(() => undefined))?.isFile()) {
        paths.push(root); // a file named as a folder (the command line's paths) is checked on its own
        named = true;
      } else {
        await listFiles(root, settings.excludeFolders, paths, cancelled);
        listed = true;
      }
      for (const path of paths) {
        const languageId = LANGUAGE_BY_EXTENSION[extname(path).toLowerCase()];
        if (languageId && settings.languages.includes(languageId))
          files.push({
            path,
            uri: fileUri(path),
            languageId,
            settings,
            sig,
            ...(named ? { named: true as const } : {}),
            ...(listed ? { listed: true as const } : {}),
          });
      }
    }
    // Files are scanned in order, by worker threads when the server has them (a window of files
    // at a time), else here, SLICE files or SLICE_CHARS characters between two turns of the event loop.
    // Only files that hold URNs are kept (with their text, for positions), and only until their
    // chunk is resolved and published: a chunk ends at CHUNK_FILES files or CHUNK_BYTES of text.
    // A path of letters, digits, `-._` and `/` has one spelling: Node's is fileUri's (it encodes `~`).
    const openOf = (f: { path: string; uri: string }): TextDocument | undefined =>
      ctx.openDocument(f.uri) ?? (oneSpelling(f.path) ? undefined : ctx.openDocument(pathToFileURL(f.path).toString()));
    // A file the command line named may be a link to follow, read as the index reads: the rest are
    // read synchronously, a slice at a time (for a codebase's many small files a thread-pool round
    // trip per open, stat, read and close costs more than the reads themselves: benchmark 6).
    let readSinceTurn = 0;
    const read = async (f: (typeof files)[number], onStat: (st: Stats) => boolean): Promise<string | ReadFailure> => {
      if (f.named) return readCapped(f.path, f.settings.maxFileSize, { followLink: true });
      const text = readCappedSync(f.path, f.settings.maxFileSize, { listedRegular: f.listed === true, onStat });
      if (typeof text === 'string') readSinceTurn += text.length;
      return text;
    };
    const chunks = new ChunkedCheck(ctx, run, result, {
      client,
      started,
      replacedAtStart,
      ...(reuse && replacedAtStart !== undefined ? { kept: CheckedFiles.builder() } : {}),
    });
    /** The slot of `f` in what the last check kept, when it is the same file under the same settings; else -1. */
    const keptSlot = (f: (typeof files)[number], st: FileStamp): number => {
      if (!prev || !reuse) return -1;
      const slot = prev.find(f.uri, st, f.sig, Date.now());
      // Diagnostics the editor no longer shows (the file was opened since) are sent again.
      return slot >= 0 && prev.diagnostics(slot) > 0 && !reuse.stillShown(f.uri) ? -1 : slot;
    };
    /** One file's scan (`got`: what a worker read and scanned, when one did). */
    const visit = async (f: (typeof files)[number], got: WorkerScan | undefined) => {
      const open = openOf(f);
      let doc = open;
      let scan: ScanResult | undefined;
      /** The metadata of the file as read, for what this check keeps of it. */
      let stamp: FileStamp | undefined;
      if (open) scan = ctx.scanOf(open, f.settings);
      else if (got && 'failed' in got) return passOver(ctx, result, f.path, got.failed, f.settings);
      else if (got && 'quiet' in got) {
        result.files++;
        return;
      } else if (got) {
        doc = TextDocument.create(f.uri, f.languageId, 0, got.text);
        scan = got.scan;
        stamp = got.stamp;
      } else {
        // A file the last check kept, the same on disk (the metadata of its open descriptor, so that
        // a network file system checks it anew): counted, not read.
        let slot = -1;
        const text = await read(f, (st) => {
          stamp = st;
          slot = prev && !f.named ? keptSlot(f, st) : -1;
          return slot >= 0;
        });
        if (prev && slot >= 0) {
          result.files++;
          chunks.reused(f.uri, prev, slot, f.sig);
          return;
        }
        if (typeof text !== 'string') return passOver(ctx, result, f.path, text, f.settings);
        doc = TextDocument.create(f.uri, f.languageId, 0, text);
        scan = scanText(text, f.languageId, f.settings);
      }
      if (!scan || !doc) {
        result.skipped++;
        return;
      }
      result.files++;
      if (scan.occurrences.length > 0) await chunks.add(doc, scan, f.settings, open ? undefined : stamp, f.sig);
    };
    let i = 0;
    if (files.length >= MIN_FILES_FOR_WORKERS) release = ctx.scanFiles?.hold?.();
    const report = (): void => {
      chunks.percent = Math.round((i / files.length) * 100);
      run.report?.(chunks.percent, `checked ${i} of ${files.length} files`);
    };
    /**
     * Workers read and scan a window of files from `from` (up to CHUNK_FILES files or CHUNK_BYTES
     * of text), while this thread handles the window before; undefined when they do not (too few
     * files, a named file, no workers): the window is read here.
     */
    const inWorkers = (from: number): Promise<{ n: number; got: WorkerScan[] }> | undefined => {
      const window = files.slice(from, Math.min(files.length, from + CHUNK_FILES));
      // Named files (a file the command line gave) may be links to follow: read here.
      // When the last check kept its files, most are not read again: they are looked at here.
      if (!ctx.scanFiles || prev || window.length < MIN_FILES_FOR_WORKERS || window.some((f) => f.named))
        return undefined;
      const got: WorkerScan[] = [];
      let bytes = 0;
      return ctx
        .scanFiles(
          window.map((f) => ({
            path: f.path,
            languageId: f.languageId,
            settings: f.settings,
            listedRegular: f.listed === true,
          })),
          (k, r) => {
            got[k] = r;
            if ('text' in r) bytes += r.text.length;
          },
          () => cancelled() || bytes >= CHUNK_BYTES,
        )
        .then((n) => ({ n, got }));
    };
    let ahead = inWorkers(0);
    while (i < files.length && !cancelled()) {
      const done = ahead ? await ahead : { n: 0, got: [] };
      ahead = undefined;
      if (done.n > 0) {
        if (i + done.n < files.length && !cancelled()) ahead = inWorkers(i + done.n);
        for (let k = 0; k < done.n && !cancelled(); k++) {
          const r = done.got[k];
          done.got[k] = undefined as unknown as WorkerScan;
          await visit(files[i]!, r);
          i++;
        }
      } else {
        const window = files.slice(i, Math.min(files.length, i + CHUNK_FILES));
        for (let k = 0; k < window.length && !cancelled(); k++) {
          await visit(window[k]!, undefined);
          i++;
          // Requests (and a cancellation) are answered between slices of files or of text.
          if (i % SLICE === 0 || readSinceTurn >= SLICE_CHARS) {
            readSinceTurn = 0;
            await new Promise((resolve) => setImmediate(resolve));
          }
          if (i % 200 === 0) report();
        }
        if (i < files.length && !cancelled()) ahead = inWorkers(i);
      }
      report();
    }
    // A window still being read after a cancellation ends at its next answer (its stop says so).
    await ahead;
    if (cancelled()) {
      // A chunk being asked about ends at the cancellation (its resolve stops waiting), unpublished.
      await chunks.settle().catch(() => undefined);
      chunks.stopped();
      result.cancelled = true;
      return result;
    }
    await chunks.finish();
    if (reuse)
      ctx.log(
        `Check Workspace: ${chunks.reusedFiles} of ${files.length} files as they were at the last check (not read again)`,
      );
    result.cancelled = cancelled();
    return result;
  } finally {
    release?.();
    // The check parsed every URN of the workspace; the parse cache need only serve the open documents.
    clearParseCache();
  }
}

/**
 * What a worker thread gives Check Workspace for one file (server/src/index/scanPool.ts): with the
 * text, the metadata of the descriptor it was read from.
 */
export type WorkerScan =
  { failed: ReadFailure } | { text: string; scan: ScanResult; stamp?: FileStamp } | { quiet: true };

/** A file for a worker thread to read and scan. */
export interface FileToScan {
  path: string;
  languageId: string;
  settings: Settings;
  listedRegular: boolean;
}

/**
 * Reads and scans files in worker threads, handing each result to `take` in the order of
 * `files`; resolves with how many it handed (fewer when `stop` says so, or when the workers
 * failed: the check reads the rest itself).
 */
export interface ScanFiles {
  (
    files: ReadonlyArray<FileToScan>,
    take: (index: number, result: WorkerScan) => void,
    stop: () => boolean,
  ): Promise<number>;
  /** Keeps the workers started until the returned function is called (between the windows of a check). */
  hold?(): () => void;
}

/** Files read and scanned between two turns of the event loop, at most; and characters of text. */
const SLICE = 64;
const SLICE_CHARS = 4 << 20;
/** Files of URNs resolved and published together, at most; and files scanned by workers in one window. */
const CHUNK_FILES = 500;
/** Bytes of text of the files kept for one resolve, at most (and read by workers in one window). */
const CHUNK_BYTES = 4 << 20;
/** Fewer files than this are read on the main thread (a worker's start costs more). */
const MIN_FILES_FOR_WORKERS = 64;
/**
 * Whether fileUri and Node's pathToFileURL spell the file at `path` alike: a POSIX path with
 * nothing to encode (letters, digits, `-._` and `/`; Node encodes `~`), nothing Node's resolve
 * changes (no `.` or `..` segment) and no `//` (a UNC authority to fileUri).
 */
export function oneSpelling(path: string): boolean {
  return ONE_SPELLING.test(path);
}
const ONE_SPELLING = /^(?!.*\/\/)(?!(?:.*\/)?\.\.?(?:\/|$))\/[A-Za-z0-9\-._/]*$/;

/**
 * The files of a check that hold URNs, resolved and published a chunk at a time, so that the
 * check holds at most one chunk of texts and scans. A URN is asked of the catalog once per check:
 * what the catalog answered is kept for the later chunks. A DataHub dataset file with structured
 * property values waits for the end, when every structured properties file of the check has been
 * scanned (its values are checked against their definitions).
 */
class ChunkedCheck {
  private kept: ChunkFile[] = [];
  private keptBytes = 0;
  private readonly waiting: ChunkFile[] = [];
  /** The structured property definitions of the files checked, first by URI. */
  private readonly definitions: Array<{ uri: string; definitions: FormatPropertyDefinition[] }> = [];
  /** URNs asked so far, and what the catalog said of them. */
  private readonly seen = new Set<string>();
  private readonly answers = new Map<string, Resolution | undefined>();
  private readonly before: Set<string>;
  private readonly flagged = new Set<string>();
  private readonly scannedUris = new Set<string>();
  private client: Resolver | undefined;
  /** The URNs of the files kept by the last check and not read (two hashes in one number each). */
  private readonly reusedUrns = new Set<number>();
  /** The chunk whose answers are being asked for, published when they come (flush). */
  private pending: Promise<void> | undefined;
  /** Files kept by the last check and not read. */
  reusedFiles = 0;
  /** How far the check is, for the progress it reports. */
  percent = 0;

  constructor(
    private readonly ctx: WorkspaceDeps,
    private readonly run: CheckRun,
    private readonly result: CheckWorkspaceResult,
    /** The catalog client, the check's start, and what it keeps for the next check (when it does). */
    private readonly keep: {
      client: Resolver | undefined;
      started: number;
      replacedAtStart: number | undefined;
      kept?: CheckedFilesBuilder;
    },
  ) {
    this.before = flaggedByCheck.get(ctx) ?? new Set<string>();
    this.client = keep.client;
  }

  /** A file the last check kept, the same now: its diagnostics stay as sent, and are counted. */
  reused(uri: string, from: CheckedFiles, slot: number, sig: string): void {
    this.reusedFiles++;
    const n = from.diagnostics(slot);
    this.result.diagnostics += n;
    if (n > 0) this.flagged.add(uri);
    from.forEachUrn(slot, (a, b) => this.reusedUrns.add(urnKey(a, b)));
    this.keep.kept?.carry(uri, from, slot, sig);
  }

  async add(doc: TextDocument, scan: ScanResult, settings: Settings, stamp?: FileStamp, sig?: string): Promise<void> {
    this.scannedUris.add(doc.uri);
    if (scan.formatPropertyDefinitions?.length)
      this.definitions.push({ uri: doc.uri, definitions: scan.formatPropertyDefinitions });
    this.kept.push({ doc, scan, settings, ...(stamp && sig !== undefined ? { stamp, sig } : {}) });
    this.keptBytes += doc.getText().length;
    if (this.kept.length >= CHUNK_FILES || this.keptBytes >= CHUNK_BYTES) await this.flush(false);
  }

  /** Resolves and publishes what is kept, then the files that waited for every definition. */
  async finish(): Promise<void> {
    await this.flush(true);
    if (this.run.cancelled()) return this.stopped();
    const ctx = this.ctx;
    for (const uri of this.before) {
      if (!this.flagged.has(uri) && !this.scannedUris.has(uri) && !ctx.openDocument(uri)) ctx.clear(uri);
    }
    flaggedByCheck.set(ctx, this.flagged);
    // The distinct URNs: those asked now and those of the files kept, as their hashes.
    if (this.reusedUrns.size > 0) {
      for (const urn of this.seen) {
        const [a, b] = textHashes(urn);
        this.reusedUrns.delete(urnKey(a, b));
      }
      this.result.urns = this.seen.size + this.reusedUrns.size;
    }
    // Kept for the next check only when no answer read was replaced while this one ran.
    const { client, kept } = this.keep;
    if (kept && ctx.reuse && client?.answersReplaced !== undefined) {
      const replaced = client.answersReplaced;
      ctx.reuse.kept = replaced === this.keep.replacedAtStart ? kept.finish(client, replaced) : undefined;
    }
  }

  /**
   * The check was cancelled: the files of the chunks published so far are remembered with those
   * the last check flagged, so that the next check clears what they no longer have.
   */
  stopped(): void {
    flaggedByCheck.set(this.ctx, new Set([...this.before, ...this.flagged]));
  }

  /**
   * Asks the catalog about the URNs of the chunk kept so far and publishes it once the answers
   * come, while the check reads the next chunk (the catalog answers on another core): the chunk
   * before is published first, so at most two chunks are held. `last`: the end of the check, which
   * waits for its publishing.
   */
  private async flush(last: boolean): Promise<void> {
    const chunk = this.kept;
    this.kept = [];
    this.keptBytes = 0;
    await this.settle();
    // The files that waited for every definition: complete once the chunk before is published.
    if (last) chunk.push(...this.waiting);
    if (chunk.length === 0 || this.run.cancelled()) return;
    // URNs shared by files are asked once, in batches; those asked for an earlier chunk are not asked again.
    const items = resolvableItems(chunk.map((x) => x.scan)).filter((item) => !this.seen.has(item.urn));
    for (const item of items) this.seen.add(item.urn);
    this.result.urns = this.seen.size;
    this.run.report?.(this.percent, `asking the catalog about ${items.length} URNs (${this.seen.size} so far)`);
    this.client ??= this.ctx.clientFor(await this.ctx.settingsFor());
    const publishing = resolveItems(this.client, items, this.run.signal).then((fresh) =>
      this.publishChunk(chunk, items, fresh, last),
    );
    // Its failure is the check's, seen where it is awaited (the next flush, or settle).
    publishing.catch(() => undefined);
    this.pending = publishing;
    if (last) await this.settle();
  }

  /** Waits until the chunk being asked about is published (or has failed: then it throws). */
  async settle(): Promise<void> {
    const p = this.pending;
    this.pending = undefined;
    await p;
  }

  private publishChunk(
    chunk: ChunkFile[],
    items: readonly ResolvableItem[],
    fresh: ResolutionLookup,
    last: boolean,
  ): void {
    if (this.run.cancelled()) return;
    for (const item of items) this.answers.set(item.urn, fresh(item.urn));
    const resolved: ResolutionLookup = (urn) => fresh(urn) ?? this.answers.get(urn);
    const definitions = last ? workspaceDefinitions(this.definitions, this.ctx.propertyDefinitions) : undefined;
    for (const x of chunk) {
      // A file's structured property values wait for every definition of the check.
      if (!last && x.scan.formatPropertyValues?.length) {
        this.waiting.push(x);
        continue;
      }
      this.publish(x, resolved, definitions ?? workspaceDefinitions([], this.ctx.propertyDefinitions));
    }
  }

  private publish(
    { doc, scan, settings, stamp, sig }: ChunkFile,
    resolved: ResolutionLookup,
    definitions: PropertyDefinitionLookup,
  ): void {
    const kept = this.keep.kept;
    const keepable = kept && stamp && sig !== undefined && kept.admits(stamp, this.keep.started) && keepableScan(scan);
    // Kept for the next check: when the first answer its diagnostics read expires, unless one of
    // them is not a settled answer kept by the client (an error, a sibling's text, a deprecation's
    // details still to come, none at all).
    let freshUntil = Infinity;
    let plain = true;
    const lookup: ResolutionLookup = !keepable
      ? resolved
      : (urn) => {
          const r = resolved(urn);
          if (!plain) return r;
          const plainAnswer = r && r.state !== 'error' && !(r.state === 'found' && notSettled(r));
          const until = plainAnswer ? this.client?.answerExpires?.(urn) : undefined;
          if (until === undefined) plain = false;
          else if (until < freshUntil) freshUntil = until;
          return r;
        };
    const diags = diagnose(scan, lookup, settings, undefined, definitions);
    // Answers that expired already (a time-to-live of 0) serve no next check: nothing is kept.
    if (keepable && plain && freshUntil > Date.now())
      kept.add(
        doc.uri,
        stamp,
        this.keep.started,
        sig,
        diags.length,
        freshUntil,
        resolvableItems([scan]).map((i) => i.urn),
      );
    this.result.diagnostics += diags.length;
    // A file without URNs has no diagnostics: it gets a message only to clear what the last check gave it.
    if (diags.length > 0) this.flagged.add(doc.uri);
    else if (!this.before.has(doc.uri) && !this.ctx.openDocument(doc.uri)) return;
    this.ctx.publish(doc, diags);
  }
}

/** A file of a chunk: with, when the check keeps it for the next one, its metadata as read and its settings as text. */
interface ChunkFile {
  doc: TextDocument;
  scan: ScanResult;
  settings: Settings;
  stamp?: FileStamp;
  sig?: string;
}

/**
 * Whether the diagnostics of `scan` depend only on its text, its settings and the answers about
 * its URNs: not on structured property definitions read across the check's files, nor on a search
 * by name.
 */
function keepableScan(scan: ScanResult): boolean {
  if (scan.formatPropertyDefinitions?.length || scan.formatPropertyValues?.length) return false;
  for (const o of scan.occurrences) if (o.byName !== undefined) return false;
  return true;
}

/**
 * Whether a found entity's answer may still change in place, or reads another's: a dataset's
 * siblings (their text fills its own), a deprecation whose note, date and replacement are still
 * to be read (they are written into the answer the cache holds).
 */
function notSettled(r: Extract<Resolution, { state: 'found' }>): boolean {
  if (r.kind === 'dataset' && siblingUrns(r.entity).length > 0) return true;
  const d = (r.entity as { deprecation?: { deprecated?: boolean; note?: unknown } | null }).deprecation;
  return d?.deprecated === true && d.note === undefined;
}

/** Two 32-bit hashes in one number (53 bits: exact in a double). */
function urnKey(a: number, b: number): number {
  return (a >>> 0) * 0x200000 + ((b >>> 0) & 0x1fffff);
}

/** Counts and tells of a file not checked: too large, unreadable, or (neither) in no language scanned. */
function passOver(ctx: WorkspaceDeps, result: CheckWorkspaceResult, path: string, why: ReadFailure, s: Settings): void {
  result.skipped++;
  if (why.notRegular) return ctx.log(`Check Workspace: ${path} was passed over: ${why.notRegular}, not a regular file`);
  if (!why.tooLarge && why.error === undefined) return;
  if (why.error) ctx.log(`Check Workspace: ${path} was passed over: ${why.error}`);
  ctx.skipped?.(
    path,
    why.tooLarge
      ? `larger than maxFileSize (${s.maxFileSize.toLocaleString('en-US')} bytes)`
      : `unreadable (${why.error ?? 'unknown error'})`,
  );
}

export interface ReadFailure {
  tooLarge?: true;
  error?: string;
  /**
   * Not a regular file, so not read: a symbolic link (never followed), a FIFO (opening one waits
   * for a writer, and held a thread of the pool for good), a device (/dev/zero never ends), a socket.
   */
  notRegular?: string;
  /** Not read: the caller's onStat said the file is as it last read it. */
  unread?: true;
}

/** How a file is read: see readCapped. */
export interface ReadOptions {
  /** The path may be a symbolic link to a regular file (a file the user named on the command line). */
  followLink?: boolean;
  /**
   * The caller's directory listing (readdir withFileTypes, which does not follow links) said the
   * entry is a regular file: no stat before the open (the open still refuses a link and never
   * blocks, and the check on the open descriptor stays).
   */
  listedRegular?: boolean;
  /**
   * Told the metadata of the open descriptor the text is read from (Check Workspace keeps it);
   * answers true when the text is not wanted after all (the file is as the caller last read it):
   * then nothing is read, and the answer is `{ unread: true }`.
   */
  onStat?(st: Stats): boolean | void;
}

/**
 * The file's text, or why not: not a regular file, larger than `maxSize` bytes, or unreadable
 * (gone since the listing, no permission …). A symbolic link is not followed unless
 * `opts.followLink`.
 */
export async function readCapped(path: string, maxSize: number, opts: ReadOptions = {}): Promise<string | ReadFailure> {
  const steps = readSteps(path, maxSize, opts);
  try {
    let next = steps.next();
    while (!next.done) {
      let value: unknown;
      try {
        value = await stepAsync(next.value);
      } catch (e) {
        next = steps.throw(e);
        continue;
      }
      next = steps.next(value);
    }
    return next.value;
  } catch (e) {
    return readError(e);
  }
}

/** readCapped, synchronously: the workspace index reads a codebase's many small files this way (benchmark 10). */
export function readCappedSync(path: string, maxSize: number, opts: ReadOptions = {}): string | ReadFailure {
  const steps = readSteps(path, maxSize, { ...opts, followLink: false });
  try {
    let next = steps.next();
    while (!next.done) {
      let value: unknown;
      try {
        value = stepSync(next.value);
      } catch (e) {
        next = steps.throw(e);
        continue;
      }
      next = steps.next(value);
    }
    return next.value;
  } catch (e) {
    return readError(e);
  }
}

/** One file system call of a read: readSteps yields them, readCapped and readCappedSync make them. */
export type ReadStep =
  | { op: 'lstat' | 'stat'; path: string }
  | { op: 'open'; path: string; flags: number }
  | { op: 'fstat' | 'close'; fd: number }
  | { op: 'read'; fd: number; buffer: Buffer; offset: number; length: number };

/**
 * Read only, never waiting (O_NONBLOCK: a FIFO put in the file's place after its stat does not
 * block the open); NO_FOLLOW refuses a symbolic link put there. Windows has neither flag.
 */
const READ_FLAGS = fsSync.constants.O_RDONLY | (fsSync.constants.O_NONBLOCK ?? 0);
const NO_FOLLOW = fsSync.constants.O_NOFOLLOW ?? 0;

/**
 * The one way a file is read for the workspace index and Check Workspace, as the file system
 * calls it takes: stat the path without following a link and pass over what is not a regular
 * file, open it without blocking, check again on the open descriptor, and read at most
 * `maxSize` + 1 bytes into a bounded buffer, whatever size the stat gave (/proc files say 0,
 * a file may grow; a read that stops at the stat's size is taken as the end, without another
 * read to see it). The first stat is left out when the directory listing already said the entry
 * is a regular file (`listedRegular`): it is there so that a device node is never opened (an open
 * can have side effects), and the listing answered that without another call.
 */
export function* readSteps(
  path: string,
  maxSize: number,
  opts: ReadOptions,
): Generator<ReadStep, string | ReadFailure> {
  const followLink = opts.followLink === true;
  if (!opts.listedRegular || followLink) {
    const before = (yield { op: followLink ? 'stat' : 'lstat', path }) as Stats;
    if (!before.isFile()) return notRegular(before);
  }
  const fd = (yield { op: 'open', path, flags: READ_FLAGS | (followLink ? 0 : NO_FOLLOW) }) as number;
  try {
    const st = (yield { op: 'fstat', fd }) as Stats;
    if (!st.isFile()) return notRegular(st);
    if (opts.onStat?.(st) === true) return { unread: true };
    if (st.size > maxSize) return { tooLarge: true };
    const cap = maxSize + 1;
    let buffer = Buffer.allocUnsafe(Math.min(st.size + 1, cap));
    let read = 0;
    for (;;) {
      if (read === buffer.length) {
        if (read >= cap) return { tooLarge: true };
        const bigger = Buffer.allocUnsafe(Math.min(buffer.length * 2, cap));
        buffer.copy(bigger, 0, 0, read);
        buffer = bigger;
      }
      const n = (yield { op: 'read', fd, buffer, offset: read, length: buffer.length - read }) as number;
      if (n === 0) break;
      read += n;
      // A short read that brings the text to the size the open file's stat gave is its end: the
      // read asked for more than that and got no more (a file that grew in between gives more and
      // is read on; /proc files say 0 and are read to a read of nothing, as any other short read).
      if (read === st.size) break;
    }
    return buffer.toString('utf8', 0, read);
  } finally {
    yield { op: 'close', fd };
  }
}

/** Why a file is not read, from the stat of what stands at its path (not a regular file). */
export function notRegular(st: Stats): ReadFailure {
  // A folder is unreadable as a file, as reading it would say.
  if (st.isDirectory()) return { error: 'EISDIR' };
  if (st.isSymbolicLink()) return { notRegular: 'a symbolic link' };
  if (st.isFIFO()) return { notRegular: 'a FIFO' };
  if (st.isSocket()) return { notRegular: 'a socket' };
  if (st.isCharacterDevice() || st.isBlockDevice()) return { notRegular: 'a device' };
  return { notRegular: 'not a regular file' };
}

/** Why a file could not be read, from the error a file system call threw. */
export function readError(e: unknown): ReadFailure {
  const code = (e as NodeJS.ErrnoException).code;
  // NO_FOLLOW met a link that took the file's place after its stat.
  if (code === 'ELOOP') return { notRegular: 'a symbolic link' };
  return { error: code ?? (e instanceof Error ? e.message : String(e)) };
}

const fsAsync = {
  lstat: promisify(fsSync.lstat),
  stat: promisify(fsSync.stat),
  open: promisify(fsSync.open),
  fstat: promisify(fsSync.fstat),
  read: promisify(fsSync.read),
  close: promisify(fsSync.close),
};

async function stepAsync(s: ReadStep): Promise<unknown> {
  switch (s.op) {
    case 'lstat':
      return fsAsync.lstat(s.path);
    case 'stat':
      return fsAsync.stat(s.path);
    case 'open':
      return fsAsync.open(s.path, s.flags);
    case 'fstat':
      return fsAsync.fstat(s.fd);
    case 'close':
      return fsAsync.close(s.fd);
    case 'read':
      return (await fsAsync.read(s.fd, s.buffer, s.offset, s.length, null)).bytesRead;
  }
}

function stepSync(s: ReadStep): unknown {
  switch (s.op) {
    case 'lstat':
      return fsSync.lstatSync(s.path);
    case 'stat':
      return fsSync.statSync(s.path);
    case 'open':
      return fsSync.openSync(s.path, s.flags);
    case 'fstat':
      return fsSync.fstatSync(s.fd);
    case 'close':
      return fsSync.closeSync(s.fd);
    case 'read':
      return fsSync.readSync(s.fd, s.buffer, s.offset, s.length, null);
  }
}

/**
 * Why `path` is not a file of the workspace folders (`folders`: file: URIs), or undefined when it
 * is: under one of them as written, and its real path (symbolic links resolved; that of its
 * folder when the file does not exist) under the real path of that folder. A link inside a
 * folder, or a linked folder, that leads out of it is outside.
 */
export async function outsideWorkspace(path: string, folders: readonly string[]): Promise<string | undefined> {
  const roots = folders.flatMap((f) => {
    try {
      return f.startsWith('file:') ? [fileURLToPath(f)] : [];
    } catch {
      return [];
    }
  });
  const root = roots.find((r) => within(r, path));
  if (root === undefined) return 'outside the workspace folders';
  const real = (p: string): Promise<string | undefined> => fs.realpath(p).catch(() => undefined);
  const realPath = (await real(path)) ?? (await real(dirname(path)));
  const realRoot = await real(root);
  if (realPath === undefined || realRoot === undefined) return 'outside the workspace folders (its folder is gone)';
  return within(realRoot, realPath) ? undefined : 'outside the workspace folders (a symbolic link leads out)';
}

/** Whether `path` is `root` or under it. */
function within(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** What a WorkspaceEdit names (LSP's shapes: text edits by URI or by document, file creates, renames, deletes). */
export interface EditedFiles {
  changes?: Record<string, unknown>;
  documentChanges?: ReadonlyArray<{ textDocument?: { uri: string }; uri?: string; oldUri?: string; newUri?: string }>;
}

/**
 * The one check a WorkspaceEdit passes before the server returns it: which of the files it
 * names are outside the workspace folders (a symbolic link leading out counts), as a sentence
 * with their names inert for a notification; undefined when none is. URIs that name no file
 * (`untitled:`) are not paths and pass.
 */
export async function editOutsideWorkspace(edit: EditedFiles, folders: readonly string[]): Promise<string | undefined> {
  const uris = new Set(Object.keys(edit.changes ?? {}));
  for (const c of edit.documentChanges ?? [])
    for (const u of [c.textDocument?.uri, c.uri, c.oldUri, c.newUri]) if (u !== undefined) uris.add(u);
  const outside: string[] = [];
  for (const uri of [...uris].sort()) {
    if (!uri.startsWith('file:')) continue;
    let why: string | undefined;
    try {
      why = await outsideWorkspace(fileURLToPath(uri), folders);
    } catch {
      why = 'not a path of this machine';
    }
    if (why) outside.push(`${fileNameOf(uri)} is ${why}`);
  }
  if (outside.length === 0) return undefined;
  return `${outside.slice(0, 5).join('; ')}${outside.length > 5 ? `; and ${outside.length - 5} more files` : ''}`;
}

/** A file's name for a message, decoded and inert: `report (final).py`, not `report%20%28final%29.py`. */
/**
 * The structured property definitions of the structured properties files among the checked ones
 * (the first by URI when several define a property), then those the index knows of other files.
 */
function workspaceDefinitions(
  files: ReadonlyArray<{ uri: string; definitions: readonly FormatPropertyDefinition[] }>,
  indexed: PropertyDefinitionLookup | undefined,
): PropertyDefinitionLookup {
  const found = new Map<string, { uri: string; definition: FormatPropertyDefinition['definition'] }>();
  for (const { uri, definitions } of [...files].sort((a, b) => (a.uri < b.uri ? -1 : 1)))
    for (const d of definitions) if (!found.has(d.urn)) found.set(d.urn, { uri, definition: d.definition });
  return (urn) => found.get(urn) ?? indexed?.(urn);
}

export function fileNameOf(uri: string): string {
  let name: string;
  try {
    name = basename(fileURLToPath(uri));
  } catch {
    name = uri.slice(uri.lastIndexOf('/') + 1);
    try {
      name = decodeURIComponent(name);
    } catch {
      // kept as written
    }
  }
  return inertText(name, 'notification', 80);
}

/**
 * The URI of the file at `path` as VS Code spells it (vscode-uri's `URI.file(path).toString()`):
 * every character but ASCII letters, digits, `-._~` and `/` percent-encoded, a Windows drive
 * letter in lower case. Node's pathToFileURL keeps `( ) $ ! ' * + , ; = @`: the same file under
 * two URIs would be listed twice by references, and rename would fail on overlapping edits.
 */
export function fileUri(path: string): string {
  let p = process.platform === 'win32' ? path.replace(/\\/g, '/') : path;
  let authority = '';
  if (p.startsWith('//')) {
    // A UNC path: \\server\share\file.
    const end = p.indexOf('/', 2);
    authority = (end < 0 ? p.slice(2) : p.slice(2, end)).toLowerCase();
    p = end < 0 ? '/' : p.slice(end);
  }
  if (!p.startsWith('/')) p = `/${p}`;
  const drive = /^\/([A-Z]):/.exec(p);
  if (drive) p = `/${drive[1]!.toLowerCase()}:${p.slice(3)}`;
  try {
    return `file://${encodeUriPart(authority)}${encodeUriPart(p)}`;
  } catch {
    return pathToFileURL(path).toString(); // a lone surrogate: no spelling VS Code could make either
  }
}

/** vscode-uri's encodeURIComponentFast for a path: RFC 3986's unreserved characters and `/` stay. */
function encodeUriPart(text: string): string {
  return text.replace(/[^A-Za-z0-9\-._~/]+/g, (run) =>
    encodeURIComponent(run).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`),
  );
}

/**
 * `uri` in the one spelling the workspace index and Check Workspace use for a file (fileUri of its
 * path), whatever spelling the editor or its file watcher gave; other URIs as they are.
 */
export function normalUri(uri: string): string {
  if (!uri.startsWith('file:')) return uri;
  try {
    return fileUri(fileURLToPath(uri));
  } catch {
    return uri; // not a path of this machine (a host, an encoded slash): left as it is
  }
}

/** Every file under `dir` with an extension of LANGUAGE_BY_EXTENSION, passing over excluded and hidden folders. */
export async function listFiles(
  dir: string,
  exclude: readonly string[],
  out: string[],
  cancelled: () => boolean,
): Promise<void> {
  if (cancelled()) return;
  let entries: import('node:fs').Dirent[];
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    return; // unreadable folders are passed over, like editors' own file search does
  }
  for (const e of entries) {
    if (e.isDirectory()) {
      if (!exclude.includes(e.name) && !e.name.startsWith('.'))
        await listFiles(join(dir, e.name), exclude, out, cancelled);
    } else if (e.isFile() && LANGUAGE_BY_EXTENSION[extname(e.name).toLowerCase()]) {
      out.push(join(dir, e.name));
    }
  }
}
