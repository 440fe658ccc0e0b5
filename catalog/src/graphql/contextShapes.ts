/**
 * What else DataHub knows of an entity, as its GraphQL answers it: `ownership`, `tags`,
 * `glossaryTerms`, `domain`, `deprecation`, `siblings` (datasets) and `lineage(input)`, built from
 * the stored aspects the way DataHub's mappers build them (datahub-graphql-core
 * …/types/common/mappers/OwnershipMapper, GlobalTagsMapper, GlossaryTermsMapper,
 * DomainAssociation in the entity mappers, DeprecationMapper, SiblingsMapper; lineage from
 * EntityLineageResultResolver). Every field is a function, so a query pays only for what it selects.
 *
 * Entities this catalog does not store (corpGroup, tag, glossaryTerm, domain) are answered as
 * DataHub answers an entity it holds no aspect of: an object with the URN and the names the URN
 * itself gives (a tag's name, a term's hierarchical name, a domain's id), `properties` not served.
 */
import { type AspectName } from '../../../model/src/aspects';
import { isViewKind, type LookupKind } from '../../../model/src/kinds';
import { isRecord } from '../../../model/src/json';
import { parseUrn } from '../../../model/src/urn';
import { badRequest } from '../errors';
import { corpUserNode, entityNode, type ReadContext } from './readShapes';
import { kindWordOf, viewNode } from './viewShapes';

type Json = Record<string, unknown>;

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const records = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isRecord) : []);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** The id after `urn:<ns>:<type>:` of a URN with a one-part key (tag, glossaryTerm, domain, corpGroup). */
function idOf(urn: string): string {
  const parsed = parseUrn(urn);
  if (parsed.ok && parsed.urn.kind === 'other') return parsed.urn.id;
  if (parsed.ok && parsed.urn.kind === 'dataPlatform') return parsed.urn.platform;
  return urn;
}

function typeOf(urn: string): string | undefined {
  const parsed = parseUrn(urn);
  if (!parsed.ok) return undefined;
  return parsed.urn.kind === 'other' ? parsed.urn.entityType : parsed.urn.kind;
}

/** Any URN an aspect names: one of the five kinds stored here (with what is stored), or a node of the names its URN gives. */
function anyEntityNode(ctx: ReadContext, urn: string): Json | null {
  const parsed = parseUrn(urn);
  if (!parsed.ok) return null;
  const key = ctx.namespaces.keyOf(urn);
  if (key !== undefined) {
    const stored = entityNode(ctx, urn, parsed.urn, key);
    if (stored) return stored;
    const word = kindWordOf(parsed.urn);
    if (isViewKind(word) && ctx.store.hasAny(key)) return viewNode(ctx, urn, parsed.urn, word, key);
  }
  switch (typeOf(urn)) {
    case 'corpuser':
      return corpUserNode(urn);
    case 'corpGroup':
      return { __typename: 'CorpGroup', urn, type: 'CORP_GROUP', name: idOf(urn), exists: null };
    case 'tag':
      return { __typename: 'Tag', urn, type: 'TAG', name: idOf(urn) };
    case 'glossaryTerm': {
      // GlossaryTermMapper: hierarchicalName is the URN's id; name its last dotted part (GlossaryTermUtils).
      const id = idOf(urn);
      return {
        __typename: 'GlossaryTerm',
        urn,
        type: 'GLOSSARY_TERM',
        name: id.split('.').pop() ?? id,
        hierarchicalName: id,
      };
    }
    case 'domain':
      return { __typename: 'Domain', urn, type: 'DOMAIN', id: idOf(urn) };
    case 'dataPlatform':
      return { __typename: 'DataPlatform', urn, type: 'DATA_PLATFORM', name: idOf(urn) };
    default:
      return null;
  }
}

function ownership(ctx: ReadContext, v: Json | undefined, associatedUrn: string): Json | null {
  if (!v) return null;
  const stamp = isRecord(v['lastModified']) ? v['lastModified'] : undefined;
  return {
    owners: records(v['owners']).flatMap((o) => {
      const owner = str(o['owner']);
      const node = owner ? anyEntityNode(ctx, owner) : null;
      // OwnerType is CorpUser | CorpGroup: an owner of another type has no place in the answer.
      if (!node || (node['__typename'] !== 'CorpUser' && node['__typename'] !== 'CorpGroup')) return [];
      return [{ owner: node, type: str(o['type']), associatedUrn }];
    }),
    // The PDL's default when the aspect was written without one.
    lastModified: {
      time: num(stamp?.['time']) ?? 0,
      actor: str(stamp?.['actor']) ?? 'urn:li:corpuser:unknown',
    },
  };
}

