/**
 * The local catalog service: DataHub's GraphQL endpoint, Rest.li aspect write and read paths,
 * /config and /health, on SQLite. `startCatalog` is what the CLI and the tests start.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BearerAuth } from './auth';
import { keyFormOf, type CompatMode } from './compat';
import {
  defaultConnectionLimits,
  defaultMaxPerClient,
  serverOptions,
  trackConnections,
  type ConnectionLimits,
} from './connections';
import { AnswerCache } from './graphql/answerCache';
import type { GraphQLLimits } from './graphql/endpoint';
import { DEFAULT_QUERY_LIMITS } from './graphql/limits';
import { DATAHUB_QUERY_LIMITS } from '../../model/src/queryCost';
import { catalogSchema } from './graphql/schema';
import { CatalogResponse, DEFAULT_MAX_BODY_BYTES } from './http';
import { GroupCommit } from './groupCommit';
import { DEFAULT_NAMESPACES, NamespacePolicy } from './namespaces';
import { isLoopbackHost } from '../../model/src/origin';
import { PageData } from './pages/data';
import type { PageAccess } from './pages/access';
import { fail, handle, type Services } from './routes';
import { loadSample } from './sample';
import { loadFiles, type LoadReport } from './load';
import { RequestGuard } from './security';
import { createStats, type CatalogStats } from './stats';
import { AspectStore, type Durability } from './store';

export type { CatalogStats } from './stats';

export interface CatalogOptions {
  /** 0 = a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** SQLite file, or ':memory:' (the default). */
  db?: string;
  /** When set, every request but GET /health and GET /config needs `Authorization: Bearer <token>`. */
  token?: string | undefined;
  /** Load the sample data (idempotent). */
  sample?: boolean;
  /** DataHub metadata files to load after the sample (load.ts); the report is `RunningCatalog.loadReport`. */
  load?: ReadonlyArray<{ file: string; text: string }>;
  /** Accepted namespace words; the first is the storage namespace. Default ['li', 'svc']. */
  namespaces?: string[];
  maxBodyBytes?: number;
  /** One line per request (unless `requestLog` is false), and errors. */
  log?: (line: string) => void;
  /** Whether `log` gets a line per request (default true); false leaves the per-request work out. */
  requestLog?: boolean;
  /** 'full' (default): a write is acknowledged only once it is on disk. */
  durability?: Durability;
  /** 'spec' (default) answers as the spec says; 'datahub' as a real DataHub does where it differs (README "DataHub mode"). */
  compat?: CompatMode;
  /** DataHub mode: graphql-java's MaxQueryComplexityInstrumentation limit (DataHub's default 2000). */
  graphqlComplexityLimit?: number;
  /** DataHub mode: graphql-java's MaxQueryDepthInstrumentation limit (DataHub's default 50). */
  graphqlDepthLimit?: number;
  /** More names (`name` or `name:port`) accepted in the Host header besides the catalog's own (security.ts). */
  allowedHosts?: string[];
  /**
   * Who may read the HTML pages when a token is set: 'open' (anyone who reaches the catalog, the
   * default when it listens on loopback) or 'token' (the default beyond loopback). Without a token
   * everything is open anyway.
   */
  pages?: PageAccess;
  /**
   * A secret that also serves the pages under `/_pages/SECRET/…` to a loopback Host on any port:
   * what an editor's port proxy sends (security.ts). None: no such prefix.
   */
  pagesSecret?: string;
  /** Connection cap and timeouts (connections.ts); each defaults as there. */
  connections?: Partial<ConnectionLimits>;
}

export interface RunningCatalog {
  url: string;
  port: number;
  /** The Host header values it answers to (security.ts). */
  hosts: readonly string[];
  close(): Promise<void>;
  stats: CatalogStats;
  /** What `load` loaded and refused, when files were given. */
  loadReport?: LoadReport;
}

