/**
 * SQLite storage: one row per (urn, aspect) holding the aspect JSON whole, its version, audit
 * stamps and system metadata. Writes are acknowledged only after their transaction commits
 * (WAL with synchronous=FULL by default), so an acknowledged write survives `kill -9`.
 */
import Database from 'better-sqlite3';
import { isAspectName, type AspectName, type AuditStamp } from '../../model/src/aspects';
import type { CatalogKind } from '../../model/src/kinds';
import type { KeyForm } from './compat';
import { SearchIndex } from './searchIndex';
import { prepareDatabaseFile } from './dbFile';

export type Durability = 'full' | 'normal';

export interface StoredAspect {
  /** Storage key (canonical namespace). */
  urn: string;
  aspect: AspectName;
  entityType: CatalogKind;
  value: Record<string, unknown>;
  /** 1 on the first write, +1 per change. */
  version: number;
  created: AuditStamp;
  lastModified: AuditStamp;
  systemMetadata: Record<string, unknown>;
}

/**
 * A stored aspect of any name and entity type DataHub's registry has (model/src/entityAspects.ts):
 * what ingestion stores and the Rest.li reads return. `StoredAspect` is the same row for the aspects
 * the catalog reads (model/src/aspects.ts).
 */
export interface RawStoredAspect extends Omit<StoredAspect, 'aspect' | 'entityType'> {
  aspect: string;
  entityType: string;
}

interface AspectRow {
  urn: string;
  aspect: string;
  entity_type: string;
  value: string;
  version: number;
  created_time: number;
  created_actor: string;
  modified_time: number;
  modified_actor: string;
  system_metadata: string;
}

interface ListedAspect {
  urn: string;
  entity_type: string;
  aspect: string;
  modified_time: number;
  modified_actor: string;
  value: string | null;
}

const SCHEMA_VERSION = '1';

/** How much of the database file reads may map (SQLite's mmap_size); beyond it they read the file. */
const MMAP_BYTES = 256 * 1024 * 1024;

const UPSERT = `
  INSERT INTO aspects (urn, aspect, entity_type, value, version, created_time, created_actor,
                       modified_time, modified_actor, system_metadata)
  VALUES (@urn, @aspect, @entity_type, @value, @version, @created_time, @created_actor,
          @modified_time, @modified_actor, @system_metadata)
  ON CONFLICT (urn, aspect) DO UPDATE SET
    value = excluded.value, version = excluded.version, modified_time = excluded.modified_time,
    modified_actor = excluded.modified_actor, system_metadata = excluded.system_metadata`;

/** A database file this catalog refuses or cannot open; the message names the file and what to do. */
export class DatabaseFileError extends Error {
  override readonly name = 'DatabaseFileError';
}

/** An unexpected failure while opening `path`, with the file, the cause, and what to do; the file is left as it is. */
function cannotOpen(path: string, cause: unknown): DatabaseFileError {
  const message = cause instanceof Error ? cause.message : String(cause);
  return new DatabaseFileError(
    `${path}: the catalog could not open this database file (${message}). Nothing in it was changed or removed. ` +
      'If another version of Catalog Lens wrote it, start that version on it (or a newer one), or start this one with another --db file.',
    { cause },
  );
}

const DDL = `
CREATE TABLE IF NOT EXISTS aspects (
  urn TEXT NOT NULL,
  aspect TEXT NOT NULL,
  entity_type TEXT NOT NULL,
  value TEXT NOT NULL,
  version INTEGER NOT NULL,
  created_time INTEGER NOT NULL,
  created_actor TEXT NOT NULL,
  modified_time INTEGER NOT NULL,
  modified_actor TEXT NOT NULL,
  system_metadata TEXT NOT NULL,
  PRIMARY KEY (urn, aspect)
) WITHOUT ROWID;
-- Listings of one aspect across entities (the downstream side of lineage, asked by every hover's
-- lineage counts) read this instead of scanning every aspect of every entity.
CREATE INDEX IF NOT EXISTS aspects_by_name ON aspects (aspect, urn);
CREATE TABLE IF NOT EXISTS catalog_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
`;

