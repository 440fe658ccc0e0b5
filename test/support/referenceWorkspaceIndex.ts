/**
 * The workspace index as it was kept before its flat arrays (server/src/index/workspaceIndex.ts):
 * maps of entities and files, a packed range array per file. The differential test
 * (test/server/workspaceIndexStorage.test.ts) runs the same changes on both and compares every
 * answer. Its build and text reading are the index's own (the same code); from setScan on it is
 * the former code unchanged.
 */
import type { Settings } from '../../model/src/protocol';
import { entityKey, parseUrn, type Urn } from '../../model/src/urn';
import { normalUri, type IndexedFiles, type ReadFailure } from '../../server/src/workspace';
import type { FormatPropertyDefinition, ScanResult } from '../../server/src/scan/types';
import { symbolRank, symbolText } from '../../server/src/features/symbols';
import {
  indexedOccurrences,
  MAX_INDEXED_OCCURRENCES,
  propertyDefinitionsIn,
  type IndexHost,
  type Place,
} from '../../server/src/index/workspaceIndex';

/** The settings that choose and read a folder's files. */
type Chosen = Pick<Settings, 'languages' | 'excludeFolders' | 'maxFileSize'>;

/**
 * One entity the workspace names: a spelling of it (parsed again for a symbol), its full name in
 * lower case with where its own name starts there (for the symbol search: features/symbols.ts),
 * and the files naming it (a list: most entities are named in few).
 */
interface Entity {
  spelling: string;
  lower: string;
  nameAt: number;
  files: string[];
  /** What its texts (spelling, lower-case name, key) take in memory, counted against the byte budget. */
  bytes: number;
}

/**
 * One file's occurrences, packed (benchmark 10 measured ~580 bytes an occurrence as maps of arrays;
 * this is ~30): the entity of each, its range as four numbers, and which are docs-as-code entries.
 */
interface FileEntry {
  entities: Entity[];
  ranges: Int32Array;
  /** Indexes of the occurrences that are entries; most files have none. */
  entries: number[] | undefined;
}

/** Bytes a string takes in V8: one a character when all are Latin-1, else two. */
function textBytes(text: string): number {
  return /[^\u0000-\u00ff]/.test(text) ? 2 * text.length : text.length;
}

/** An entity's full name in lower case, and where its own name (the symbol's name) starts there. */
function symbolSearchText(urn: Urn): { lower: string; nameAt: number } {
  const { name, full } = symbolText(urn);
  const head = full.slice(0, full.length - name.length).toLowerCase();
  return { lower: head + name.toLowerCase(), nameAt: head.length };
}

export class ReferenceWorkspaceIndex {
  private readonly files = new Map<string, FileEntry>();
  /** Entity key (model/src/urn.ts entityKey) → the entity. */
  private readonly entities = new Map<string, Entity>();
  /**
   * For Check Workspace: the files read whose scan holds any URN (malformed and templated ones
   * too), the files read that hold none, and the files passed over with why; each file in one.
   */
  private readonly mentioning = new Set<string>();
  private readonly quiet = new Set<string>();
  private readonly passedOver = new Map<string, ReadFailure>();
  /** The folders built, with the settings that chose their files; a cancelled build leaves its folder out. */
  private readonly covered = new Map<string, Chosen>();
  private total = 0;
  /** Bytes of URN text kept (each entity's `bytes`), against `index.maxBytes`. */
  private bytes = 0;
  private full = false;
  /** The structured property definitions of the workspace's structured properties files, by file. */
  private readonly definitions = new Map<string, FormatPropertyDefinition[]>();
  /** Set once the first build ended (or was stopped). */
  built = false;

  constructor(private readonly host: Pick<IndexHost, 'log'>) {}

  /** What a complete build of `folder` leaves behind (the build itself is the index's). */
  cover(folder: string, chosen: Chosen): void {
    this.covered.set(normalUri(folder), chosen);
  }

  get fileCount(): number {
    return this.files.size;
  }

  get occurrenceCount(): number {
    return this.total;
  }

  get byteCount(): number {
    return this.bytes;
  }

  /** Whether files were left out because the index was full (occurrences or bytes). */
  get isFull(): boolean {
    return this.full;
  }

