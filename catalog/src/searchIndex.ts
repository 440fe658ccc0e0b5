/**
 * The local catalog's search: one SQLite FTS5 row per existing entity — its name, the
 * description DataHub's UI shows, its kind and platform — kept current in the transaction of every
 * write, and built on open for a database written before it existed. FTS5's trigram tokenizer finds
 * names by any part of three characters or more (`db.users` by `sers`); shorter queries scan the
 * names. Results are ranked as people read names: exact, then prefix, then a word of the name
 * (after `.`, `_`, `-`, `/` or a space), then anywhere in it, then description hits; ties by the
 * shorter name, then the URN.
 *
 * DataHub's search (Elasticsearch) also matches near spellings: its query builder adds fuzzy
 * clauses on names (SearchQueryBuilder, `fuzzy` for the `_entityName` fields). When nothing matches
 * a query here, names within a few typos of it come back, fewest typos first: the near names
 * did-you-mean needs.
 */
import type Database from 'better-sqlite3';
import { EDITABLE_ML_ASPECT, EXISTENCE_ASPECTS, textOf, type AspectName } from '../../model/src/aspects';
import {
  firstValueAt,
  isCatalogKind,
  isViewKind,
  propertiesAspectOf,
  viewOf,
  type CatalogKind,
  type LookupKind,
  type ViewKind,
} from '../../model/src/kinds';
import { entityName } from '../../model/src/entityNames';
import { editDistance, parseUrn } from '../../model/src/urn';
import type { CompatMode } from './compat';

// FTS5 has no index on an UNINDEXED column: search_keys finds an entity's row by its key, so a
// write replaces it by rowid instead of scanning the table (which made ingestion quadratic).
const DDL = `CREATE VIRTUAL TABLE IF NOT EXISTS search_index USING fts5(
  name, description, key UNINDEXED, type UNINDEXED, platform UNINDEXED, tokenize = 'trigram'
);
CREATE TABLE IF NOT EXISTS search_keys (key TEXT PRIMARY KEY, row INTEGER NOT NULL) WITHOUT ROWID;`;
/** catalog_meta key recording that search_index holds every entity (files written before it get it built on open). */
const BUILT = 'search_index_version';
/** Raised when what is indexed changes (4: the looked-up-only kinds added since, assertions, incidents …). */
const VERSION = '4';

/** The aspects whose change can change an entity's row: its existence, name or shown description. */
const SEARCHED_ASPECTS: ReadonlySet<string> = new Set<AspectName>([
  'datasetProperties',
  'editableDatasetProperties',
  'schemaMetadata',
  'mlFeatureProperties',
  'mlFeatureTableProperties',
  'mlModelProperties',
  'mlModelGroupProperties',
  'editableMlFeatureProperties',
  'editableMlFeatureTableProperties',
  'editableMlModelProperties',
  'editableMlModelGroupProperties',
]);

export interface SearchHit {
  key: string;
  type: LookupKind;
  name: string;
  platform: string | null;
  description: string | null;
  /** Where the query matched: the name, or only the description (or near the name, for a fuzzy hit). */
  matched: 'name' | 'description';
}

export interface SearchQuery {
  query: string;
  types?: readonly LookupKind[];
  /** Platform names (`hive`), any of which an entity's platform must be. */
  platforms?: readonly string[];
  start: number;
  count: number;
}

interface Row {
  key: string;
  type: LookupKind;
  name: string;
  platform: string | null;
  description: string | null;
}

type Aspects = ReadonlyMap<AspectName, { value: Record<string, unknown> }>;

export class SearchIndex {
  private readonly rowOfKey: Database.Statement<[string], { row: number }>;
  private readonly delRow: Database.Statement<[number]>;
  private readonly delKey: Database.Statement<[string]>;
  private readonly ins: Database.Statement<Row>;
  private readonly insKey: Database.Statement<[string, number | bigint]>;

