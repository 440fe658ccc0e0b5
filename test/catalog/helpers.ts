/**
 * Helpers for the catalog's tests: a catalog on a free port with an in-memory database, and
 * the requests a DataHub client sends (Rest.li proposals and reads, GraphQL) over real HTTP.
 */
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { encodeUrnForPath } from '../../model/src/urn';
import { startCatalog, type CatalogOptions, type RunningCatalog } from '../../catalog/src/server';
import { datahubSchema, validateDocument } from '../support/datahubSchema';

export type Json = Record<string, unknown>;

export interface HttpAnswer<T = Json> {
  status: number;
  body: T;
  headers: Headers;
}

/** A catalog on 127.0.0.1, port 0, ':memory:' database; closed when the test ends. */
export async function testCatalog(t: TestContext, opts: CatalogOptions = {}): Promise<RunningCatalog> {
  const catalog = await startCatalog({ port: 0, db: ':memory:', ...opts });
  t.after(() => catalog.close());
  return catalog;
}

async function answer<T>(res: Response): Promise<HttpAnswer<T>> {
  const text = await res.text();
  let body: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('application/json')) body = JSON.parse(text);
  return { status: res.status, body: body as T, headers: res.headers };
}

export async function request<T = Json>(url: string, init: RequestInit = {}): Promise<HttpAnswer<T>> {
  return answer<T>(await fetch(url, init));
}

export interface GqlOptions {
  headers?: Record<string, string>;
  /** For documents a test sends to be refused (syntax, limits): not checked against DataHub's schema. */
  invalidOnPurpose?: boolean;
}

/**
 * POST /api/graphql. Unless the document is invalid on purpose, it is first checked against
 * DataHub's own schema (when ../shared is there), so every document the tests use is one
 * DataHub accepts too.
 */
export async function gql(
  catalog: RunningCatalog,
  query: string,
  variables?: Json,
  opts: GqlOptions = {},
): Promise<HttpAnswer> {
  if (!opts.invalidOnPurpose && datahubSchema()) {
    assert.deepEqual(validateDocument(query, variables), [], `document not valid against DataHub's schema:\n${query}`);
  }
  return request(`${catalog.url}/api/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...opts.headers },
    body: JSON.stringify(variables === undefined ? { query } : { query, variables }),
  });
}

/** `data` of a GraphQL answer that must have no errors. */
export async function gqlData(catalog: RunningCatalog, query: string, variables?: Json): Promise<Json> {
  const r = await gql(catalog, query, variables);
  assert.equal(r.status, 200);
  assert.equal(r.body['errors'], undefined, `unexpected errors: ${JSON.stringify(r.body['errors'])}`);
  assert.deepEqual(r.body['extensions'], {});
  return r.body['data'] as Json;
}

/** The one error of a GraphQL answer, with its message and DataHub-like code. */
export function onlyError(r: HttpAnswer): { message: string; code: unknown; type: unknown; path: unknown } {
  const errors = r.body['errors'] as Json[] | undefined;
  assert.ok(errors && errors.length === 1, `expected one error, got ${JSON.stringify(errors)}`);
  const e = errors[0]!;
  const ext = e['extensions'] as Json;
  return { message: e['message'] as string, code: ext['code'], type: ext['type'], path: e['path'] };
}

/** A proposal as DataHub's REST emitter sends it (metadata-ingestion/src/datahub/emitter/rest_emitter.py). */
export function proposal(
  entityType: string,
  entityUrn: string,
  aspectName: string,
  value: unknown,
  extra: Json = {},
): Json {
  return {
    entityType,
    entityUrn,
    changeType: 'UPSERT',
    aspectName,
    aspect: { value: typeof value === 'string' ? value : JSON.stringify(value), contentType: 'application/json' },
    ...extra,
  };
}

/** POST /aspects?action=ingestProposal with a raw body (string) or `{proposal, async: "false"}`. */
export async function ingestRaw(
  catalog: RunningCatalog,
  body: string,
  action = 'ingestProposal',
  headers: Record<string, string> = {},
): Promise<HttpAnswer> {
  return request(`${catalog.url}/aspects?action=${action}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-RestLi-Protocol-Version': '2.0.0', ...headers },
    body,
  });
}

export async function ingest(
  catalog: RunningCatalog,
  p: Json,
  headers: Record<string, string> = {},
): Promise<HttpAnswer> {
  return ingestRaw(catalog, JSON.stringify({ proposal: p, async: 'false' }), 'ingestProposal', headers);
}

/** Writes a proposal that must succeed. */
export async function write(
  catalog: RunningCatalog,
  entityType: string,
  urn: string,
  aspectName: string,
  value: unknown,
  extra: Json = {},
): Promise<void> {
  const r = await ingest(catalog, proposal(entityType, urn, aspectName, value, extra));
  assert.equal(r.status, 200, `write of ${aspectName} to ${urn} failed: ${JSON.stringify(r.body)}`);
  assert.deepEqual(r.body, { value: 'success' });
}

export async function getAspect(
  catalog: RunningCatalog,
  urn: string,
  aspect: string,
  headers: Record<string, string> = {},
): Promise<HttpAnswer> {
  return request(`${catalog.url}/aspects/${encodeUrnForPath(urn)}?aspect=${aspect}&version=0`, { headers });
}

/** The bare aspect value, or undefined on 404. */
export async function aspectValue(
  catalog: RunningCatalog,
  urn: string,
  aspect: string,
  fqcn: string,
): Promise<Json | undefined> {
  const r = await getAspect(catalog, urn, aspect);
  if (r.status === 404) return undefined;
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return (r.body['aspect'] as Json)[fqcn] as Json;
}

export async function getEntity(catalog: RunningCatalog, urn: string, aspects?: string[]): Promise<HttpAnswer> {
  const q = aspects ? `?aspects=List(${aspects.join(',')})` : '';
  return request(`${catalog.url}/entitiesV2/${encodeUrnForPath(urn)}${q}`);
}

/** The current version of an aspect as entitiesV2 reports it ("-1" when absent). */
export async function versionOf(catalog: RunningCatalog, urn: string, aspect: string): Promise<string> {
  const r = await getEntity(catalog, urn, [aspect]);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const env = (r.body['aspects'] as Json)[aspect] as Json | undefined;
  return env ? ((env['systemMetadata'] as Json)['version'] as string) : '-1';
}

/** Asserts a Rest.li error body with `status` and a message matching `pattern`. */
export function assertRestLiError(r: HttpAnswer, status: number, pattern: RegExp): void {
  assert.equal(r.status, status, `expected ${status}, got ${r.status}: ${JSON.stringify(r.body)}`);
  assert.equal(r.body['exceptionClass'], 'com.linkedin.restli.server.RestLiServiceException');
  assert.equal(r.body['status'], status);
  assert.match(r.body['message'] as string, pattern);
}