export class AspectStore {
  private readonly db: Database.Database;
  private readonly selectOne: Database.Statement<[string, string], AspectRow>;
  private readonly selectAll: Database.Statement<[string], AspectRow>;
  private readonly selectAny: Database.Statement<[string], { one: number }>;
  private readonly selectHas: Database.Statement<[string, string], { one: number }>;
  private readonly selectValues: Database.Statement<[string], { aspect: string; value: string }>;
  private selectByAspect: Database.Statement<[string], { urn: string; value: string }> | undefined;
  private readonly upsert: Database.Statement<AspectRow>;
  private readonly listings = new Map<string, Database.Statement<[], ListedAspect>>();
  private readonly dataVersion: Database.Statement<[], number>;
  /** getAll's answers outside transactions, oldest first, valid while `data_version` is `cachedVersion`. */
  private readonly cache = new Map<string, Map<AspectName, StoredAspect>>();
  private cachedVersion = -1;
  /** What `generation` answers, and the `data_version` it last saw. */
  private generationCount = 0;
  private generationDataVersion = -1;
  /** The entities by name and description (searchIndex.ts), kept current by `put`. */
  readonly search: SearchIndex;
  /**
   * better-sqlite3's transaction functions, made once: `db.transaction(fn)` builds four wrappers
   * with their properties at every call, which a write paid twice (its savepoint and its group).
   * Each runs the function it is given: BEGIN IMMEDIATE … COMMIT, or a savepoint when nested.
   */
  private readonly runNested: Database.Transaction<(fn: () => unknown) => unknown>;
  private readonly runOutermost: Database.Transaction<(fn: () => unknown) => unknown>;

  /**
   * Opens (or creates) the database. `canonicalNamespace` and `keyForm` are recorded on first
   * use: keys are stored in that word (or as written), so reopening the file with another first
   * namespace, or in the other compat mode, is refused.
   */
  constructor(
    readonly path: string,
    durability: Durability,
    canonicalNamespace: string,
    keyForm: KeyForm = 'canonical',
  ) {
    if (path !== ':memory:') prepareDatabaseFile(path);
    try {
      this.db = new Database(path);
    } catch (e) {
      throw cannotOpen(path, e);
    }
    // Every step keeps the stored rows: the tables are created only when missing, and the search
    // index (derived from the rows) is built in one transaction, so a failure leaves the file as it was.
    try {
      if (path !== ':memory:') {
        this.db.pragma('journal_mode = WAL');
        // Reads through a memory map: SQLite reads a value's overflow pages (any aspect over ~1 KB,
        // a schema) straight from the file, past its page cache, one pread each; mapped, they are
        // copied from memory. The price, as SQLite documents it: an I/O error while reading the
        // mapped file (a network or removable disk) stops the process with SIGBUS instead of an
        // error, and mapped pages count in its RSS. CATALOG_LENS_MMAP=0 turns it off.
        if (process.env.CATALOG_LENS_MMAP !== '0') this.db.pragma(`mmap_size = ${MMAP_BYTES}`);
      }
      this.db.pragma(`synchronous = ${durability === 'full' ? 'FULL' : 'NORMAL'}`);
      this.db.pragma('busy_timeout = 5000');
      this.db.exec(DDL);
      this.checkMeta(canonicalNamespace, keyForm);
      this.selectOne = this.db.prepare('SELECT * FROM aspects WHERE urn = ? AND aspect = ?');
      this.selectAll = this.db.prepare('SELECT * FROM aspects WHERE urn = ? ORDER BY aspect');
      this.selectAny = this.db.prepare('SELECT 1 AS one FROM aspects WHERE urn = ? LIMIT 1');
      this.selectHas = this.db.prepare('SELECT 1 AS one FROM aspects WHERE urn = ? AND aspect = ?');
      this.selectValues = this.db.prepare('SELECT aspect, value FROM aspects WHERE urn = ?');
      this.upsert = this.db.prepare(UPSERT);
      this.runNested = this.db.transaction((fn: () => unknown) => fn());
      this.runOutermost = this.db.transaction((fn: () => unknown) => {
        const result = fn();
        this.search.flush();
        return result;
      });
      // Changes when another connection commits to the file (SQLite's data_version).
      this.dataVersion = this.db.prepare<[], number>('PRAGMA data_version').pluck();
      this.search = new SearchIndex(
        this.db,
        keyForm === 'canonical' ? 'spec' : 'datahub',
        (key) => this.valuesOnDemand(key),
        () =>
          this.db
            .prepare<[], { key: string; type: CatalogKind }>(
              'SELECT DISTINCT urn AS key, entity_type AS type FROM aspects',
            )
            .all(),
        (key) => this.getAllRaw(key),
      );
    } catch (e) {
      this.db.close();
      throw e instanceof DatabaseFileError ? e : cannotOpen(path, e);
    }
  }

