/**
 * The catalog client: resolves URNs through GraphQL (batched, cached, single flight) and reads
 * and writes aspects through DataHub's Rest.li paths. One instance per catalog endpoint.
 *
 * It owns the caches and the connection's outcome (what the status shows) and composes the two
 * ways to the catalog: graphqlReads.ts (batches, decoding, cost refusal, single documents) and
 * aspectPath.ts (the Rest.li base, aspect reads and writes). The named reads (namedReads.ts)
 * answer decoded results, so no caller builds or decodes GraphQL aliases.
 */
import type { LookupKind } from '../../../model/src/kinds';
import type { GqlDeprecation } from '../../../model/src/readShapes';
import { AspectPath, type AspectEnvelope, type AspectWrite } from './aspectPath';
import { LruTtlCache, raceCancel, SingleFlight } from './cache';
import { compact, CompactDataset, expand } from './compact';
import { catalogClientError, isConnectionError, type CatalogClientError } from './errors';
import { GraphqlReads, type ContextAnswer, type GraphqlAnswer, type Resolution } from './graphqlReads';
import { CatalogHttp, type Fetch } from './http';
import { readDeprecationDetails, readLinks, type DatasetLink } from './namedReads';

export type { AspectEnvelope, AspectWrite } from './aspectPath';
export { asciiJson } from './aspectPath';
export type { ContextAnswer, Resolution, ResolutionLookup } from './graphqlReads';
export type { DatasetLink } from './namedReads';

export interface CatalogConfig {
  url: string;
  graphqlUrl: string;
  token: string | undefined;
  timeoutMs: number;
  /** Most URNs per GraphQL document: an upper bound, the complexity budget decides below it. */
  batchSize: number;
  /** Most complexity per GraphQL document as graphql-java counts it (DataHub refuses over 2000). */
  complexityBudget: number;
  cacheEntries: number;
  cacheTtlMs: number;
  fetch?: Fetch;
  /** See HttpOptions.allowToken. */
  allowToken?: (url: string) => Promise<true | string>;
}

export interface ClientStats {
  graphqlRequests: number;
  aspectReads: number;
  aspectWrites: number;
}

const NOT_CONFIGURED = 'no catalog is configured (catalogLens.url is empty)';

export class CatalogClient {
  readonly graphqlEndpoint: string;
  readonly gmsUrl: string;
  readonly configured: boolean;
  private readonly http: CatalogHttp;
  private readonly graphql: GraphqlReads;
  private readonly aspects: AspectPath;
  /** Resolutions by URN: as parsed, or found datasets in their compact form after compactCache. */
  private readonly cache: LruTtlCache<Resolution | CompactDataset>;
  private readonly flights = new SingleFlight<Resolution>();
  /**
   * Answers of single-entity reads other than the resolve (what else the catalog knows of an
   * entity: context.ts), by URN and read, kept and dropped with the resolutions.
   */
  readonly reads: LruTtlCache<unknown>;
  /** Answers of searches (search.ts), kept for seconds: completion asks again at every keystroke. */
  readonly searches = new LruTtlCache<unknown>(200, 30_000);
  private connectionListener: ((error: CatalogClientError | undefined) => void) | undefined;
  private noticeListener: ((notice: string) => void) | undefined;

  constructor(readonly config: CatalogConfig) {
    this.gmsUrl = config.url.replace(/\/+$/, '');
    this.graphqlEndpoint = config.graphqlUrl || (this.gmsUrl ? `${this.gmsUrl}/api/graphql` : '');
    this.configured = this.graphqlEndpoint !== '';
    this.cache = new LruTtlCache(config.cacheEntries, config.cacheTtlMs);
    this.reads = new LruTtlCache(config.cacheEntries, config.cacheTtlMs);
    this.http = new CatalogHttp({
      token: config.token,
      timeoutMs: config.timeoutMs,
      ...(config.fetch ? { fetch: config.fetch } : {}),
      ...(config.allowToken ? { allowToken: config.allowToken } : {}),
      onOutcome: (_endpoint, error) => {
        if (error === undefined) this.connectionListener?.(undefined);
        else if (isConnectionError(error)) this.connectionListener?.(error);
      },
    });
    this.graphql = new GraphqlReads(this.http, {
      endpoint: this.graphqlEndpoint,
      batchSize: config.batchSize,
      complexityBudget: config.complexityBudget,
      // Keyed by the entity's own URN string when it is the same URN: the one asked may be a slice
      // of a longer string, which a key would keep. Kept as parsed until compactCache.
      remember: (urn, r) => this.cache.set(r.state === 'found' && r.entity.urn === urn ? r.entity.urn : urn, r),
    });
    this.aspects = new AspectPath(this.http, this.gmsUrl, {
      connectionError: (error) => this.connectionListener?.(error),
      notice: (notice) => this.noticeListener?.(notice),
    });
  }