  /** `uri` could not be indexed: too large, unreadable, or in a language not scanned. */
  passOver(uri: string, why: ReadFailure): void {
    this.remove(uri);
    this.passedOver.set(normalUri(uri), why);
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
    return {
      mentioning: [...new Set([...this.mentioning].filter(under).concat([...open]))].sort(),
      quiet: [...this.quiet].filter((u) => under(u) && !open.has(u)).length,
      passedOver: [...this.passedOver].filter(([u]) => under(u)),
    };
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
    uri = normalUri(uri);
    this.remove(uri);
    if (!scan) return this.passOver(uri, {});
    // Kept whatever the budget: a few definitions per file, and the check of other files needs them.
    const definitions = scan.formatPropertyDefinitions ?? (yamlAsText ? propertyDefinitionsIn(text) : []);
    if (definitions.length > 0) this.definitions.set(uri, definitions);
    (scan.occurrences.length > 0 || checkAnyway ? this.mentioning : this.quiet).add(uri);
    const found = indexedOccurrences(scan, yamlAsText ? text : undefined);
    if (found.length === 0) return;
    // The entities this file would add, with what their texts take.
    const fresh = new Map<string, Entity>();
    let added = 0;
    for (const { occ, urn, key } of found) {
      if (this.entities.has(key) || fresh.has(key)) continue;
      const spelling = occ.urn;
      const { lower, nameAt } = symbolSearchText(urn);
      const bytes = textBytes(spelling) + textBytes(lower) + textBytes(key);
      fresh.set(key, { spelling, lower, nameAt, files: [], bytes });
      added += bytes;
    }
    const maxBytes = settings.index.maxBytes;
    const over =
      this.total + found.length > MAX_INDEXED_OCCURRENCES
        ? `${MAX_INDEXED_OCCURRENCES} occurrences`
        : this.bytes + added > maxBytes
          ? `${maxBytes.toLocaleString('en-US')} bytes of URN text (catalogLens.index.maxBytes)`
          : undefined;
    if (over !== undefined) {
      if (!this.full) this.host.log(`workspace index: full at ${over}; ${uri} and later files are left out`);
      this.full = true;
      return;
    }
    const lines = lineStarts(text);
    const file: FileEntry = { entities: [], ranges: new Int32Array(found.length * 4), entries: undefined };
    found.forEach(({ occ, key, entry }, i) => {
      let entity = this.entities.get(key);
      if (!entity) {
        const f = fresh.get(key)!;
        entity = { spelling: own(f.spelling), lower: own(f.lower), nameAt: f.nameAt, files: [], bytes: f.bytes };
        this.entities.set(own(key), entity);
        this.bytes += entity.bytes;
      }
      // The file is added to an entity once, at its first occurrence in the file.
      if (!file.entities.includes(entity)) entity.files.push(uri);
      file.entities.push(entity);
      const [sl, sc] = positionOf(lines, occ.start);
      const [el, ec] = positionOf(lines, occ.end);
      file.ranges[i * 4] = sl;
      file.ranges[i * 4 + 1] = sc;
      file.ranges[i * 4 + 2] = el;
      file.ranges[i * 4 + 3] = ec;
      if (entry) (file.entries ??= []).push(i);
    });
    this.files.set(uri, file);
    this.total += found.length;
  }

  remove(uri: string): void {
    uri = normalUri(uri);
    this.mentioning.delete(uri);
    this.quiet.delete(uri);
    this.passedOver.delete(uri);
    this.definitions.delete(uri);
    const old = this.files.get(uri);
    if (!old) return;
    this.files.delete(uri);
    this.total -= old.entities.length;
    for (const entity of new Set(old.entities)) {
      const at = entity.files.indexOf(uri);
      if (at >= 0) entity.files.splice(at, 1);
      if (entity.files.length === 0) {
        this.entities.delete(entityKey(entity.spelling));
        this.bytes -= entity.bytes;
      }
    }
  }

  /** Drops every file under a folder URI (a removed workspace folder). */
  removeFolder(folder: string): void {
    folder = normalUri(folder);
    const prefix = folder.endsWith('/') ? folder : `${folder}/`;
    this.covered.delete(folder);
    const uris = new Set([...this.files.keys(), ...this.mentioning, ...this.quiet, ...this.passedOver.keys()]);
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

  /** The files naming the entity `urn` names (any namespace word). */
  filesNaming(urn: string): string[] {
    return [...(this.entities.get(entityKey(urn))?.files ?? [])];
  }

  /** A spelling of each entity named in a file `inFile` accepts (all files: every entity), in key order. */
  entitiesNamedIn(inFile: (uri: string) => boolean = () => true): string[] {
    const out: Array<[string, string]> = [];
    for (const [key, entity] of this.entities) if (entity.files.some(inFile)) out.push([key, entity.spelling]);
    return out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, spelling]) => spelling);
  }

  /** Every place the entity `urn` names is named, file by file in URI order, then by position. */
  placesOf(urn: string): Place[] {
    const entity = this.entities.get(entityKey(urn));
    const out: Place[] = [];
    for (const uri of [...(entity?.files ?? [])].sort()) {
      const file = this.files.get(uri);
      if (!file) continue;
      const r = file.ranges;
      file.entities.forEach((e, i) => {
        if (e !== entity) return;
        out.push({
          uri,
          range: {
            start: { line: r[i * 4]!, character: r[i * 4 + 1]! },
            end: { line: r[i * 4 + 2]!, character: r[i * 4 + 3]! },
          },
          entry: file.entries?.includes(i) ?? false,
        });
      });
    }
    return out;
  }

  /**
   * Entities whose full name holds `query` (case-insensitive; all when empty), best first by
   * features/symbols.ts symbolRank (the own name itself, then an own name that starts with it …),
   * then by own name, full name and key; at most `max`. `name` is the full name (`db.users`).
   */
  symbols(query: string, max = 200): Array<{ urn: Urn; key: string; name: string }> {
    const q = query.toLowerCase();
    const found: Array<{ key: string; entity: Entity; rank: number; name: string }> = [];
    for (const [key, entity] of this.entities) {
      const rank = symbolRank(entity.lower, entity.nameAt, q);
      if (rank === undefined) continue;
      const name = entity.nameAt === 0 ? entity.lower : entity.lower.slice(entity.nameAt);
      found.push({ key, entity, rank, name });
    }
    // Names compare by code unit (stable whatever the locale, and fast); ties by key.
    const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
    return found
      .sort(
        (a, b) =>
          a.rank - b.rank || byText(a.name, b.name) || byText(a.entity.lower, b.entity.lower) || byText(a.key, b.key),
      )
      .slice(0, max)
      .flatMap(({ key, entity }) => {
        const parsed = parseUrn(entity.spelling);
        return parsed.ok ? [{ urn: parsed.urn, key, name: symbolText(parsed.urn).full }] : [];
      });
  }
}

/**
 * A copy of `text` that holds nothing else: a part of a file's text cut out by the scanner (a
 * V8 sliced string) or joined from such parts keeps the whole file alive as long as it is kept.
 */
function own(text: string): string {
  return (' ' + text).slice(1);
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