  private checkMeta(canonicalNamespace: string, keyForm: KeyForm): void {
    const get = this.db.prepare<[string], { value: string }>('SELECT value FROM catalog_meta WHERE key = ?');
    const put = this.db.prepare('INSERT OR REPLACE INTO catalog_meta (key, value) VALUES (?, ?)');
    const schema = get.get('schema_version')?.value;
    if (schema !== undefined && schema !== SCHEMA_VERSION) {
      throw new DatabaseFileError(
        `${this.path}: database schema version ${schema} is not the one this catalog reads (${SCHEMA_VERSION}); ` +
          'another version of Catalog Lens wrote it: start that version on it, or start this one with another --db file',
      );
    }
    const ns = get.get('canonical_namespace')?.value;
    if (ns !== undefined && ns !== canonicalNamespace) {
      throw new DatabaseFileError(
        `${this.path}: this database stores URNs in namespace '${ns}', but the catalog was started with '${canonicalNamespace}' ` +
          `as its first namespace; start it with --namespaces ${ns},… or use another --db file`,
      );
    }
    // Files written before the DataHub mode existed hold canonical keys.
    const form = get.get('key_form')?.value ?? (schema === undefined ? undefined : 'canonical');
    if (form !== undefined && form !== keyForm) {
      const mode = (f: string): string =>
        f === 'canonical'
          ? 'the spec mode (URNs of every namespace word are one entity)'
          : 'the DataHub mode (--compat datahub: each URN as written)';
      throw new DatabaseFileError(
        `${this.path}: this database was written in ${mode(form)}, but the catalog was started in ${mode(keyForm)}; ` +
          'its keys would not match: start it in the same mode or use another --db file',
      );
    }
    put.run('schema_version', SCHEMA_VERSION);
    put.run('canonical_namespace', canonicalNamespace);
    put.run('key_form', keyForm);
  }

  /**
   * A number that changes whenever what a read sees may have changed: a write through this store
   * (`put`, counted even if its transaction is rolled back), or a commit by another connection to
   * the file (SQLite's `data_version`). Equal answers mean nothing was written in between.
   */
  generation(): number {
    const version = this.dataVersion.get() as number;
    if (version !== this.generationDataVersion) {
      this.generationDataVersion = version;
      this.generationCount++;
    }
    return this.generationCount;
  }

  get(urn: string, aspect: AspectName): StoredAspect | undefined {
    const row = this.selectOne.get(urn, aspect);
    return row ? (fromRow(row) as StoredAspect) : undefined;
  }

  /**
   * Every aspect the catalog reads (model/src/aspects.ts) stored for one entity, by aspect name.
   * Outside a transaction the answer comes from a cache of the last entities read (frozen values;
   * `put` drops the entity, a commit by another connection to the file drops them all).
   */
  getAll(urn: string): Map<AspectName, StoredAspect> {
    if (this.db.inTransaction) return this.readAll(urn);
    this.checkCaches();
    let m = this.cache.get(urn);
    if (!m) {
      m = this.readAll(urn);
      for (const a of m.values()) deepFreeze(a);
      if (this.cache.size >= CACHED_ENTITIES) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(urn, m);
    }
    return new Map(m);
  }