function globalTags(ctx: ReadContext, v: Json | undefined, associatedUrn: string): Json | null {
  if (!v) return null;
  return {
    tags: records(v['tags']).flatMap((t) => {
      const tag = str(t['tag']);
      const node = tag ? anyEntityNode(ctx, tag) : null;
      return node ? [{ tag: node, associatedUrn, context: str(t['context']) }] : [];
    }),
  };
}

function glossaryTerms(ctx: ReadContext, v: Json | undefined, associatedUrn: string): Json | null {
  if (!v) return null;
  return {
    terms: records(v['terms']).flatMap((t) => {
      const term = str(t['urn']);
      const node = term ? anyEntityNode(ctx, term) : null;
      if (!node) return [];
      const actor = str(t['actor']);
      return [{ term: node, actor: actor ? corpUserNode(actor) : null, associatedUrn, context: str(t['context']) }];
    }),
  };
}

/** DataHub's UI and `domain` field show one domain: the first of the aspect's list (DatasetMapper, MLModelMapper …). */
function domain(ctx: ReadContext, v: Json | undefined, associatedUrn: string): Json | null {
  const first = strings(v?.['domains'])[0];
  const node = first ? anyEntityNode(ctx, first) : null;
  return node ? { domain: node, associatedUrn } : null;
}

function deprecation(ctx: ReadContext, v: Json | undefined): Json | null {
  if (!v) return null;
  const replacement = str(v['replacement']);
  return {
    deprecated: v['deprecated'] === true,
    decommissionTime: num(v['decommissionTime']),
    note: str(v['note']),
    actor: str(v['actor']),
    replacement: () => (replacement ? anyEntityNode(ctx, replacement) : null),
  };
}

function siblings(ctx: ReadContext, v: Json | undefined): Json | null {
  if (!v) return null;
  return {
    isPrimary: typeof v['primary'] === 'boolean' ? v['primary'] : null,
    siblings: () => strings(v['siblings']).map((s) => anyEntityNode(ctx, s)),
  };
}

/**
 * The URNs of a list: strings, and union members as DataHub writes them (chartInfo.inputs is an
 * array of the union ChartDataSourceType: `[{"string": "urn:li:dataset:…"}]`).
 */
const urnsOf = (v: unknown): string[] =>
  Array.isArray(v)
    ? v.flatMap((x): string[] => {
        if (typeof x === 'string') return [x];
        const member = isRecord(x) && Object.keys(x).length === 1 ? Object.values(x)[0] : undefined;
        return typeof member === 'string' ? [member] : [];
      })
    : [];

/** The URNs an aspect names in a list of URNs and in its list of edges (DataHub's `…Edges[].destinationUrn`). */
const named = (v: Json, list: string, edges: string): string[] => [
  ...urnsOf(v[list]),
  ...records(v[edges]).flatMap((e) => strings([e['destinationUrn']])),
];

/**
 * One lineage edge kind: entities of `holder` whose `aspect` names other entities under DataHub's
 * relationship name `type` (the PDLs' @Relationship with isLineage). Most name their upstreams
 * (`upstreams`: UpstreamLineage.upstreams[].dataset "DownstreamOf", MLFeatureProperties.sources
 * "DerivedFrom", MLModelProperties.mlFeatures "Consumes", DataJobInputOutput.inputDatasets
 * "Consumes" and inputDatajobs "DownstreamOf", ChartInfo.inputs "Consumes", DashboardInfo.charts
 * "Contains" and datasets "Consumes"); a job names its outputs, which are downstream of it
 * (`downstreams`: DataJobInputOutput.outputDatasets "Produces", isUpstream false).
 */
interface LineageEdge {
  holder: LookupKind;
  /** The aspect's name (each is written on the holder's kind only). */
  aspect: string;
  upstreams?: (value: Json) => string[];
  downstreams?: (value: Json) => string[];
  type: string;
}

