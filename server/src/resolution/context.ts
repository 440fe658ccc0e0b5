/**
 * What else the catalog knows of one entity: owners, tags, glossary terms, domain,
 * deprecation and how many entities are one hop up and down its lineage. Asked lazily, at hover,
 * one entity per document (queries.ts `contextQuery`), so the diagnostics' batches stay as they
 * were (their cost per entity and their query budget unchanged). Here: its answer, read.
 */
import type { LookupKind } from '../../../model/src/kinds';
import { isRecord } from '../../../model/src/json';
import type { CatalogClient, ContextAnswer } from '../catalogClient/client';
import { catalogClientError, type CatalogClientError } from '../catalogClient/errors';
import { contextQuery } from '../catalogClient/queries';

export interface Deprecated {
  note: string;
  /** Milliseconds since epoch, when the catalog names a date. */
  decommissionTime?: number;
  /** The entity to use instead, when the catalog names one. */
  replacement?: string;
}

export interface EntityContext {
  owners: string[];
  tags: string[];
  terms: string[];
  domain?: string;
  deprecation?: Deprecated;
  /** Entities one hop upstream / downstream; absent when the catalog did not say. */
  upstream?: number;
  downstream?: number;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const list = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter(isRecord) : []);
const props = (v: Record<string, unknown> | undefined, key: string): string | undefined =>
  isRecord(v?.['properties']) ? str(v['properties'][key]) : undefined;

/** The entity's answer (`data.e0`) read leniently: a missing or odd part is left out, never thrown. */
export function parseContext(entity: unknown): EntityContext | undefined {
  if (!isRecord(entity)) return undefined;
  const ownership = isRecord(entity['ownership']) ? entity['ownership'] : undefined;
  const owners = list(ownership?.['owners']).flatMap((o) => {
    const owner = isRecord(o['owner']) ? o['owner'] : undefined;
    const name = props(owner, 'displayName') ?? str(owner?.['username']) ?? str(owner?.['name']) ?? str(owner?.['urn']);
    return name ? [name] : [];
  });
  const tagsOf = isRecord(entity['tags']) ? entity['tags'] : undefined;
  const tags = list(tagsOf?.['tags']).flatMap((t) => {
    const tag = isRecord(t['tag']) ? t['tag'] : undefined;
    const name = props(tag, 'name') ?? str(tag?.['name']) ?? str(tag?.['urn']);
    return name ? [name] : [];
  });
  const termsOf = isRecord(entity['glossaryTerms']) ? entity['glossaryTerms'] : undefined;
  const terms = list(termsOf?.['terms']).flatMap((t) => {
    const term = isRecord(t['term']) ? t['term'] : undefined;
    const name = props(term, 'name') ?? str(term?.['name']) ?? str(term?.['urn']);
    return name ? [name] : [];
  });
  const domainOf =
    isRecord(entity['domain']) && isRecord(entity['domain']['domain']) ? entity['domain']['domain'] : undefined;
  const domain = props(domainOf, 'name') ?? str(domainOf?.['id']) ?? str(domainOf?.['urn']);
  const dep = isRecord(entity['deprecation']) ? entity['deprecation'] : undefined;
  const replacement = isRecord(dep?.['replacement']) ? str(dep['replacement']['urn']) : undefined;
  const decommission = dep?.['decommissionTime'];
  const total = (v: unknown): number | undefined =>
    isRecord(v) && typeof v['total'] === 'number' && Number.isInteger(v['total']) ? v['total'] : undefined;
  const upstream = total(entity['up']);
  const downstream = total(entity['down']);
  return {
    owners,
    tags,
    terms,
    ...(domain ? { domain } : {}),
    ...(dep?.['deprecated'] === true
      ? {
          deprecation: {
            note: str(dep['note']) ?? '',
            ...(typeof decommission === 'number' && Number.isFinite(decommission) && decommission > 0
              ? { decommissionTime: decommission }
              : {}),
            ...(replacement ? { replacement } : {}),
          },
        }
      : {}),
    ...(upstream !== undefined ? { upstream } : {}),
    ...(downstream !== undefined ? { downstream } : {}),
  };
}

/**
 * What else the catalog knows of `urn`, asked once per cache lifetime (the resolutions' TTL and
 * bound; dropped with them on Refresh and after a write). A catalog that cannot answer (an older
 * DataHub without one of the fields, a timeout) gives an error, which is not kept: the hover shows
 * what it has without these lines.
 */
export async function contextOf(
  client: CatalogClient,
  urn: string,
  kind: LookupKind,
  signal?: AbortSignal,
): Promise<EntityContext | CatalogClientError> {
  const hit = client.reads.get(urn);
  if (hit !== undefined) return hit as EntityContext;
  // Hovers at once on one entity (VS Code sends another as the mouse moves) share one request; a
  // cancelled caller stops waiting, the request goes on and fills the cache for the next one.
  let flights = inFlight.get(client);
  if (!flights) inFlight.set(client, (flights = new Map()));
  let flight = flights.get(urn);
  if (!flight) {
    flight = fetchContext(client, urn, kind).finally(() => flights.delete(urn));
    flights.set(urn, flight);
  }
  return raceAbort(flight, signal);
}

const inFlight = new WeakMap<CatalogClient, Map<string, Promise<EntityContext | CatalogClientError>>>();

/**
 * Asks the entity and what else the catalog knows of it in one document, when neither is known
 * nor being asked (a cold hover): the entity's resolve and contextOf then both wait on that one
 * request. A catalog that refuses such a document gets the context asked in one of its own.
 */
export function askWithEntity(client: CatalogClient, urn: string, kind: LookupKind): void {
  if (client.reads.get(urn) !== undefined) return;
  let flights = inFlight.get(client);
  if (flights?.has(urn)) return;
  const along = client.resolveWithContext({ urn, kind });
  if (!along) return;
  if (!flights) inFlight.set(client, (flights = new Map()));
  const own = flights;
  const flight = along
    .then((answer) => (answer === undefined ? fetchContext(client, urn, kind) : keepContext(client, urn, answer)))
    .finally(() => own.delete(urn));
  own.set(urn, flight);
}

async function fetchContext(
  client: CatalogClient,
  urn: string,
  kind: LookupKind,
): Promise<EntityContext | CatalogClientError> {
  const r = await client.read(contextQuery(kind), { urn });
  return keepContext(client, urn, r.ok ? { ok: true, entity: r.data['e0'] } : r);
}

/** The context read from the catalog's answer about `urn`, kept in the client's cache. */
function keepContext(client: CatalogClient, urn: string, answer: ContextAnswer): EntityContext | CatalogClientError {
  if (!answer.ok) return answer.error;
  const parsed = parseContext(answer.entity);
  if (!parsed) return catalogClientError('badResponse', `no entity in the answer about ${urn}`);
  client.reads.set(urn, parsed);
  return parsed;
}

/** `p`, or a cancellation error as soon as `signal` aborts (the work behind `p` goes on). */
function raceAbort<T>(p: Promise<T | CatalogClientError>, signal?: AbortSignal): Promise<T | CatalogClientError> {
  if (!signal) return p;
  const cancelled = (): CatalogClientError => catalogClientError('cancelled', 'the request was cancelled');
  if (signal.aborted) return Promise.resolve(cancelled());
  return new Promise((resolve) => {
    const onAbort = (): void => resolve(cancelled());
    signal.addEventListener('abort', onAbort, { once: true });
    void p.then((v) => {
      signal.removeEventListener('abort', onAbort);
      resolve(v);
    });
  });
}
