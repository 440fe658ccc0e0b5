/**
 * Resolution: what the catalog is asked about the URNs of some scans (each once, batched), the
 * details of deprecated entities, a dataset's siblings merged in, and which URNs it lacks.
 */
import { isViewKind, type LookupKind } from '../../../model/src/kinds';
import {
  shownColumns,
  shownDatasetDescription,
  siblingUrns,
  withSiblings,
  type GqlDataset,
  type GqlDeprecation,
} from '../../../model/src/readShapes';
import type { CatalogClient, Resolution, ResolutionLookup } from '../catalogClient/client';
import { searchNamed } from '../catalogClient/search';
import type { ScanResult } from '../scan/types';
import { lookupOf } from './lookup';

/**
 * What resolving needs of a catalog client: resolve (batched, cached) and what is cached already;
 * and a GraphQL read, when it has one, for the details of deprecated entities; and how fresh its
 * answers are, when it can tell (Check Workspace keeps what it found of unchanged files by them).
 */
export type Resolver = Pick<CatalogClient, 'resolve' | 'cached'> &
  Partial<Pick<CatalogClient, 'read' | 'readDeprecationDetails' | 'searches' | 'answersReplaced' | 'answerExpires'>>;

export interface ResolvableItem {
  urn: string;
  kind: LookupKind;
  /** A domain written by what may be its name (UrnOccurrence.byName): looked up by it when `urn` is missing. */
  byName?: string;
}

/** What the catalog is asked about the scans: each URN once (a schemaField's dataset for it), in order of appearance. */
export function resolvableItems(scans: Iterable<ScanResult>): ResolvableItem[] {
  const items: ResolvableItem[] = [];
  const seen = new Set<string>();
  for (const scan of scans) {
    for (const o of scan.occurrences) {
      if (o.template || !o.parsed?.ok || seen.has(o.urn)) continue;
      const lookup = lookupOf(o.parsed.urn, o.urn);
      if (!lookup || seen.has(lookup.urn)) continue;
      // A platform in a dataset's key, a flow in a job's: part of the outer URN's name, not looked up
      // with the document (a hover on it asks for it).
      if (o.parent !== undefined && isViewKind(lookup.kind)) continue;
      seen.add(lookup.urn);
      items.push({ urn: lookup.urn, kind: lookup.kind, ...(o.byName !== undefined ? { byName: o.byName } : {}) });
    }
  }
  return items;
}

/**
 * Asks the catalog about `items` (one batched resolve) and answers what it said, or what the
 * client has cached for URNs it was not asked about. A cancelled `signal` stops the wait.
 */
export async function resolveItems(
  client: Resolver,
  items: readonly ResolvableItem[],
  signal?: AbortSignal,
): Promise<ResolutionLookup> {
  const res = items.length > 0 ? await client.resolve(items, signal) : new Map<string, Resolution>();
  await deprecationDetails(client, res, signal);
  const named = await byName(client, items, res, signal);
  // Siblings of datasets that lack a description or a column's: asked in a batch of their own, so
  // the first batches stay as cheap as before (DataHub's UI shows a dataset merged with them).
  const wanted = siblingsWanted(res);
  const more = wanted.size > 0 ? await client.resolve([...wanted.values()], signal) : new Map<string, Resolution>();
  return lookupOver(client, res, named, more);
}

/**
 * What resolveItems answers, at once, when all of it is cached: every item answered, no deprecation
 * details or name to look up, no sibling to ask. Undefined when resolveItems would ask or wait.
 */
export function resolvedNow(client: Resolver, items: readonly ResolvableItem[]): ResolutionLookup | undefined {
  const res = new Map<string, Resolution>();
  for (const { urn } of items) {
    if (res.has(urn)) continue;
    const hit = client.cached(urn);
    if (!hit) return undefined;
    res.set(urn, hit);
  }
  if (client.readDeprecationDetails && deprecationsToRead(res).length > 0) return undefined;
  if (
    client.read &&
    client.searches &&
    items.some((i) => i.byName !== undefined && res.get(i.urn)?.state === 'missing')
  )
    return undefined;
  if (siblingsWanted(res).size > 0) return undefined;
  return lookupOver(client, res, new Map(), new Map());
}

/** The siblings to ask for the datasets of `res` that lack a description or a column's, when not answered already. */
function siblingsWanted(res: ReadonlyMap<string, Resolution>): Map<string, ResolvableItem> {
  const wanted = new Map<string, ResolvableItem>();
  for (const r of res.values()) {
    if (r.state !== 'found' || r.kind !== 'dataset') continue;
    const siblings = siblingUrns(r.entity);
    if (siblings.length === 0 || !lacksText(r.entity)) continue;
    for (const urn of siblings) if (!res.has(urn)) wanted.set(urn, { urn, kind: 'dataset' });
  }
  return wanted;
}

