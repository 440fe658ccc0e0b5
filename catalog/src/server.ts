/**
 * The local catalog service: DataHub's GraphQL endpoint, Rest.li aspect write and read paths,
 * /config and /health, on SQLite. `startCatalog` is what the CLI and the tests start.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readAspect, readEntity, urnFromPath } from './aspectReads';
import { BearerAuth, isOpenPath, UNAUTHORIZED_BODY } from './auth';
import { keyFormOf, type CompatMode } from './compat';
import { PROTOCOL_HEADER, restliProtocol } from './datahub/restli';
import { badRequest, CatalogError, OpaqueError } from './errors';
import { runGraphQL, type GraphQLLimits } from './graphql/endpoint';
import { DEFAULT_QUERY_LIMITS } from './graphql/limits';
import { DATAHUB_QUERY_LIMITS } from './graphql/queryCost';
import { ReadContext } from './graphql/readShapes';
import { catalogSchema } from './graphql/schema';
import { DEFAULT_MAX_BODY_BYTES, parseJsonBody, readBody, sendJson, sendRestLiError } from './http';
import { GroupCommit } from './groupCommit';
import { ingestProposal, ingestProposalBatch } from './ingest';
import { DEFAULT_NAMESPACES, NamespacePolicy } from './namespaces';
import { loadSample } from './sample';
import { countRequest, createStats, statsSnapshot, type CatalogStats } from './stats';
import { AspectStore, type Durability } from './store';
import { CATALOG_VERSION } from './version';

export type { CatalogStats } from './stats';

export interface CatalogOptions {
  /** 0 = a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** SQLite file, or ':memory:' (the default). */
  db?: string;
  /** When set, every request but GET /health and GET /config needs `Authorization: Bearer <token>`. */
  token?: string;
  /** Load the sample data (idempotent). */
  sample?: boolean;
  /** Accepted namespace words; the first is the storage namespace. Default ['li', 'svc']. */
  namespaces?: string[];
  maxBodyBytes?: number;
  /** One line per request, and errors. */
  log?: (line: string) => void;
  /** 'full' (default): a write is acknowledged only once it is on disk. */
  durability?: Durability;
  /** 'spec' (default) answers as the spec says; 'datahub' as a real DataHub does where it differs (README "DataHub mode"). */
  compat?: CompatMode;
  /** DataHub mode: graphql-java's MaxQueryComplexityInstrumentation limit (DataHub's default 2000). */
  graphqlComplexityLimit?: number;
  /** DataHub mode: graphql-java's MaxQueryDepthInstrumentation limit (DataHub's default 50). */
  graphqlDepthLimit?: number;
}

export interface RunningCatalog {
  url: string;
  port: number;
  close(): Promise<void>;
  stats: CatalogStats;
}

interface Services {
  compat: CompatMode;
  graphqlLimits: GraphQLLimits;
  store: AspectStore;
  /** Aspect writes go through here: one fsync acknowledges every write that arrived meanwhile. */
  writes: GroupCommit;
  namespaces: NamespacePolicy;
  auth: BearerAuth;
  stats: CatalogStats;
  actor: string;
  maxBodyBytes: number;
  log: (line: string) => void;
}

/**
 * A request's URL as the request log shows it: one short line. Node 20's parser answers 400 to a
 * request line holding control or non-ASCII bytes, but a lenient parser (older Node,
 * `--insecure-http-parser`) would hand them on as latin1: anything but printable ASCII is written
 * as `\xNN` (or `\uNNNN`). A long URL (up to 16 KiB get through) is cut and its length said.
 */
export function urlForLog(url: string, limit = 300): string {
  const cut = url.length > limit ? url.slice(0, limit) : url;
  // eslint-disable-next-line no-control-regex
  const shown = cut.replace(/[^\x20-\x7e]/g, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
  return url.length > limit ? `${shown}… (${url.length} characters)` : shown;
}

export async function startCatalog(opts: CatalogOptions = {}): Promise<RunningCatalog> {
  const compat = opts.compat ?? 'spec';
  const namespaces = new NamespacePolicy(opts.namespaces ?? DEFAULT_NAMESPACES, keyFormOf(compat));
  const store = new AspectStore(opts.db ?? ':memory:', opts.durability ?? 'full', namespaces.canonical, keyFormOf(compat));
  const actor = namespaces.userUrn('datahub');
  catalogSchema();
  try {
    if (opts.sample) loadSample(store, namespaces, actor, compat);
  } catch (e) {
    store.close();
    throw e;
  }
  const graphqlLimits: GraphQLLimits = compat === 'datahub'
    ? { kind: 'datahub', limits: { maxDepth: opts.graphqlDepthLimit ?? DATAHUB_QUERY_LIMITS.maxDepth, maxComplexity: opts.graphqlComplexityLimit ?? DATAHUB_QUERY_LIMITS.maxComplexity } }
    : { kind: 'spec', limits: DEFAULT_QUERY_LIMITS };
  const services: Services = {
    compat, graphqlLimits, store, namespaces, actor,
    writes: new GroupCommit(store),
    auth: new BearerAuth(opts.token),
    stats: createStats(),
    maxBodyBytes: opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    log: opts.log ?? (() => undefined),
  };
  const server = createServer((req, res) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      services.log(`${req.method} ${urlForLog(req.url ?? '')} ${res.statusCode} ${ms.toFixed(1)}ms`);
    });
    handle(req, res, services).catch((e: unknown) => fail(req, res, services, e));
  });
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((e: unknown) => {
    store.close();
    throw e;
  });
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    stats: services.stats,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => {
          store.close();
          resolve();
        });
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

