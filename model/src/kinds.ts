/**
 * The catalog kinds: the entity types Catalog Lens looks up in the catalog, shows and writes
 * (dataset and the four ML kinds), one row each, with everything a part of the extension needs to
 * know about a kind by name:
 *
 * - `kind`: the entity type word as URNs spell it (`urn:li:mlFeature:…`), DataHub's registry name;
 * - `graphqlEntityType`: DataHub's GraphQL `EntityType` enum value (`MLFEATURE`), as search
 *   filters and answers' `type` fields spell it;
 * - `propertiesAspect` and `keyAspect`: the aspects ingestion writes and the key DataHub builds
 *   from the URN (entity-registry.yml);
 * - `ml`: an ML entity (described by setMlDescription, created by createEntity, its edited
 *   description in an `editableMl…Properties` aspect);
 * - `label` (a hover's title, a page's heading), `plural` (a page's list heading) and `word` (the
 *   kind inside a sentence: "Expected a feature table URN").
 *
 * Every lookup below reads the table; none switches on the kind. Another kind of DataHub's
 * registry (corpuser, tag, glossaryTerm, container, chart, dataJob …, about 30 in all:
 * registry.ts) is added as a ROW here, not as new switch arms elsewhere.
 *
 * No imports: aspects.ts, urn.ts and entityNames.ts build on this file.
 */

interface KindRow {
  readonly kind: string;
  readonly graphqlEntityType: string;
  readonly propertiesAspect: string;
  readonly keyAspect: string;
  readonly ml: boolean;
  readonly label: string;
  readonly plural: string;
  readonly word: string;
}

const ROWS = [
  {
    kind: 'dataset',
    graphqlEntityType: 'DATASET',
    propertiesAspect: 'datasetProperties',
    keyAspect: 'datasetKey',
    ml: false,
    label: 'Dataset',
    plural: 'Datasets',
    word: 'dataset',
  },
  {
    kind: 'mlFeature',
    graphqlEntityType: 'MLFEATURE',
    propertiesAspect: 'mlFeatureProperties',
    keyAspect: 'mlFeatureKey',
    ml: true,
    label: 'ML feature',
    plural: 'ML features',
    word: 'ML feature',
  },
  {
    kind: 'mlFeatureTable',
    graphqlEntityType: 'MLFEATURE_TABLE',
    propertiesAspect: 'mlFeatureTableProperties',
    keyAspect: 'mlFeatureTableKey',
    ml: true,
    label: 'Feature table',
    plural: 'Feature tables',
    word: 'feature table',
  },
  {
    kind: 'mlModel',
    graphqlEntityType: 'MLMODEL',
    propertiesAspect: 'mlModelProperties',
    keyAspect: 'mlModelKey',
    ml: true,
    label: 'ML model',
    plural: 'ML models',
    word: 'ML model',
  },
  {
    kind: 'mlModelGroup',
    graphqlEntityType: 'MLMODEL_GROUP',
    propertiesAspect: 'mlModelGroupProperties',
    keyAspect: 'mlModelGroupKey',
    ml: true,
    label: 'Model group',
    plural: 'Model groups',
    word: 'model group',
  },
] as const satisfies readonly KindRow[];

type Row = (typeof ROWS)[number];

/** A catalog kind's word (`dataset`, `mlFeature` …). */
export type CatalogKind = Row['kind'];
/** DataHub's GraphQL `EntityType` enum value of a catalog kind (`DATASET`, `MLFEATURE` …). */
export type GraphqlEntityType = Row['graphqlEntityType'];
/** The properties aspect of a catalog kind (`datasetProperties` …). */
export type PropertiesAspect = Row['propertiesAspect'];
/** The ML kinds (every catalog kind but `dataset`). */
export type MlKind = Extract<Row, { ml: true }>['kind'];

/** How a kind is named to a person. */
export interface KindLabels {
  /** As a title or heading: `Feature table`. */
  label: string;
  /** As a list heading: `Feature tables`. */
  plural: string;
  /** Inside a sentence: `feature table`. */
  word: string;
}

/** Every catalog kind, in the table's order. */
export const CATALOG_KINDS: readonly CatalogKind[] = ROWS.map((r) => r.kind);

/** The ML kinds, in the table's order. */
export const ML_KINDS: readonly MlKind[] = ROWS.flatMap((r) => (r.ml ? [r.kind] : []));

const BY_KIND: ReadonlyMap<string, Row> = new Map(ROWS.map((r) => [r.kind, r]));
const BY_GRAPHQL_TYPE: ReadonlyMap<string, Row> = new Map(ROWS.map((r) => [r.graphqlEntityType, r]));

function rowOf(kind: CatalogKind): Row {
  return BY_KIND.get(kind)!;
}

/** Whether `word` is a catalog kind (a Map lookup: `constructor` and `__proto__` are not). */
export function isCatalogKind(word: string): word is CatalogKind {
  return BY_KIND.has(word);
}

/** Whether `word` is an ML kind. */
export function isMlKind(word: string): word is MlKind {
  return BY_KIND.get(word)?.ml === true;
}

/** DataHub's GraphQL `EntityType` of a kind: `mlFeatureTable` → `MLFEATURE_TABLE`. */
export function graphqlEntityTypeOf(kind: CatalogKind): GraphqlEntityType {
  return rowOf(kind).graphqlEntityType;
}

/** The catalog kind of a DataHub GraphQL `EntityType` (`MLMODEL` → `mlModel`); undefined for others (`CHART`). */
export function kindOfGraphqlEntityType(type: string): CatalogKind | undefined {
  return BY_GRAPHQL_TYPE.get(type)?.kind;
}

/** The aspect ingestion writes a kind's properties to: `mlModel` → `mlModelProperties`. */
export function propertiesAspectOf(kind: CatalogKind): PropertiesAspect {
  return rowOf(kind).propertiesAspect;
}

/** The key aspect DataHub builds from a kind's URN: `dataset` → `datasetKey`. */
export function keyAspectOf(kind: CatalogKind): string {
  return rowOf(kind).keyAspect;
}

/** How a kind is named to a person: `{ label: 'ML model', plural: 'ML models', word: 'ML model' }`. */
export function kindLabels(kind: CatalogKind): KindLabels {
  const { label, plural, word } = rowOf(kind);
  return { label, plural, word };
}
