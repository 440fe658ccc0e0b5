/**
 * The catalog client: resolves URNs through GraphQL (batched, cached, single flight) and reads
 * and writes aspects through DataHub's Rest.li paths. One instance per catalog endpoint.
 */
import { isRecord } from '../../../model/src/json';
import type { GqlShapes } from '../../../model/src/readShapes';
import { encodeUrnForPath } from '../../../model/src/urn';
import { LruTtlCache, SingleFlight } from './cache';
import { catalogClientError, displayUrl, isConnectionError, quoteCatalogText, type CatalogClientError } from './errors';
import { CatalogHttp, type Fetch } from './http';
import { refusedForCost } from './cost';
import { batchQuery, PING, planBatches, type ResolvableKind } from './queries';
import { discoverRestBase, type RestBase } from './restBase';

export type Resolution =
  | {
      [K in ResolvableKind]: {
        state: 'found';
        kind: K;
        entity: GqlShapes[K];
        /**
         * The sibling (DataHub's `siblings`: a dbt model and its warehouse table) whose description
         * or columns filled the entity's own empty ones (pipeline/check.ts), as DataHub's UI merges them.
         */
        sibling?: string;
      };
    }[ResolvableKind]
  | { state: 'missing' }
  | { state: 'error'; error: CatalogClientError };

/** What the catalog answered about a URN, as far as it is known; undefined when not asked (or not yet). */
export type ResolutionLookup = (urn: string) => Resolution | undefined;

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

export interface AspectEnvelope<T = unknown> {
  value: T;
  version: string;
}

export interface AspectWrite {
  entityType: string;
  urn: string;
  aspectName: string;
  value: unknown;
  /** DataHub's If-Version-Match: the version read, "-1" = only if absent. */
  ifVersion?: string;
  /**
   * `systemMetadata.runId`: one per user command, so `datahub ingest rollback --run-id` undoes one
   * edit, not every edit ever made through the extension.
   */
  runId: string;
}

const MAX_PARALLEL_BATCHES = 4;

/** DataHub's Rest.li reads `List(a,b)` only under protocol 2.0; without this header it assumes 1.0. */
const RESTLI_2 = { 'X-RestLi-Protocol-Version': '2.0.0' } as const;

export class CatalogClient {
  readonly graphqlEndpoint: string;
  readonly gmsUrl: string;
  readonly configured: boolean;
  readonly stats: ClientStats = { graphqlRequests: 0, aspectReads: 0, aspectWrites: 0 };
  private readonly http: CatalogHttp;
  private readonly cache: LruTtlCache<Resolution>;
  private readonly flights = new SingleFlight<Resolution>();
  /**
   * Answers of single-entity reads other than the resolve (what else the catalog knows of an
   * entity: context.ts), by URN and read, kept and dropped with the resolutions.
   */
  readonly reads: LruTtlCache<unknown>;
  /** Answers of searches (search.ts), kept for seconds: completion asks again at every keystroke. */
  readonly searches = new LruTtlCache<unknown>(200, 30_000);
  private connectionListener: ((error: CatalogClientError | undefined) => void) | undefined;
  /** The budget in force: the setting, lowered to a limit the catalog named when it refused a document. */
  private complexityBudget: number;
  private restBase: Promise<RestBase> | undefined;
  private noticeListener: ((notice: string) => void) | undefined;

  constructor(readonly config: CatalogConfig) {
    this.gmsUrl = config.url.replace(/\/+$/, '');
    this.graphqlEndpoint = config.graphqlUrl || (this.gmsUrl ? `${this.gmsUrl}/api/graphql` : '');
    this.configured = this.graphqlEndpoint !== '';
    this.complexityBudget = config.complexityBudget;
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
  }

  /** Called after every request: undefined when the catalog answered, else the connection error. */
  onConnection(listener: (error: CatalogClientError | undefined) => void): void {
    this.connectionListener = listener;
  }

  configure(cacheEntries: number, cacheTtlMs: number): void {
    this.cache.configure(cacheEntries, cacheTtlMs);
    this.reads.configure(cacheEntries, cacheTtlMs);
  }

