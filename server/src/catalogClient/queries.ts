/**
 * Every GraphQL document the server sends is built here, so a test can enumerate them and
 * validate each against DataHub's schema. Selections are the read shapes of model/src/readShapes.ts,
 * plus DataHub's edited
 * descriptions (`editableProperties`, `editableSchemaMetadata`) so the user sees what they wrote,
 * and `exists`: DataHub answers an object for any well-formed URN, real or not
 * (DatasetType.batchLoad; EntityExistsResolver), so null alone cannot mean "not in the catalog".
 */
import {
  isCatalogKind,
  isViewKind,
  lookupGraphqlEntityTypeOf,
  VIEW_KINDS,
  viewOf,
  type CatalogKind,
  type LookupKind,
} from '../../../model/src/kinds';
import { documentCost, type QueryCost } from './cost';

interface KindQuery {
  field: string;
  type: string;
  fragment: string;
  selection: string;
}

const PLATFORM = 'platform { urn name }';
/**
 * Whether the entity is deprecated: diagnostics flag it. Only the flag rides in the
 * batches (2 per entity); the note, date and replacement of the few deprecated ones are asked
 * after, in a document of their own (deprecationDetailsQuery).
 */
const DEPRECATION = 'deprecation { deprecated }';
const DEPRECATION_DETAILS = 'deprecation { deprecated note decommissionTime replacement { urn } }';
/**
 * A dataset's siblings (a dbt model and its warehouse table): their URNs only; each is resolved in
 * a batch of its own afterwards (pipeline/check.ts resolveItems), so this costs 4 per dataset.
 */
const SIBLINGS = 'siblings { isPrimary siblings { urn } }';

export const KIND_QUERIES: Readonly<Record<CatalogKind, KindQuery>> = {
  dataset: {
    field: 'dataset',
    type: 'Dataset',
    fragment: 'DatasetFields',
    selection: `urn properties { name description } editableProperties { description }
    schemaMetadata { fields { fieldPath description nativeDataType } }
    editableSchemaMetadata { editableSchemaFieldInfo { fieldPath description } } exists ${DEPRECATION}
    ${SIBLINGS}`,
  },
  mlFeature: {
    field: 'mlFeature',
    type: 'MLFeature',
    fragment: 'MLFeatureFields',
    selection: `urn name featureNamespace description properties { description dataType version { versionTag } } editableProperties { description } exists ${DEPRECATION}`,
  },
  mlFeatureTable: {
    field: 'mlFeatureTable',
    type: 'MLFeatureTable',
    fragment: 'MLFeatureTableFields',
    selection: `urn name description ${PLATFORM} properties { description mlFeatures { urn name } } editableProperties { description } exists ${DEPRECATION}`,
  },
  mlModel: {
    field: 'mlModel',
    type: 'MLModel',
    fragment: 'MLModelFields',
    selection: `urn name description ${PLATFORM} properties { description version type mlFeatures groups { urn name } } editableProperties { description } exists ${DEPRECATION}`,
  },
  mlModelGroup: {
    field: 'mlModelGroup',
    type: 'MLModelGroup',
    fragment: 'MLModelGroupFields',
    selection: `urn name description ${PLATFORM} properties { description } editableProperties { description } exists ${DEPRECATION}`,
  },
};

/**
 * The query of any looked-up kind: the catalog kinds' above, or a looked-up-only kind's from its
 * row (model/src/kinds.ts `view`), with `exists` and the deprecation flag where its type has them.
 */
export function kindQuery(kind: LookupKind): KindQuery {
  if (!isViewKind(kind)) return KIND_QUERIES[kind];
  const v = viewOf(kind);
  return {
    field: v.field,
    type: v.typename,
    fragment: `${v.typename}Fields`,
    selection: `${v.selection}${v.exists ? ' exists' : ''}${v.deprecation ? ` ${DEPRECATION}` : ''}`,
  };
}

/** Whether the GraphQL type of `kind` has DataHub's `deprecation` field. */
export function hasDeprecation(kind: LookupKind): boolean {
  return !isViewKind(kind) || viewOf(kind).deprecation;
}