  /** Empties the caches of reads (`cache`, `aspectCache`) when another connection committed since they were filled. */
  private checkCaches(): void {
    const version = this.dataVersion.get() as number;
    if (version !== this.cachedVersion) {
      this.cache.clear();
      this.aspectCache.clear();
      this.cachedVersion = version;
    }
  }

  /**
   * What `getAll` would answer from its cache for each of these keys that it holds (none in a
   * transaction, or after another connection's commit): entities read whole recently cost a copy
   * of a map, less than reading any of their aspects again.
   */
  cachedAll(keys: readonly string[]): Map<string, Map<AspectName, StoredAspect>> {
    const out = new Map<string, Map<AspectName, StoredAspect>>();
    if (this.db.inTransaction || this.cache.size === 0) return out;
    if ((this.dataVersion.get() as number) !== this.cachedVersion) return out;
    for (const key of keys) {
      const m = this.cache.get(key);
      if (m) out.set(key, new Map(m));
    }
    return out;
  }

  private readAll(urn: string): Map<AspectName, StoredAspect> {
    const m = new Map<AspectName, StoredAspect>();
    for (const r of this.selectAll.all(urn)) if (isAspectName(r.aspect)) m.set(r.aspect, fromRow(r) as StoredAspect);
    return m;
  }

  /**
   * The catalog's aspects stored for one entity (as `getAll` has them) with only their values,
   * each parsed when first read: a search row reads two descriptions and the presence of the
   * existence aspects, not the schema, which `getAll` would parse at every write to the entity.
   */
  private valuesOnDemand(urn: string): Map<AspectName, { readonly value: Record<string, unknown> }> {
    const m = new Map<AspectName, { readonly value: Record<string, unknown> }>();
    for (const r of this.selectValues.all(urn)) if (isAspectName(r.aspect)) m.set(r.aspect, lazyValue(r.value));
    return m;
  }

  /** One stored aspect of any name. */
  getRaw(urn: string, aspect: string): RawStoredAspect | undefined {
    const row = this.selectOne.get(urn, aspect);
    return row ? fromRow(row) : undefined;
  }

  /** Every aspect stored for one entity, whatever its name, by aspect name. */
  getAllRaw(urn: string): Map<string, RawStoredAspect> {
    return new Map(this.selectAll.all(urn).map((r) => [r.aspect, fromRow(r)]));
  }

  /**
   * One aspect's values of several entities, by key (an entity without it is absent), read in one
   * statement and parsed: what a search page's nodes read of each entity (ReadContext.readTogether),
   * instead of every aspect of each with its system metadata (`getAll`). A stored value that does
   * not parse (another connection may write any text) fails its key alone: the key goes into
   * `unreadable` (when given; without it the first such error is thrown), absent from the answer
   * and not cached, and the other keys are answered and cached.
   */
  aspectOf(
    aspect: AspectName,
    keys: readonly string[],
    unreadable?: Set<string>,
  ): Map<string, Record<string, unknown>> {
    const out = new Map<string, Record<string, unknown>>();
    // Outside a transaction, values read before (and entities found without the aspect) come from
    // a cache kept like getAll's: `put` drops the entity, another connection's commit drops all.
    let cached: Map<string, Record<string, unknown> | null> | undefined;
    let missing: readonly string[] = keys;
    if (!this.db.inTransaction) {
      this.checkCaches();
      cached = this.aspectCache.get(aspect);
      if (!cached) this.aspectCache.set(aspect, (cached = new Map()));
      const left: string[] = [];
      for (const key of keys) {
        const v = cached.get(key);
        if (v === undefined) left.push(key);
        else if (v !== null) out.set(key, v);
      }
      missing = left;
    }
    for (let at = 0; at < missing.length; at += MAX_KEYS_PER_READ) {
      const n = Math.min(MAX_KEYS_PER_READ, missing.length - at);
      // Statements for 8, 16, 32 … keys, the places left over given NULL (which `IN` never matches).
      let size = 8;
      while (size < n) size *= 2;
      let st = this.selectAspectOf.get(size);
      if (!st) {
        st = this.db.prepare<Array<string | null>, { urn: string; value: string }>(
          `SELECT urn, value FROM aspects WHERE aspect = ? AND urn IN (${Array.from({ length: size }, () => '?').join(',')})`,
        );
        this.selectAspectOf.set(size, st);
      }
      const params: Array<string | null> = [aspect];
      for (let i = 0; i < size; i++) params.push(i < n ? missing[at + i]! : null);
      for (const r of st.all(...params)) {
        let v: Record<string, unknown>;
        try {
          v = JSON.parse(r.value) as Record<string, unknown>;
        } catch (e) {
          if (!unreadable) throw e;
          unreadable.add(r.urn);
          continue;
        }
        out.set(r.urn, v);
      }
    }
    if (cached)
      for (const key of missing) {
        if (unreadable?.has(key)) continue;
        const v = out.get(key);
        if (v) deepFreeze(v);
        if (cached.size >= CACHED_ENTITIES) cached.delete(cached.keys().next().value as string);
        cached.set(key, v ?? null);
      }
    return out;
  }