  constructor(
    private readonly db: Database.Database,
    private readonly compat: CompatMode,
    private readonly aspectsOf: (key: string) => Aspects,
    listKeys: () => Array<{ key: string; type: string }>,
    /** Every aspect of an entity by any name (the looked-up-only kinds' aspects are not AspectNames). */
    private readonly rawAspectsOf: (key: string) => ReadonlyMap<string, { value: unknown }> = () => new Map(),
  ) {
    db.exec(DDL);
    this.folds = new TrigramFolds(db);
    this.rowOfKey = db.prepare('SELECT row FROM search_keys WHERE key = ?');
    this.delRow = db.prepare('DELETE FROM search_index WHERE rowid = ?');
    this.delKey = db.prepare('DELETE FROM search_keys WHERE key = ?');
    this.ins = db.prepare(
      'INSERT INTO search_index (name, description, key, type, platform) VALUES (@name, @description, @key, @type, @platform)',
    );
    this.insKey = db.prepare('INSERT INTO search_keys (key, row) VALUES (?, ?)');
    const built = db.prepare<[string], { value: string }>('SELECT value FROM catalog_meta WHERE key = ?').get(BUILT);
    if (built?.value !== VERSION) {
      db.transaction(() => {
        db.exec('DELETE FROM search_index; DELETE FROM search_keys;');
        for (const { key, type } of listKeys()) if (isCatalogKind(type) || isViewKind(type)) this.reindex(key, type);
        db.prepare('INSERT OR REPLACE INTO catalog_meta (key, value) VALUES (?, ?)').run(BUILT, VERSION);
      })();
    }
  }

  /**
   * After a write of `aspect` to `key`: its row again, when that aspect can change it (the five
   * catalog kinds' searched aspects; any aspect of a looked-up-only kind, as any creates it).
   */
  touched(key: string, type: string, aspect: string): void {
    if ((SEARCHED_ASPECTS.has(aspect) && isCatalogKind(type)) || isViewKind(type)) this.pending.set(key, type);
  }

  /** Entities written since the last `flush` whose row is to be made again, with their kind. */
  private readonly pending = new Map<string, LookupKind>();

  /** Makes the rows of the entities `touched` since the last flush again, each once (call it inside the writes' transaction). */
  flush(): void {
    if (this.pending.size === 0) return;
    const keys = [...this.pending];
    this.pending.clear();
    for (const [key, type] of keys) this.reindex(key, type);
  }

  /** Forgets the pending rows and the names in memory (their transaction was rolled back). */
  discardPending(): void {
    this.pending.clear();
    this.nameMap = undefined;
    this.wordMap = undefined;
  }

  private reindex(key: string, type: LookupKind): void {
    const old = this.rowOfKey.get(key);
    this.wordMap = undefined;
    if (old) {
      this.delRow.run(old.row);
      this.delKey.run(key);
      this.nameMap?.delete(old.row);
    }
    const row = this.rowOf(key, type);
    if (row) {
      const rowid = Number(this.ins.run(row).lastInsertRowid);
      this.insKey.run(key, rowid);
      this.nameMap?.set(rowid, nameEntry(rowid, row, this.folds));
    }
  }

  /** The entity's row, or undefined when it does not exist (spec: its existence aspects; DataHub mode: any aspect). */
  private rowOf(key: string, type: LookupKind): Row | undefined {
    if (isViewKind(type)) return this.viewRowOf(key, type);
    const aspects = this.aspectsOf(key);
    const exists = this.compat === 'datahub' ? aspects.size > 0 : EXISTENCE_ASPECTS[type].some((a) => aspects.has(a));
    const parsed = parseUrn(key);
    if (!exists || !parsed.ok) return undefined;
    const urn = parsed.urn;
    return {
      key,
      type,
      name: urn.kind === 'mlFeature' ? urn.feature : entityName(urn),
      platform: 'platform' in urn ? urn.platform : null,
      description: shownDescription(type, aspects),
    };
  }

  /**
   * A looked-up-only entity's row (any stored aspect creates it): its id as the name (what a URN
   * spells, which did-you-mean compares), its display name and description as the description.
   */
  private viewRowOf(key: string, type: ViewKind): Row | undefined {
    const raw = this.rawAspectsOf(key);
    const parsed = parseUrn(key);
    if (raw.size === 0 || !parsed.ok) return undefined;
    const values: Record<string, unknown> = {};
    for (const [name, a] of raw) values[name] = a.value;
    const view = viewOf(type);
    const display = firstValueAt(
      values,
      view.aspects.flatMap((a) => [`${a}.displayName`, `${a}.name`, `${a}.title`]),
    );
    const text = firstValueAt(
      values,
      view.aspects.flatMap((a) => [`${a}.description`, `${a}.definition`]),
    );
    const description = [display, text].filter(Boolean).join(' — ');
    return { key, type, name: entityName(parsed.urn), platform: null, description: description || null };
  }