/** The note, date and replacement of deprecated entities (each under its alias `e0` …, variable `u0` …). */
export function deprecationDetailsQuery(items: ReadonlyArray<{ urn: string; kind: LookupKind }>): BatchQuery {
  const variables: Record<string, string> = {};
  const aliases = new Map<string, string>();
  const fields = items.map(({ urn, kind }, i) => {
    variables[`u${i}`] = urn;
    aliases.set(`e${i}`, urn);
    return `e${i}: ${kindQuery(kind).field}(urn: $u${i}) { ${DEPRECATION_DETAILS} }`;
  });
  const params = items.map((_, i) => `$u${i}: String!`).join(', ');
  return { query: `query deprecationDetails(${params}) {\n  ${fields.join('\n  ')}\n}\n`, variables, aliases };
}

/**
 * Whether entities exist (each under its alias `e0` …, variable `u0` …): DataHub's `entityExists`
 * (EntityExistsResolver), asked for the few URNs whose resolve alias failed. Some of DataHub's
 * loaders fail for an entity nobody wrote (IncidentMapper, FormMapper: a non-null field without its
 * aspect) instead of answering an object whose `exists` is false.
 */
export function existsQuery(urns: readonly string[]): BatchQuery {
  const variables: Record<string, string> = {};
  const aliases = new Map<string, string>();
  const fields = urns.map((urn, i) => {
    variables[`u${i}`] = urn;
    aliases.set(`e${i}`, urn);
    return `e${i}: entityExists(urn: $u${i})`;
  });
  const params = urns.map((_, i) => `$u${i}: String!`).join(', ');
  return { query: `query entitiesExist(${params}) {\n  ${fields.join('\n  ')}\n}\n`, variables, aliases };
}

export interface BatchQuery {
  query: string;
  variables: Record<string, string>;
  /** alias → URN */
  aliases: Map<string, string>;
}

/**
 * One document resolving every URN given, each under its own alias (`e0`, `e1` …) with its
 * own variable; a fragment per kind used keeps the document small.
 */
export function batchQuery(items: ReadonlyArray<{ urn: string; kind: LookupKind }>): BatchQuery {
  const variables: Record<string, string> = {};
  const aliases = new Map<string, string>();
  const kinds = new Set<LookupKind>();
  const fields: string[] = [];
  items.forEach(({ urn, kind }, i) => {
    const q = kindQuery(kind);
    kinds.add(kind);
    variables[`u${i}`] = urn;
    aliases.set(`e${i}`, urn);
    fields.push(`e${i}: ${q.field}(urn: $u${i}) { ...${q.fragment} }`);
  });
  const params = items.map((_, i) => `$u${i}: String!`).join(', ');
  const fragments = [...kinds].map((k) => {
    const q = kindQuery(k);
    return `fragment ${q.fragment} on ${q.type} { ${q.selection} }`;
  });
  return {
    query: `query resolveEntities(${params}) {\n  ${fields.join('\n  ')}\n}\n${fragments.join('\n')}\n`,
    variables,
    aliases,
  };
}

const kindCosts = new Map<LookupKind, QueryCost>();

/** What one aliased root field of `kind` costs in a batch (its fragment counted at its spread). */
export function costOfOne(kind: LookupKind): QueryCost {
  let c = kindCosts.get(kind);
  if (!c) {
    c = documentCost(batchQuery([{ urn: 'x', kind }]).query);
    kindCosts.set(kind, c);
  }
  return c;
}

export interface BatchLimits {
  /** Most URNs per document (catalogLens.batchSize). */
  maxItems: number;
  /**
   * Most complexity per document, as graphql-java counts it (catalogLens.graphqlComplexityBudget).
   * Depth needs no limit here: it does not add up over root fields, and no kind's selection is
   * deeper than 5 (DataHub allows 50; test/server/queryCost.test.ts checks every document).
   */
  complexity: number;
}

/**
 * Splits items into documents that each stay within every limit, in order. The cost of a batch is
 * the sum of its root fields' costs (fragment definitions cost nothing until spread), so it is
 * planned without building the document; a test checks the plan against the built document.
 * An item that alone exceeds the budget goes alone: the catalog's answer says so for that URN.
 */
