/**
 * Check Workspace: scan every matching file of the workspace folders, resolve all their URNs
 * together (batched across files), and publish diagnostics for each file, with progress. It runs
 * the document pipeline (pipeline/check.ts) over files; no LSP connection is needed here, so a
 * command line can run it too.
 */
import { promises as fs } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { CheckWorkspaceResult, Settings } from '../../model/src/protocol';
import type { PlainDiagnostic } from './features/diagnostics';
import { diagnose, resolvableItems, resolveItems, scanText, type PipelineContext } from './pipeline/check';
import { clearParseCache } from './scan/parseCache';
import type { ScanResult } from './scan/types';

export const LANGUAGE_BY_EXTENSION: Readonly<Record<string, string>> = {
  '.py': 'python',
  '.yml': 'yaml',
  '.yaml': 'yaml',
  '.sql': 'sql',
  '.json': 'json',
  '.md': 'markdown',
  '.txt': 'plaintext',
  '.ts': 'typescript',
  '.tsx': 'typescriptreact',
  '.js': 'javascript',
  '.jsx': 'javascriptreact',
  '.java': 'java',
  '.scala': 'scala',
  '.go': 'go',
  '.sh': 'shellscript',
  '.toml': 'toml',
};

/** What Check Workspace is given: the folders, the open documents (their text wins over the file's), and where diagnostics go. */
export interface WorkspaceContext extends PipelineContext {
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

/** Files read at once: enough to keep the thread pool busy while the server scans the one before. */
const READ_AHEAD = 16;

/** URIs of closed files that the last Check Workspace gave diagnostics, so that the next one can clear them. */
const flaggedByCheck = new WeakMap<WorkspaceContext, Set<string>>();

export async function checkWorkspace(ctx: WorkspaceContext, run: CheckRun): Promise<CheckWorkspaceResult> {
  const result: CheckWorkspaceResult = { files: 0, skipped: 0, urns: 0, diagnostics: 0, cancelled: false };
  const cancelled = (): boolean => run.cancelled();
  try {
    // Settings are asked once per workspace folder (its files share them), not once per file.
    const files: Array<{ path: string; uri: string; languageId: string; settings: Settings }> = [];
    for (const folder of ctx.workspaceFolders()) {
      if (!folder.startsWith('file:')) continue;
      const settings = await ctx.settingsFor(folder);
      const paths: string[] = [];
      const root = fileURLToPath(folder);
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
      } else await listFiles(root, settings.excludeFolders, paths, cancelled);
      for (const path of paths) {
        const languageId = LANGUAGE_BY_EXTENSION[extname(path).toLowerCase()];
        if (languageId && settings.languages.includes(languageId))
          files.push({ path, uri: pathToFileURL(path).toString(), languageId, settings });
      }
    }
    // Files are read READ_AHEAD at a time, in order, while the ones already read are scanned.
    // Only files that hold URNs are kept (with their text, for positions) until the diagnostics.
    const scanned: Array<{ doc: TextDocument; scan: ScanResult; settings: Settings }> = [];
    const reads: Array<Promise<string | ReadFailure> | undefined> = [];
    const readAt = (i: number): Promise<string | ReadFailure> | undefined => {
      const f = files[i];
      if (!f || ctx.openDocument(f.uri)) return undefined;
      return readCapped(f.path, f.settings.maxFileSize);
    };
    for (let i = 0; i < Math.min(READ_AHEAD, files.length); i++) reads[i] = readAt(i);
    for (let i = 0; i < files.length && !cancelled(); i++) {
      const { uri, languageId, settings: s } = files[i]!;
      const read = reads[i];
      reads[i] = undefined;
      if (i + READ_AHEAD < files.length) reads[i + READ_AHEAD] = readAt(i + READ_AHEAD);
      const open = ctx.openDocument(uri);
      let doc = open;
      if (!doc) {
        const text = read ? await read : await readCapped(files[i]!.path, s.maxFileSize);
        if (typeof text !== 'string') {
          passOver(ctx, result, files[i]!.path, text, s);
          continue;
        }
        doc = TextDocument.create(uri, languageId, 0, text);
      }
      const scan = open ? ctx.scanOf(open, s) : scanText(doc.getText(), languageId, s);
      if (!scan) {
        result.skipped++;
        continue;
      }
      result.files++;
      if (scan.occurrences.length > 0) scanned.push({ doc, scan, settings: s });
      if (i % 200 === 0) run.report?.(Math.round((i / files.length) * 50), `scanned ${i} of ${files.length} files`);
    }
    // Reads started ahead of a cancellation settle on their own (readCapped never rejects).
    if (cancelled()) {
      result.cancelled = true;
      return result;
    }
    // One resolve over all files: URNs shared by files are asked once, in batches.
    const items = resolvableItems(scanned.map((x) => x.scan));
    result.urns = items.length;
    run.report?.(50, `asking the catalog about ${result.urns} URNs`);
    const resolved = await resolveItems(ctx.clientFor(await ctx.settingsFor()), items, run.signal);
    if (cancelled()) {
      result.cancelled = true;
      return result;
    }
    // A file without URNs has no diagnostics: it gets a message only to clear what the last check gave it.
    const before = flaggedByCheck.get(ctx) ?? new Set<string>();
    const flagged = new Set<string>();
    for (const { doc, scan, settings: fileSettings } of scanned) {
      const diags = diagnose(scan, resolved, fileSettings);
      result.diagnostics += diags.length;
      if (diags.length > 0) flagged.add(doc.uri);
      else if (!before.has(doc.uri) && !ctx.openDocument(doc.uri)) continue;
      ctx.publish(doc, diags);
    }
    const scannedUris = new Set(scanned.map((x) => x.doc.uri));
    for (const uri of before) {
      if (!flagged.has(uri) && !scannedUris.has(uri) && !ctx.openDocument(uri)) ctx.clear(uri);
    }
    flaggedByCheck.set(ctx, flagged);
    result.cancelled = cancelled();
    return result;
  } finally {
    // The check parsed every URN of the workspace; the parse cache need only serve the open documents.
    clearParseCache();
  }
}

/** Counts and tells of a file not checked: too large, unreadable, or (neither) in no language scanned. */
function passOver(
  ctx: WorkspaceContext,
  result: CheckWorkspaceResult,
  path: string,
  why: ReadFailure,
  s: Settings,
): void {
  result.skipped++;
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
}

/** The file's text, or why not: larger than `maxSize`, or unreadable (gone since the listing, no permission …). */
export async function readCapped(path: string, maxSize: number): Promise<string | ReadFailure> {
  let handle: import('node:fs/promises').FileHandle | undefined;
  try {
    handle = await fs.open(path, 'r');
    if ((await handle.stat()).size > maxSize) return { tooLarge: true };
    return await handle.readFile('utf8');
  } catch (e) {
    return { error: (e as NodeJS.ErrnoException).code ?? (e instanceof Error ? e.message : String(e)) };
  } finally {
    await handle?.close().catch(() => undefined);
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