/**
 * A request's URL as the request log shows it: one short line. Node 20's parser answers 400 to a
 * request line holding control or non-ASCII bytes, but a lenient parser (older Node,
 * `--insecure-http-parser`) would hand them on as latin1: anything but printable ASCII is written
 * as `\xNN` (or `\uNNNN`). A long URL (up to 16 KiB get through) is cut and its length said.
 */
export function urlForLog(url: string, limit = 300): string {
  const cut = url.length > limit ? url.slice(0, limit) : url;
  const shown = cut.replace(/[^\x20-\x7e]/g, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
  return url.length > limit ? `${shown}… (${url.length} characters)` : shown;
}

export async function startCatalog(opts: CatalogOptions = {}): Promise<RunningCatalog> {
  const compat = opts.compat ?? 'spec';
  const namespaces = new NamespacePolicy(opts.namespaces ?? DEFAULT_NAMESPACES, keyFormOf(compat));
  const store = new AspectStore(
    opts.db ?? ':memory:',
    opts.durability ?? 'full',
    namespaces.canonical,
    keyFormOf(compat),
  );
  const actor = namespaces.userUrn('datahub');
  catalogSchema();
  let loadReport: LoadReport | undefined;
  try {
    if (opts.sample) loadSample(store, namespaces, actor, compat);
    if (opts.load) loadReport = loadFiles(store, opts.load, namespaces, actor, compat);
  } catch (e) {
    store.close();
    throw e;
  }
  const graphqlLimits: GraphQLLimits =
    compat === 'datahub'
      ? {
          kind: 'datahub',
          limits: {
            maxDepth: opts.graphqlDepthLimit ?? DATAHUB_QUERY_LIMITS.maxDepth,
            maxComplexity: opts.graphqlComplexityLimit ?? DATAHUB_QUERY_LIMITS.maxComplexity,
          },
        }
      : { kind: 'spec', limits: DEFAULT_QUERY_LIMITS };
  const host = opts.host ?? '127.0.0.1';
  const services: Services = {
    guard: undefined,
    compat,
    graphqlLimits,
    store,
    answers: new AnswerCache(() => store.generation()),
    namespaces,
    actor,
    writes: new GroupCommit(store),
    auth: new BearerAuth(opts.token),
    pageData: new PageData(store, namespaces, compat),
    pageAccess: opts.pages ?? (isLoopbackHost(host) ? 'open' : 'token'),
    pagesSecret: opts.pagesSecret,
    stats: createStats(),
    maxBodyBytes: opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    log: opts.log ?? (() => undefined),
  };
  const limits: ConnectionLimits = { ...defaultConnectionLimits(), ...opts.connections };
  // A cap set without a per-client share gets the share of that cap.
  if (opts.connections?.maxConnections !== undefined && opts.connections.maxPerClient === undefined)
    limits.maxPerClient = defaultMaxPerClient(limits.maxConnections);
  const logRequests = opts.log !== undefined && opts.requestLog !== false;
  // Every answer, JSON or page, whatever its status, says nosniff (http.ts CatalogResponse).
  const server = createServer({ ...serverOptions(limits), ServerResponse: CatalogResponse }, (req, res) => {
    if (logRequests) {
      const started = process.hrtime.bigint();
      res.on('finish', () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        services.log(`${req.method} ${urlForLog(req.url ?? '')} ${res.statusCode} ${ms.toFixed(1)}ms`);
      });
    }
    handle(req, res, services).catch((e: unknown) => fail(req, res, services, e));
  });
  const connections = trackConnections(server, limits, services.log);
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
  services.guard = new RequestGuard({
    bindHost: host,
    port,
    allowedHosts: opts.allowedHosts ?? [],
    pagesSecret: opts.pagesSecret,
  });
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    hosts: services.guard.hosts,
    stats: services.stats,
    ...(loadReport ? { loadReport } : {}),
    close() {
      // Every socket is closed at once, the stalled and dripping ones too: nothing may keep the
      // process from exiting.
      closing ??= new Promise<void>((resolve) => {
        connections.stop();
        server.close(() => {
          store.close();
          resolve();
        });
        connections.closeAll();
      });
      return closing;
    },
  };
}
