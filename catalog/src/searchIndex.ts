/**
 * The local catalog's search (issue 16): one SQLite FTS5 row per existing entity — its name, the
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
import { EXISTENCE_ASPECTS, textOf, type AspectName, type EntityType } from '../../model/src/aspects';
import { entityName } from '../../model/src/entityNames';
import { editDistance, parseUrn } from '../../model/src/urn';
import type { CompatMode } from './compat';

const DDL = `CREATE VIRTUAL TABLE IF NOT EXISTS search_index USING fts5(
  name, description, key UNINDEXED, type UNINDEXED, platform UNINDEXED, tokenize = 'trigram'
);`;
/** catalog_meta key recording that search_index holds every entity (files written before it get it built on open). */
const BUILT = 'search_index_version';
const VERSION = '1';

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
  type: EntityType;
  name: string;
  platform: string | null;
  description: string | null;
  /** Where the query matched: the name, or only the description (or near the name, for a fuzzy hit). */
  matched: 'name' | 'description';
}

export interface SearchQuery {
  query: string;
  types?: readonly EntityType[];
  /** Platform names (`hive`), any of which an entity's platform must be. */
  platforms?: readonly string[];
  start: number;
  count: number;
}

interface Row {
  key: string;
  type: EntityType;
  name: string;
  platform: string | null;
  description: string | null;
}

type Aspects = ReadonlyMap<AspectName, { value: Record<string, unknown> }>;

export class SearchIndex {
  private readonly del: Database.Statement<[string]>;
  private readonly ins: Database.Statement<Row>;

  constructor(
    private readonly db: Database.Database,
    private readonly compat: CompatMode,
    private readonly aspectsOf: (key: string) => Aspects,
    listKeys: () => Array<{ key: string; type: EntityType }>,
  ) {
    db.exec(DDL);
    this.del = db.prepare('DELETE FROM search_index WHERE key = ?');
    this.ins = db.prepare(
      'INSERT INTO search_index (name, description, key, type, platform) VALUES (@name, @description, @key, @type, @platform)',
    );
    const built = db.prepare<[string], { value: string }>('SELECT value FROM catalog_meta WHERE key = ?').get(BUILT);
    if (built?.value !== VERSION) {
      db.transaction(() => {
        db.exec('DELETE FROM search_index');
        for (const { key, type } of listKeys()) this.reindex(key, type);
        db.prepare('INSERT OR REPLACE INTO catalog_meta (key, value) VALUES (?, ?)').run(BUILT, VERSION);
      })();
    }
  }

  /** After a write of `aspect` to `key`: its row again, when that aspect can change it. */
  touched(key: string, type: EntityType, aspect: string): void {
    if (SEARCHED_ASPECTS.has(aspect)) this.reindex(key, type);
  }

  private reindex(key: string, type: EntityType): void {
    this.del.run(key);
    const row = this.rowOf(key, type);
    if (row) this.ins.run(row);
  }

  /** The entity's row, or undefined when it does not exist (spec: its existence aspects; DataHub mode: any aspect). */
  private rowOf(key: string, type: EntityType): Row | undefined {
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

  /** Entities matching `q`, ranked, with the total before paging. */
  search(q: SearchQuery): { total: number; hits: SearchHit[] } {
    const text = q.query.trim();
    const wanted = (r: Row): boolean =>
      (!q.types || q.types.includes(r.type)) &&
      (!q.platforms || (r.platform !== null && q.platforms.includes(r.platform)));
    type Ranked = { row: Row; rank: number; matched: 'name' | 'description' };
    let ranked: Ranked[];
    if (text === '' || text === '*') {
      ranked = this.all()
        .filter(wanted)
        .map((row) => ({ row, rank: 0, matched: 'name' as const }));
    } else {
      ranked = this.candidates(text)
        .filter(wanted)
        .flatMap((row): Ranked[] => {
          const rank = nameRank(row.name, text);
          if (rank !== undefined) return [{ row, rank, matched: 'name' as const }];
          return row.description?.toLowerCase().includes(text.toLowerCase())
            ? [{ row, rank: 4, matched: 'description' as const }]
            : [];
        });
      if (ranked.length === 0) ranked = this.near(text).filter((x) => wanted(x.row));
    }
    ranked.sort(
      (a, b) => a.rank - b.rank || a.row.name.length - b.row.name.length || a.row.key.localeCompare(b.row.key),
    );
    return {
      total: ranked.length,
      hits: ranked.slice(q.start, q.start + q.count).map(({ row, matched }) => ({ ...row, matched })),
    };
  }

  private all(): Row[] {
    return this.db.prepare<[], Row>('SELECT key, type, name, platform, description FROM search_index').all();
  }

  /** Rows whose name or description holds `text` (FTS5 trigram for 3 characters or more, else a scan). */
  private candidates(text: string): Row[] {
    if ([...text].length < 3) {
      const like = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      return this.db
        .prepare<[string, string], Row>(
          "SELECT key, type, name, platform, description FROM search_index WHERE name LIKE ? ESCAPE '\\' OR description LIKE ? ESCAPE '\\'",
        )
        .all(like, like);
    }
    return this.db
      .prepare<[string], Row>(
        'SELECT key, type, name, platform, description FROM search_index WHERE search_index MATCH ?',
      )
      .all(phrase(text));
  }

  /**
   * Names within a few typos of `text` — the whole name, or one of its words (`usres` is one swap
   * from the `users` of `db.users`): optimal string alignment, at most max(1, a third of the
   * query's length). A scan of the names, only when nothing matched directly.
   */
  private near(text: string): Array<{ row: Row; rank: number; matched: 'name' }> {
    const q = text.toLowerCase();
    const limit = Math.max(1, Math.floor([...q].length / 3));
    return this.all().flatMap((row) => {
      const name = row.name.toLowerCase();
      const words = [name, ...name.split(/[._\-/\s:]+/).filter((w) => w !== '' && w !== name)];
      const d = Math.min(...words.map((w) => editDistance(q, w, limit)));
      // Rank 5 and up: below every direct match; fewer typos first.
      return d <= limit ? [{ row, rank: 5 + d, matched: 'name' as const }] : [];
    });
  }
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
function shownDescription(type: EntityType, aspects: Aspects): string | null {
  const text = (aspect: AspectName): string | null => {
    const v = aspects.get(aspect)?.value;
    const t = v ? textOf(v['description']) : null;
    return t && t.trim() !== '' ? t : null;
  };
  switch (type) {
    case 'dataset':
      return text('editableDatasetProperties') ?? text('datasetProperties');
    case 'mlFeature':
      return text('editableMlFeatureProperties') ?? text('mlFeatureProperties');
    case 'mlFeatureTable':
      return text('editableMlFeatureTableProperties') ?? text('mlFeatureTableProperties');
    case 'mlModel':
      return text('editableMlModelProperties') ?? text('mlModelProperties');
    case 'mlModelGroup':
      return text('editableMlModelGroupProperties') ?? text('mlModelGroupProperties');
  }
}