  /** aspectOf's values read outside transactions, by aspect, then key (null: not stored); frozen, valid while `cachedVersion` is. */
  private readonly aspectCache = new Map<AspectName, Map<string, Record<string, unknown> | null>>();

  /** aspectOf's statements by the number of keys they take. */
  private readonly selectAspectOf = new Map<
    number,
    Database.Statement<Array<string | null>, { urn: string; value: string }>
  >();

  /** Every stored value of one aspect of any name, with its entity's key, in key order (relationships read backwards). */
  valuesOfAspect(aspect: string): Array<{ urn: string; value: unknown }> {
    this.selectByAspect ??= this.db.prepare<[string], { urn: string; value: string }>(
      'SELECT urn, value FROM aspects WHERE aspect = ? ORDER BY urn',
    );
    return this.selectByAspect.all(aspect).map((r) => ({ urn: r.urn, value: JSON.parse(r.value) as unknown }));
  }

  /** Whether this aspect is stored for this key (`get` without reading and parsing the row). */
  has(urn: string, aspect: string): boolean {
    return this.selectHas.get(urn, aspect) !== undefined;
  }

  /** Whether any aspect is stored for this key (DataHub's `exists`: its key aspect is written with the first aspect). */
  hasAny(urn: string): boolean {
    return this.selectAny.get(urn) !== undefined;
  }

  put(a: RawStoredAspect): void {
    this.cache.delete(a.urn);
    for (const values of this.aspectCache.values()) values.delete(a.urn);
    this.generationCount++;
    this.upsert.run({
      urn: a.urn,
      aspect: a.aspect,
      entity_type: a.entityType,
      value: JSON.stringify(a.value),
      version: a.version,
      created_time: a.created.time,
      created_actor: a.created.actor,
      modified_time: a.lastModified.time,
      modified_actor: a.lastModified.actor,
      system_metadata: JSON.stringify(a.systemMetadata),
    });
    // Inside a transaction the entity's search row is made again once, at its end (a group commit of
    // many writes to one entity indexes it once), still before the commit: the search never sees
    // half of a write. Outside one (autocommit), now.
    if (this.db.inTransaction) this.search.touched(a.urn, a.entityType, a.aspect);
    else {
      this.search.touched(a.urn, a.entityType, a.aspect);
      this.search.flush();
    }
  }

  /**
   * Runs `fn` in one IMMEDIATE transaction: reads and writes inside see no other writer, so a
   * check (version, existence) and the write it guards are atomic. A throw rolls everything back.
   * Nested calls are savepoints; the outermost one brings the search rows of the entities written
   * inside up to date before it commits.
   */
  transaction<T>(fn: () => T): T {
    if (this.db.inTransaction) return this.runNested.immediate(fn) as T;
    try {
      return this.runOutermost.immediate(fn) as T;
    } catch (e) {
      // Rolled back: the writes the pending rows stood for are gone.
      this.search.discardPending();
      throw e;
    }
  }