export function planBatches<T extends { kind: LookupKind }>(items: readonly T[], limits: BatchLimits): T[][] {
  const out: T[][] = [];
  let current: T[] = [];
  let cost = 0;
  for (const item of items) {
    const c = costOfOne(item.kind).complexity;
    if (current.length > 0 && (current.length >= limits.maxItems || cost + c > limits.complexity)) {
      out.push(current);
      current = [];
      cost = 0;
    }
    current.push(item);
    cost += c;
  }
  if (current.length > 0) out.push(current);
  return out;
}

/**
 * What else the catalog knows of one entity (context.ts reads the answer), asked lazily
 * at hover. Display names come from the entities' properties where DataHub has them (a domain's or
 * a term's name: UI-made ones have opaque ids), else from the URN (`username`, a tag's `name`, a
 * term's last part). Lineage asks for one relationship only: `total` is the count
 * (EntityLineageResultResolver counts every relationship of the hop, whatever the page).
 */
const CONTEXT_SELECTION = `urn
  ownership { owners { owner { ... on CorpUser { urn username properties { displayName } } ... on CorpGroup { urn name properties { displayName } } } } }
  tags { tags { tag { urn name properties { name } } } }
  glossaryTerms { terms { term { urn name properties { name } } } }
  domain { domain { urn id properties { name } } }
  deprecation { deprecated note decommissionTime replacement { urn type } }
  up: lineage(input: { direction: UPSTREAM, start: 0, count: 1 }) { total }
  down: lineage(input: { direction: DOWNSTREAM, start: 0, count: 1 }) { total }`;

/** The lines of CONTEXT_SELECTION by the field they ask (`up` and `down` are `lineage`). */
const CONTEXT_LINES = CONTEXT_SELECTION.split('\n').map((l) => l.trim());

/**
 * The context a looked-up-only kind's type has: its row's context fields, `deprecation` where the
 * type has it, and `urn`.
 */
function viewContextSelection(kind: LookupKind): string {
  if (!isViewKind(kind)) return CONTEXT_SELECTION;
  const v = viewOf(kind);
  const wanted = new Set<string>([...v.context, ...(v.deprecation ? ['deprecation'] : [])]);
  return CONTEXT_LINES.filter((l) => {
    const word = /^(\w+)/.exec(l)?.[1] ?? '';
    return word === 'urn' || wanted.has(word === 'up' || word === 'down' ? 'lineage' : word);
  }).join('\n  ');
}

/** The fragment `ContextFields`: what else the catalog knows of an entity of `kind`. */
function contextFragment(kind: LookupKind): string {
  return `fragment ContextFields on ${kindQuery(kind).type} {\n  ${viewContextSelection(kind)}\n}\n`;
}

/** The document asking what else the catalog knows of one entity of `kind` (variable `urn`, answer `e0`). */
export function contextQuery(kind: LookupKind): string {
  const { field } = kindQuery(kind);
  return `query entityContext($urn: String!) {\n  e0: ${field}(urn: $urn) { ...ContextFields }\n}\n${contextFragment(kind)}`;
}

/** The alias of the context in resolveWithContextQuery's document. */
export const CONTEXT_ALIAS = 'c0';

/**
 * One entity's resolve (alias `e0`, variable `u0`, the selection of batchQuery) and what else the
 * catalog knows of it (alias `c0`, the selection of contextQuery) in one document: a cold hover's
 * one request. Two aliases, so that an error in the context leaves the resolve whole.
 */
export function resolveWithContextQuery(item: { urn: string; kind: LookupKind }): BatchQuery {
  const q = kindQuery(item.kind);
  return {
    query: `query entityWithContext($u0: String!) {\n  e0: ${q.field}(urn: $u0) { ...${q.fragment} }\n  ${CONTEXT_ALIAS}: ${q.field}(urn: $u0) { ...ContextFields }\n}\nfragment ${q.fragment} on ${q.type} { ${q.selection} }\n${contextFragment(item.kind)}`,
    variables: { u0: item.urn },
    aliases: new Map([['e0', item.urn]]),
  };
}

