/**
 * DataHub's search fields over the local catalog's search index (catalog/src/searchIndex.ts), with
 * DataHub's argument and result shapes (datahub-graphql-core/src/main/resources/search.graphql):
 * `searchAcrossEntities`, `autoComplete` and `autoCompleteForMultiple`. Filters: `platform` (a
 * platform URN, either namespace word, or its name) and `_entityType`/`entityType` (DataHub's
 * EntityType names), with EQUAL/IN (and CONTAIN on the platform name) and `negated`; an `orFilters`
 * entry is an AND of its filters, entries are ORed, as DataHub reads them. Anything else is refused
 * with a message naming it. `autoComplete*` answer the matched names as `suggestions` and the
 * entities in rank order, as DataHub's AutoCompleteResolver does; `limit` defaults to 10.
 */
import {
  CATALOG_KINDS,
  isViewKind,
  lookupGraphqlEntityTypeOf,
  lookupKindOfGraphqlEntityType,
  type LookupKind,
} from '../../../model/src/kinds';
import { parseUrn } from '../../../model/src/urn';
import { badRequest } from '../errors';
import type { SearchHit } from '../searchIndex';
import { entityNode, type ReadContext } from './readShapes';
import { kindWordOf, viewNode } from './viewShapes';

type Json = Record<string, unknown>;

/** Most results one request pages through (DataHub caps `count` at 10,000 by default; its UI asks 10–20). */
const MAX_COUNT = 1000;
const DEFAULT_LIMIT = 10;

interface Filter {
  field: string;
  value?: string | null;
  values?: string[] | null;
  negated?: boolean | null;
  condition?: 'CONTAIN' | 'EQUAL' | 'IN' | null;
}

interface SearchArgs {
  types?: string[] | null;
  scrollId?: string | null;
  type?: string | null;
  query: string;
  start?: number | null;
  count?: number | null;
  limit?: number | null;
  field?: string | null;
  orFilters?: Array<{ and?: Filter[] | null }> | null;
}

/**
 * Our kinds of DataHub's type names (those the catalog holds none of give nothing); the five
 * catalog kinds when none are named (users, tags … are searched when their types are named).
 */
function kindsOf(types: readonly string[] | null | undefined): LookupKind[] {
  if (!types || types.length === 0) return [...CATALOG_KINDS];
  return types.flatMap((t) => lookupKindOfGraphqlEntityType(t) ?? []);
}

/** A platform filter value as a platform name: `urn:li:dataPlatform:hive` (either word) or `hive`. */
function platformName(v: string): string {
  const p = parseUrn(v);
  return p.ok && p.urn.kind === 'dataPlatform' ? p.urn.platform : v;
}

const FIELDS = new Set(['platform', '_entityType', 'entityType']);

function checkFilter(f: Filter, where: string): void {
  if (!FIELDS.has(f.field))
    throw badRequest(`${where}.field: '${f.field}' is not a field this catalog filters by (platform, _entityType)`);
  if ((f.values ?? []).length === 0 && (f.value === undefined || f.value === null))
    throw badRequest(`${where}: give the values to filter ${f.field} by`);
  if (f.field !== 'platform' && f.condition === 'CONTAIN')
    throw badRequest(`${where}: ${f.field} takes EQUAL or IN, not CONTAIN`);
}

/** Whether a hit passes one filter (checked by checkFilter). */
function passes(hit: SearchHit, f: Filter, where: string): boolean {
  const values = [...(f.values ?? []), ...(f.value !== undefined && f.value !== null ? [f.value] : [])];
  if (values.length === 0) throw badRequest(`${where}: give the values to filter ${f.field} by`);
  const condition = f.condition ?? 'EQUAL';
  let ok: boolean;
  switch (f.field) {
    case 'platform': {
      const names = values.map(platformName);
      ok =
        hit.platform !== null &&
        (condition === 'CONTAIN' ? names.some((n) => hit.platform!.includes(n)) : names.includes(hit.platform));
      break;
    }
    case '_entityType':
    case 'entityType':
      if (condition === 'CONTAIN') throw badRequest(`${where}: ${f.field} takes EQUAL or IN, not CONTAIN`);
      ok = values.some((v) => lookupKindOfGraphqlEntityType(v) === hit.type);
      break;
    default:
      throw badRequest(`${where}.field: '${f.field}' is not a field this catalog filters by (platform, _entityType)`);
  }
  return f.negated === true ? !ok : ok;
}

