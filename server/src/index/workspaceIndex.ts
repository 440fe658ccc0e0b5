/**
 * The workspace index (issue 16, point 5): every URN occurrence of the workspace's files, by
 * entity — both namespace words one entity (`entityKey`) — with its range, and whether it is a
 * docs-as-code entry (a YAML mapping's own `urn:` with its description: what "definition" goes
 * to). Files are read and scanned as Check Workspace reads them; an open document's text wins over
 * its file's. Kept small: per file only the ranges of top-level occurrences (line, character), as
 * numbers; the texts and scans are not kept. References, highlights, symbols, definitions, code
 * lenses and rename read it; rename scans the files it names again, for exact edits.
 */
import { extname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { entityName } from '../../../model/src/entityNames';
import type { Settings } from '../../../model/src/protocol';
import { entityKey, type Urn } from '../../../model/src/urn';
import { LANGUAGE_BY_EXTENSION, listFiles, readCapped } from '../workspace';
import type { ScanResult, UrnOccurrence } from '../scan/types';

/** One place an entity is named: a range, as LSP positions. */
export interface Place {
  uri: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  /** A docs-as-code entry (a YAML mapping whose `urn:` this is, with or for its description). */
  entry: boolean;
}

/** Most occurrences the index holds; past it, files are left out (and the log says so). */
export const MAX_INDEXED_OCCURRENCES = 1_000_000;

interface FileEntry {
  /** Entity key → ranges as [startLine, startChar, endLine, endChar, entry (0/1)] × n. */
  byKey: Map<string, number[]>;
  count: number;
}

/** What the index needs of the server: settings per folder, the open documents, scanning, and a log. */
export interface IndexHost {
  settingsFor(uri?: string): Promise<Settings>;
  openDocument(uri: string): TextDocument | undefined;
  scan(text: string, languageId: string, settings: Settings): ScanResult | undefined;
  log(message: string): void;
}

/** The occurrences of a scan worth indexing: top level (not a platform inside a dataset), parsed, no template. */
export function indexedOccurrences(scan: ScanResult): Array<{ occ: UrnOccurrence; key: string; entry: boolean }> {
  const entries = new Set(scan.descriptions.map((d) => d.owner));
  const out: Array<{ occ: UrnOccurrence; key: string; entry: boolean }> = [];
  scan.occurrences.forEach((occ, i) => {
    if (occ.parent !== undefined || occ.template || !occ.parsed?.ok) return;
    out.push({ occ, key: entityKey(occ.urn), entry: entries.has(i) });
  });
  return out;
}

export class WorkspaceIndex {
  private readonly files = new Map<string, FileEntry>();
  /** Entity key → the files naming it. */
  private readonly filesOf = new Map<string, Set<string>>();
  /** Entity key → its parsed URN (one spelling), for symbols. */
  private readonly urns = new Map<string, Urn>();
  private total = 0;
  private full = false;
  /** Set once the first build ended (or was stopped). */
  built = false;

  constructor(private readonly host: IndexHost) {}

  get fileCount(): number {
    return this.files.size;
  }

  get occurrenceCount(): number {
    return this.total;
  }

  /** Reads and indexes every matching file of `folders` (file: URIs), `report`ing progress; stops when `cancelled`. */
  async build(
    folders: readonly string[],
    report: (done: number, of: number) => void,
    cancelled: () => boolean,
  ): Promise<void> {
    const files: Array<{ path: string; uri: string; languageId: string; settings: Settings }> = [];
    for (const folder of folders) {
      if (!folder.startsWith('file:')) continue;
      const settings = await this.host.settingsFor(folder);
      const paths: string[] = [];
      await listFiles(fileURLToPath(folder), settings.excludeFolders, paths, cancelled);
      for (const path of paths) {
        const languageId = LANGUAGE_BY_EXTENSION[extname(path).toLowerCase()];
        if (languageId && settings.languages.includes(languageId))
          files.push({ path, uri: pathToFileURL(path).toString(), languageId, settings });
      }
    }
    const AHEAD = 16;
    const reads: Array<Promise<string | object> | undefined> = [];
    const readAt = (i: number): Promise<string | object> | undefined => {
      const f = files[i];
      return f && !this.host.openDocument(f.uri) ? readCapped(f.path, f.settings.maxFileSize) : undefined;
    };
    for (let i = 0; i < Math.min(AHEAD, files.length); i++) reads[i] = readAt(i);
    for (let i = 0; i < files.length && !cancelled(); i++) {
      const f = files[i]!;
      const read = reads[i];
      reads[i] = undefined;
      if (i + AHEAD < files.length) reads[i + AHEAD] = readAt(i + AHEAD);
      const open = this.host.openDocument(f.uri);
      const text = open ? open.getText() : await (read ?? readCapped(f.path, f.settings.maxFileSize));
      if (typeof text === 'string') this.setText(f.uri, text, open?.languageId ?? f.languageId, f.settings);
      if (i % 100 === 0) report(i, files.length);
    }
    this.built = true;
    report(files.length, files.length);
  }

  /** Indexes `uri` from its text (a file read, or an open document's). */
  setText(uri: string, text: string, languageId: string, settings: Settings): void {
    const scan = this.host.scan(text, languageId, settings);
    this.setScan(uri, text, scan);
  }

  /** Indexes `uri` from a scan of `text`; no scan (a language not scanned, too large): out of the index. */
  setScan(uri: string, text: string, scan: ScanResult | undefined): void {
    this.remove(uri);
    if (!scan) return;
    const found = indexedOccurrences(scan);
    if (found.length === 0) return;
    if (this.total + found.length > MAX_INDEXED_OCCURRENCES) {
      if (!this.full)
        this.host.log(
          `workspace index: full at ${MAX_INDEXED_OCCURRENCES} occurrences; ${uri} and later files are left out`,
        );
      this.full = true;
      return;
    }
    const lines = lineStarts(text);
    const entry: FileEntry = { byKey: new Map(), count: found.length };
    for (const { occ, key, entry: isEntry } of found) {
      const [sl, sc] = positionOf(lines, occ.start);
      const [el, ec] = positionOf(lines, occ.end);
      let ranges = entry.byKey.get(key);
      if (!ranges) entry.byKey.set(key, (ranges = []));
      ranges.push(sl, sc, el, ec, isEntry ? 1 : 0);
      if (!this.urns.has(key) && occ.parsed?.ok) this.urns.set(key, occ.parsed.urn);
      let uris = this.filesOf.get(key);
      if (!uris) this.filesOf.set(key, (uris = new Set()));
      uris.add(uri);
    }
    this.files.set(uri, entry);
    this.total += found.length;
  }

  remove(uri: string): void {
    const old = this.files.get(uri);
    if (!old) return;
    this.files.delete(uri);
    this.total -= old.count;
    for (const key of old.byKey.keys()) {
      const uris = this.filesOf.get(key);
      uris?.delete(uri);
      if (uris?.size === 0) {
        this.filesOf.delete(key);
        this.urns.delete(key);
      }
    }
  }

  /** Every indexed file under a folder URI (for a removed workspace folder). */
  filesUnder(folder: string): string[] {
    const prefix = folder.endsWith('/') ? folder : `${folder}/`;
    return [...this.files.keys()].filter((u) => u.startsWith(prefix));
  }

  /** The files naming the entity `urn` names (any namespace word). */
  filesNaming(urn: string): string[] {
    return [...(this.filesOf.get(entityKey(urn)) ?? [])];
  }

  /** Every place the entity `urn` names is named, file by file in URI order, then by position. */
  placesOf(urn: string): Place[] {
    const key = entityKey(urn);
    const out: Place[] = [];
    for (const uri of [...(this.filesOf.get(key) ?? [])].sort()) {
      const r = this.files.get(uri)?.byKey.get(key) ?? [];
      for (let i = 0; i < r.length; i += 5)
        out.push({
          uri,
          range: { start: { line: r[i]!, character: r[i + 1]! }, end: { line: r[i + 2]!, character: r[i + 3]! } },
          entry: r[i + 4] === 1,
        });
    }
    return out;
  }

  /**
   * Entities whose name holds `query` (case-insensitive; all when empty), best first — the name
   * itself, then a name that starts with it, then the rest by name — at most `max`.
   */
  symbols(query: string, max = 200): Array<{ urn: Urn; key: string; name: string }> {
    const q = query.toLowerCase();
    const found: Array<{ urn: Urn; key: string; name: string; rank: number }> = [];
    for (const [key, urn] of this.urns) {
      const name = urn.kind === 'mlFeature' ? urn.feature : entityName(urn);
      const lower = name.toLowerCase();
      const at = q === '' ? 0 : lower.indexOf(q);
      if (at < 0) continue;
      found.push({ urn, key, name, rank: lower === q ? 0 : at === 0 ? 1 : 2 });
    }
    return found
      .sort((a, b) => a.rank - b.rank || a.name.localeCompare(b.name) || a.key.localeCompare(b.key))
      .slice(0, max);
  }

  /** The entity of a key as one of its spellings (for a symbol's URN). */
  urnOf(key: string): Urn | undefined {
    return this.urns.get(key);
  }
}

/** Offsets where each line starts. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** [line, character] of `offset`, by binary search over the line starts. */
function positionOf(lines: readonly number[], offset: number): [number, number] {
  let lo = 0;
  let hi = lines.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lines[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return [lo, offset - lines[lo]!];
}