  /**
   * Entities matching `q`, ranked, with the total before paging. SQLite's matches are substrings
   * after a fold: FTS5's trigram phrase (from three characters) after its tokenizer's case folding,
   * LIKE (under three) with ASCII letters in either case. An ASCII query is asked of FTS5 with a
   * LIMIT (it stops early) and, when it matches more than MANY_MATCHES rows or is under three
   * characters, answered by `includes` on the names and descriptions kept in memory folded the
   * same way (`nameEntry`): exactly what SQLite would find, without its long doclists or its scan.
   * A query with any other character is asked of SQLite whole. The filters, the rank (nameRank)
   * and the order run over the names in memory, keeping only the best `start + count` (a bounded
   * heap), so a query that matches 100,000 entities costs a pass over them, not 100,000 rows read
   * back and sorted. The order is SQLite's `ORDER BY rank, length(name), key` (lengths in
   * characters, keys in UTF-8 byte order).
   */
  search(q: SearchQuery): { total: number; hits: SearchHit[] } {
    // A search inside a transaction sees its writes.
    this.flush();
    const text = q.query.trim();
    const all = text === '' || text === '*';
    const byRow = this.names();
    const query = text.toLowerCase();
    const types = q.types ? new Set<string>(q.types) : undefined;
    const platforms = q.platforms ? new Set<string>(q.platforms) : undefined;
    const best = new TopK(q.start + q.count);
    let total = 0;
    const consider = (n: NameEntry): void => {
      if ((types && !types.has(n.type)) || (platforms && (n.platform === null || !platforms.has(n.platform)))) return;
      total++;
      best.offer(n, all ? 0 : (rankLowered(n.words[0]!, query) ?? 4));
    };
    const short = [...text].length < 3;
    // An ASCII query of three characters or more that FTS5 finds in at most MANY_MATCHES rows: those.
    const few =
      all || short || (this.inMemoryMatching && !ASCII.test(text))
        ? undefined
        : this.rowids('SELECT rowid FROM search_index WHERE search_index MATCH ? LIMIT ?').all(
            phrase(text),
            this.inMemoryMatching ? this.manyMatches + 1 : -1,
          );
    if (all) for (const n of byRow.values()) consider(n);
    else if (few && few.length <= this.manyMatches) {
      for (const id of few) {
        const n = byRow.get(id);
        if (n) consider(n);
      }
    } else if (this.inMemoryMatching && ASCII.test(text)) {
      // More matches, or under three characters (a scan in SQLite too): the folded texts in memory.
      // `query` is `text` with its ASCII letters lower-cased, what both folds compare with.
      if (short) {
        for (const n of byRow.values())
          if (n.nameLike.includes(query) || (n.descriptionLike !== null && n.descriptionLike.includes(query)))
            consider(n);
      } else {
        for (const n of byRow.values())
          if (n.nameFts.includes(query) || (n.descriptionFts !== null && n.descriptionFts.includes(query))) consider(n);
      }
    } else {
      let rowids: number[];
      if (short) {
        // Under three characters FTS5's trigrams cannot match: a scan of names and descriptions.
        const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        rowids = this.rowids(
          "SELECT rowid FROM search_index WHERE (name LIKE ? ESCAPE '\\' OR description LIKE ? ESCAPE '\\')",
        ).all(like, like);
      } else rowids = few ?? this.rowids('SELECT rowid FROM search_index WHERE search_index MATCH ?').all(phrase(text));
      for (const id of rowids) {
        const n = byRow.get(id);
        if (n) consider(n);
      }
    }
    if (total === 0) {
      if (all) return { total: 0, hits: [] };
      const near = this.near(text, q);
      return { total: near.total, hits: this.rowsOf(near.rows.slice(q.start)) };
    }
    const page = best.sorted().slice(q.start);
    const matched = new Map(page.map((h) => [h.n.row, h.rank === 4 ? ('description' as const) : ('name' as const)]));
    return {
      total,
      hits: this.rowsOf(
        page.map((h) => h.n.row),
        (row) => matched.get(row) ?? 'name',
      ),
    };
  }

  /** False: SQLite finds every match, as before the names and descriptions were kept in memory (the tests compare both). */
  inMemoryMatching = true;