/** Names, kinds and platforms of the entities a lineage hop lists (DataHub answers any entity type there). */
const LINEAGE_ENTITY = `urn type
  ... on Dataset { name platform { name } }
  ... on MLFeature { name featureNamespace }
  ... on MLFeatureTable { name platform { name } }
  ... on MLModel { name platform { name } }
  ... on MLModelGroup { name platform { name } }
  ... on DataJob { jobId properties { name } dataFlow { orchestrator } }
  ... on Chart { tool properties { name } }
  ... on Dashboard { tool properties { name } }`;

/**
 * The kinds whose lineage is read: the catalog kinds, and the looked-up kinds DataHub's lineage
 * walks through (a data job between the datasets it reads and writes, a chart and the dashboard
 * holding it, a flow).
 */
export type LineageKind = CatalogKind | 'dataFlow' | 'dataJob' | 'chart' | 'dashboard';
const LINEAGE_VIEW_KINDS: ReadonlySet<string> = new Set(['dataFlow', 'dataJob', 'chart', 'dashboard']);

/** Whether the lineage of an entity of `kind` is read (lineageQuery takes it). */
export function isLineageKind(kind: string): kind is LineageKind {
  return isCatalogKind(kind) || LINEAGE_VIEW_KINDS.has(kind);
}

/**
 * One lineage hop of one entity of `kind` (variables `urn`, `direction` UPSTREAM or DOWNSTREAM,
 * `count`): DataHub's `lineage` field (EntityLineageResultResolver), for the lineage view and the
 * impact tool.
 */
export function lineageQuery(kind: LineageKind): string {
  const { field } = kindQuery(kind);
  return `query entityLineage($urn: String!, $direction: LineageDirection!, $count: Int!) {\n  e0: ${field}(urn: $urn) { urn lineage(input: { direction: $direction, start: 0, count: $count }) { total relationships { type degree entity { ${LINEAGE_ENTITY} } } } }\n}\n`;
}

/**
 * What a search row reads of an entity: its URN, type and the descriptions DataHub's UI picks from.
 * The name, platform and feature table are the URN's own (search.ts searchItemOf): asking for
 * `name`, `platform { name }` or `featureNamespace` too made every answer ~27 % larger (a
 * completion's 50 rows: 13.3 → 9.7 kB) and the catalog resolve each row's platform.
 */
const SEARCH_ENTITY = `urn type
  ... on Dataset { properties { description } editableProperties { description } }
  ... on MLFeature { description properties { description } editableProperties { description } }
  ... on MLFeatureTable { description properties { description } editableProperties { description } }
  ... on MLModel { description properties { description } editableProperties { description } }
  ... on MLModelGroup { description properties { description } editableProperties { description } }`;

/**
 * A search across entity types (variable `input`: DataHub's SearchAcrossEntitiesInput): DataHub's
 * search bar (SearchAcrossEntitiesResolver), full text, for "Catalog: Search…" and did-you-mean.
 */
export const SEARCH_ENTITIES = `query searchEntities($input: SearchAcrossEntitiesInput!) {
  searchAcrossEntities(input: $input) { start count total searchResults { entity { ${SEARCH_ENTITY} } } }
}
`;

/**
 * Names that start as typed (variable `input`: DataHub's AutoCompleteMultipleInput): DataHub's
 * search-bar suggestions (AutoCompleteForMultipleResolver), for completion.
 */
export const AUTOCOMPLETE_ENTITIES = `query autoCompleteEntities($input: AutoCompleteMultipleInput!) {
  autoCompleteForMultiple(input: $input) { suggestions { type entities { ${SEARCH_ENTITY} } } }
}
`;

/**
 * The fields a selection must hold to read `paths` (dotted, `a|b` alternatives) from an answer,
 * each top-level field under the alias `alias(field)`: `editableProperties.displayName` →
 * `corpuser_editableProperties: editableProperties { displayName }`.
 */