/** The lookup over the answers: by name first, then the items', then the cache; a dataset merged with its siblings. */
function lookupOver(
  client: Resolver,
  res: ReadonlyMap<string, Resolution>,
  named: ReadonlyMap<string, Resolution>,
  more: ReadonlyMap<string, Resolution>,
): ResolutionLookup {
  const first: ResolutionLookup = (urn) => named.get(urn) ?? res.get(urn) ?? client.cached(urn);
  const merged = new Map<string, Resolution>();
  return (urn) => {
    const r = first(urn);
    if (!r || r.state !== 'found' || r.kind !== 'dataset' || !r.entity.siblings) return r;
    const hit = merged.get(urn);
    if (hit) return hit;
    const siblings = siblingUrns(r.entity).flatMap((u) => {
      const s = more.get(u) ?? first(u);
      return s?.state === 'found' && s.kind === 'dataset' ? [s.entity] : [];
    });
    const { entity, from } = withSiblings(r.entity, siblings);
    const out: Resolution = from ? { ...r, entity, sibling: from } : r;
    merged.set(urn, out);
    return out;
  };
}

/**
 * The entities of the items written by name (a domain in DataHub's YAML) that the catalog lacks
 * under the name taken as an id: the one a search finds whose name is exactly that name, as
 * DataHub's DomainRegistry falls back to get_domain_urn_by_name (an EQUAL filter on `name`). Each
 * answered under the item's URN; a failed search, or no such name, leaves the item missing.
 */
async function byName(
  client: Resolver,
  items: readonly ResolvableItem[],
  res: ReadonlyMap<string, Resolution>,
  signal?: AbortSignal,
): Promise<Map<string, Resolution>> {
  const out = new Map<string, Resolution>();
  const { read, searches } = client;
  if (!read || !searches) return out;
  const reader = { read: read.bind(client), searches };
  const todo = items.filter(
    (i) => i.byName !== undefined && (res.get(i.urn) ?? client.cached(i.urn))?.state === 'missing',
  );
  const alias = new Map<string, string>();
  const wanted = new Map<string, ResolvableItem>();
  await Promise.all(
    todo.map(async (item) => {
      const r = await searchNamed(reader, [item.kind], item.byName!, 20, signal);
      const hit =
        r.error === undefined ? r.items.find((x) => x.kind === item.kind && x.displayName === item.byName) : undefined;
      if (!hit) return;
      alias.set(item.urn, hit.urn);
      wanted.set(hit.urn, { urn: hit.urn, kind: item.kind });
    }),
  );
  if (wanted.size === 0) return out;
  const answers = await client.resolve([...wanted.values()], signal);
  for (const [urn, real] of alias) {
    const a = answers.get(real) ?? client.cached(real);
    if (a?.state === 'found') out.set(urn, a);
  }
  return out;
}

/**
 * The note, date and replacement of the deprecated entities among `res` that lack them (the batches
 * carry only the flag): asked in documents of their own, written into the resolved entities (so
 * the cache keeps them too). A catalog that cannot answer leaves the flag alone: the diagnostic then
 * says "deprecated" without them.
 */
async function deprecationDetails(
  client: Resolver,
  res: ReadonlyMap<string, Resolution>,
  signal?: AbortSignal,
): Promise<void> {
  if (!client.readDeprecationDetails) return;
  const todo = deprecationsToRead(res);
  if (todo.length === 0) return;
  const details = await client.readDeprecationDetails(todo, signal);
  for (const item of todo) {
    const d = details.get(item.urn);
    if (d) Object.assign(item.deprecation, d);
  }
}

/** The deprecated entities among `res` whose note, date and replacement are not read yet. */
function deprecationsToRead(
  res: ReadonlyMap<string, Resolution>,
): Array<{ urn: string; kind: LookupKind; deprecation: GqlDeprecation }> {
  const todo: Array<{ urn: string; kind: LookupKind; deprecation: GqlDeprecation }> = [];
  for (const [urn, r] of res) {
    const d = r.state === 'found' ? r.entity.deprecation : undefined;
    if (r.state === 'found' && d?.deprecated === true && d.note === undefined)
      todo.push({ urn, kind: r.kind, deprecation: d });
  }
  return todo;
}

/** A dataset without a description, or with a column without one: a sibling may have them. */
function lacksText(d: GqlDataset): boolean {
  return !shownDatasetDescription(d) || shownColumns(d).some((c) => !c.description) || d.schemaMetadata === null;
}

/** The URNs of a scan the catalog answered it lacks (each once), for did-you-mean. */
export function unknownItems(scan: ScanResult, resolved: ResolutionLookup): ResolvableItem[] {
  const out: ResolvableItem[] = [];
  const seen = new Set<string>();
  for (const o of scan.occurrences) {
    if (o.template || !o.parsed?.ok || o.parent !== undefined || seen.has(o.urn)) continue;
    const lookup = lookupOf(o.parsed.urn, o.urn);
    if (!lookup || lookup.column !== undefined || lookup.urn !== o.urn) continue;
    seen.add(o.urn);
    if (resolved(o.urn)?.state === 'missing')
      out.push({ urn: o.urn, kind: lookup.kind, ...(o.byName !== undefined ? { byName: o.byName } : {}) });
  }
  return out;
}