  /** How many FTS5 matches are used as they are; a query matching more is matched in memory (the tests set 0). */
  manyMatches = MANY_MATCHES;

  /** How FTS5's trigram tokenizer folds characters beyond ASCII, learned from FTS5 (`nameEntry`). */
  private readonly folds: TrigramFolds;

  private rowids(sql: string): Database.Statement<unknown[], number> {
    let st = this.statements.get(sql);
    if (!st) this.statements.set(sql, (st = this.db.prepare(sql).pluck()));
    return st as Database.Statement<unknown[], number>;
  }

  private readonly statements = new Map<string, Database.Statement>();
  private statement<R>(sql: string): Database.Statement<unknown[], R> {
    let st = this.statements.get(sql);
    if (!st) this.statements.set(sql, (st = this.db.prepare(sql)));
    return st as Database.Statement<unknown[], R>;
  }

  /**
   * Names within a few typos of `text` — the whole name, or one of its words (`usres` is one swap
   * from the `users` of `db.users`): optimal string alignment, at most max(1, a third of the
   * query's length); fewest typos first. Only when nothing matched directly. Bounded: only the
   * words whose length is within the limit of the query's are read (`wordsByLength`, made from the
   * names in memory on first use after a write), a word with more character classes missing or extra
   * than the limit is skipped (charMask), and the distance of the rest is computed bit-parallel
   * (`OsaDistance`), one machine word per character of the word. Returns how many names are near
   * and the rows of the first `start + count` of them in order (only those are kept sorted).
   */
  private near(text: string, q: SearchQuery): { total: number; rows: number[] } {
    const query = text.toLowerCase();
    const limit = Math.max(1, Math.floor([...query].length / 3));
    const qMask = charMask(query);
    const distance = new OsaDistance(query);
    const byLength = this.wordsByLength();
    const best = new Map<NameEntry, number>();
    for (let len = Math.max(0, query.length - limit); len <= query.length + limit; len++) {
      const bucket = byLength.get(len);
      if (!bucket) continue;
      const { entries, words, masks } = bucket;
      for (let i = 0; i < entries.length; i++) {
        // More character classes missing (or extra) than the limit: more edits than it (charMask).
        const m = masks[i]!;
        if (bitCount(qMask & ~m) > limit || bitCount(m & ~qMask) > limit) continue;
        const n = entries[i]!;
        if (
          (q.types && !q.types.includes(n.type)) ||
          (q.platforms && !(n.platform !== null && q.platforms.includes(n.platform)))
        )
          continue;
        const d = distance.to(words[i]!, limit);
        if (d > limit) continue;
        const had = best.get(n);
        if (had === undefined || d < had) best.set(n, d);
      }
    }
    // The first `start + count` in order (fewest typos, shortest, then key), kept sorted as they come.
    const k = q.start + q.count;
    const kept: Array<{ n: NameEntry; d: number }> = [];
    for (const [n, d] of best) {
      if (k <= 0) break;
      if (kept.length === k && compareNear(n, d, kept[k - 1]!) >= 0) continue;
      let lo = 0;
      let hi = kept.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (compareNear(n, d, kept[mid]!) < 0) hi = mid;
        else lo = mid + 1;
      }
      kept.splice(lo, 0, { n, d });
      if (kept.length > k) kept.pop();
    }
    return { total: best.size, rows: kept.map(({ n }) => n.row) };
  }

  /** Every word of every name in memory (the whole name among them) by its length in UTF-16 units; dropped on a write. */
  private wordMap: Map<number, WordBucket> | undefined;
  private wordsByLength(): Map<number, WordBucket> {
    if (!this.wordMap) {
      const map = new Map<number, WordBucket>();
      for (const n of this.names().values())
        for (let i = 0; i < n.words.length; i++) {
          const w = n.words[i]!;
          let b = map.get(w.length);
          if (!b) map.set(w.length, (b = { entries: [], words: [], masks: [] }));
          b.entries.push(n);
          b.words.push(w);
          b.masks.push(n.masks[i]!);
        }
      this.wordMap = map;
    }
    return this.wordMap;
  }

  /** The names (and descriptions) by FTS rowid, made on first use and then kept current by `reindex`. */
  private nameMap: Map<number, NameEntry> | undefined;
  private names(): Map<number, NameEntry> {
    if (!this.nameMap) {
      const rows = this.statement<{
        row: number;
        key: string;
        type: LookupKind;
        name: string;
        platform: string | null;
        description: string | null;
      }>(
        'SELECT k.row AS row, i.key AS key, i.type AS type, i.name AS name, i.platform AS platform, i.description AS description FROM search_keys k JOIN search_index i ON i.rowid = k.row',
      ).all();
      this.nameMap = new Map(rows.map((r) => [r.row, nameEntry(r.row, r, this.folds)]));
    }
    return this.nameMap;
  }

  /** The rows of these FTS rowids, in this order. */
  private rowsOf(
    rowids: readonly number[],
    matched: (row: number) => 'name' | 'description' = () => 'name',
  ): SearchHit[] {
    if (rowids.length === 0) return [];
    const rows = this.statement<Row & { rowid: number }>(
      `SELECT rowid, key, type, name, platform, description FROM search_index WHERE rowid IN (${rowids.map(() => '?').join(',')})`,
    ).all(...rowids);
    const byId = new Map(rows.map(({ rowid, ...row }) => [rowid, row]));
    return rowids.flatMap((id) => {
      const row = byId.get(id);
      return row ? [{ ...row, matched: matched(id) }] : [];
    });
  }
}