function search(
  args: SearchArgs,
  ctx: ReadContext,
  where: string,
  count: number,
  start: number,
): SearchHit[] & { total?: number } {
  if (typeof args.query !== 'string') throw badRequest(`${where}.query: required`);
  if (args.field !== undefined && args.field !== null && args.field !== 'name')
    throw badRequest(`${where}.field: '${args.field}' is not a field this catalog completes (name)`);
  const kinds = kindsOf(args.types ?? (args.type ? [args.type] : null));
  const filters = args.orFilters ?? [];
  // Every filter is checked before the search: a wrong one is named whether or not anything matched.
  filters.forEach((o, i) => (o.and ?? []).forEach((f, j) => checkFilter(f, `${where}.orFilters[${i}].and[${j}]`)));
  const simple = pushedDown(filters);
  if (simple) {
    // Filters SQLite can apply itself: it filters, ranks and pages (searchIndex.ts).
    const types = simple.types ? kinds.filter((k) => simple.types!.includes(k)) : kinds;
    const { total, hits } = ctx.store.search.search({
      query: args.query,
      types,
      ...(simple.platforms ? { platforms: simple.platforms } : {}),
      start,
      count,
    });
    const page = hits as SearchHit[] & { total?: number };
    page.total = total;
    return page;
  }
  const { hits } = ctx.store.search.search({
    query: args.query,
    types: kinds,
    start: 0,
    count: Number.MAX_SAFE_INTEGER,
  });
  const kept = hits.filter((h) =>
    filters.some((o, i) => (o.and ?? []).every((f, j) => passes(h, f, `${where}.orFilters[${i}].and[${j}]`))),
  );
  const page = kept.slice(start, start + count) as SearchHit[] & { total?: number };
  page.total = kept.length;
  return page;
}

/**
 * The filters as the index's own (platform names, kinds) when they are one AND of positive
 * EQUAL/IN filters, at most one per field — what completion and the search bar send; else
 * undefined, and each hit is checked in JS.
 */
function pushedDown(
  filters: ReadonlyArray<{ and?: Filter[] | null }>,
): { platforms?: string[]; types?: LookupKind[] } | undefined {
  if (filters.length === 0) return {};
  if (filters.length > 1) return undefined;
  const out: { platforms?: string[]; types?: LookupKind[] } = {};
  for (const f of filters[0]!.and ?? []) {
    if (
      f.negated === true ||
      (f.condition !== undefined && f.condition !== null && f.condition !== 'EQUAL' && f.condition !== 'IN')
    )
      return undefined;
    const values = [...(f.values ?? []), ...(f.value !== undefined && f.value !== null ? [f.value] : [])];
    if (f.field === 'platform' && !out.platforms) out.platforms = values.map(platformName);
    else if ((f.field === '_entityType' || f.field === 'entityType') && !out.types)
      out.types = values.flatMap((v) => lookupKindOfGraphqlEntityType(v) ?? []);
    else return undefined;
  }
  return out;
}

function bounded(n: number | null | undefined, def: number, where: string, max = MAX_COUNT): number {
  if (n === undefined || n === null) return def;
  if (!Number.isInteger(n) || n < 0 || n > max) throw badRequest(`${where}: must be between 0 and ${max}, found ${n}`);
  return n;
}

function node(ctx: ReadContext, hit: SearchHit): Json | null {
  const parsed = parseUrn(hit.key);
  if (!parsed.ok) return null;
  const word = kindWordOf(parsed.urn);
  return isViewKind(word)
    ? viewNode(ctx, hit.key, parsed.urn, word, hit.key)
    : entityNode(ctx, hit.key, parsed.urn, hit.key);
}

