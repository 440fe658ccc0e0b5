/**
 * The GraphQL side of the catalog client: resolve batches (planned under the complexity budget,
 * sent a few at a time, each answer decoded per alias), the catalog's refusal of a document as too
 * costly (the budget drops and the chunk goes again in smaller documents), and single GraphQL
 * documents (reads, mutations, the connection test). It keeps no cache: each resolution it
 * decodes is handed to `remember`.
 */
import { isViewKind, viewOf, type LookupKind } from '../../../model/src/kinds';
import { isRecord } from '../../../model/src/json';
import type { GqlShapes } from '../../../model/src/readShapes';
import { refusedForCost } from './cost';
import { catalogClientError, displayUrl, quoteCatalogText, type CatalogClientError } from './errors';
import type { CatalogHttp } from './http';
import { batchQuery, CONTEXT_ALIAS, existsQuery, PING, planBatches, resolveWithContextQuery } from './queries';

export type Resolution =
  | {
      [K in LookupKind]: {
        state: 'found';
        kind: K;
        entity: GqlShapes[K];
        /**
         * The sibling (DataHub's `siblings`: a dbt model and its warehouse table) whose description
         * or columns filled the entity's own empty ones (pipeline/check.ts), as DataHub's UI merges them.
         */
        sibling?: string;
      };
    }[LookupKind]
  | { state: 'missing' }
  | { state: 'error'; error: CatalogClientError };

/** What the catalog answered about a URN, as far as it is known; undefined when not asked (or not yet). */
export type ResolutionLookup = (urn: string) => Resolution | undefined;

/** A GraphQL document's answer: its `data`, or why there is none. */
export type GraphqlAnswer = { ok: true; data: Record<string, unknown> } | { ok: false; error: CatalogClientError };

/** What the catalog answered of an entity's context (its `c0` alias), or why it did not. */
export type ContextAnswer = { ok: true; entity: unknown } | { ok: false; error: CatalogClientError };

export interface GraphqlReadsOptions {
  /** The GraphQL endpoint; never empty (the client answers `notConfigured` itself). */
  endpoint: string;
  /** Most URNs per document: an upper bound, the complexity budget decides below it. */
  batchSize: number;
  /** Most complexity per document as graphql-java counts it. */
  complexityBudget: number;
  /** Told every resolution that is not an error, as soon as its batch is decoded. */
  remember(urn: string, resolution: Resolution): void;
}

type Item = { urn: string; kind: LookupKind };

const MAX_PARALLEL_BATCHES = 4;

export class GraphqlReads {
  /** GraphQL documents sent (batches, reads, mutations, pings). */
  requests = 0;
  /** The budget in force: the setting, lowered to a limit the catalog named when it refused a document. */
  private complexityBudget: number;
  /**
   * Whether an entity and its context go in one document: until the catalog refuses such a
   * document as a whole (an older DataHub without one of the context's fields), then never again.
   */
  combinesContext = true;

  /** The endpoint as messages show it (displayUrl), worked out once. */
  private readonly endpointShown: string;

  constructor(
    private readonly http: CatalogHttp,
    private readonly options: GraphqlReadsOptions,
  ) {
    this.complexityBudget = options.complexityBudget;
    this.endpointShown = displayUrl(options.endpoint);
  }

  /** Resolves `items` (each URN once) in as few documents as the budget allows, a few at a time. */
  resolveBatches(items: readonly Item[]): Promise<Map<string, Resolution>> {
    return this.runChunks(this.plan(items));
  }

  private plan<T extends { kind: LookupKind }>(items: readonly T[]): T[][] {
    return planBatches(items, { maxItems: this.options.batchSize, complexity: this.complexityBudget });
  }