function fail(req: IncomingMessage, res: ServerResponse, s: Services, e: unknown): void {
  req.resume();
  if (!(e instanceof CatalogError)) s.log(`internal error: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
  if (e instanceof OpaqueError) s.log(`DataHub mode: ${e.status} as DataHub answers it: ${e.reason}`);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (e instanceof CatalogError) sendRestLiError(res, e.status, e.message, e.status === 413 ? { Connection: 'close' } : {}, s.compat);
  else sendRestLiError(res, 500, `internal error: ${e instanceof Error ? e.message : String(e)}`, {}, s.compat);
}

/** The Rest.li protocol of a request to /aspects or /entitiesV2: read in the DataHub mode only. */
function protocolOf(req: IncomingMessage, s: Services) {
  return s.compat === 'datahub' ? restliProtocol(req.headers[PROTOCOL_HEADER]) : '2.0';
}

async function handle(req: IncomingMessage, res: ServerResponse, s: Services): Promise<void> {
  const method = req.method ?? 'GET';
  const rawUrl = req.url ?? '/';
  const q = rawUrl.indexOf('?');
  const path = q >= 0 ? rawUrl.slice(0, q) : rawUrl;
  const query = new URLSearchParams(q >= 0 ? rawUrl.slice(q + 1) : '');
  countRequest(s.stats, method, path);

  if (!isOpenPath(method, path) && !s.auth.accepts(req)) {
    req.resume();
    sendJson(res, 401, UNAUTHORIZED_BODY, { 'WWW-Authenticate': 'Bearer' });
    return;
  }
  if (path === '/health') return only(method, 'GET', res, () => sendJson(res, 200, { status: 'GOOD' }));
  if (path === '/config') {
    return only(method, 'GET', res, () => sendJson(res, 200, {
      noCode: 'true',
      catalogLens: { version: CATALOG_VERSION, namespaces: s.namespaces.words, auth: s.auth.enabled },
    }));
  }
  if (path === '/_catalog-lens/stats') return only(method, 'GET', res, () => sendJson(res, 200, statsSnapshot(s.stats)));
  if (path === '/_catalog-lens/stats/reset') {
    return only(method, 'POST', res, () => {
      s.stats.reset();
      sendJson(res, 200, statsSnapshot(s.stats));
    });
  }
  if (path === '/api/graphql') return graphql(req, res, s, method);
  const restli = path === '/aspects' || path.startsWith('/aspects/') || path.startsWith('/entitiesV2/');
  const protocol = restli ? protocolOf(req, s) : '2.0';
  if (path === '/aspects') {
    if (method !== 'POST') return only(method, 'POST', res, () => undefined);
    const action = query.get('action');
    if (action !== 'ingestProposal' && action !== 'ingestProposalBatch') {
      throw badRequest(`action: expected ?action=ingestProposal or ?action=ingestProposalBatch, found ${action === null ? 'none' : `'${action}'`}`);
    }
    const body = parseJsonBody(await readBody(req, s.maxBodyBytes));
    await s.writes.submit(() => (action === 'ingestProposal'
      ? ingestProposal(s.store, body, s.namespaces, s.actor, s.compat)
      : ingestProposalBatch(s.store, body, s.namespaces, s.actor, s.compat)));
    sendJson(res, 200, { value: 'success' });
    return;
  }
  if (path.startsWith('/aspects/')) {
    return only(method, 'GET', res, () => sendJson(res, 200, readAspect(s.store, s.namespaces, urnFromPath(path.slice('/aspects/'.length)), query, { compat: s.compat, protocol })), s.compat);
  }
  if (path.startsWith('/entitiesV2/')) {
    return only(method, 'GET', res, () => sendJson(res, 200, readEntity(s.store, s.namespaces, urnFromPath(path.slice('/entitiesV2/'.length)), query, { compat: s.compat, protocol })), s.compat);
  }
  req.resume();
  sendRestLiError(res, 404, `No root resource defined for path '${path}'`, {}, s.compat);
}

function only(method: string, allowed: string, res: ServerResponse, run: () => void, compat: CompatMode = 'spec'): void {
  if (method !== allowed) {
    sendRestLiError(res, 405, `method ${method} is not supported here; use ${allowed}`, { Allow: allowed }, compat);
    return;
  }
  run();
}

async function graphql(req: IncomingMessage, res: ServerResponse, s: Services, method: string): Promise<void> {
  if (method !== 'POST') {
    req.resume();
    sendJson(res, 405, graphQLRequestError(405, `method ${method} is not supported: send POST /api/graphql with {"query", "variables"}`), { Allow: 'POST' });
    return;
  }
  let body: unknown;
  try {
    body = parseJsonBody(await readBody(req, s.maxBodyBytes));
  } catch (e) {
    if (!(e instanceof CatalogError)) throw e;
    sendJson(res, e.status, graphQLRequestError(e.status, e.message), e.status === 413 ? { Connection: 'close' } : {});
    return;
  }
  const ctx = new ReadContext(s.store, s.namespaces, s.actor, s.compat);
  const answer = await runGraphQL(body, ctx, {
    limits: s.graphqlLimits,
    onInternalError: (e) => s.log(`internal error in GraphQL: ${e.stack ?? e.message}`),
    onOpaqueError: (e) => s.log(`DataHub mode: GraphQL error "${e.message}" as DataHub answers it: ${e.reason}`),
  });
  sendJson(res, answer.status, answer.body);
}

function graphQLRequestError(status: number, message: string): unknown {
  return { errors: [{ message, extensions: { code: status, type: 'BAD_REQUEST', classification: 'BadRequest' } }], data: null, extensions: {} };
}
