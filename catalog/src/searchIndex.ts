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
const VERSION = '3';

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
    // The rank of a row the query matched: its name's (nameRank), else 4 (only the description holds it).
    db.function('search_rank', { deterministic: true }, (name: unknown, query: unknown) =>
      typeof name === 'string' && typeof query === 'string' ? (nameRank(name, query) ?? 4) : 4,
    );
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

  /** Forgets the pending rows (their transaction was rolled back). */
  discardPending(): void {
    this.pending.clear();
  }

  private reindex(key: string, type: LookupKind): void {
    this.nameList = undefined;
    const old = this.rowOfKey.get(key);
    if (old) {
      this.delRow.run(old.row);
      this.delKey.run(key);
    }
    const row = this.rowOf(key, type);
    if (row) this.insKey.run(key, this.ins.run(row).lastInsertRowid);
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
   * Entities matching `q`, ranked, with the total before paging. The filters, ranking and paging
   * run in SQLite (the rank through `search_rank`, nameRank in JS): only the page becomes JS
   * objects, so a query that matches 100,000 names costs a count and a top-N sort, not 100,000 rows.
   */
  search(q: SearchQuery): { total: number; hits: SearchHit[] } {
    // A search inside a transaction sees its writes.
    this.flush();
    const text = q.query.trim();
    const where: string[] = [];
    const params: unknown[] = [];
    if (q.types) {
      where.push(`type IN (${q.types.map(() => '?').join(',') || 'NULL'})`);
      params.push(...q.types);
    }
    if (q.platforms) {
      where.push(`platform IN (${q.platforms.map(() => '?').join(',') || 'NULL'})`);
      params.push(...q.platforms);
    }
    const all = text === '' || text === '*';
    if (!all) {
      if ([...text].length < 3) {
        // Under three characters FTS5's trigrams cannot match: a scan of names and descriptions.
        const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        where.push("(name LIKE ? ESCAPE '\\' OR description LIKE ? ESCAPE '\\')");
        params.push(like, like);
      } else {
        where.push('search_index MATCH ?');
        params.push(phrase(text));
      }
    }
    const cond = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
    const total = this.statement<{ n: number }>(`SELECT count(*) AS n FROM search_index ${cond}`).get(...params)!.n;
    if (total === 0) {
      if (all) return { total: 0, hits: [] };
      const near = this.near(text, q);
      return { total: near.length, hits: this.rowsOf(near.slice(q.start, q.start + q.count)) };
    }
    const rows = this.statement<Row & { rank: number }>(
      `SELECT key, type, name, platform, description, ${all ? '0' : 'search_rank(name, ?)'} AS rank
       FROM search_index ${cond} ORDER BY rank, length(name), key LIMIT ? OFFSET ?`,
    ).all(...(all ? [] : [text]), ...params, q.count, q.start);
    return {
      total,
      hits: rows.map(({ rank, ...row }) => ({ ...row, matched: rank === 4 ? 'description' : 'name' })),
    };
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
   * query's length); fewest typos first. Only when nothing matched directly: a pass over the
   * names kept in memory (`names`, made again after a write), without the descriptions.
   */
  private near(text: string, q: SearchQuery): number[] {
    const query = text.toLowerCase();
    const limit = Math.max(1, Math.floor([...query].length / 3));
    const qMask = charMask(query);
    const found: Array<{ n: NameEntry; d: number }> = [];
    for (const n of this.names()) {
      if (
        (q.types && !q.types.includes(n.type)) ||
        (q.platforms && !(n.platform !== null && q.platforms.includes(n.platform)))
      )
        continue;
      let d = limit + 1;
      for (let i = 0; i < n.words.length; i++) {
        const w = n.words[i]!;
        if (Math.abs(w.length - query.length) > limit) continue;
        // More character classes missing (or extra) than the limit: more edits than it (charMask).
        const m = n.masks[i]!;
        if (bitCount(qMask & ~m) > limit || bitCount(m & ~qMask) > limit) continue;
        d = Math.min(d, editDistance(query, w, limit));
      }
      if (d <= limit) found.push({ n, d });
    }
    return found
      .sort((a, b) => a.d - b.d || a.n.length - b.n.length || (a.n.key < b.n.key ? -1 : a.n.key > b.n.key ? 1 : 0))
      .map(({ n }) => n.row);
  }

  private nameList: NameEntry[] | undefined;
  private names(): NameEntry[] {
    if (!this.nameList) {
      const rows = this.statement<{
        row: number;
        key: string;
        type: LookupKind;
        name: string;
        platform: string | null;
      }>(
        'SELECT k.row AS row, i.key AS key, i.type AS type, i.name AS name, i.platform AS platform FROM search_keys k JOIN search_index i ON i.rowid = k.row',
      ).all();
      this.nameList = rows.map((r) => {
        const name = r.name.toLowerCase();
        const words = [name, ...name.split(/[._\-/\s:]+/).filter((w) => w !== '' && w !== name)];
        return {
          row: r.row,
          key: r.key,
          type: r.type,
          platform: r.platform,
          length: r.name.length,
          words,
          masks: words.map(charMask),
        };
      });
    }
    return this.nameList;
  }

  /** The rows of these FTS rowids, in this order. */
  private rowsOf(rowids: readonly number[]): SearchHit[] {
    if (rowids.length === 0) return [];
    const rows = this.statement<Row & { rowid: number }>(
      `SELECT rowid, key, type, name, platform, description FROM search_index WHERE rowid IN (${rowids.map(() => '?').join(',')})`,
    ).all(...rowids);
    const byId = new Map(rows.map(({ rowid, ...row }) => [rowid, row]));
    return rowids.flatMap((id) => {
      const row = byId.get(id);
      return row ? [{ ...row, matched: 'name' as const }] : [];
    });
  }
}

/** An entity's name as the near-name pass reads it. */
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

function bitCount(n: number): number {
  let v = n - ((n >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** exact 0, prefix 1, a word of the name 2, anywhere 3; undefined when the name does not hold it. */
export function nameRank(name: string, query: string): number | undefined {
  const n = name.toLowerCase();
  const q = query.toLowerCase();
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