/** The order of near names: fewest typos, then the shorter name (UTF-16 units), then the key (UTF-16 order). */
function compareNear(n: NameEntry, d: number, b: { n: NameEntry; d: number }): number {
  return d - b.d || n.length - b.n.length || (n.key < b.n.key ? -1 : n.key > b.n.key ? 1 : 0);
}

/** The words of one length (parallel arrays): the entry each belongs to, the word, its charMask. */
interface WordBucket {
  entries: NameEntry[];
  words: string[];
  masks: number[];
}

/** An entity's name as the search and the near-name pass read it. */
interface NameEntry {
  row: number;
  key: string;
  type: LookupKind;
  platform: string | null;
  length: number;
  /** The lower-cased name, then its words. */
  words: string[];
  /** charMask of each word. */
  masks: number[];
  /** The name's length in characters (code points), as SQLite's length() counts. */
  chars: number;
  /** Whether the key holds a UTF-16 unit from U+D800 on (then `<` is not UTF-8 byte order). */
  wideKey: boolean;
  /** The name and description (null: none) as FTS5's trigram tokenizer compares them with an ASCII query (TrigramFolds). */
  nameFts: string;
  descriptionFts: string | null;
  /** The name and description (null: none) as LIKE compares them: ASCII letters lower-cased, nothing else. */
  nameLike: string;
  descriptionLike: string | null;
}

function nameEntry(
  row: number,
  r: { key: string; type: LookupKind; name: string; platform: string | null; description: string | null },
  folds: TrigramFolds,
): NameEntry {
  const name = r.name.toLowerCase();
  const words = [name, ...name.split(/[._\-/\s:]+/).filter((w) => w !== '' && w !== name)];
  // ASCII text (most) is folded alike by FTS5, LIKE and toLowerCase: one string serves all three.
  const asciiName = ASCII.test(r.name);
  const d = r.description;
  const asciiDescription = d === null || ASCII.test(d);
  const lowerDescription = asciiDescription ? (d?.toLowerCase() ?? null) : null;
  return {
    row,
    key: r.key,
    type: r.type,
    platform: r.platform,
    length: r.name.length,
    words,
    masks: words.map(charMask),
    chars: WIDE.test(r.name) ? [...r.name].length : r.name.length,
    wideKey: WIDE.test(r.key),
    nameFts: asciiName ? name : folds.fts(r.name),
    descriptionFts: asciiDescription ? lowerDescription : folds.fts(d),
    nameLike: asciiName ? name : likeFold(r.name),
    descriptionLike: asciiDescription ? lowerDescription : likeFold(d),
  };
}