  private async runChunks(chunks: Item[][]): Promise<Map<string, Resolution>> {
    const out = new Map<string, Resolution>();
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < chunks.length) {
        const chunk = chunks[next++]!;
        // Each chunk's answers go straight into `out` (one map for all of them, not one per chunk copied in).
        const got = await this.fetchChunk(chunk, out);
        if (got !== out) for (const [urn, r] of got) out.set(urn, r);
      }
    };
    await Promise.all(Array.from({ length: Math.min(MAX_PARALLEL_BATCHES, chunks.length) }, worker));
    return out;
  }

  /** The resolutions of `chunk`, written into `into` when given (and answered), else into a map of their own. */
  private async fetchChunk(chunk: Item[], into?: Map<string, Resolution>): Promise<Map<string, Resolution>> {
    return (await this.fetchDocument(chunk, batchQuery(chunk), undefined, into)).resolved;
  }

  /**
   * Resolves one URN and reads what else the catalog knows of it in one document
   * (resolveWithContextQuery). `context` is undefined when the catalog refused that document as a
   * whole: the URN was then resolved in a document of its own, and the context is the caller's to
   * ask; such documents are not sent again (`combinesContext`).
   */
  async resolveWithContext(item: Item): Promise<{ resolved: Map<string, Resolution>; context?: ContextAnswer }> {
    return this.fetchDocument([item], resolveWithContextQuery(item), CONTEXT_ALIAS);
  }

  /**
   * Sends a resolve document of `chunk` and decodes it; with `contextAlias`, the document also holds
   * that alias (a context), answered beside the resolutions. The resolutions go into `into` when
   * given; a document sent again in parts (the cost refused, the context apart) answers a map of its own.
   */
  private async fetchDocument(
    chunk: Item[],
    { query, variables, aliases }: ReturnType<typeof batchQuery>,
    contextAlias?: string,
    into?: Map<string, Resolution>,
  ): Promise<{ resolved: Map<string, Resolution>; context?: ContextAnswer }> {
    this.requests++;
    const r = await this.http.call(this.options.endpoint, {
      method: 'POST',
      body: { query, variables },
      retry: true,
      notFoundMeansWrongAddress: true,
    });
    const out = into ?? new Map<string, Resolution>();
    if (!r.ok) {
      // A document refused with 400 or 422 (a catalog that validates before answering): the two parts go apart.
      if (contextAlias !== undefined && r.error.kind === 'rejected') return this.apart(chunk);
      for (const { urn } of chunk) out.set(urn, { state: 'error', error: r.error });
      return contextAlias === undefined ? { resolved: out } : { resolved: out, context: { ok: false, error: r.error } };
    }
    const { data, errors } = graphqlParts(r.body);
    const errorsByAlias = new Map<string, string>();
    let generalError: string | undefined;
    let contextError: GraphqlError | undefined;
    for (const e of errors as Array<GraphqlError | null | undefined>) {
      const alias = Array.isArray(e?.path) && typeof e.path[0] === 'string' ? e.path[0] : undefined;
      const message = typeof e?.message === 'string' ? e.message : 'unknown GraphQL error';
      if (alias && aliases.has(alias)) errorsByAlias.set(alias, message);
      else if (alias !== undefined && alias === contextAlias) contextError ??= e ?? undefined;
      else generalError ??= message;
    }
    // Refused as a whole (a field the catalog lacks, the cost): the resolve goes alone, as it did before.
    if (contextAlias !== undefined && !data && generalError !== undefined) return this.apart(chunk);
    if (!data && generalError !== undefined) {
      const tooCostly = refusedForCost(generalError);
      if (tooCostly) return { resolved: await this.afterCostRefusal(chunk, tooCostly) };
    }
    const endpoint = this.endpointShown;
    if (!data && (generalError !== undefined || errorsByAlias.size === 0)) {
      const error = catalogClientError(
        'badResponse',
        generalError !== undefined
          ? `${endpoint} answered a GraphQL error: ${quoteCatalogText(generalError)}`
          : `${endpoint} answered without "data"`,
        endpoint,
        r.status,
      );
      for (const { urn } of chunk) out.set(urn, { state: 'error', error });
      return contextAlias === undefined ? { resolved: out } : { resolved: out, context: { ok: false, error } };
    }
    const failed: string[] = [];
    chunk.forEach(({ urn, kind }, i) => {
      const alias = `e${i}`;
      const res = this.resolutionOf(kind, data?.[alias], errorsByAlias.get(alias));
      if (res.state !== 'error') this.options.remember(urn, res);
      else if (errorsByAlias.has(alias)) failed.push(urn);
      out.set(urn, res);
    });
    for (const urn of await this.neverWritten(failed)) {
      const res: Resolution = { state: 'missing' };
      this.options.remember(urn, res);
      out.set(urn, res);
    }
    if (contextAlias === undefined) return { resolved: out };
    // As a document of its own would: any error but the resolve's own fails the context.
    const failure = contextError ?? (generalError !== undefined ? { message: generalError } : undefined);
    return {
      resolved: out,
      context: failure
        ? { ok: false, error: answerError(failure, endpoint) }
        : { ok: true, entity: data?.[contextAlias] },
    };
  }

  /** The resolve of `chunk` in a document of its own, after the catalog refused it with a context. */
  private async apart(chunk: Item[]): Promise<{ resolved: Map<string, Resolution> }> {
    this.combinesContext = false;
    return { resolved: await this.fetchChunk(chunk) };
  }

  /**
   * Of URNs whose alias failed, those DataHub says do not exist (`entityExists` false): some of its
   * loaders fail for an entity nobody wrote (existsQuery). The others keep their error; so do all
   * when this document itself fails.
   */
  private async neverWritten(urns: readonly string[]): Promise<string[]> {
    if (urns.length === 0) return [];
    const { query, variables, aliases } = existsQuery(urns);
    this.requests++;
    const r = await this.http.call(this.options.endpoint, {
      method: 'POST',
      body: { query, variables },
      retry: true,
      notFoundMeansWrongAddress: true,
    });
    if (!r.ok) return [];
    const { data } = graphqlParts(r.body);
    return [...aliases].flatMap(([alias, urn]) => (data?.[alias] === false ? [urn] : []));
  }

  private resolutionOf(kind: LookupKind, entity: unknown, aliasError: string | undefined): Resolution {
    const endpoint = this.endpointShown;
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
    // A type without `exists` (tag, domain, data product, platform): never written when its properties are null.
    if (isViewKind(kind)) {
      const when = viewOf(kind).writtenWhen;
      if (when !== undefined && (entity[when] === null || entity[when] === undefined)) return { state: 'missing' };
    }
    return { state: 'found', kind, entity } as unknown as Resolution;
  }

  /**
   * The catalog refused a document as too complex or too deep (graphql-java's AbortExecutionException,
   * which DataHub answers with HTTP 200 and no data). The budget drops to the limit it named and
   * the chunk goes again in smaller documents; a single URN that still does not fit is an error for
   * that URN only. The connection is fine, so the status is not touched.
   */
  private async afterCostRefusal(
    chunk: Item[],
    refused: NonNullable<ReturnType<typeof refusedForCost>>,
  ): Promise<Map<string, Resolution>> {
    // Depth does not add up over root fields: smaller documents would be refused the same way.
    if (refused.what === 'depth' || chunk.length === 1) {
      const endpoint = this.endpointShown;
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

  /** The GraphQL half of the connection test: any answer with `data` proves the endpoint and the token. */
  async ping(signal?: AbortSignal): Promise<CatalogClientError | undefined> {
    this.requests++;
    const r = await this.http.call(this.options.endpoint, {
      method: 'POST',
      body: { query: PING, variables: { u0: 'urn:li:dataset:(urn:li:dataPlatform:catalog-lens,ping,PROD)' } },
      notFoundMeansWrongAddress: true,
      ...(signal ? { signal } : {}),
    });
    if (!r.ok) return r.error;
    if (!isRecord(r.body) || !('data' in r.body)) {
      const endpoint = this.endpointShown;
      return catalogClientError('badResponse', `${endpoint} does not answer like a GraphQL endpoint`, endpoint);
    }
    return undefined;
  }

  /**
   * Sends one document of its own (a read or a mutation). Its first GraphQL error is the answer's
   * error, of the kind DataHub's `extensions.code` names; `retry` retries connection errors.
   */
  async send(
    query: string,
    variables: Record<string, unknown>,
    retry: boolean,
    signal?: AbortSignal,
  ): Promise<GraphqlAnswer> {
    this.requests++;
    const r = await this.http.call(this.options.endpoint, {
      method: 'POST',
      body: { query, variables },
      retry,
      notFoundMeansWrongAddress: true,
      ...(signal ? { signal } : {}),
    });
    if (!r.ok) return r;
    const { data, errors } = graphqlParts(r.body);
    const endpoint = this.endpointShown;
    if (errors.length > 0) return { ok: false, error: answerError(errors[0] as GraphqlError, endpoint) };
    if (!data)
      return { ok: false, error: catalogClientError('badResponse', `${endpoint} answered without "data"`, endpoint) };
    return { ok: true, data };
  }
}

/** A GraphQL error of a document's own as the client's error, of the kind DataHub's `extensions.code` names. */
function answerError(e: GraphqlError, endpoint: string): CatalogClientError {
  const code = e.extensions?.code;
  const kind = code === 404 ? 'notFound' : code === 403 ? 'forbidden' : code === 409 ? 'conflict' : 'rejected';
  return catalogClientError(kind, `${endpoint}: ${quoteCatalogText(String(e.message ?? 'GraphQL error'))}`, endpoint);
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