const LINEAGE_EDGES: readonly LineageEdge[] = [
  {
    holder: 'dataset',
    aspect: 'upstreamLineage',
    upstreams: (v) => records(v['upstreams']).flatMap((u) => strings([u['dataset']])),
    type: 'DownstreamOf',
  },
  { holder: 'mlFeature', aspect: 'mlFeatureProperties', upstreams: (v) => strings(v['sources']), type: 'DerivedFrom' },
  { holder: 'mlModel', aspect: 'mlModelProperties', upstreams: (v) => strings(v['mlFeatures']), type: 'Consumes' },
  {
    holder: 'dataJob',
    aspect: 'dataJobInputOutput',
    upstreams: (v) => named(v, 'inputDatasets', 'inputDatasetEdges'),
    type: 'Consumes',
  },
  {
    holder: 'dataJob',
    aspect: 'dataJobInputOutput',
    upstreams: (v) => named(v, 'inputDatajobs', 'inputDatajobEdges'),
    type: 'DownstreamOf',
  },
  {
    holder: 'dataJob',
    aspect: 'dataJobInputOutput',
    downstreams: (v) => named(v, 'outputDatasets', 'outputDatasetEdges'),
    type: 'Produces',
  },
  { holder: 'chart', aspect: 'chartInfo', upstreams: (v) => named(v, 'inputs', 'inputEdges'), type: 'Consumes' },
  {
    holder: 'dashboard',
    aspect: 'dashboardInfo',
    upstreams: (v) => named(v, 'charts', 'chartEdges'),
    type: 'Contains',
  },
  {
    holder: 'dashboard',
    aspect: 'dashboardInfo',
    upstreams: (v) => named(v, 'datasets', 'datasetEdges'),
    type: 'Consumes',
  },
];

/** Most relationships one lineage answer holds (DataHub's default page is 100). */
const MAX_LINEAGE_COUNT = 1000;

interface LineageArgs {
  input: { direction: 'UPSTREAM' | 'DOWNSTREAM'; start?: number | null; count?: number | null };
}

/**
 * `lineage(input: {direction, start, count})`: the entities one hop away (degree 1), as DataHub's
 * EntityLineageResultResolver answers for one hop. One way: what this entity's own aspects name
 * that way (a job's inputs are upstream of it, its outputs downstream). The other way: every stored
 * entity whose aspect names this one (compared as keys, so both namespace words are one entity in
 * the spec mode): a dataset's downstream holds the datasets, features, jobs and charts that read
 * it; its upstream the jobs that produce it.
 */
function lineage(ctx: ReadContext, kind: LookupKind, key: string, args: LineageArgs): Json {
  const start = args.input.start ?? 0;
  const count = args.input.count ?? 100;
  if (start < 0) throw badRequest(`lineage(input.start): must be 0 or more, found ${start}`);
  if (count < 0 || count > MAX_LINEAGE_COUNT)
    throw badRequest(`lineage(input.count): must be between 0 and ${MAX_LINEAGE_COUNT}, found ${count}`);
  const found: Array<{ urn: string; type: string }> = [];
  const seen = new Set<string>();
  const add = (urn: string, type: string): void => {
    const k = ctx.namespaces.keyOf(urn) ?? urn;
    if (seen.has(k) || k === key) return;
    seen.add(k);
    found.push({ urn, type });
  };
  const up = args.input.direction === 'UPSTREAM';
  // Named by this entity's own aspects, this way.
  for (const edge of LINEAGE_EDGES.filter((e) => e.holder === kind)) {
    const names = up ? edge.upstreams : edge.downstreams;
    const value = names ? ctx.store.getRaw(key, edge.aspect)?.value : undefined;
    if (names && isRecord(value)) for (const u of names(value)) add(u, edge.type);
  }
  // Entities whose aspects name this one the other way.
  for (const edge of LINEAGE_EDGES) {
    const names = up ? edge.downstreams : edge.upstreams;
    if (!names) continue;
    for (const row of ctx.store.valuesOfAspect(edge.aspect)) {
      if (!isRecord(row.value)) continue;
      if (names(row.value).some((u) => ctx.namespaces.keyOf(u) === key)) add(row.urn, edge.type);
    }
  }
  const page = found.slice(start, start + count);
  return {
    start,
    count: page.length,
    total: found.length,
    filtered: 0,
    relationships: page.map(({ urn, type }) => ({ type, entity: anyEntityNode(ctx, urn), degree: 1 })),
  };
}

/**
 * The fields above for one entity node: `ownership`, `tags`, `glossaryTerms`, `domain`,
 * `deprecation` and `lineage` on every kind, `siblings` on datasets.
 */
export function contextFields(ctx: ReadContext, kind: LookupKind, requested: string, key: string): Json {
  const value = (aspect: AspectName): Json | undefined => ctx.value(key, aspect);
  return {
    ownership: () => ownership(ctx, value('ownership'), requested),
    tags: () => globalTags(ctx, value('globalTags'), requested),
    glossaryTerms: () => glossaryTerms(ctx, value('glossaryTerms'), requested),
    domain: () => domain(ctx, value('domains'), requested),
    deprecation: () => deprecation(ctx, value('deprecation')),
    lineage: (args: LineageArgs) => lineage(ctx, kind, key, args),
    ...(kind === 'dataset' ? { siblings: () => siblings(ctx, value('siblings')) } : {}),
  };
}