  /** Requests sent so far, by kind. */
  get stats(): ClientStats {
    return {
      graphqlRequests: this.graphql.requests,
      aspectReads: this.aspects.reads,
      aspectWrites: this.aspects.writes,
    };
  }

  /** Called after every request: undefined when the catalog answered, else the connection error. */
  onConnection(listener: (error: CatalogClientError | undefined) => void): void {
    this.connectionListener = listener;
  }

  /** Told once when the Rest.li base differs from the setting (a frontend root was corrected). */
  onNotice(listener: (notice: string) => void): void {
    this.noticeListener = listener;
  }

  configure(cacheEntries: number, cacheTtlMs: number): void {
    this.cache.configure(cacheEntries, cacheTtlMs);
    this.reads.configure(cacheEntries, cacheTtlMs);
  }

  /** A resolution already known (cached and fresh), without any request. */
  cached(urn: string): Resolution | undefined {
    const kept = this.cache.get(urn);
    return kept && this.made(urn, kept);
  }

  /**
   * The resolution a cache entry stands for; one kept compact is made again and put back in its
   * place, so that reads during a burst make it once and share it (the next compactCache turns it
   * compact again).
   */
  private made(urn: string, kept: Resolution | CompactDataset): Resolution {
    if (!(kept instanceof CompactDataset)) return kept;
    const made = expand(kept);
    this.cache.swap(urn, made);
    return made;
  }

  /**
   * Resolves every URN, making ceil(n / batchSize) requests at most for those neither cached nor
   * already being fetched. Errors are per URN values; a cancelled caller stops waiting, while a
   * request already sent completes and fills the cache for the next caller.
   */
  async resolve(
    items: ReadonlyArray<{ urn: string; kind: LookupKind }>,
    signal?: AbortSignal,
  ): Promise<Map<string, Resolution>> {
    const out = new Map<string, Resolution>();
    const waits: Array<Promise<void>> = [];
    const toFetch = new Set<string>();
    const all: Array<{ urn: string; kind: LookupKind }> = [];
    for (const { urn, kind } of items) {
      if (out.has(urn) || toFetch.has(urn)) continue;
      const hit = this.cache.get(urn);
      if (hit) {
        out.set(urn, this.made(urn, hit));
        continue;
      }
      const flying = this.flights.get(urn);
      if (flying) {
        waits.push(
          flying.then((r) => {
            out.set(urn, r);
          }),
        );
        continue;
      }
      toFetch.add(urn);
      all.push({ urn, kind });
    }
    if (toFetch.size > 0) {
      if (!this.configured) {
        const e = catalogClientError('notConfigured', NOT_CONFIGURED);
        for (const urn of toFetch) out.set(urn, { state: 'error', error: e });
      } else {
        const run = this.graphql.resolveBatches(all);
        this.flights.track(
          all.map((x) => x.urn),
          run,
          (urn) => run.then((m) => m.get(urn)!),
        );
        waits.push(
          run.then((m) => {
            for (const [k, v] of m) out.set(k, v);
          }),
        );
      }
    }
    // Every answer cached: nothing to wait for, so no listener on the signal.
    if (waits.length > 0) await raceCancel(Promise.all(waits), signal);
    return out;
  }

  /**
   * Resolves `item` and reads what else the catalog knows of it in one document (a cold hover's
   * one request), when the URN is neither cached nor being resolved: `resolve` then waits on that
   * document like on any batch. Answers the context's part, or undefined when the catalog refused
   * the document as a whole (the URN was resolved alone; the context is the caller's to ask).
   * Undefined at once when no such document goes: no catalog configured, the URN already known or
   * asked, or the catalog refused one before.
   */
  resolveWithContext(item: { urn: string; kind: LookupKind }): Promise<ContextAnswer | undefined> | undefined {
    if (!this.configured || !this.graphql.combinesContext) return undefined;
    if (this.cache.get(item.urn) !== undefined || this.flights.get(item.urn) !== undefined) return undefined;
    const run = this.graphql.resolveWithContext(item);
    const resolved = run.then((r) => r.resolved);
    this.flights.track([item.urn], resolved, (urn) => resolved.then((m) => m.get(urn)!));
    return run.then((r) => r.context);
  }

