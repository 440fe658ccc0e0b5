/**
 * Routing of one request: the guard (security.ts), the read-only pages (pages/), bearer auth, then
 * DataHub's paths — GraphQL, the Rest.li aspect write and reads, /config, /health — and the test counters.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readAspect, readEntity, urnFromPath } from './aspectReads';
import { isOpenPath, UNAUTHORIZED_BODY, type BearerAuth } from './auth';
import type { CompatMode } from './compat';
import { PROTOCOL_HEADER, restliProtocol } from './datahub/restli';
import { badRequest, CatalogError, OpaqueError } from './errors';
import type { AnswerCache } from './graphql/answerCache';
import { runGraphQL, type GraphQLLimits } from './graphql/endpoint';
import { contextFields } from './graphql/contextShapes';
import { ReadContext } from './graphql/readShapes';
import type { GroupCommit } from './groupCommit';
import { collectBody, parseJsonBody, readBody, sendJson, sendJsonText, sendRestLiError } from './http';
import { ingestProposal, ingestProposalBatch } from './ingest';
import { mceBatchToWrites, mceBodyToWrites } from './mce';
import type { NamespacePolicy } from './namespaces';
import type { PageData } from './pages/data';
import type { PageAccess } from './pages/access';
import { pageRequest, servePage } from './pages/serve';
import { pagesPrefix, type RequestGuard } from './security';
import { countOperation, countRequest, statsSnapshot, type CatalogStats } from './stats';
import type { AspectStore } from './store';
import { CATALOG_VERSION } from './version';
import { writeAspect, writeCreates } from './writes';

export interface Services {
  /** Set once the server listens (the guard needs the port). */
  guard: RequestGuard | undefined;
  compat: CompatMode;
  graphqlLimits: GraphQLLimits;
  store: AspectStore;
  /** The answers of lookups sent again, by request body, until the next write (graphql/answerCache.ts). */
  answers: AnswerCache;
  /** Aspect writes go through here: one fsync acknowledges every write that arrived meanwhile. */
  writes: GroupCommit;
  namespaces: NamespacePolicy;
  auth: BearerAuth;
  /** The read-only HTML pages (pages/): what they read, and whether they need the token. */
  pageData: PageData;
  pageAccess: PageAccess;
  /** The secret of the pages' proxy prefix `/_pages/SECRET/` (security.ts), or none. */
  pagesSecret?: string | undefined;
  stats: CatalogStats;
  actor: string;
  maxBodyBytes: number;
  log: (line: string) => void;
}