  /**
   * Stored aspects in URN order (only those named in `only`, when given), with their last change,
   * and their value only for the aspects named in `withValue`: the read-only pages list names and
   * descriptions without parsing every schema.
   */
  listAspects(
    withValue: readonly AspectName[],
    only?: readonly AspectName[],
  ): Array<{
    urn: string;
    entityType: CatalogKind;
    aspect: AspectName;
    value: Record<string, unknown> | undefined;
    lastModified: AuditStamp;
  }> {
    // Names are checked against ASPECT_NAMES before they are written into the SQL.
    const list = (names: readonly AspectName[]): string =>
      names
        .filter((n) => isAspectName(n))
        .map((n) => `'${n}'`)
        .join(', ') || 'NULL';
    const sql =
      `SELECT urn, entity_type, aspect, modified_time, modified_actor, ` +
      `CASE WHEN aspect IN (${list(withValue)}) THEN value END AS value FROM aspects ` +
      `${only ? `WHERE aspect IN (${list(only)}) ` : ''}ORDER BY urn, aspect`;
    let statement = this.listings.get(sql);
    if (!statement) this.listings.set(sql, (statement = this.db.prepare<[], ListedAspect>(sql)));
    return statement.all().map((r) => ({
      urn: r.urn,
      entityType: r.entity_type as CatalogKind,
      aspect: r.aspect as AspectName,
      value: r.value === null ? undefined : (JSON.parse(r.value) as Record<string, unknown>),
      lastModified: { time: r.modified_time, actor: r.modified_actor },
    }));
  }

  /** The keys stored for these entity types, each once with its type, in key order. */
  listKeys(types: readonly string[]): Array<{ urn: string; entityType: string }> {
    if (types.length === 0) return [];
    return this.db
      .prepare<string[], { urn: string; entityType: string }>(
        `SELECT DISTINCT urn, entity_type AS entityType FROM aspects WHERE entity_type IN (${types.map(() => '?').join(', ')}) ORDER BY urn`,
      )
      .all(...types);
  }

  count(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM aspects').get() as { n: number }).n;
  }

  close(): void {
    this.cache.clear();
    this.aspectCache.clear();
    if (this.db.open) this.db.close();
  }
}

/** Keys per statement of `aspectOf` (a search page holds at most 1,000; SQLite takes 32,766 parameters). */
const MAX_KEYS_PER_READ = 1024;

/** How many entities getAll keeps. */
const CACHED_ENTITIES = 1000;

/**
 * Freezes a value and every object and array in it. The values are JSON.parse's plain objects, so
 * `for … in` meets their own keys only (and makes no array of them, as Object.keys would).
 */
function deepFreeze(v: unknown): void {
  if (v === null || typeof v !== 'object' || Object.isFrozen(v)) return;
  Object.freeze(v);
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (x !== null && typeof x === 'object') deepFreeze(x);
    }
    return;
  }
  const o = v as Record<string, unknown>;
  for (const k in o) {
    const x = o[k];
    if (x !== null && typeof x === 'object') deepFreeze(x);
  }
}

function lazyValue(text: string): { readonly value: Record<string, unknown> } {
  let parsed: Record<string, unknown> | undefined;
  return {
    get value() {
      return (parsed ??= JSON.parse(text) as Record<string, unknown>);
    },
  };
}

function fromRow(r: AspectRow): RawStoredAspect {
  return {
    urn: r.urn,
    aspect: r.aspect,
    entityType: r.entity_type,
    value: JSON.parse(r.value) as Record<string, unknown>,
    version: r.version,
    created: { time: r.created_time, actor: r.created_actor },
    lastModified: { time: r.modified_time, actor: r.modified_actor },
    systemMetadata: JSON.parse(r.system_metadata) as Record<string, unknown>,
  };
}