  /** A resolution already known (cached and fresh), without any request. */
  cached(urn: string): Resolution | undefined {
    return this.cache.get(urn);
  }

  /**
   * Resolves every URN, making ceil(n / batchSize) requests at most for those neither cached nor
   * already being fetched. Errors are per URN values; a cancelled caller stops waiting, while a
   * request already sent completes and fills the cache for the next caller.
   */
  async resolve(
    items: ReadonlyArray<{ urn: string; kind: ResolvableKind }>,
    signal?: AbortSignal,
  ): Promise<Map<string, Resolution>> {
    const out = new Map<string, Resolution>();
    const waits: Array<Promise<void>> = [];
    const toFetch = new Map<string, ResolvableKind>();
    for (const { urn, kind } of items) {
      if (out.has(urn) || toFetch.has(urn)) continue;
      const hit = this.cache.get(urn);
      if (hit) {
        out.set(urn, hit);
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
      toFetch.set(urn, kind);
    }
    if (toFetch.size > 0) {
      if (!this.configured) {
        const e = catalogClientError('notConfigured', 'no catalog is configured (catalogLens.url is empty)');
        for (const urn of toFetch.keys()) out.set(urn, { state: 'error', error: e });
      } else {
        const all = [...toFetch].map(([urn, kind]) => ({ urn, kind }));
        const run = this.runChunks(this.plan(all));
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
    await raceCancel(Promise.all(waits), signal);
    return out;
  }

  private plan<T extends { kind: ResolvableKind }>(items: readonly T[]): T[][] {
    return planBatches(items, { maxItems: this.config.batchSize, complexity: this.complexityBudget });
  }

  private async runChunks(
    chunks: Array<Array<{ urn: string; kind: ResolvableKind }>>,
  ): Promise<Map<string, Resolution>> {
    const out = new Map<string, Resolution>();
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < chunks.length) {
        const chunk = chunks[next++]!;
        for (const [urn, r] of await this.fetchChunk(chunk)) out.set(urn, r);
      }
    };
    await Promise.all(Array.from({ length: Math.min(MAX_PARALLEL_BATCHES, chunks.length) }, worker));
    return out;
  }

  private async fetchChunk(chunk: Array<{ urn: string; kind: ResolvableKind }>): Promise<Map<string, Resolution>> {
    const { query, variables, aliases } = batchQuery(chunk);
    this.stats.graphqlRequests++;
    const r = await this.http.call(this.graphqlEndpoint, {
      method: 'POST',
      body: { query, variables },
      retry: true,
      notFoundMeansWrongAddress: true,
    });
    const out = new Map<string, Resolution>();
    if (!r.ok) {
      for (const { urn } of chunk) out.set(urn, { state: 'error', error: r.error });
      return out;
    }
    const { data, errors } = graphqlParts(r.body);
    const errorsByAlias = new Map<string, string>();
    let generalError: string | undefined;
    for (const e of errors as Array<GraphqlError | null | undefined>) {
      const alias = Array.isArray(e?.path) && typeof e.path[0] === 'string' ? e.path[0] : undefined;
      const message = typeof e?.message === 'string' ? e.message : 'unknown GraphQL error';
      if (alias && aliases.has(alias)) errorsByAlias.set(alias, message);
      else generalError ??= message;
    }
    if (!data && generalError !== undefined) {
      const tooCostly = refusedForCost(generalError);
      if (tooCostly) return this.afterCostRefusal(chunk, tooCostly);
    }
    if (!data && (generalError !== undefined || errorsByAlias.size === 0)) {
      const error = catalogClientError(
        'badResponse',
        generalError !== undefined
          ? `${displayUrl(this.graphqlEndpoint)} answered a GraphQL error: ${quoteCatalogText(generalError)}`
          : `${displayUrl(this.graphqlEndpoint)} answered without "data"`,
        displayUrl(this.graphqlEndpoint),
        r.status,
      );
      for (const { urn } of chunk) out.set(urn, { state: 'error', error });
      return out;
    }
    chunk.forEach(({ urn, kind }, i) => {
      const alias = `e${i}`;
      const res = this.resolutionOf(kind, data?.[alias], errorsByAlias.get(alias));
      if (res.state !== 'error') this.cache.set(urn, res);
      out.set(urn, res);
    });
    return out;
  }

  private resolutionOf(kind: ResolvableKind, entity: unknown, aliasError: string | undefined): Resolution {
    const endpoint = displayUrl(this.graphqlEndpoint);
    if (aliasError !== undefined && (entity === undefined || entity === null)) {
      return /not.?found|does not exist/i.test(aliasError)
        ? { state: 'missing' }
        : {
            state: 'error',
            error: catalogClientError('rejected', `${endpoint}: ${quoteCatalogText(aliasError)}`, endpoint),
          };
    }
    if (entity === null || entity === undefined) return { state: 'missing' };
    if (!isRecord(entity))
      return {
        state: 'error',
        error: catalogClientError('badResponse', `${endpoint} answered a ${typeof entity} for ${kind}`, endpoint),
      };
    // DataHub answers an object for a URN nobody wrote; only `exists` tells (EntityExistsResolver).
    if (entity['exists'] === false) return { state: 'missing' };
    return { state: 'found', kind, entity } as unknown as Resolution;
  }

  /**
   * The catalog refused a document as too complex or too deep (graphql-java's AbortExecutionException,
   * which DataHub answers with HTTP 200 and no data). The budget drops to the limit it named and
   * the chunk goes again in smaller documents; a single URN that still does not fit is an error for
   * that URN only. The connection is fine, so the status is not touched.
   */
  private async afterCostRefusal(
    chunk: Array<{ urn: string; kind: ResolvableKind }>,
    refused: NonNullable<ReturnType<typeof refusedForCost>>,
  ): Promise<Map<string, Resolution>> {
    // Depth does not add up over root fields: smaller documents would be refused the same way.
    if (refused.what === 'depth' || chunk.length === 1) {
      const endpoint = displayUrl(this.graphqlEndpoint);
      const error = catalogClientError(
        'rejected',
        `${endpoint} refused the query as too ${refused.what === 'depth' ? 'deep' : 'complex'} (${refused.cost} > ${refused.limit})${chunk.length === 1 ? ' even for one URN' : ''}`,
        endpoint,
      );
      return new Map(chunk.map(({ urn }) => [urn, { state: 'error', error }]));
    }
    this.complexityBudget = Math.min(this.complexityBudget, refused.limit);
    const smaller = this.plan(chunk);
    // A chunk the new budget does not split is halved: the limit named may count differently.
    const next =
      smaller.length > 1
        ? smaller
        : [chunk.slice(0, Math.ceil(chunk.length / 2)), chunk.slice(Math.ceil(chunk.length / 2))];
    const out = new Map<string, Resolution>();
    for (const part of next) for (const [urn, r] of await this.fetchChunk(part)) out.set(urn, r);
    return out;
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

  get cacheSize(): number {
    return this.cache.size;
  }

  /**
   * A connection test: any GraphQL answer proves the endpoint and the token. With a GMS address, it
   * also finds where the Rest.li paths live (a frontend root is corrected or explained).
   */
  async ping(signal?: AbortSignal): Promise<CatalogClientError | undefined> {
    if (!this.configured)
      return catalogClientError('notConfigured', 'no catalog is configured (catalogLens.url is empty)');
    this.stats.graphqlRequests++;
    const r = await this.http.call(this.graphqlEndpoint, {
      method: 'POST',
      body: { query: PING, variables: { u0: 'urn:li:dataset:(urn:li:dataPlatform:catalog-lens,ping,PROD)' } },
      notFoundMeansWrongAddress: true,
      ...(signal ? { signal } : {}),
    });
    if (!r.ok) return r.error;
    if (!isRecord(r.body) || !('data' in r.body)) {
      return catalogClientError(
        'badResponse',
        `${displayUrl(this.graphqlEndpoint)} does not answer like a GraphQL endpoint`,
        displayUrl(this.graphqlEndpoint),
      );
    }
    if (this.gmsUrl) return (await this.rest(signal)).error;
    return undefined;
  }

  /**
   * Where the Rest.li paths live, found once (`GET /config`) and kept; see restBase.ts. The search
   * runs without any caller's cancellation, so no caller goes ahead on an address nobody checked; one
   * that said nothing yet (unreachable) is an error for this call and is asked again next time.
   */
  private async rest(signal?: AbortSignal): Promise<RestBase> {
    if (!this.restBase) {
      const found = discoverRestBase(this.http, this.gmsUrl).then((b) => {
        if (!b.settled) {
          if (this.restBase === found) this.restBase = undefined;
        } else if (b.error) {
          this.connectionListener?.(b.error);
        } else if (b.notice) {
          this.noticeListener?.(b.notice);
        }
        return b;
      });
      this.restBase = found;
    }
    const b = await raceCancel(this.restBase, signal);
    if (!b)
      return {
        url: this.gmsUrl,
        settled: false,
        error: catalogClientError('cancelled', 'cancelled', displayUrl(this.gmsUrl)),
      };
    return b;
  }

  /** The Rest.li base the aspect reads and writes go to, or why there is none (no `url`, not found). */
  private async aspectBase(
    signal?: AbortSignal,
  ): Promise<{ url: string; error?: undefined } | { url?: undefined; error: CatalogClientError }> {
    if (!this.gmsUrl)
      return {
        error: catalogClientError(
          'notConfigured',
          'catalogLens.url is empty: the aspect path needs the catalog (GMS) address',
        ),
      };
    const base = await this.rest(signal);
    return base.error ? { error: base.error } : { url: base.url };
  }

  /** Told once when the Rest.li base differs from the setting (a frontend root was corrected). */
  onNotice(listener: (notice: string) => void): void {
    this.noticeListener = listener;
  }

  /** Sends a GraphQL mutation (the GraphQL write path). Never retried. */
  mutate(
    query: string,
    variables: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<{ ok: true; data: Record<string, unknown> } | { ok: false; error: CatalogClientError }> {
    return this.graphql(query, variables, false, signal);
  }

  /** Sends a GraphQL read of its own (not a resolve batch): retried like the resolve on connection errors. */
  read(
    query: string,
    variables: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<{ ok: true; data: Record<string, unknown> } | { ok: false; error: CatalogClientError }> {
    return this.graphql(query, variables, true, signal);
  }

  private async graphql(
    query: string,
    variables: Record<string, unknown>,
    retry: boolean,
    signal?: AbortSignal,
  ): Promise<{ ok: true; data: Record<string, unknown> } | { ok: false; error: CatalogClientError }> {
    if (!this.configured)
      return {
        ok: false,
        error: catalogClientError('notConfigured', 'no catalog is configured (catalogLens.url is empty)'),
      };
    this.stats.graphqlRequests++;
    const r = await this.http.call(this.graphqlEndpoint, {
      method: 'POST',
      body: { query, variables },
      retry,
      notFoundMeansWrongAddress: true,
      ...(signal ? { signal } : {}),
    });
    if (!r.ok) return r;
    const { data, errors } = graphqlParts(r.body);
    const endpoint = displayUrl(this.graphqlEndpoint);
    if (errors.length > 0) {
      const e = errors[0] as GraphqlError;
      const code = e.extensions?.code;
      const kind = code === 404 ? 'notFound' : code === 403 ? 'forbidden' : code === 409 ? 'conflict' : 'rejected';
      return {
        ok: false,
        error: catalogClientError(
          kind,
          `${endpoint}: ${quoteCatalogText(String(e.message ?? 'GraphQL error'))}`,
          endpoint,
        ),
      };
    }
    if (!data)
      return { ok: false, error: catalogClientError('badResponse', `${endpoint} answered without "data"`, endpoint) };
    return { ok: true, data };
  }

  /**
   * Reads aspects with their versions (`GET /entitiesV2`), for read-merge-write.
   * An aspect the entity does not have is absent from the result.
   */
  async readAspects(
    urn: string,
    names: readonly string[],
    signal?: AbortSignal,
  ): Promise<{ ok: true; aspects: Record<string, AspectEnvelope> } | { ok: false; error: CatalogClientError }> {
    const base = await this.aspectBase(signal);
    if (base.error) return { ok: false, error: base.error };
    let path: string;
    try {
      path = encodeUrnForPath(urn);
    } catch {
      return {
        ok: false,
        error: catalogClientError(
          'badInput',
          'the URN holds a lone surrogate (half of a UTF-16 pair) and cannot be put in a URL',
        ),
      };
    }
    this.stats.aspectReads++;
    const url = `${base.url}/entitiesV2/${path}?aspects=List(${names.join(',')})`;
    const r = await this.http.call<unknown>(url, {
      method: 'GET',
      headers: RESTLI_2,
      retry: true,
      accept: [404],
      ...(signal ? { signal } : {}),
    });
    if (!r.ok) return r;
    const aspects: Record<string, AspectEnvelope> = {};
    const map = isRecord(r.body) && isRecord(r.body['aspects']) ? r.body['aspects'] : {};
    for (const name of names) {
      const env = map[name];
      if (!isRecord(env)) continue;
      const sm = isRecord(env['systemMetadata']) ? env['systemMetadata'] : {};
      aspects[name] = {
        value: env['value'],
        version: typeof sm['version'] === 'string' ? sm['version'] : String(sm['version'] ?? '1'),
      };
    }
    return { ok: true, aspects };
  }

  /**
   * Writes one aspect (`POST /aspects?action=ingestProposal`, blocking). With `ifVersion`, the
   * catalog refuses the write when the aspect changed since it was read: a `conflict` error.
   */
  async writeAspect(
    p: AspectWrite,
    signal?: AbortSignal,
  ): Promise<{ ok: true } | { ok: false; error: CatalogClientError }> {
    const base = await this.aspectBase(signal);
    if (base.error) return { ok: false, error: base.error };
    this.stats.aspectWrites++;
    const proposal: Record<string, unknown> = {
      entityType: p.entityType,
      entityUrn: p.urn,
      changeType: 'UPSERT',
      aspectName: p.aspectName,
      // Pegasus bytes: every character of the string must be ≤ U+00FF, so non-ASCII is written as \uXXXX.
      aspect: { value: asciiJson(p.value), contentType: 'application/json' },
      systemMetadata: { lastObserved: Date.now(), runId: p.runId },
    };
    if (p.ifVersion !== undefined) proposal['headers'] = { 'If-Version-Match': p.ifVersion };
    const url = `${base.url}/aspects?action=ingestProposal`;
    const r = await this.http.call<unknown>(url, {
      method: 'POST',
      headers: RESTLI_2,
      body: { proposal, async: 'false' },
      ...(signal ? { signal } : {}),
    });
    if (r.ok) return { ok: true };
    // On the whole text: DataHub's marker sits past character 300 of its 422 message, beyond the cut message.
    if (
      (r.error.status === 422 || r.error.status === 412) &&
      /Expected version/i.test(r.error.detail ?? r.error.message)
    ) {
      return { ok: false, error: { ...r.error, kind: 'conflict' } };
    }
    return r;
  }
}

/** One entry of a GraphQL answer's `errors`, as far as this client reads it. */
interface GraphqlError {
  message?: unknown;
  path?: unknown[];
  extensions?: { code?: unknown };
}

/** A GraphQL answer's `data` (when it is an object) and `errors` (when a list; else none). */
function graphqlParts(body: unknown): { data: Record<string, unknown> | undefined; errors: unknown[] } {
  if (!isRecord(body)) return { data: undefined, errors: [] };
  const data = body['data'];
  const errors: unknown = body['errors'];
  return { data: isRecord(data) ? data : undefined, errors: Array.isArray(errors) ? errors : [] };
}

/** JSON with every non-ASCII character written as a \uXXXX escape. */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function raceCancel<T>(p: Promise<T>, signal?: AbortSignal): Promise<T | undefined> {
  if (!signal) return p;
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const onAbort = (): void => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