export function fail(req: IncomingMessage, res: ServerResponse, s: Services, e: unknown): void {
  req.resume();
  if (!(e instanceof CatalogError)) s.log(`internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  if (e instanceof OpaqueError) s.log(`DataHub mode: ${e.status} as DataHub answers it: ${e.reason}`);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (e instanceof CatalogError)
    sendRestLiError(res, e.status, e.message, e.status === 413 ? { Connection: 'close' } : {}, s.compat);
  else sendRestLiError(res, 500, `internal error: ${e instanceof Error ? e.message : String(e)}`, {}, s.compat);
}

const GRAPHQL_PATH = '/api/graphql';

/** The Rest.li protocol of a request to /aspects or /entitiesV2: read in the DataHub mode only. */
function protocolOf(req: IncomingMessage, s: Services) {
  return s.compat === 'datahub' ? restliProtocol(req.headers[PROTOCOL_HEADER]) : '2.0';
}

export async function handle(req: IncomingMessage, res: ServerResponse, s: Services): Promise<void> {
  const method = req.method ?? 'GET';
  const rawUrl = req.url ?? '/';
  const q = rawUrl.indexOf('?');
  const fullPath = q >= 0 ? rawUrl.slice(0, q) : rawUrl;
  // The query string is read only by the paths that take parameters.
  let params: URLSearchParams | undefined;
  const query = (): URLSearchParams => (params ??= new URLSearchParams(q >= 0 ? rawUrl.slice(q + 1) : ''));
  // Host, Origin, Content-Type and OPTIONS, before anything else: security.ts.
  const refusal = s.guard ? s.guard.check(req) : { status: 503, message: 'the catalog is starting' };
  if (refusal) {
    req.resume();
    sendJson(
      res,
      refusal.status,
      { error: refusal.message, status: refusal.status },
      { Connection: 'close', ...(refusal.status === 405 ? { Allow: 'GET, POST' } : {}) },
    );
    return;
  }
  // `/_pages/SECRET/…` (an editor's port proxy, security.ts) reaches the pages only.
  const prefixed = pagesPrefix(fullPath, s.pagesSecret);
  const path = prefixed ? prefixed.rest : fullPath;
  countRequest(s.stats, method, path);
  if (prefixed) {
    const page = prefixed.valid ? pageRequest(req, path) : undefined;
    if (page) return servePage(req, res, s, page, query(), path);
    req.resume();
    sendJson(res, 404, { error: 'not found: only pages are served under /_pages/', status: 404 });
    return;
  }

  // Pages decide their own access (pages/serve.ts): a browser following an editor's link has no token.
  // `/api/…` is never a page (pages/paths.ts), so GraphQL requests skip the page lookup.
  const page = path === GRAPHQL_PATH ? undefined : pageRequest(req, path);
  if (page) return servePage(req, res, s, page, query());

  if (!isOpenPath(method, path) && !s.auth.accepts(req)) {
    req.resume();
    sendJson(res, 401, UNAUTHORIZED_BODY, { 'WWW-Authenticate': 'Bearer' });
    return;
  }
  if (path === '/health') return only(method, 'GET', res, () => sendJson(res, 200, { status: 'GOOD' }));
  if (path === '/config') {
    return only(method, 'GET', res, () =>
      sendJson(res, 200, {
        noCode: 'true',
        catalogLens: { version: CATALOG_VERSION, namespaces: s.namespaces.words, auth: s.auth.enabled },
      }),
    );
  }
  if (path === '/_catalog-lens/stats')
    return only(method, 'GET', res, () => sendJson(res, 200, statsSnapshot(s.stats)));
  if (path === '/_catalog-lens/stats/reset') {
    return only(method, 'POST', res, () => {
      s.stats.reset();
      sendJson(res, 200, statsSnapshot(s.stats));
    });
  }
  if (path === GRAPHQL_PATH) return graphql(req, res, s, method);
  const restli = path === '/aspects' || path.startsWith('/aspects/') || path.startsWith('/entitiesV2/');
  const protocol = restli ? protocolOf(req, s) : '2.0';
  if (path === '/aspects') {
    if (method !== 'POST') return only(method, 'POST', res, () => undefined);
    const action = query().get('action');
    if (action !== 'ingestProposal' && action !== 'ingestProposalBatch') {
      throw badRequest(
        `action: expected ?action=ingestProposal or ?action=ingestProposalBatch, found ${action === null ? 'none' : `'${action}'`}`,
      );
    }
    const body = parseJsonBody(await readBody(req, s.maxBodyBytes));
    await s.writes.submit(() =>
      action === 'ingestProposal'
        ? ingestProposal(s.store, body, s.namespaces, s.actor, s.compat)
        : ingestProposalBatch(s.store, body, s.namespaces, s.actor, s.compat),
    );
    sendJson(res, 200, { value: 'success' });
    return;
  }
  if (path === '/entities') {
    // MCEs, as DataHub's REST emitter sends them (EntityResource's ingest and batchIngest actions).
    if (method !== 'POST') return only(method, 'POST', res, () => undefined, s.compat);
    const action = query().get('action');
    if (action !== 'ingest' && action !== 'batchIngest') {
      throw badRequest(
        `action: expected ?action=ingest or ?action=batchIngest, found ${action === null ? 'none' : `'${action}'`}`,
      );
    }
    const body = parseJsonBody(await readBody(req, s.maxBodyBytes));
    await s.writes.submit(() => {
      const writes =
        action === 'ingest'
          ? mceBodyToWrites(body, s.namespaces, s.compat)
          : mceBatchToWrites(body, s.namespaces, s.compat);
      // A snapshot is one entity: the spec mode writes the aspects that create it first.
      const ordered = [
        ...writes.filter((w) => writeCreates(w.entityType, w.aspectName, s.compat)),
        ...writes.filter((w) => !writeCreates(w.entityType, w.aspectName, s.compat)),
      ];
      return s.store.transaction(() => {
        const now = Date.now();
        return ordered.map((w) => writeAspect(s.store, w, s.actor, now, s.compat));
      });
    });
    // A Rest.li action without a return value: 200 and no body.
    res.writeHead(200, { 'Content-Length': 0 });
    res.end();
    return;
  }
  if (path.startsWith('/aspects/')) {
    return only(
      method,
      'GET',
      res,
      () =>
        sendJson(
          res,
          200,
          readAspect(s.store, s.namespaces, urnFromPath(path.slice('/aspects/'.length)), query(), {
            compat: s.compat,
            protocol,
          }),
        ),
      s.compat,
    );
  }
  if (path.startsWith('/entitiesV2/')) {
    return only(
      method,
      'GET',
      res,
      () =>
        sendJson(
          res,
          200,
          readEntity(s.store, s.namespaces, urnFromPath(path.slice('/entitiesV2/'.length)), query(), {
            compat: s.compat,
            protocol,
          }),
        ),
      s.compat,
    );
  }
  req.resume();
  sendRestLiError(res, 404, `No root resource defined for path '${path}'`, {}, s.compat);
}

function only(
  method: string,
  allowed: string,
  res: ServerResponse,
  run: () => void,
  compat: CompatMode = 'spec',
): void {
  if (method !== allowed) {
    sendRestLiError(res, 405, `method ${method} is not supported here; use ${allowed}`, { Allow: allowed }, compat);
    return;
  }
  run();
}

function graphql(req: IncomingMessage, res: ServerResponse, s: Services, method: string): void {
  if (method !== 'POST') {
    req.resume();
    sendJson(
      res,
      405,
      graphQLRequestError(405, `method ${method} is not supported: send POST /api/graphql with {"query", "variables"}`),
      { Allow: 'POST' },
    );
    return;
  }
  // The body is read through callbacks, not a promise: a lookup answered from the answer cache
  // costs no microtask. Whatever is thrown goes where `handle`'s rejection would (`fail`).
  collectBody(
    req,
    s.maxBodyBytes,
    (text) => {
      try {
        // The same lookup again, nothing written since: the bytes of its last answer.
        const kept = s.answers.get(text);
        if (kept) {
          countOperation(s.stats, kept.operation);
          sendJsonText(res, 200, kept.text, kept.bytes);
          return;
        }
        let body: unknown;
        try {
          body = parseJsonBody(text);
        } catch (e) {
          bodyRefused(res, e);
          return;
        }
        answerGraphQL(res, s, text, body).catch((e: unknown) => fail(req, res, s, e));
      } catch (e) {
        fail(req, res, s, e);
      }
    },
    (e) => {
      try {
        bodyRefused(res, e);
      } catch (e2) {
        fail(req, res, s, e2);
      }
    },
  );
}

/** A GraphQL body that could not be read (too large, not UTF-8, not JSON, cut off): its status as a GraphQL request error. */
function bodyRefused(res: ServerResponse, e: unknown): void {
  if (!(e instanceof CatalogError)) throw e;
  sendJson(res, e.status, graphQLRequestError(e.status, e.message), e.status === 413 ? { Connection: 'close' } : {});
}

async function answerGraphQL(res: ServerResponse, s: Services, text: string, body: unknown): Promise<void> {
  const seen = s.answers.seen;
  const ctx = new ReadContext(s.store, s.namespaces, s.actor, s.compat, contextFields);
  let operation = '(anonymous)';
  let walked = false;
  const answer = await runGraphQL(body, ctx, {
    limits: s.graphqlLimits,
    onInternalError: (e) => s.log(`internal error in GraphQL: ${e.stack ?? e.message}`),
    onOpaqueError: (e) => s.log(`DataHub mode: GraphQL error "${e.message}" as DataHub answers it: ${e.reason}`),
    onOperation: (name) => {
      operation = name;
      countOperation(s.stats, name);
    },
    onAnswered: (how) => {
      walked = how === 'walk';
    },
  });
  const out = JSON.stringify(answer.body);
  const bytes = Buffer.byteLength(out);
  // Only the lookups walked without the executor are kept: pure reads, answered without an error.
  if (walked && answer.status === 200) s.answers.keep(text, seen, { text: out, bytes, operation });
  sendJsonText(res, answer.status, out, bytes);
}

function graphQLRequestError(status: number, message: string): unknown {
  return {
    errors: [{ message, extensions: { code: status, type: 'BAD_REQUEST', classification: 'BadRequest' } }],
    data: null,
    extensions: {},
  };
}