function results(ctx: ReadContext, page: SearchHit[]): Json[] {
  ctx.readTogether(page.map((h) => h.key));
  return page.flatMap((h) => {
    const entity = node(ctx, h);
    return entity
      ? [
          {
            entity,
            matchedFields: [{ name: h.matched, value: h.matched === 'name' ? h.name : (h.description ?? '') }],
          },
        ]
      : [];
  });
}

/** The opaque scroll id: where the next page starts. DataHub's is an Elasticsearch search-after key; clients pass it back as given. */
const SCROLL_PREFIX = 'catalog-lens:';

function scrollStart(scrollId: string | null | undefined, where: string): number {
  if (scrollId === undefined || scrollId === null) return 0;
  const n = scrollId.startsWith(SCROLL_PREFIX) ? Number(scrollId.slice(SCROLL_PREFIX.length)) : NaN;
  if (!Number.isSafeInteger(n) || n < 0)
    throw badRequest(`${where}.scrollId: '${scrollId}' is not a scroll id this catalog gave (pass nextScrollId back)`);
  return n;
}

export const searchRoots = {
  searchAcrossEntities: (args: { input: SearchArgs }, ctx: ReadContext): Json => {
    const where = 'searchAcrossEntities(input)';
    const start = bounded(args.input.start, 0, `${where}.start`, Number.MAX_SAFE_INTEGER);
    const count = bounded(args.input.count, 10, `${where}.count`);
    const page = search(args.input, ctx, where, count, start);
    return {
      start,
      count: page.length,
      total: page.total ?? page.length,
      searchResults: results(ctx, page),
    };
  },
  /** Pages like searchAcrossEntities; `nextScrollId` is null on the last page, as DataHub's. */
  scrollAcrossEntities: (args: { input: SearchArgs }, ctx: ReadContext): Json => {
    const where = 'scrollAcrossEntities(input)';
    const start = scrollStart(args.input.scrollId, where);
    const count = bounded(args.input.count, 10, `${where}.count`);
    const page = search(args.input, ctx, where, count, start);
    const total = page.total ?? page.length;
    const next = start + page.length;
    return {
      nextScrollId: page.length > 0 && next < total ? `${SCROLL_PREFIX}${next}` : null,
      count: page.length,
      total,
      searchResults: results(ctx, page),
    };
  },
  autoComplete: (args: { input: SearchArgs }, ctx: ReadContext): Json => {
    const where = 'autoComplete(input)';
    if (args.input.query.trim() === '') throw badRequest(`${where}.query: type something to complete`);
    const limit = bounded(args.input.limit, DEFAULT_LIMIT, `${where}.limit`);
    const page = search(args.input, ctx, where, limit, 0);
    ctx.readTogether(page.map((h) => h.key));
    return {
      query: args.input.query,
      suggestions: page.map((h) => h.name),
      entities: page.flatMap((h) => node(ctx, h) ?? []),
    };
  },
  autoCompleteForMultiple: (args: { input: SearchArgs }, ctx: ReadContext): Json => {
    const where = 'autoCompleteForMultiple(input)';
    if (args.input.query.trim() === '') throw badRequest(`${where}.query: type something to complete`);
    const limit = bounded(args.input.limit, DEFAULT_LIMIT, `${where}.limit`);
    // Per type, in the order asked (DataHub's AutoCompleteForMultipleResolver answers one entry per searched type).
    const suggestions = kindsOf(args.input.types).flatMap((kind) => {
      const page = search({ ...args.input, types: [lookupGraphqlEntityTypeOf(kind)] }, ctx, where, limit, 0);
      ctx.readTogether(page.map((h) => h.key));
      return page.length === 0
        ? []
        : [
            {
              type: lookupGraphqlEntityTypeOf(kind),
              suggestions: page.map((h) => h.name),
              entities: page.flatMap((h) => node(ctx, h) ?? []),
            },
          ];
    });
    return { query: args.input.query, suggestions };
  },
};