function selectionOf(paths: readonly string[], alias: (field: string) => string): string {
  type Tree = Map<string, Tree>;
  const root: Tree = new Map();
  for (const path of paths.flatMap((p) => p.split('|'))) {
    let here = root;
    for (const step of path.split('.')) {
      const next = here.get(step) ?? new Map();
      here.set(step, next);
      here = next;
    }
  }
  const print = (t: Tree, top: boolean): string =>
    [...t]
      .map(([field, sub]) => {
        const name = top ? `${alias(field)}: ${field}` : field;
        return sub.size === 0 ? name : `${name} { ${print(sub, false)} }`;
      })
      .join(' ');
  return print(root, true);
}

/**
 * The alias a looked-up-only kind's fields have in namedSearchQuery: the types answer fields of
 * one name with different nullability (a tag's `properties.name` is `String!`, a domain's
 * `String`), which one selection cannot merge.
 */
function namedAlias(kind: LookupKind, field: string): string {
  return `${kind}_${field}`;
}

/** The paths of `paths` in a namedSearchQuery answer of `kind` (their first field aliased). */
export function namedPaths(kind: LookupKind, paths: readonly string[]): string[] {
  return paths.map((p) =>
    p
      .split('|')
      .map((alt) => namedAlias(kind, alt))
      .join('|'),
  );
}

/**
 * A search of looked-up-only kinds (variable `input`: DataHub's SearchAcrossEntitiesInput, `types`
 * their GraphQL types), each entity with what its row names as its display name and description
 * (read with namedPaths): completion of users, tags, terms … by the names people know them by.
 */
export function namedSearchQuery(kinds: readonly LookupKind[]): string {
  const fragments = kinds.flatMap((kind) => {
    if (!isViewKind(kind)) return [];
    const view = viewOf(kind);
    const fields = selectionOf([...view.name, ...view.description], (f) => namedAlias(kind, f));
    return fields ? [`... on ${view.typename} { ${fields} }`] : [];
  });
  const entity = ['urn type', ...fragments].join('\n  ');
  return `query searchNamed($input: SearchAcrossEntitiesInput!) {\n  searchAcrossEntities(input: $input) { start count total searchResults { entity { ${entity} } } }\n}\n`;
}

/** Mutations of the GraphQL write path (`catalogLens.writePath: graphql`). */
export const UPDATE_DATASET = `mutation updateDataset($urn: String!, $input: DatasetUpdateInput!) {
  updateDataset(urn: $urn, input: $input) { urn }
}`;

export const UPDATE_DESCRIPTION = `mutation updateDescription($input: DescriptionUpdateInput!) {
  updateDescription(input: $input)
}`;

/** A structured property definition's description (or display name), as DataHub's UI changes it. */
export const UPDATE_STRUCTURED_PROPERTY = `mutation updateStructuredProperty($input: UpdateStructuredPropertyInput!) {
  updateStructuredProperty(input: $input) { urn }
}`;

/**
 * Links of a dataset (its `institutionalMemory`), read before `addLink` so that a link is added
 * only when no element has its url (DataHub's addLink itself compares url and label).
 */
export const DATASET_LINKS = `query datasetLinks($urn: String!) {
  dataset(urn: $urn) { urn exists institutionalMemory { elements { url label } } }
}`;

/**
 * DataHub's own mutation for one link (AddLinkResolver, LinkUtils.addLink): it appends to
 * `institutionalMemory`, keeps every other element, and refuses an entity that does not exist —
 * unlike `updateDataset`, which replaces the element list with the one sent.
 */
export const ADD_LINK = `mutation addLink($input: AddLinkInput!) {
  addLink(input: $input)
}`;

/**
 * Tags, glossary terms and owners appended through DataHub's own mutations and removed again
 * (AddTagsResolver, AddTermsResolver, AddOwnersResolver; RemoveTagResolver, RemoveTermResolver,
 * RemoveOwnerResolver in datahub-graphql-core/.../resolvers/mutate/): each appends what the list
 * lacks and keeps the rest (LabelUtils.addTagsIfNotExists, addTermsIfNotExists;
 * OwnerServiceUtils.addOwnerToAspect replaces only the same owner of the same type).
 */
