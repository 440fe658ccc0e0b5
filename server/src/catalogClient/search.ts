/**
 * The catalog's search, as DataHub's UI asks it: `searchAcrossEntities` (full text,
 * DataHub's search bar: SearchAcrossEntitiesResolver) for "Catalog: Search…", did-you-mean and the
 * completion of users, tags, terms … (searchNamed, with their display names), and
 * `autoCompleteForMultiple` (names as typed: AutoCompleteForMultipleResolver) for the completion of
 * datasets and ML entities. The
 * same documents go to DataHub and to the local catalog (queries.ts). Answers are kept for seconds
 * (client.searches, dropped after a write and on Refresh): completion asks again at every
 * keystroke, and the catalog changes under it.
 */
import { isRecord } from '../../../model/src/json';
import { SEARCH_PAGE, type SearchItem, type SearchResult } from '../../../model/src/protocol';
import { entityName } from '../../../model/src/entityNames';
import {
  CATALOG_KINDS,
  graphqlEntityTypeOf,
  isCatalogKind,
  kindOfGraphqlEntityType,
  firstValueAt,
  isViewKind,
  lookupGraphqlEntityTypeOf,
  lookupKindOfGraphqlEntityType,
  viewOf,
  type CatalogKind,
  type LookupKind,
} from '../../../model/src/kinds';
import { parseUrn } from '../../../model/src/urn';
import type { CatalogClient } from './client';
import { hintFor } from './errors';
import { AUTOCOMPLETE_ENTITIES, namedPaths, namedSearchQuery, SEARCH_ENTITIES } from './queries';