/** ASCII letters lower-cased, every other character kept: how LIKE compares. */
function likeFold(text: string): string {
  return ASCII.test(text) ? text.toLowerCase() : text.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

/**
 * How FTS5's trigram tokenizer (case_sensitive 0) folds a text, as far as a query of ASCII
 * characters can tell: ASCII letters lower-cased, and each other character replaced by the ASCII
 * character FTS5 folds it to (the Kelvin sign to `k`, `ſ` to `s` …) or else kept (then it matches
 * no character of such a query, as in FTS5). Which character FTS5 folds to what is asked of FTS5
 * itself, once per character: a trigram of it in a temporary FTS5 table, read back through fts5vocab.
 */
class TrigramFolds {
  /** A character beyond ASCII → its ASCII fold, or itself when FTS5 folds it to no ASCII character. */
  private readonly known = new Map<string, string>();
  private readonly insert: Database.Statement<[string]>;
  private readonly read: Database.Statement<[], string>;
  private readonly clear: Database.Statement<[]>;

  /** Creates the temporary tables now, outside any transaction: a rollback never takes them away. */
  constructor(db: Database.Database) {
    db.exec(
      "CREATE VIRTUAL TABLE IF NOT EXISTS temp.fold_probe USING fts5(x, tokenize = 'trigram');" +
        "CREATE VIRTUAL TABLE IF NOT EXISTS temp.fold_probe_terms USING fts5vocab(temp, fold_probe, 'row');",
    );
    this.insert = db.prepare('INSERT INTO temp.fold_probe (x) VALUES (?)');
    this.read = db.prepare<[], string>('SELECT term FROM temp.fold_probe_terms').pluck();
    this.clear = db.prepare('DELETE FROM temp.fold_probe');
  }

  fts(text: string): string {
    if (ASCII.test(text)) return text.toLowerCase();
    let out = '';
    for (const c of text) {
      const code = c.codePointAt(0)!;
      out += code < 0x80 ? (code >= 0x41 && code <= 0x5a ? String.fromCharCode(code + 32) : c) : this.fold(c);
    }
    return out;
  }

  private fold(c: string): string {
    let f = this.known.get(c);
    if (f === undefined) {
      // Inside a transaction the probe row is written and removed inside it: a rollback changes nothing here.
      this.clear.run();
      this.insert.run(`ab${c}`);
      const term = this.read.all()[0] ?? '';
      this.clear.run();
      const folded = [...term].slice(2).join('');
      f = folded.length === 1 && folded.charCodeAt(0) < 0x80 ? folded : c;
      this.known.set(c, f);
    }
    return f;
  }
}

/**
 * Above this many rows FTS5 reads long doclists (every row holds `ben` of `bench`): the search
 * passes over the texts in memory instead. Below it, FTS5 with a LIMIT stops early and is cheaper.
 */
const MANY_MATCHES = 2000;

const WIDE = /[\ud800-\uffff]/;
/** ASCII characters only. */
const ASCII = /^[\x00-\x7f]*$/;

/** SQLite's BINARY order of two TEXT values (UTF-8 bytes, that is code points). */
function compareKeys(a: NameEntry, b: NameEntry): number {
  if (!a.wideKey && !b.wideKey) return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
  const x = [...a.key].map((c) => c.codePointAt(0)!);
  const y = [...b.key].map((c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

interface Ranked {
  n: NameEntry;
  rank: number;
}

/** Order of a search's hits: rank, then length in characters, then key. */
function compareRanked(a: Ranked, b: Ranked): number {
  return a.rank - b.rank || a.n.chars - b.n.chars || compareKeys(a.n, b.n);
}

/** The `k` first of the entries offered, in the order of compareRanked (a bounded max-heap). */
class TopK {
  private readonly heap: Ranked[] = [];
  constructor(private readonly k: number) {}

  offer(n: NameEntry, rank: number): void {
    if (this.k <= 0) return;
    const h = this.heap;
    if (h.length < this.k) {
      h.push({ n, rank });
      for (let i = h.length - 1; i > 0;) {
        const p = (i - 1) >> 1;
        if (compareRanked(h[i]!, h[p]!) <= 0) break;
        [h[i], h[p]] = [h[p]!, h[i]!];
        i = p;
      }
      return;
    }
    const top = h[0]!;
    // Not better than the worst kept: most entries stop here, on the rank or the length.
    if (
      rank > top.rank ||
      (rank === top.rank && (n.chars > top.n.chars || (n.chars === top.n.chars && compareKeys(n, top.n) >= 0)))
    )
      return;
    h[0] = { n, rank };
    for (let i = 0; ;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && compareRanked(h[l]!, h[m]!) > 0) m = l;
      if (r < h.length && compareRanked(h[r]!, h[m]!) > 0) m = r;
      if (m === i) break;
      [h[i], h[m]] = [h[m]!, h[i]!];
      i = m;
    }
  }

  sorted(): Ranked[] {
    return [...this.heap].sort(compareRanked);
  }
}

/**
 * The characters of a string as a set of classes, one bit each (UTF-16 code unit mod 31). An edit
 * brings in at most one character and takes out at most one, so the classes one string has and
 * another lacks, counted either way, are at most the edits between them (characters sharing a
 * class only lower that count).
 */
function charMask(s: string): number {
  let m = 0;
  for (let i = 0; i < s.length; i++) m |= 1 << (s.charCodeAt(i) % 31);
  return m;
}

/**
 * The optimal string alignment distance (editDistance of model/src/urn.ts: insertions, deletions,
 * substitutions and swaps of two neighbours, each one edit; no substring edited twice) from one
 * string to many, bit-parallel: Myers' algorithm with Hyyrö's transposition term, one bit per
 * UTF-16 unit of the pattern, so one pass of a few word operations per unit of the other string.
 * A pattern longer than 31 units falls back to editDistance's table.
 */
export class OsaDistance {
  private readonly ascii = new Int32Array(128);
  private readonly other = new Map<number, number>();
  private readonly m: number;

  constructor(private readonly pattern: string) {
    this.m = pattern.length;
    if (this.m > 31) return;
    for (let i = 0; i < this.m; i++) {
      const c = pattern.charCodeAt(i);
      if (c < 128) this.ascii[c]! |= 1 << i;
      else this.other.set(c, (this.other.get(c) ?? 0) | (1 << i));
    }
  }

  /** editDistance(pattern, text, limit): the distance, or limit + 1 when it is over the limit. */
  to(text: string, limit = Infinity): number {
    const m = this.m;
    if (Math.abs(m - text.length) > limit) return limit + 1;
    if (m > 31) return editDistance(this.pattern, text, limit);
    if (m === 0) return text.length > limit ? limit + 1 : text.length;
    const mask = m === 31 ? 0x7fffffff : (1 << m) - 1;
    const high = 1 << (m - 1);
    let vp = mask;
    let vn = 0;
    let d0 = 0;
    let pm = 0;
    let score = m;
    for (let j = 0; j < text.length; j++) {
      const c = text.charCodeAt(j);
      const eq = c < 128 ? this.ascii[c]! : (this.other.get(c) ?? 0);
      // A swap: this unit matches pattern i and the last matched pattern i + 1, where the diagonal did not stay.
      const tr = ((~d0 & eq) << 1) & pm & mask;
      d0 = ((((eq & vp) + vp) ^ vp) | eq | vn | tr) & mask;
      let hp = (vn | ~(d0 | vp)) & mask;
      let hn = d0 & vp;
      if (hp & high) score++;
      else if (hn & high) score--;
      hp = ((hp << 1) | 1) & mask;
      hn = (hn << 1) & mask;
      vp = (hn | ~(d0 | hp)) & mask;
      vn = d0 & hp;
      pm = eq;
      // The distance drops at most one per remaining unit of the text.
      if (score - (text.length - j - 1) > limit) return limit + 1;
    }
    return score > limit ? limit + 1 : score;
  }
}

function bitCount(n: number): number {
  let v = n - ((n >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** exact 0, prefix 1, a word of the name 2, anywhere 3; undefined when the name does not hold it. */
export function nameRank(name: string, query: string): number | undefined {
  return rankLowered(name.toLowerCase(), query.toLowerCase());
}

/** nameRank of a name and a query already lower-cased. */
function rankLowered(n: string, q: string): number | undefined {
  if (n === q) return 0;
  if (n.startsWith(q)) return 1;
  const at = n.indexOf(q);
  if (at < 0) return undefined;
  for (let i = at; i >= 0; i = n.indexOf(q, i + 1)) if (/[._\-/\s:]/.test(n[i - 1] ?? '')) return 2;
  return 3;
}

function phrase(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/** The description DataHub's UI shows: the edited one over the ingested one. */
function shownDescription(type: CatalogKind, aspects: Aspects): string | null {
  const text = (aspect: AspectName): string | null => {
    const v = aspects.get(aspect)?.value;
    const t = v ? textOf(v['description']) : null;
    return t && t.trim() !== '' ? t : null;
  };
  const edited = type === 'dataset' ? 'editableDatasetProperties' : EDITABLE_ML_ASPECT[type];
  return text(edited) ?? text(propertiesAspectOf(type));
}