  /** Drops what a write changed, so the next read asks the catalog. */
  invalidate(urns: Iterable<string>): void {
    for (const u of urns) {
      this.cache.delete(u);
      this.reads.delete(u);
    }
    // A write can change what any search finds (a description, a new entity).
    this.searches.clear();
  }

  clearCache(): void {
    this.cache.clear();
    this.reads.clear();
    this.searches.clear();
  }

  /**
   * Turns the resolutions kept as parsed into their compact form (compact.ts), once a burst of work
   * has ended: while it goes on, the same answers are also held by the work itself (a Check
   * Workspace keeps every answer until it ends), and a second form would only add to its peak.
   */
  compactCache(): void {
    this.cache.replaceValues(compact);
  }

  /**
   * How many fresh answers were replaced or dropped so far (a write's invalidation, an eviction, a
   * clear): what Check Workspace compares before it trusts the diagnostics it made from them.
   */
  get answersReplaced(): number {
    return this.cache.replaced;
  }

  /** When the answer kept for `urn` expires (milliseconds since 1970), or undefined when none is kept. */
  answerExpires(urn: string): number | undefined {
    return this.cache.expiresAt(urn);
  }

  get cacheSize(): number {
    return this.cache.size;
  }

  /**
   * A connection test: any GraphQL answer proves the endpoint and the token. With a GMS address, it
   * also finds where the Rest.li paths live (a frontend root is corrected or explained).
   */
  async ping(signal?: AbortSignal): Promise<CatalogClientError | undefined> {
    if (!this.configured) return catalogClientError('notConfigured', NOT_CONFIGURED);
    const error = await this.graphql.ping(signal);
    if (error) return error;
    if (this.gmsUrl) return (await this.aspects.rest(signal)).error;
    return undefined;
  }

  /** Sends a GraphQL mutation (the GraphQL write path). Never retried. */
  mutate(query: string, variables: Record<string, unknown>, signal?: AbortSignal): Promise<GraphqlAnswer> {
    return this.send(query, variables, false, signal);
  }

  /** Sends a GraphQL read of its own (not a resolve batch): retried like the resolve on connection errors. */
  read(query: string, variables: Record<string, unknown>, signal?: AbortSignal): Promise<GraphqlAnswer> {
    return this.send(query, variables, true, signal);
  }

  private send(
    query: string,
    variables: Record<string, unknown>,
    retry: boolean,
    signal?: AbortSignal,
  ): Promise<GraphqlAnswer> {
    if (!this.configured)
      return Promise.resolve({ ok: false, error: catalogClientError('notConfigured', NOT_CONFIGURED) });
    return this.graphql.send(query, variables, retry, signal);
  }

  /**
   * The note, date and replacement of deprecated entities (the resolve batches carry only the
   * flag), by URN, in documents of their own; see namedReads.ts.
   */
  readDeprecationDetails(
    items: ReadonlyArray<{ urn: string; kind: LookupKind }>,
    signal?: AbortSignal,
  ): Promise<Map<string, GqlDeprecation>> {
    return readDeprecationDetails((q, v, s) => this.read(q, v, s), items, signal);
  }

  /**
   * A dataset's links (undefined: not in the catalog), read just before a link is added. Sent
   * like the mutation it precedes: not retried.
   */
  readLinks(
    urn: string,
    signal?: AbortSignal,
  ): Promise<{ ok: true; links: DatasetLink[] | undefined } | { ok: false; error: CatalogClientError }> {
    return readLinks((q, v, s) => this.mutate(q, v, s), urn, signal);
  }

  /** See AspectPath.readAspects. */
  readAspects(
    urn: string,
    names: readonly string[],
    signal?: AbortSignal,
  ): Promise<{ ok: true; aspects: Record<string, AspectEnvelope> } | { ok: false; error: CatalogClientError }> {
    return this.aspects.readAspects(urn, names, signal);
  }

  /** See AspectPath.writeAspect. */
  writeAspect(p: AspectWrite, signal?: AbortSignal): Promise<{ ok: true } | { ok: false; error: CatalogClientError }> {
    return this.aspects.writeAspect(p, signal);
  }
}