export const ADD_TAGS = `mutation addTags($input: AddTagsInput!) {
  addTags(input: $input)
}`;

export const REMOVE_TAG = `mutation removeTag($input: TagAssociationInput!) {
  removeTag(input: $input)
}`;

export const ADD_TERMS = `mutation addTerms($input: AddTermsInput!) {
  addTerms(input: $input)
}`;

export const REMOVE_TERM = `mutation removeTerm($input: TermAssociationInput!) {
  removeTerm(input: $input)
}`;

export const ADD_OWNERS = `mutation addOwners($input: AddOwnersInput!) {
  addOwners(input: $input)
}`;

export const REMOVE_OWNER = `mutation removeOwner($input: RemoveOwnerInput!) {
  removeOwner(input: $input)
}`;

/** A cheap query for the connection test: any answer (even null) proves endpoint and token. */
export const PING = `query ping($u0: String!) { e0: dataset(urn: $u0) { urn } }`;

/** A URN of a looked-up-only kind, for the documents' sample variables. */
export function viewSample(ns: string, kind: LookupKind): string {
  const flow = `urn:${ns}:dataFlow:(airflow,daily_etl,PROD)`;
  const ids: Partial<Record<LookupKind, string>> = {
    dataFlow: '(airflow,daily_etl,PROD)',
    dataJob: `(${flow},load_users)`,
    chart: '(looker,chart_1)',
    dashboard: '(looker,dash_1)',
    container: '25384e01fcde1063114925e9661766e7',
    dataPlatformInstance: `(urn:${ns}:dataPlatform:mysql,prod_instance)`,
    notebook: '(querybook,773)',
  };
  return `urn:${ns}:${kind}:${ids[kind] ?? 'sample'}`;
}

