/**
 * The workspace index: every URN occurrence of the workspace's files, by
 * entity — both namespace words one entity (`entityKey`) — with its range, and whether it is a
 * docs-as-code entry (a YAML mapping's own `urn:` with its description: what "definition" goes
 * to). Files are read and scanned as Check Workspace reads them; an open document's text wins over
 * its file's. Kept small: per file only the ranges of top-level occurrences (line, character), as
 * numbers; the texts and scans are not kept. References, highlights, symbols, definitions, code
 * lenses and rename read it; rename scans the files it names again, for exact edits.
 *
 * The workspace boundary: each file is keyed by one spelling of its URI (workspace.ts
 * normalUri, VS Code's), whatever spelling the listing, the watcher or the editor gave; files are
 * read as workspace.ts readCappedSync reads them (readListed.ts; regular files only, but for what
 * replaces a listed file before it is read); URNs longer than DataHub
 * takes are left out, and the index keeps at most `index.maxBytes` of URN text.
 */
import { fileURLToPath } from 'node:url';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Settings } from '../../../model/src/protocol';
import { entityKey, overUrnLengthLimit, parseUrn, printUrnIn, type Urn } from '../../../model/src/urn';
import { normalUri, type IndexedFiles, type ReadFailure } from '../workspace';
import type { FormatPropertyDefinition, ScanResult, UrnOccurrence } from '../scan/types';
import { symbolFullName, symbolRank, symbolText } from '../features/symbols';
import { readDataHubYaml } from '../formats';
import { listFolder } from './listFolder';
import { readListedSync } from './readListed';

/** One place an entity is named: a range, as LSP positions. */
export interface Place {
  uri: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  /** A docs-as-code entry (a YAML mapping whose `urn:` this is, with or for its description). */
  entry: boolean;
}

/** Files read between two yields to the event loop while building, at most; and characters of text. */
const SLICE = 64;
const SLICE_CHARS = 4 << 20;

/** Most occurrences the index holds; past it, files are left out (and the log says so). */
export const MAX_INDEXED_OCCURRENCES = 1_000_000;

/** What the index needs of the server: settings per folder, the open documents, scanning, and a log. */
export interface IndexHost {
  settingsFor(uri?: string): Promise<Settings>;
  openDocument(uri: string): TextDocument | undefined;
  scan(text: string, languageId: string, settings: Settings): ScanResult | undefined;
  log(message: string): void;
  /**
   * Reads and packs `files` elsewhere (worker threads: scanPool.ts), handing each result to `take`
   * in the order of `files`; resolves with how many it handed (the rest are read here), sooner
   * when `cancelled`. Absent: every file is read on this thread.
   */
  readFiles?(
    files: ReadonlyArray<FileToRead>,
    take: (index: number, result: PackedOccurrences | ReadFailure) => void,
    cancelled: () => boolean,
  ): Promise<number>;
}

/** A file of the listing to read and pack: its path, its language, and its folder's settings. */
export interface FileToRead {
  path: string;
  languageId: string;
  settings: Settings;
}

/** The settings that choose and read a folder's files. */
type Chosen = Pick<Settings, 'languages' | 'excludeFolders' | 'maxFileSize'>;

/** Bytes a string takes in V8: one a character when all are Latin-1, else two. */
function textBytes(text: string): number {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0xff) return 2 * text.length;
  return text.length;
}