export interface SearchRequestOptions {
  /** What is typed; empty or `*` lists every entity the filters let through. */
  query: string;
  kinds?: readonly CatalogKind[];
  /** A platform name (`hive`). */
  platform?: string;
  count?: number;
  /** `search`: full text (names and descriptions, near spellings); `complete`: names as typed. */
  mode: 'search' | 'complete';
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const desc = (v: unknown): string | undefined => (isRecord(v) ? str(v['description'])?.trim() || undefined : undefined);

/** One entity of an answer as a row; undefined for one of another kind or without a URN. */
export function searchItemOf(entity: unknown): SearchItem | undefined {
  if (!isRecord(entity)) return undefined;
  const urn = str(entity['urn']);
  const parsed = urn ? parseUrn(urn) : undefined;
  if (!urn || !parsed?.ok) return undefined;
  const kind = kindOfGraphqlEntityType(str(entity['type']) ?? '') ?? parsed.urn.kind;
  if (!isCatalogKind(kind)) return undefined;
  // The URN's platform: what DataHub's `platform { name }` answers (the key's platformName), not asked for.
  const platform = 'platform' in parsed.urn ? parsed.urn.platform : undefined;
  // The description DataHub's UI shows: the edited one over the ingested one (then the entity's own field).
  const description = desc(entity['editableProperties']) ?? desc(entity['properties']) ?? desc(entity);
  return {
    urn,
    kind,
    name: parsed.urn.kind === 'mlFeature' ? parsed.urn.feature : entityName(parsed.urn),
    ...(platform ? { platform } : {}),
    ...(description ? { description } : {}),
  };
}

/** Entities matching `options`, best first; an error names the catalog's answer and what to do. */
export async function searchCatalog(
  client: CatalogClient,
  options: SearchRequestOptions,
  signal?: AbortSignal,
): Promise<SearchResult> {
  const count = Math.max(1, Math.min(options.count ?? SEARCH_PAGE, SEARCH_PAGE));
  const kinds = options.kinds && options.kinds.length > 0 ? options.kinds : CATALOG_KINDS;
  const query = options.query.trim() === '' ? '*' : options.query.trim();
  // A listing of everything is a search, whatever the mode: DataHub's autocomplete needs a prefix.
  const mode = query === '*' ? 'search' : options.mode;
  const key = JSON.stringify([mode, query, kinds, options.platform ?? '', count]);
  const hit = client.searches.get(key) as SearchResult | undefined;
  if (hit) return hit;

  const types = kinds.map((k) => graphqlEntityTypeOf(k));
  const orFilters = options.platform
    ? [{ and: [{ field: 'platform', values: [`urn:li:dataPlatform:${options.platform}`] }] }]
    : undefined;
  const input = {
    query,
    types,
    ...(mode === 'search' ? { start: 0, count } : { limit: count }),
    ...(orFilters ? { orFilters } : {}),
  };
  const r = await client.read(mode === 'search' ? SEARCH_ENTITIES : AUTOCOMPLETE_ENTITIES, { input }, signal);
  if (!r.ok) return { error: `${r.error.message}. ${hintFor(r.error)}` };
  const result = mode === 'search' ? fromSearch(r.data) : fromAutoComplete(r.data, types);
  // A platform filter the catalog could not apply (an older DataHub) is applied here too.
  const items = result.items
    .filter((i) => (!options.platform || i.platform === options.platform) && kinds.includes(i.kind))
    .slice(0, count);
  const answer = { items, total: Math.max(result.total, items.length) };
  client.searches.set(key, answer);
  return answer;
}

function fromSearch(data: Record<string, unknown>): { items: SearchItem[]; total: number } {
  const found = isRecord(data['searchAcrossEntities']) ? data['searchAcrossEntities'] : undefined;
  const results = Array.isArray(found?.['searchResults']) ? found['searchResults'].filter(isRecord) : [];
  const items = results.flatMap((r) => searchItemOf(r['entity']) ?? []);
  const total = typeof found?.['total'] === 'number' ? found['total'] : items.length;
  return { items, total };
}

/** autoCompleteForMultiple answers per type, in the order of `types`: merged, each type's order kept. */
function fromAutoComplete(
  data: Record<string, unknown>,
  types: readonly string[],
): { items: SearchItem[]; total: number } {
  const found = isRecord(data['autoCompleteForMultiple']) ? data['autoCompleteForMultiple'] : undefined;
  const perType = Array.isArray(found?.['suggestions']) ? found['suggestions'].filter(isRecord) : [];
  perType.sort((a, b) => types.indexOf(String(a['type'])) - types.indexOf(String(b['type'])));
  const seen = new Set<string>();
  const items = perType.flatMap((t) =>
    (Array.isArray(t['entities']) ? t['entities'] : []).flatMap((e) => {
      const item = searchItemOf(e);
      if (!item || seen.has(item.urn)) return [];
      seen.add(item.urn);
      return [item];
    }),
  );
  return { items, total: items.length };
}

/**
 * The URNs of entities of one looked-up kind whose names match `query` (searchAcrossEntities
 * filtered to the kind's type), best first: did-you-mean's search for any kind, users and tags
 * included (their rows are not search items of the protocol). An error is an empty list.
 */
export async function searchUrnsOfKind(
  client: CatalogClient,
  kind: LookupKind,
  query: string,
  count: number,
  signal?: AbortSignal,
): Promise<string[] | undefined> {
  const type = lookupGraphqlEntityTypeOf(kind);
  const input = { query: query.trim() === '' ? '*' : query.trim(), types: [type], start: 0, count };
  const key = JSON.stringify(['urns', input]);
  const hit = client.searches.get(key) as string[] | undefined;
  if (hit) return hit;
  const r = await client.read(SEARCH_ENTITIES, { input }, signal);
  if (!r.ok) return undefined;
  const found = isRecord(r.data['searchAcrossEntities']) ? r.data['searchAcrossEntities'] : undefined;
  const results = Array.isArray(found?.['searchResults']) ? found['searchResults'].filter(isRecord) : [];
  const urns = results.flatMap((x) => {
    const e = isRecord(x['entity']) ? x['entity'] : undefined;
    const urn = str(e?.['urn']);
    return urn && (e?.['type'] === undefined || e['type'] === type) ? [urn] : [];
  });
  client.searches.set(key, urns);
  return urns;
}

/** An entity of a looked-up-only kind as a search found it: its URN, kind, and the names its row reads. */
export interface NamedItem {
  urn: string;
  kind: LookupKind;
  /** What DataHub's UI calls it (a user's display name, a term's or domain's name), when it differs from nothing. */
  displayName?: string;
  description?: string;
}

export type NamedSearchResult = { items: NamedItem[]; total: number; error?: undefined } | { error: string };

/**
 * Entities of the looked-up-only `kinds` (users, groups, tags, terms …) matching `query`, best
 * first, each with its display name and description as its kind's row reads them (kinds.ts
 * `view`): searchAcrossEntities filtered to their types, one request, answers kept as the others.
 */
export async function searchNamed(
  client: Pick<CatalogClient, 'read' | 'searches'>,
  kinds: readonly LookupKind[],
  query: string,
  count: number,
  signal?: AbortSignal,
): Promise<NamedSearchResult> {
  const wanted = kinds.filter(isViewKind);
  if (wanted.length === 0) return { items: [], total: 0 };
  const types = wanted.map(lookupGraphqlEntityTypeOf);
  const input = {
    query: query.trim() === '' ? '*' : query.trim(),
    types,
    start: 0,
    count: Math.max(1, Math.min(count, SEARCH_PAGE)),
  };
  const key = JSON.stringify(['named', input]);
  const hit = client.searches.get(key) as NamedSearchResult | undefined;
  if (hit) return hit;
  const r = await client.read(namedSearchQuery(wanted), { input }, signal);
  if (!r.ok) return { error: `${r.error.message}. ${hintFor(r.error)}` };
  const found = isRecord(r.data['searchAcrossEntities']) ? r.data['searchAcrossEntities'] : undefined;
  const results = Array.isArray(found?.['searchResults']) ? found['searchResults'].filter(isRecord) : [];
  const items = results.flatMap((x): NamedItem[] => {
    const e = isRecord(x['entity']) ? x['entity'] : undefined;
    const urn = str(e?.['urn']);
    const parsed = urn ? parseUrn(urn) : undefined;
    if (!e || !urn || !parsed?.ok) return [];
    const typeName = str(e['type']);
    const kind =
      (typeName !== undefined ? lookupKindOfGraphqlEntityType(typeName) : undefined) ??
      (parsed.urn.kind === 'other' ? parsed.urn.entityType : parsed.urn.kind);
    if (!isViewKind(kind) || !wanted.includes(kind)) return [];
    const view = viewOf(kind);
    const displayName = firstValueAt(e, namedPaths(kind, view.name))?.trim();
    const description = firstValueAt(e, namedPaths(kind, view.description))?.trim();
    return [{ urn, kind, ...(displayName ? { displayName } : {}), ...(description ? { description } : {}) }];
  });
  const total = typeof found?.['total'] === 'number' ? found['total'] : items.length;
  const answer = { items, total: Math.max(total, items.length) };
  client.searches.set(key, answer);
  return answer;
}