/** Every document shape the server can send, with sample variables, for the validation test. */
export function everyDocument(ns = 'li'): Array<{ name: string; query: string; variables: Record<string, unknown> }> {
  const samples: Array<{ urn: string; kind: LookupKind }> = [
    { urn: `urn:${ns}:dataset:(urn:${ns}:dataPlatform:hive,db.users,PROD)`, kind: 'dataset' },
    { urn: `urn:${ns}:mlFeature:(users_table,age)`, kind: 'mlFeature' },
    { urn: `urn:${ns}:mlFeatureTable:(urn:${ns}:dataPlatform:feast,users_table)`, kind: 'mlFeatureTable' },
    { urn: `urn:${ns}:mlModel:(urn:${ns}:dataPlatform:mlflow,churn-model-v3,PROD)`, kind: 'mlModel' },
    { urn: `urn:${ns}:mlModelGroup:(urn:${ns}:dataPlatform:mlflow,churn-model,PROD)`, kind: 'mlModelGroup' },
    ...VIEW_KINDS.map((kind) => ({ urn: viewSample(ns, kind), kind })),
  ];
  const docs: ReturnType<typeof everyDocument> = samples.map((s) => {
    const b = batchQuery([s]);
    return { name: `resolve ${s.kind}`, query: b.query, variables: b.variables };
  });
  const all = batchQuery(samples);
  docs.push({ name: 'resolve every kind in one document', query: all.query, variables: all.variables });
  docs.push({ name: 'ping', query: PING, variables: { u0: samples[0]!.urn } });
  for (const s of samples)
    docs.push({ name: `context of ${s.kind}`, query: contextQuery(s.kind), variables: { urn: s.urn } });
  for (const s of samples) {
    const b = resolveWithContextQuery(s);
    docs.push({ name: `resolve ${s.kind} with its context`, query: b.query, variables: b.variables });
  }
  const exist = existsQuery(samples.map((s) => s.urn));
  docs.push({ name: 'exists of every kind', query: exist.query, variables: exist.variables });
  const details = deprecationDetailsQuery(samples.filter((s) => hasDeprecation(s.kind)));
  docs.push({ name: 'deprecation details of every kind', query: details.query, variables: details.variables });
  for (const s of samples)
    if (isLineageKind(s.kind))
      docs.push({
        name: `lineage of ${s.kind}`,
        query: lineageQuery(s.kind),
        variables: { urn: s.urn, direction: 'DOWNSTREAM', count: 100 },
      });
  docs.push({
    name: 'updateDataset',
    query: UPDATE_DATASET,
    variables: {
      urn: samples[0]!.urn,
      input: { editableProperties: { description: 'd' } },
    },
  });
  docs.push({ name: 'datasetLinks', query: DATASET_LINKS, variables: { urn: samples[0]!.urn } });
  docs.push({
    name: 'addLink',
    query: ADD_LINK,
    variables: { input: { linkUrl: 'https://x', label: 'doc', resourceUrn: samples[0]!.urn } },
  });
  docs.push({
    name: 'updateDescription',
    query: UPDATE_DESCRIPTION,
    variables: {
      input: {
        description: 'd',
        resourceUrn: samples[0]!.urn,
        subResource: 'user_id',
        subResourceType: 'DATASET_FIELD',
      },
    },
  });
  docs.push({
    name: 'updateStructuredProperty',
    query: UPDATE_STRUCTURED_PROPERTY,
    variables: { input: { urn: `urn:${ns}:structuredProperty:io.acryl.privacy.retentionTime`, description: 'd' } },
  });
  const resourceUrn = samples[0]!.urn;
  const column = { subResource: 'user_id', subResourceType: 'DATASET_FIELD' };
  docs.push(
    { name: 'addTags', query: ADD_TAGS, variables: { input: { tagUrns: [`urn:${ns}:tag:pii`], resourceUrn } } },
    {
      name: 'addTags to a column',
      query: ADD_TAGS,
      variables: { input: { tagUrns: [`urn:${ns}:tag:pii`], resourceUrn, ...column } },
    },
    { name: 'removeTag', query: REMOVE_TAG, variables: { input: { tagUrn: `urn:${ns}:tag:pii`, resourceUrn } } },
    {
      name: 'addTerms',
      query: ADD_TERMS,
      variables: { input: { termUrns: [`urn:${ns}:glossaryTerm:Classification.Sensitive`], resourceUrn, ...column } },
    },
    {
      name: 'removeTerm',
      query: REMOVE_TERM,
      variables: { input: { termUrn: `urn:${ns}:glossaryTerm:Classification.Sensitive`, resourceUrn } },
    },
    {
      name: 'addOwners',
      query: ADD_OWNERS,
      variables: {
        input: {
          owners: [
            { ownerUrn: `urn:${ns}:corpuser:jdoe`, ownerEntityType: 'CORP_USER', type: 'TECHNICAL_OWNER' },
            {
              ownerUrn: `urn:${ns}:corpGroup:data-platform`,
              ownerEntityType: 'CORP_GROUP',
              type: 'CUSTOM',
              ownershipTypeUrn: `urn:${ns}:ownershipType:steward`,
            },
          ],
          resourceUrn,
        },
      },
    },
    {
      name: 'removeOwner',
      query: REMOVE_OWNER,
      variables: {
        input: {
          ownerUrn: `urn:${ns}:corpuser:jdoe`,
          ownershipTypeUrn: `urn:${ns}:ownershipType:__system__technical_owner`,
          resourceUrn,
        },
      },
    },
  );
  const orFilters = [{ and: [{ field: 'platform', values: [`urn:${ns}:dataPlatform:hive`] }] }];
  docs.push({
    name: 'searchAcrossEntities',
    query: SEARCH_ENTITIES,
    variables: { input: { query: 'users', types: ['DATASET', 'MLFEATURE'], start: 0, count: 10, orFilters } },
  });
  docs.push({
    name: 'searchAcrossEntities of every looked-up-only kind, named',
    query: namedSearchQuery(VIEW_KINDS),
    variables: { input: { query: 'rev', types: VIEW_KINDS.map(lookupGraphqlEntityTypeOf), start: 0, count: 10 } },
  });
  docs.push({
    name: 'autoCompleteForMultiple',
    query: AUTOCOMPLETE_ENTITIES,
    variables: { input: { query: 'us', types: ['DATASET'], limit: 10, orFilters } },
  });
  return docs;
}