/** A line that may make a YAML file a structured properties file (read whole only then). */
const PROPERTY_FILE_KEY =
  /^[ \t]*(?:-[ \t]+)?(?:qualified_name|entity_types|cardinality|allowed_values|value_entity_types|type_qualifier|urn[ \t]*:[ \t]*['"]?urn:li:structuredProperty)[ \t]*:/m;

/**
 * The structured property definitions of a YAML file read as text (a `datahub properties upsert`
 * file): the file is parsed only when a line looks like one of its keys.
 */
export function propertyDefinitionsIn(text: string): FormatPropertyDefinition[] {
  if (!PROPERTY_FILE_KEY.test(text)) return [];
  const model = readDataHubYaml(text);
  return model?.format === 'datahub-structured-properties' ? model.definitions : [];
}

/** The kinds a docs-as-code entry describes. */
const DESCRIBED: ReadonlySet<string> = new Set(['dataset', 'mlFeature', 'mlFeatureTable', 'mlModel', 'mlModelGroup']);

/**
 * The occurrences of a scan worth indexing: top level (not a platform inside a dataset), parsed,
 * no template, no longer than DataHub takes (512 characters URL-encoded: no catalog holds
 * a longer one, and a checkout of long URNs would otherwise fill the memory); an entry when the
 * scan says a docs-as-code mapping owns it, or, for a YAML file read as text (`yamlAsText`), when
 * it is the value of a `urn:` key on its line.
 */
export function indexedOccurrences(
  scan: ScanResult,
  yamlAsText?: string,
): Array<{ occ: UrnOccurrence; urn: Urn; key: string; entry: boolean }> {
  const out: Array<{ occ: UrnOccurrence; urn: Urn; key: string; entry: boolean }> = [];
  forEachIndexed(scan, yamlAsText, (occ, urn, memo, entry) => out.push({ occ, urn, key: memo.key, entry }));
  return out;
}

/** indexedOccurrences, each handed to `take` in order as it is found (no list made), with its parse's memo. */
function forEachIndexed(
  scan: ScanResult,
  yamlAsText: string | undefined,
  take: (occ: UrnOccurrence, urn: Urn, memo: ParseMemo & { key: string }, entry: boolean) => void,
): void {
  const entries = yamlAsText === undefined && scan.descriptions.length > 0 ? ownersOf(scan) : undefined;
  const occurrences = scan.occurrences;
  for (let i = 0; i < occurrences.length; i++) {
    const occ = occurrences[i]!;
    const memo = indexedMemo(occ);
    if (memo === undefined) continue;
    take(occ, parsedUrn(occ), memo, isEntry(occ, i, entries, yamlAsText));
  }
}

/**
 * The memo of the occurrence `occ`'s parse when the index keeps it (indexedOccurrences: top
 * level, parsed, no template, not over DataHub's length); undefined when it does not.
 */
function indexedMemo(occ: UrnOccurrence): (ParseMemo & { key: string }) | undefined {
  if (occ.parent !== undefined || occ.template || !occ.parsed?.ok) return undefined;
  const memo = memoOf(occ.urn, occ.parsed.urn);
  return memo.key === null ? undefined : (memo as ParseMemo & { key: string });
}

/**
 * Whether the kept occurrence `occ`, the `i`th of its scan, is a docs-as-code entry: one a
 * description owns (`entries`: their owners' indexes), or in a YAML file read as text
 * (`yamlAsText`), the value of a `urn:` key on its line.
 */
function isEntry(
  occ: UrnOccurrence,
  i: number,
  entries: Set<number> | undefined,
  yamlAsText: string | undefined,
): boolean {
  return yamlAsText === undefined
    ? entries?.has(i) === true
    : DESCRIBED.has(parsedUrn(occ).kind) &&
        /^[ \t]*(?:-[ \t]+)?urn[ \t]*:[ \t]*["']?$/.test(
          yamlAsText.slice(yamlAsText.lastIndexOf('\n', occ.start - 1) + 1, occ.start),
        );
}

/** The parse of an occurrence the index keeps (indexedMemo: parsed). */
function parsedUrn(occ: UrnOccurrence): Urn {
  return (occ.parsed as Extract<NonNullable<UrnOccurrence['parsed']>, { ok: true }>).urn;
}

function ownersOf(scan: ScanResult): Set<number> {
  return new Set(scan.descriptions.map((d) => d.owner));
}

/**
 * What the index keeps of a parse: the entity key, or null when the URN is over DataHub's length;
 * its symbol search text once an entity was made from it; the entity it was last found as in an
 * index (a hint, checked against that index's key before use: -1 when none).
 */
interface ParseMemo {
  key: string | null;
  lower: string | undefined;
  nameAt: number;
  entity: number;
}

/**
 * Each parse's memo: the URN parse cache hands out one parse per URN text, so for a URN that
 * recurs (most of a workspace's) the key is printed and the length measured once, and the index's
 * maps hash one string for it.
 */
const memos = new WeakMap<Urn, ParseMemo>();

/** The memo of `urn`, the parse of `text`, made on first use (the key printed without parsing the text again). */
function memoOf(text: string, urn: Urn): ParseMemo {
  let memo = memos.get(urn);
  if (memo === undefined) {
    const key = overUrnLengthLimit(text, urn.kind) ? null : printUrnIn(urn, '_');
    memo = { key, lower: undefined, nameAt: 0, entity: -1 };
    memos.set(urn, memo);
  }
  return memo;
}

/** An entity's full name in lower case, and where its own name (the symbol's name) starts there. */
function symbolSearchText(urn: Urn): { lower: string; nameAt: number } {
  const { full, nameAt } = symbolFullName(urn);
  if (nameAt === 0) return { lower: full.toLowerCase(), nameAt: 0 };
  const head = full.slice(0, nameAt).toLowerCase();
  return { lower: head + full.slice(nameAt).toLowerCase(), nameAt: head.length };
}

/**
 * A file's occurrences as the index keeps them, in a form a worker thread can send (typed arrays
 * and strings): its distinct entities (key, a spelling, the lower-case full name and where the own
 * name starts there), each occurrence's entity (an index into those) and range (line, character
 * of its start and end: four numbers), the occurrences that are docs-as-code entries, and what
 * Check Workspace needs of the file.
 */
export interface PackedOccurrences {
  keys: string[];
  spellings: string[];
  lowers: string[];
  nameAts: number[];
  entityOf: Int32Array;
  ranges: Int32Array;
  /** Occurrences, when the arrays are longer (buffers reused: PackScratch); else `entityOf.length`. */
  count?: number;
  entries: number[];
  /** The scan holds any URN (malformed and templated ones too), or the file is read anyway (a DataHub YAML format). */
  mentioning: boolean;
  definitions: FormatPropertyDefinition[];
}

/**
 * Buffers the index's own thread packs each file into (setText), reused from file to file, and
 * the entities the index holds already: their lower-case names are not made again (left '').
 */
export interface PackScratch {
  at: Map<string, number>;
  entityOf: Int32Array;
  ranges: Int32Array;
  known: ReadonlyMap<string, number>;
}

/**
 * What the index keeps of a scan of `text` (indexedOccurrences), packed. `yamlAsText`: a YAML file
 * scanned as text (entries by their `urn:` key, definitions read from the text);
 * `checkAnyway`: Check Workspace reads the file though it names no URN; `scratch`: packed into
 * these buffers (the result's `count` says how much of them is this file's), valid until the next
 * packing into them.
 */
export function packScan(
  text: string,
  scan: ScanResult,
  yamlAsText = false,
  checkAnyway = false,
  scratch?: PackScratch,
): PackedOccurrences {
  // At most one indexed occurrence per scanned one: the buffers are sized for all of them.
  const n = scan.occurrences.length;
  if (scratch && scratch.entityOf.length < n) {
    scratch.entityOf = new Int32Array(grown(scratch.entityOf.length, n));
    scratch.ranges = new Int32Array(scratch.entityOf.length * 4);
  }
  const packed: PackedOccurrences = {
    keys: [],
    spellings: [],
    lowers: [],
    nameAts: [],
    entityOf: scratch ? scratch.entityOf : new Int32Array(n),
    ranges: scratch ? scratch.ranges : new Int32Array(n * 4),
    count: n,
    entries: [],
    mentioning: scan.occurrences.length > 0 || checkAnyway,
    definitions: scan.formatPropertyDefinitions ?? (yamlAsText ? propertyDefinitionsIn(text) : []),
  };
  if (n === 0) return packed;
  // Made at the first occurrence indexed: a file whose URNs are all nested, templated or malformed needs none.
  let lines: number[] | undefined;
  const at = scratch ? scratch.at : new Map<string, number>();
  at.clear();
  const known = scratch?.known;
  let i = 0;
  forEachIndexed(scan, yamlAsText ? text : undefined, (occ, urn, { key }, entry) => {
    let k = at.get(key);
    if (k === undefined) {
      k = packed.keys.length;
      at.set(key, k);
      packed.keys.push(key);
      packed.spellings.push(occ.urn);
      if (known?.has(key)) {
        packed.lowers.push('');
        packed.nameAts.push(0);
      } else {
        const { lower, nameAt } = symbolSearchText(urn);
        packed.lowers.push(lower);
        packed.nameAts.push(nameAt);
      }
    }
    packed.entityOf[i] = k;
    lines ??= lineStarts(text);
    putPosition(lines, lines.length, occ.start, packed.ranges, i * 4);
    putPosition(lines, lines.length, occ.end, packed.ranges, i * 4 + 2);
    if (entry) packed.entries.push(i);
    i++;
  });
  at.clear();
  packed.count = i;
  return packed;
}

/** setText's packing of a file's text: undefined when `scan` gives none (a language not scanned). */
export function packText(
  text: string,
  languageId: string,
  settings: Settings,
  scan: IndexHost['scan'],
  scratch?: PackScratch,
): PackedOccurrences | undefined {
  const yaml = languageId === 'yaml';
  const result = scan(text, yaml ? 'plaintext' : languageId, settings);
  if (!result) return undefined;
  // One of DataHub's YAML formats names its entities by id, platform, path…, not always by URN:
  // Check Workspace reads such a file even when the text holds no URN.
  const datahubYaml = yaml && result.occurrences.length === 0 && readDataHubYaml(text) !== undefined;
  return packScan(text, result, yaml, datahubYaml, scratch);
}

/** A growable Int32Array's next capacity: half again, at least `need`. */
function grown(capacity: number, need: number): number {
  return Math.max(need, Math.ceil(capacity * 1.5), 64);
}

function resized(a: Int32Array, capacity: number): Int32Array {
  const b = new Int32Array(capacity);
  b.set(a.subarray(0, Math.min(a.length, capacity)));
  return b;
}

/** What a file of the index is for Check Workspace: read with a URN, read without one, or neither. */
const MENTIONING = 1;
const QUIET = 2;

/**
 * The index, in flat arrays (the memory of an index is a few times the bytes of its URNs):
 *
 * - occurrences, numbered in the order files were indexed, each file's together: the file, the
 *   entity (times two, plus one for a docs-as-code entry), the range as four numbers, and the next
 *   occurrence of the same entity (a list per entity, in the order its files were indexed). A
 *   removed file's occurrences stay where they are, marked dead (file -1), skipped by the lists,
 *   until they outnumber the live ones and pass `compactAfter` (4,096): then the arrays are
 *   compacted and the lists rebuilt. Between compactions the arrays grow by half as they fill.
 * - entities, numbered (numbers of removed ones reused): the key (model/src/urn.ts entityKey),
 *   once, from which the spelling follows (`urn:_:` → `urn:li:`) unless the workspace spells it
 *   otherwise; its full name in lower case with where its own name starts there (the symbol
 *   search, features/symbols.ts); its first and last occurrence and how many are live.
 * - files, numbered (numbers reused): the URI as its folder (shared by the folder's files; the
 *   folder is freed with its last file, its number reused) and its own name, where its
 *   occurrences are, and what Check Workspace knows of it.
 */
export class WorkspaceIndex {
  // Occurrences.
  private oFile: Int32Array = new Int32Array(0);
  private oEntity: Int32Array = new Int32Array(0);
  private oRange: Int32Array = new Int32Array(0);
  private oNext: Int32Array = new Int32Array(0);
  /** Occurrences stored, live or dead. */
  private oEnd = 0;
  /** Live occurrences. */
  private total = 0;
  /** Compactions that moved occurrences. */
  private compactions = 0;

  // Entities.
  private readonly entityIds = new Map<string, number>();
  private readonly eKey: Array<string | undefined> = [];
  private readonly eLower: string[] = [];
  /** Spellings that are not the key's with `urn:li:`, by entity. */
  private readonly eSpelling = new Map<number, string>();
  private eNameAt: Int32Array = new Int32Array(0);
  private eHead: Int32Array = new Int32Array(0);
  private eTail: Int32Array = new Int32Array(0);
  private eLive: Int32Array = new Int32Array(0);
  /** What an entity's texts (spelling, lower-case name, key) take in memory, counted against the byte budget. */
  private eBytes: Int32Array = new Int32Array(0);
  private readonly freeEntities: number[] = [];

  // Files.
  private readonly folderIds = new Map<string, number>();
  /** Folder URIs by id ('' for a freed id). */
  private readonly folders: string[] = [];
  /** File ids by own name, per folder (undefined for a freed id). */
  private readonly byName: Array<Map<string, number> | undefined> = [];
  /** Folder ids freed (their last file dropped), reused first. */
  private readonly freeFolders: number[] = [];
  /** The folder fileId found last; -1 before any, and once it is freed. */
  private lastFolder = -1;
  /** The URI fileId was asked for last, and its file's own name. */
  private askedUri = '';
  private askedName = '';
  private readonly fName: Array<string | undefined> = [];
  private fFolder: Int32Array = new Int32Array(0);
  private fStart: Int32Array = new Int32Array(0);
  private fCount: Int32Array = new Int32Array(0);
  private fState: Uint8Array = new Uint8Array(0);
  private readonly freeFiles: number[] = [];
  /** Files with occurrences. */
  private indexedFiles = 0;

  /** The files passed over, with why (not read, too large, unreadable). */
  private readonly passedOver = new Map<string, ReadFailure>();
  /** The folders built, with the settings that chose their files; a cancelled build leaves its folder out. */
  private readonly covered = new Map<string, Chosen>();
  /** Bytes of URN text kept (each entity's `eBytes`), against `index.maxBytes`. */
  private bytes = 0;
  private full = false;
  /** The structured property definitions of the workspace's structured properties files, by file. */
  private readonly definitions = new Map<string, FormatPropertyDefinition[]>();
  /** Set once the first build ended (or was stopped). */
  built = false;
  /**
   * addScan's buffers, reused from file to file: each indexed occurrence's memo, spelling and range,
   * the new entities' bytes by key, the entries, and the file's line starts.
   */
  private readonly fused = {
    memos: [] as Array<ParseMemo | undefined>,
    spellings: [] as Array<string | undefined>,
    ranges: new Int32Array(0),
    fresh: new Map<string, number>(),
    entries: [] as number[],
    lines: [] as number[],
  };

  /** Dead occurrences kept at most (besides as many as the live ones) before the arrays are compacted. */
  private readonly compactAfter: number;

  /**
   * `options.compactAfter`: the dead occurrences kept before a compaction when they outnumber the
   * live ones (4,096; tests set fewer, to reach it).
   */
  constructor(
    private readonly host: IndexHost,
    options: { compactAfter?: number } = {},
  ) {
    this.compactAfter = options.compactAfter ?? 4096;
  }

  get fileCount(): number {
    return this.indexedFiles;
  }

  get occurrenceCount(): number {
    return this.total;
  }

  get byteCount(): number {
    return this.bytes;
  }

  /**
   * What the storage holds (for tests): occurrences stored, live and dead; the occurrence
   * arrays' capacity; the folders kept; the compactions so far.
   */
  get storage(): { stored: number; capacity: number; folders: number; compactions: number } {
    return {
      stored: this.oEnd,
      capacity: this.oFile.length,
      folders: this.folderIds.size,
      compactions: this.compactions,
    };
  }

  /** Whether files were left out because the index was full (occurrences or bytes). */
  get isFull(): boolean {
    return this.full;
  }

  /** Reads and indexes every matching file of `folders` (file: URIs), `report`ing progress; stops when `cancelled`. */
  async build(
    folders: readonly string[],
    report: (done: number, of: number) => void,
    cancelled: () => boolean,
  ): Promise<void> {
    const files: Array<{ path: string; uri: string; languageId: string; settings: Settings }> = [];
    const chosen = new Map<string, Settings>();
    for (const folder of folders) {
      if (!folder.startsWith('file:')) continue;
      this.covered.delete(normalUri(folder));
      const settings = await this.host.settingsFor(folder);
      chosen.set(normalUri(folder), settings);
      for (const f of await listFolder(fileURLToPath(folder), settings.excludeFolders, settings.languages, cancelled))
        files.push({ path: f.path, uri: f.uri, languageId: f.languageId, settings });
    }
    // Worker threads read and scan the files when the host has them (readFiles), and the files come
    // back packed, in order; the files they did not do (none, or a worker stopped) are read here.
    let i = 0;
    if (this.host.readFiles && files.length > 0)
      i = await this.host.readFiles(
        files,
        (k, packed) => {
          const f = files[k]!;
          const open = this.host.openDocument(f.uri);
          if (open) this.setTextNormal(f.uri, open.getText(), open.languageId, f.settings);
          else if ('keys' in packed) this.add(f.uri, packed, f.settings);
          else this.passOverNormal(f.uri, packed);
          if (k % SLICE === SLICE - 1) report(k + 1, files.length);
        },
        cancelled,
      );
    // Read synchronously, a slice of files at a time, yielding to the event loop between slices:
    // for the small files of a codebase, a thread-pool round trip per open, stat, read and close
    // cost more than the reads themselves (benchmark 10), and requests still get answered.
    let sinceTurn = 0;
    for (; i < files.length && !cancelled(); i++) {
      const f = files[i]!;
      const open = this.host.openDocument(f.uri);
      const text = open ? open.getText() : readListedSync(f.path, f.settings.maxFileSize);
      if (typeof text === 'string') {
        this.setTextNormal(f.uri, text, open?.languageId ?? f.languageId, f.settings);
        sinceTurn += text.length;
      } else this.passOverNormal(f.uri, text);
      if (i % SLICE === SLICE - 1 || sinceTurn >= SLICE_CHARS) {
        sinceTurn = 0;
        report(i + 1, files.length);
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    this.built = true;
    if (!cancelled())
      for (const [folder, s] of chosen)
        this.covered.set(folder, {
          languages: [...s.languages],
          excludeFolders: [...s.excludeFolders],
          maxFileSize: s.maxFileSize,
        });
    // The arrays grew by half as they filled: give back what the build left unused.
    this.compact();
    report(files.length, files.length);
  }

  /** `uri` could not be indexed: too large, unreadable, or in a language not scanned. */
  passOver(uri: string, why: ReadFailure): void {
    this.passOverNormal(normalUri(uri), why);
  }

  /** passOver of a normalUri'd `uri`. */
  private passOverNormal(uri: string, why: ReadFailure): void {
    this.removeNormal(uri);
    this.passedOver.set(uri, why);
  }

  /**
   * What Check Workspace needs of the folder `folder`, when a complete build of it chose and read
   * its files with these settings (`languages`, `excludeFolders`, `maxFileSize`; otherwise
   * undefined: the check lists the folder itself) and nothing has filled the index since;
   * `openUris` (the open documents' files) are counted among the files to read.
   */
  filesToCheck(folder: string, now: Chosen, openUris: readonly string[] = []): IndexedFiles | undefined {
    folder = normalUri(folder);
    const c = this.covered.get(folder);
    if (!c || this.full) return undefined;
    const same = (a: readonly string[], b: readonly string[]): boolean =>
      a.length === b.length && a.every((x) => b.includes(x));
    if (!same(c.languages, now.languages) || !same(c.excludeFolders, now.excludeFolders)) return undefined;
    if (c.maxFileSize !== now.maxFileSize) return undefined;
    const prefix = folder.endsWith('/') ? folder : `${folder}/`;
    const under = (u: string): boolean => u.startsWith(prefix);
    // Open documents are read whatever the index says: their last edits may not be indexed yet.
    const open = new Set(openUris.map(normalUri).filter(under));
    const mentioning = new Set(open);
    let quiet = 0;
    for (let f = 0; f < this.fName.length; f++) {
      const state = this.fState[f];
      if (state !== MENTIONING && state !== QUIET) continue;
      const uri = this.uriOf(f);
      if (!under(uri)) continue;
      if (state === MENTIONING) mentioning.add(uri);
      else if (!open.has(uri)) quiet++;
    }
    return {
      mentioning: [...mentioning].sort(),
      quiet,
      passedOver: [...this.passedOver].filter(([u]) => under(u)),
    };
  }

  /**
   * Indexes `uri` from the text of its file. A YAML file is read as text: its URNs where they
   * stand, entries by their `urn:` key — the YAML parse is four fifths of the time of a build
   * (benchmark 10), and an index only points; an open document is scanned whole (setScan), and a
   * rename scans each file it changes whole again.
   */
  setText(uri: string, text: string, languageId: string, settings: Settings): void {
    this.setTextNormal(normalUri(uri), text, languageId, settings);
  }

  /**
   * setText of a normalUri'd `uri` (the build's files: fileUri of a listed path, already in that
   * spelling, so a URL parse per file is saved).
   */
  private setTextNormal(uri: string, text: string, languageId: string, settings: Settings): void {
    // Out first: the entities the file alone named are then not taken for known ones.
    this.removeNormal(uri);
    // As packText, then setPacked, without the packed form between them.
    const yaml = languageId === 'yaml';
    const scan = this.host.scan(text, yaml ? 'plaintext' : languageId, settings);
    if (!scan) return this.passOverNormal(uri, {});
    const datahubYaml = yaml && scan.occurrences.length === 0 && readDataHubYaml(text) !== undefined;
    this.addScan(uri, text, scan, yaml, datahubYaml, settings);
  }

  /**
   * The index after `add(uri, packScan(text, scan, yamlAsText, checkAnyway), settings)`, reached
   * without packing: the file's indexed occurrences are listed once (their parses' memos, ranges
   * and entries, into buffers reused from file to file), its new entities counted against the
   * budget, then each occurrence stored with its entity found through its parse's memo (one map
   * lookup per parse rather than per occurrence). test/server/workspaceIndexFused.test.ts holds
   * the two ways to the same index.
   */
  private addScan(
    uri: string,
    text: string,
    scan: ScanResult,
    yamlAsText: boolean,
    checkAnyway: boolean,
    settings: Pick<Settings, 'index'>,
  ): void {
    // `uri` is out of the index already (setTextNormal).
    const definitions = scan.formatPropertyDefinitions ?? (yamlAsText ? propertyDefinitionsIn(text) : []);
    if (definitions.length > 0) this.definitions.set(uri, definitions);
    const file = this.fileId(uri, true);
    const n = scan.occurrences.length;
    this.fState[file] = n > 0 || checkAnyway ? MENTIONING : QUIET;
    if (n === 0) return;
    const f = this.fused;
    if (f.ranges.length < n * 4) f.ranges = new Int32Array(grown(f.ranges.length >> 2, n) * 4);
    const { memos: fileMemos, spellings, fresh } = f;
    const ranges = f.ranges;
    const entries = f.entries;
    entries.length = 0;
    // The line starts, made at the first occurrence indexed (lineCount 0 until then).
    const lines = f.lines;
    let lineCount = 0;
    let count = 0;
    let added = 0;
    // What a scan that threw left here must not count for this one.
    if (fresh.size > 0) fresh.clear();
    // forEachIndexed's walk, written out: no closure per file.
    const occurrences = scan.occurrences;
    const yamlText = yamlAsText ? text : undefined;
    const owners = yamlText === undefined && scan.descriptions.length > 0 ? ownersOf(scan) : undefined;
    for (let i = 0; i < n; i++) {
      const occ = occurrences[i]!;
      const memo = indexedMemo(occ);
      if (memo === undefined) continue;
      if (this.entityOfMemo(memo) === undefined && !fresh.has(memo.key)) {
        if (memo.lower === undefined) {
          const { lower, nameAt } = symbolSearchText(parsedUrn(occ));
          memo.lower = lower;
          memo.nameAt = nameAt;
        }
        const bytes = textBytes(occ.urn) + textBytes(memo.lower) + textBytes(memo.key);
        fresh.set(memo.key, bytes);
        added += bytes;
      }
      fileMemos[count] = memo;
      spellings[count] = occ.urn;
      if (lineCount === 0) lineCount = lineStartsInto(text, lines);
      putPosition(lines, lineCount, occ.start, ranges, count * 4);
      putPosition(lines, lineCount, occ.end, ranges, count * 4 + 2);
      if (isEntry(occ, i, owners, yamlText)) entries.push(count);
      count++;
    }
    try {
      if (count === 0) return;
      if (this.overBudget(count, added, settings.index.maxBytes, uri)) return;
      this.reserveOccurrences(this.oEnd + count);
      const start = this.oEnd;
      // A few numbers per file: copied by a loop (no subarray object, no call into the builtin).
      const oRange = this.oRange;
      for (let k = 0, at = start * 4; k < count * 4; k++) oRange[at + k] = ranges[k]!;
      for (let i = 0; i < count; i++) {
        const memo = fileMemos[i]!;
        let entity = this.entityOfMemo(memo);
        if (entity === undefined) {
          entity = this.addEntity(memo.key!, memo.lower!, memo.nameAt, spellings[i]!, fresh.get(memo.key!)!);
          memo.entity = entity;
        }
        this.linkOccurrence(start + i, file, entity);
      }
      for (const i of entries) this.oEntity[start + i]! |= 1;
      this.oEnd += count;
      this.fStart[file] = start;
      this.fCount[file] = count;
      this.indexedFiles++;
      this.total += count;
    } finally {
      // The buffers hold no parse or text past this file.
      for (let i = 0; i < count; i++) {
        fileMemos[i] = undefined;
        spellings[i] = undefined;
      }
      if (fresh.size > 0) fresh.clear();
      // The line starts of a long file are not kept for the index's life.
      if (lines.length > 4096) lines.length = 0;
    }
  }

  /** The entity of this index a parse's memo names, if any; remembered in the memo when found by its key. */
  private entityOfMemo(memo: ParseMemo): number | undefined {
    const hint = memo.entity;
    if (hint >= 0 && this.eKey[hint] === memo.key) return hint;
    const entity = this.entityIds.get(memo.key!);
    if (entity !== undefined) memo.entity = entity;
    return entity;
  }

  /**
   * Indexes `uri` from a scan of `text`; no scan (a language not scanned, too large): out of the
   * index. A file whose occurrences or new entities would take the index past
   * MAX_INDEXED_OCCURRENCES or `settings.index.maxBytes` is left out, and the log says so once.
   * `checkAnyway`: Check Workspace reads the file though it names no URN (a DataHub YAML format).
   */
  setScan(
    uri: string,
    text: string,
    scan: ScanResult | undefined,
    settings: Pick<Settings, 'index'>,
    yamlAsText = false,
    checkAnyway = false,
  ): void {
    if (!scan) return this.passOver(normalUri(uri), {});
    this.setPacked(uri, packScan(text, scan, yamlAsText, checkAnyway), settings);
  }

  /**
   * Indexes `uri` from its occurrences packed by packScan (here, or in a worker thread that read
   * and scanned the file: server/src/index/scanPool.ts). The same budget as setScan.
   */
  setPacked(uri: string, packed: PackedOccurrences, settings: Pick<Settings, 'index'>): void {
    this.add(normalUri(uri), packed, settings);
  }

  /** setPacked of a normalUri'd `uri`. */
  private add(uri: string, packed: PackedOccurrences, settings: Pick<Settings, 'index'>): void {
    this.removeNormal(uri);
    // Kept whatever the budget: a few definitions per file, and the check of other files needs them.
    if (packed.definitions.length > 0) this.definitions.set(uri, packed.definitions);
    const file = this.fileId(uri, true);
    this.fState[file] = packed.mentioning ? MENTIONING : QUIET;
    const count = packed.count ?? packed.entityOf.length;
    if (count === 0) return;
    // The entities this file would add, with what their texts take.
    let added = 0;
    const bytesOf: number[] = [];
    packed.keys.forEach((key, k) => {
      if (this.entityIds.has(key)) return;
      const bytes = textBytes(packed.spellings[k]!) + textBytes(packed.lowers[k]!) + textBytes(key);
      bytesOf[k] = bytes;
      added += bytes;
    });
    if (this.overBudget(count, added, settings.index.maxBytes, uri)) return;
    const ids = packed.keys.map(
      (key, k) =>
        this.entityIds.get(key) ??
        this.addEntity(key, packed.lowers[k]!, packed.nameAts[k]!, packed.spellings[k]!, bytesOf[k]!),
    );
    this.reserveOccurrences(this.oEnd + count);
    const start = this.oEnd;
    this.oRange.set(
      packed.ranges.length === count * 4 ? packed.ranges : packed.ranges.subarray(0, count * 4),
      start * 4,
    );
    for (let i = 0; i < count; i++) {
      const entity = ids[packed.entityOf[i]!]!;
      this.linkOccurrence(start + i, file, entity);
    }
    for (const i of packed.entries) this.oEntity[start + i]! |= 1;
    this.oEnd += count;
    this.fStart[file] = start;
    this.fCount[file] = count;
    this.indexedFiles++;
    this.total += count;
  }

  remove(uri: string): void {
    this.removeNormal(normalUri(uri));
  }

  /** remove of a normalUri'd `uri`. */
  private removeNormal(uri: string): void {
    this.passedOver.delete(uri);
    this.definitions.delete(uri);
    const file = this.fileId(uri, false);
    if (file === undefined) return;
    const count = this.fCount[file]!;
    if (count > 0) {
      const start = this.fStart[file]!;
      for (let o = start; o < start + count; o++) {
        this.oFile[o] = -1;
        const entity = this.oEntity[o]! >> 1;
        if (--this.eLive[entity]! === 0) this.dropEntity(entity);
      }
      this.total -= count;
      this.indexedFiles--;
    }
    this.dropFile(file);
    // Dead occurrences more than the live ones (and more than `compactAfter`): compacted.
    if (this.oEnd - this.total > Math.max(this.total, this.compactAfter)) this.compact();
  }

  /** Drops every file under a folder URI (a removed workspace folder). */
  removeFolder(folder: string): void {
    folder = normalUri(folder);
    const prefix = folder.endsWith('/') ? folder : `${folder}/`;
    this.covered.delete(folder);
    const uris = new Set([...this.passedOver.keys(), ...this.definitions.keys()]);
    for (let f = 0; f < this.fName.length; f++) if (this.fName[f] !== undefined) uris.add(this.uriOf(f));
    for (const uri of uris) if (uri.startsWith(prefix)) this.remove(uri);
  }

  /**
   * The definition of the structured property `urn` that a structured properties file of the
   * workspace gives (the first file by URI when several do), with that file; undefined when none does.
   */
  propertyDefinition(urn: string): { uri: string; definition: FormatPropertyDefinition['definition'] } | undefined {
    for (const uri of [...this.definitions.keys()].sort()) {
      const found = this.definitions.get(uri)!.find((d) => d.urn === urn);
      if (found) return { uri, definition: found.definition };
    }
    return undefined;
  }

  /** Every structured property files of the workspace define, with the file that defines it (the first by URI). */
  propertyDefinitions(): Array<{ urn: string; uri: string }> {
    const out = new Map<string, string>();
    for (const uri of [...this.definitions.keys()].sort())
      for (const d of this.definitions.get(uri)!) if (!out.has(d.urn)) out.set(d.urn, uri);
    return [...out].map(([urn, uri]) => ({ urn, uri }));
  }

  /** The files of the workspace that define structured properties, each with its definitions (for a change check). */
  definitionsKey(): string {
    return JSON.stringify([...this.definitions].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  /** The files naming the entity `urn` names (any namespace word), in the order they were indexed. */
  filesNaming(urn: string): string[] {
    const entity = this.entityIds.get(entityKey(urn));
    return entity === undefined ? [] : this.filesOf(entity);
  }

  /** A spelling of each entity named in a file `inFile` accepts (all files: every entity), in key order. */
  entitiesNamedIn(inFile: (uri: string) => boolean = () => true): string[] {
    const out: Array<[string, number]> = [];
    for (const [key, entity] of this.entityIds) if (this.filesOf(entity).some(inFile)) out.push([key, entity]);
    return out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, entity]) => this.spellingOf(entity));
  }

  /** Every place the entity `urn` names is named, file by file in URI order, then by position. */
  placesOf(urn: string): Place[] {
    const entity = this.entityIds.get(entityKey(urn));
    if (entity === undefined) return [];
    const found: Array<{ o: number; uri: string }> = [];
    let last = -1;
    let uri = '';
    for (let o = this.eHead[entity]!; o >= 0; o = this.oNext[o]!) {
      const file = this.oFile[o]!;
      if (file < 0) continue;
      if (file !== last) uri = this.uriOf((last = file));
      found.push({ o, uri });
    }
    const r = this.oRange;
    return found
      .sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : a.o - b.o))
      .map(({ o, uri }) => ({
        uri,
        range: {
          start: { line: r[o * 4]!, character: r[o * 4 + 1]! },
          end: { line: r[o * 4 + 2]!, character: r[o * 4 + 3]! },
        },
        entry: (this.oEntity[o]! & 1) === 1,
      }));
  }

  /**
   * Entities whose full name holds `query` (case-insensitive; all when empty), best first by
   * features/symbols.ts symbolRank (the own name itself, then an own name that starts with it …),
   * then by own name, full name and key; at most `max`. `name` is the full name (`db.users`).
   */
  symbols(query: string, max = 200): Array<{ urn: Urn; key: string; name: string }> {
    const q = query.toLowerCase();
    const found: Array<{ key: string; entity: number; rank: number; name: string; lower: string }> = [];
    for (const [key, entity] of this.entityIds) {
      const lower = this.eLower[entity]!;
      const nameAt = this.eNameAt[entity]!;
      const rank = symbolRank(lower, nameAt, q);
      if (rank === undefined) continue;
      const name = nameAt === 0 ? lower : lower.slice(nameAt);
      found.push({ key, entity, rank, name, lower });
    }
    // Names compare by code unit (stable whatever the locale, and fast); ties by key.
    const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
    return found
      .sort((a, b) => a.rank - b.rank || byText(a.name, b.name) || byText(a.lower, b.lower) || byText(a.key, b.key))
      .slice(0, max)
      .flatMap(({ key, entity }) => {
        const parsed = parseUrn(this.spellingOf(entity));
        return parsed.ok ? [{ urn: parsed.urn, key, name: symbolText(parsed.urn).full }] : [];
      });
  }

  /** The files naming an entity, in the order they were indexed. */
  private filesOf(entity: number): string[] {
    const out: string[] = [];
    let last = -1;
    for (let o = this.eHead[entity]!; o >= 0; o = this.oNext[o]!) {
      const file = this.oFile[o]!;
      if (file < 0 || file === last) continue;
      last = file;
      out.push(this.uriOf(file));
    }
    return out;
  }

  /** The spelling kept for an entity: its key's with `urn:li:`, or the one the workspace wrote. */
  private spellingOf(entity: number): string {
    return this.eSpelling.get(entity) ?? this.eKey[entity]!.replaceAll('urn:_:', 'urn:li:');
  }

  private addEntity(key: string, lower: string, nameAt: number, spelling: string, bytes: number): number {
    const entity = this.freeEntities.pop() ?? this.eKey.length;
    if (entity === this.eKey.length) {
      this.eKey.push(undefined);
      this.eLower.push('');
      if (entity >= this.eHead.length) {
        const capacity = grown(this.eHead.length, entity + 1);
        this.eNameAt = resized(this.eNameAt, capacity);
        this.eHead = resized(this.eHead, capacity);
        this.eTail = resized(this.eTail, capacity);
        this.eLive = resized(this.eLive, capacity);
        this.eBytes = resized(this.eBytes, capacity);
      }
    }
    // A key is printUrnIn's (a parse's memo; a worker's packing, cloned): flat, of its own already.
    const kept = key;
    this.eKey[entity] = kept;
    this.eLower[entity] = own(lower);
    if (!spelledAsKey(kept, spelling)) this.eSpelling.set(entity, own(spelling));
    this.eNameAt[entity] = nameAt;
    this.eHead[entity] = -1;
    this.eTail[entity] = -1;
    this.eLive[entity] = 0;
    this.eBytes[entity] = bytes;
    this.entityIds.set(kept, entity);
    this.bytes += bytes;
    return entity;
  }

  private dropEntity(entity: number): void {
    this.entityIds.delete(this.eKey[entity]!);
    this.bytes -= this.eBytes[entity]!;
    this.eKey[entity] = undefined;
    this.eLower[entity] = '';
    this.eSpelling.delete(entity);
    this.eHead[entity] = -1;
    this.eTail[entity] = -1;
    this.freeEntities.push(entity);
  }

  /** The id of the file `uri` (normalUri'd), made when `make`. */
  private fileId(uri: string, make: true): number;
  private fileId(uri: string, make: false): number | undefined;
  private fileId(uri: string, make: boolean): number | undefined {
    const slash = uri.lastIndexOf('/');
    // The name of the URI asked last, once more (setText asks whether the file is known, then makes
    // it): the same string, its hash computed once.
    let name = this.askedName;
    if (uri !== this.askedUri) {
      name = uri.slice(slash + 1);
      this.askedUri = uri;
      this.askedName = name;
    }
    // The folder of the file before, most often (a listing gives a folder's files together): no slice, no hash.
    const last = this.lastFolder;
    let folder: number | undefined =
      last >= 0 && this.folders[last]!.length === slash + 1 && uri.startsWith(this.folders[last]!) ? last : undefined;
    if (folder === undefined) {
      const folderText = uri.slice(0, slash + 1);
      folder = this.folderIds.get(folderText);
      if (folder === undefined) {
        if (!make) return undefined;
        folder = this.freeFolders.pop() ?? this.folders.length;
        const kept = own(folderText);
        this.folders[folder] = kept;
        this.folderIds.set(kept, folder);
        this.byName[folder] = new Map();
      }
      this.lastFolder = folder;
    }
    const names = this.byName[folder]!;
    const known = names.get(name);
    if (known !== undefined || !make) return known;
    const file = this.freeFiles.pop() ?? this.fName.length;
    if (file === this.fName.length) {
      this.fName.push(undefined);
      if (file >= this.fFolder.length) {
        const capacity = grown(this.fFolder.length, file + 1);
        this.fFolder = resized(this.fFolder, capacity);
        this.fStart = resized(this.fStart, capacity);
        this.fCount = resized(this.fCount, capacity);
        const state = new Uint8Array(capacity);
        state.set(this.fState);
        this.fState = state;
      }
    }
    const kept = own(name);
    this.fName[file] = kept;
    this.fFolder[file] = folder;
    this.fStart[file] = 0;
    this.fCount[file] = 0;
    this.fState[file] = 0;
    names.set(kept, file);
    return file;
  }

  /** Drops a file, and its folder with its last file. */
  private dropFile(file: number): void {
    const folder = this.fFolder[file]!;
    const names = this.byName[folder]!;
    names.delete(this.fName[file]!);
    if (names.size === 0) {
      this.folderIds.delete(this.folders[folder]!);
      this.folders[folder] = '';
      this.byName[folder] = undefined;
      this.freeFolders.push(folder);
      if (this.lastFolder === folder) this.lastFolder = -1;
    }
    this.fName[file] = undefined;
    this.fCount[file] = 0;
    this.fState[file] = 0;
    this.freeFiles.push(file);
  }

  private uriOf(file: number): string {
    return this.folders[this.fFolder[file]!]! + this.fName[file]!;
  }

  /** Occurrence `o` of `file` names `entity`: appended to the entity's list of occurrences. */
  private linkOccurrence(o: number, file: number, entity: number): void {
    this.oFile[o] = file;
    this.oEntity[o] = entity * 2;
    this.oNext[o] = -1;
    if (this.eLive[entity] === 0) this.eHead[entity] = o;
    else this.oNext[this.eTail[entity]!] = o;
    this.eTail[entity] = o;
    this.eLive[entity]!++;
  }

  /**
   * Whether `count` more occurrences adding `added` bytes of URN text would go over the index's
   * bounds; then the index is full from `uri` on, and the first time says so in the log.
   */
  private overBudget(count: number, added: number, maxBytes: number, uri: string): boolean {
    const over =
      this.total + count > MAX_INDEXED_OCCURRENCES
        ? `${MAX_INDEXED_OCCURRENCES} occurrences`
        : this.bytes + added > maxBytes
          ? `${maxBytes.toLocaleString('en-US')} bytes of URN text (catalogLens.index.maxBytes)`
          : undefined;
    if (over === undefined) return false;
    if (!this.full) this.host.log(`workspace index: full at ${over}; ${uri} and later files are left out`);
    this.full = true;
    return true;
  }

  private reserveOccurrences(need: number): void {
    if (need <= this.oFile.length) return;
    this.resizeOccurrences(grown(this.oFile.length, need));
  }

  private resizeOccurrences(capacity: number): void {
    this.oFile = resized(this.oFile, capacity);
    this.oEntity = resized(this.oEntity, capacity);
    this.oNext = resized(this.oNext, capacity);
    this.oRange = resized(this.oRange, capacity * 4);
  }

  /**
   * Moves the live occurrences together (in the same order) into arrays just large enough, and
   * links each entity's list again.
   */
  private compact(): void {
    if (this.oEnd === this.total && this.oFile.length === this.total) return;
    this.compactions++;
    let to = 0;
    for (let o = 0; o < this.oEnd; o++) {
      const file = this.oFile[o]!;
      if (file < 0) continue;
      if (this.fStart[file] === o) this.fStart[file] = to;
      if (to !== o) {
        this.oFile[to] = file;
        this.oEntity[to] = this.oEntity[o]!;
        this.oRange.copyWithin(to * 4, o * 4, o * 4 + 4);
      }
      to++;
    }
    this.oEnd = to;
    this.resizeOccurrences(to);
    this.eHead.fill(-1);
    for (let o = 0; o < to; o++) {
      const entity = this.oEntity[o]! >> 1;
      this.oNext[o] = -1;
      if (this.eHead[entity] === -1) this.eHead[entity] = o;
      else this.oNext[this.eTail[entity]!] = o;
      this.eTail[entity] = o;
    }
  }
}

/**
 * A copy of `text` that holds nothing else: a part of a file's text cut out by the scanner (a
 * V8 sliced string) or joined from such parts keeps the whole file alive as long as it is kept.
 */
function own(text: string): string {
  // V8 copies a slice or a concatenation shorter than 13 characters into a string of its own.
  if (text.length < 13) return text;
  // Array.prototype.join copies its parts into one sequential string (lone surrogates too: code
  // units are copied as they are), for less than a JSON round trip; a slice of a concatenation
  // would be a slice of a copy one character longer, and a join of the string alone is the string.
  return [text.slice(0, 1), text.slice(1)].join('');
}

/** Offsets where each line starts. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** lineStarts written into `starts` (reused: what lies past the answer is stale); answers how many. */
function lineStartsInto(text: string, starts: number[]): number {
  starts[0] = 0;
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts[n++] = i + 1;
  return n;
}

/** The line and character of `offset` (by binary search over the first `count` line starts), written to `out[at]` and `out[at + 1]`. */
function putPosition(lines: readonly number[], count: number, offset: number, out: Int32Array, at: number): void {
  let lo = 0;
  let hi = count - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (lines[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  out[at] = lo;
  out[at + 1] = offset - lines[lo]!;
}

/** `spelling` is `key` with each `urn:_:` written `urn:li:` (key.replaceAll('urn:_:', 'urn:li:') === spelling), compared in place. */
function spelledAsKey(key: string, spelling: string): boolean {
  let k = 0;
  let s = 0;
  while (k < key.length) {
    if (key.startsWith('urn:_:', k)) {
      if (!spelling.startsWith('urn:li:', s)) return false;
      k += 6;
      s += 7;
    } else {
      if (s >= spelling.length || key.charCodeAt(k) !== spelling.charCodeAt(s)) return false;
      k++;
      s++;
    }
  }
  return s === spelling.length;
}
