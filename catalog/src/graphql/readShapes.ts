/**
 * GraphQL read shapes (model/src/readShapes.ts) built from stored aspects, as DataHub's mappers build them:
 * ingested (`properties`, `schemaMetadata`) and edited (`editableProperties`,
 * `editableSchemaMetadata`) descriptions are kept apart. Objects are plain values whose costly
 * fields are functions, so graphql's default resolver loads only what a query selects.
 */
import { EXISTENCE_ASPECTS, textOf, type AspectName } from '../../../model/src/aspects';
import type { CatalogKind, LookupKind } from '../../../model/src/kinds';
import {
  parseUrn,
  type DatasetUrn,
  type MlFeatureTableUrn,
  type MlFeatureUrn,
  type MlModelGroupUrn,
  type MlModelUrn,
  type Urn,
} from '../../../model/src/urn';
import type { CompatMode } from '../compat';
import { badRequest } from '../errors';
import { isRecord } from '../../../model/src/json';
import type { NamespacePolicy } from '../namespaces';
import type { AspectStore, StoredAspect } from '../store';

type Json = Record<string, unknown>;

/** Per-request state: aspects are read once per entity and request. */
export class ReadContext {
  private readonly loaded = new Map<string, Map<AspectName, StoredAspect>>();

  constructor(
    readonly store: AspectStore,
    readonly namespaces: NamespacePolicy,
    readonly actor: string,
    readonly compat: CompatMode = 'spec',
    /**
     * More fields of every entity node (owners, tags, lineage …: contextShapes.ts), given by the
     * endpoint so that those shapes can build nodes of this module without an import cycle.
     */
    readonly moreFields: (ctx: ReadContext, kind: LookupKind, requested: string, key: string) => Json = () => ({}),
  ) {}

  aspectsOf(key: string): Map<AspectName, StoredAspect> {
    let m = this.loaded.get(key);
    if (!m) {
      m = this.store.getAll(key);
      this.loaded.set(key, m);
    }
    return m;
  }

  /** After a mutation wrote to `key`, later fields of the same request read the new values. */
  forget(key: string): void {
    this.loaded.delete(key);
    this.together?.delete(key);
  }

  /** The entities read together (readTogether), each with its group. */
  private together: Map<string, Together> | undefined;

  /**
   * The entities of a search page, whose nodes read few of their aspects (a completion asks the
   * descriptions): an aspect a field of one of them reads is read for all of them at once
   * (AspectStore.aspectOf: one statement, that aspect's values only), instead of every aspect of
   * each entity with its system metadata (`aspectsOf`), unless the store holds the entity whole in
   * its cache. What a field answers is the same.
   *
   * Limit: one entity's aspects are then read in separate statements (one per aspect), so another
   * process's commit between two of them can give a node, say, its ingested description from before
   * that commit and its edited one from after (getAll read each entity in one statement). The window
   * is the time between two statements of one page; a newer data_version seen at the second could
   * not mend values the first already answered, so it is left (a reader keeping one snapshot for the
   * whole request would hold the WAL open across the request's resolvers).
   */
  readTogether(keys: readonly string[]): void {
    // Entities the store has whole in its cache are taken from there, as `aspectsOf` would.
    for (const [key, m] of this.store.cachedAll(keys)) if (!this.loaded.has(key)) this.loaded.set(key, m);
    // An entity on two pages of one request (aliased searches) stays in its first group: read once.
    const group: Together = {
      keys: keys.filter((k) => !this.loaded.has(k) && !this.together?.has(k)),
      byAspect: new Map(),
      unreadable: new Set(),
    };
    if (group.keys.length === 0) return;
    this.together ??= new Map();
    for (const k of group.keys) this.together.set(k, group);
  }

  value(key: string, aspect: AspectName): Json | undefined {
    const all = this.loaded.get(key);
    if (all) return all.get(aspect)?.value;
    const group = this.together?.get(key);
    if (group) {
      let values = group.byAspect.get(aspect);
      if (!values) group.byAspect.set(aspect, (values = this.store.aspectOf(aspect, group.keys, group.unreadable)));
      if (!group.unreadable.has(key)) return values.get(key);
      // Its stored value does not parse: this entity alone is read whole from now on, as before
      // readTogether, and fails each field as it did (the same error); the page's others are answered.
      this.together?.delete(key);
    }
    return this.aspectsOf(key).get(aspect)?.value;
  }

  /** Spec: an aspect that creates the entity is stored. DataHub: any aspect (its key aspect comes with the first write). */
  exists(key: string, entityType: CatalogKind): boolean {
    const m = this.aspectsOf(key);
    if (this.compat === 'datahub') return m.size > 0 || this.store.hasAny(key);
    return EXISTENCE_ASPECTS[entityType].some((a) => m.has(a));
  }
}

/**
 * Entities read together: their keys, each aspect read so far with its values by key, and the keys
 * one of whose values read did not parse (AspectStore.aspectOf).
 */
interface Together {
  keys: string[];
  byAspect: Map<AspectName, Map<string, Json>>;
  unreadable: Set<string>;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function platformNode(ns: string, platform: string): Json {
  return {
    __typename: 'DataPlatform',
    urn: `urn:${ns}:dataPlatform:${platform}`,
    type: 'DATA_PLATFORM',
    name: platform,
  };
}

export function corpUserNode(urn: string): Json {
  const parsed = parseUrn(urn);
  const username = parsed.ok && parsed.urn.kind === 'corpuser' ? parsed.urn.user : urn.slice(urn.lastIndexOf(':') + 1);
  return { __typename: 'CorpUser', urn, type: 'CORP_USER', username, exists: null };
}

function auditStamp(v: unknown): Json | null {
  if (!isRecord(v)) return null;
  return { time: num(v['time']) ?? 0, actor: str(v['actor']) };
}

function customProperties(v: unknown, associatedUrn: string): Json[] | null {
  if (!isRecord(v)) return null;
  return Object.entries(v).map(([key, value]) => ({
    key,
    value: typeof value === 'string' ? value : value === null || value === undefined ? null : JSON.stringify(value),
    associatedUrn,
  }));
}

function versionTag(v: unknown): Json | null {
  return isRecord(v) ? { versionTag: str(v['versionTag']) } : null;
}

function institutionalMemory(v: Json | undefined, associatedUrn: string): Json | null {
  if (!v) return null;
  const elements = Array.isArray(v['elements']) ? v['elements'].filter(isRecord) : [];
  return {
    elements: elements.map((e) => {
      const description = textOf(e['description']) ?? '';
      const created = auditStamp(e['createStamp']) ?? { time: 0, actor: null };
      const actor = typeof created['actor'] === 'string' ? created['actor'] : '';
      return {
        url: str(e['url']) ?? '',
        label: description,
        description,
        created,
        author: corpUserNode(actor),
        associatedUrn,
      };
    }),
  };
}

/** Pegasus union member of `schemaMetadata.fields[].type.type` → DataHub's SchemaFieldDataType. */
const FIELD_TYPES: Record<string, string> = {
  BooleanType: 'BOOLEAN',
  FixedType: 'FIXED',
  StringType: 'STRING',
  BytesType: 'BYTES',
  NumberType: 'NUMBER',
  DateType: 'DATE',
  TimeType: 'TIME',
  EnumType: 'ENUM',
  NullType: 'NULL',
  MapType: 'MAP',
  ArrayType: 'ARRAY',
  UnionType: 'UNION',
  RecordType: 'STRUCT',
};

export function fieldType(v: unknown): string {
  const member = isRecord(v) && isRecord(v['type']) ? Object.keys(v['type'])[0] : undefined;
  return (member && FIELD_TYPES[member.slice(member.lastIndexOf('.') + 1)]) ?? 'NULL';
}

function schemaMetadata(v: Json, platformUrn: string): Json {
  const fields = Array.isArray(v['fields']) ? v['fields'].filter(isRecord) : [];
  return {
    name: str(v['schemaName']) ?? '',
    platformUrn: str(v['platform']) ?? platformUrn,
    version: num(v['version']) ?? 0,
    hash: str(v['hash']) ?? '',
    primaryKeys: Array.isArray(v['primaryKeys']) ? v['primaryKeys'].filter((k) => typeof k === 'string') : null,
    fields: fields.map((f) => ({
      fieldPath: str(f['fieldPath']) ?? '',
      label: str(f['label']),
      nullable: f['nullable'] === true,
      description: textOf(f['description']),
      type: fieldType(f['type']),
      nativeDataType: str(f['nativeDataType']),
      recursive: f['recursive'] === true,
      isPartOfKey: typeof f['isPartOfKey'] === 'boolean' ? f['isPartOfKey'] : null,
    })),
  };
}

export function datasetNode(ctx: ReadContext, requested: string, urn: DatasetUrn, key: string): Json {
  const props = (): Json | null => {
    const p = ctx.value(key, 'datasetProperties');
    if (!p) return null;
    return {
      name: str(p['name']) ?? urn.name,
      qualifiedName: str(p['qualifiedName']),
      description: textOf(p['description']),
      customProperties: customProperties(p['customProperties'], requested),
      externalUrl: str(p['externalUrl']),
    };
  };
  const platform = platformNode(urn.namespace, urn.platform);
  return {
    __typename: 'Dataset',
    urn: requested,
    type: 'DATASET',
    name: urn.name,
    platform,
    properties: props,
    editableProperties: () => {
      const e = ctx.value(key, 'editableDatasetProperties');
      return e ? { description: textOf(e['description']), name: str(e['name']) } : null;
    },
    institutionalMemory: () => institutionalMemory(ctx.value(key, 'institutionalMemory'), requested),
    schemaMetadata: (args: { version?: number | null }) => {
      if (args.version !== undefined && args.version !== null && args.version !== 0) {
        throw badRequest(
          `schemaMetadata(version: ${args.version}): only the latest version (0) is kept by this catalog`,
        );
      }
      const s = ctx.value(key, 'schemaMetadata');
      return s ? schemaMetadata(s, platform['urn'] as string) : null;
    },
    editableSchemaMetadata: () => {
      const e = ctx.value(key, 'editableSchemaMetadata');
      if (!e) return null;
      const infos = Array.isArray(e['editableSchemaFieldInfo']) ? e['editableSchemaFieldInfo'].filter(isRecord) : [];
      return {
        editableSchemaFieldInfo: infos.map((i) => ({
          fieldPath: str(i['fieldPath']) ?? '',
          description: textOf(i['description']),
        })),
      };
    },
    description: () => props()?.['description'] ?? null,
    exists: () => ctx.exists(key, 'dataset'),

    ...ctx.moreFields(ctx, 'dataset', requested, key),
  };
}

export function mlFeatureNode(ctx: ReadContext, requested: string, urn: MlFeatureUrn, key: string): Json {
  const props = (): Json | null => {
    const p = ctx.value(key, 'mlFeatureProperties');
    if (!p) return null;
    return {
      description: textOf(p['description']),
      dataType: str(p['dataType']),
      version: versionTag(p['version']),
      sources: () => (Array.isArray(p['sources']) ? p['sources'].map((s) => referenceNode(ctx, s, 'dataset')) : null),
      customProperties: customProperties(p['customProperties'], requested),
    };
  };
  return {
    __typename: 'MLFeature',
    urn: requested,
    type: 'MLFEATURE',
    name: urn.feature,
    featureNamespace: urn.table,
    description: () => props()?.['description'] ?? null,
    dataType: () => props()?.['dataType'] ?? null,
    properties: props,
    editableProperties: () => editableMl(ctx.value(key, 'editableMlFeatureProperties')),
    exists: () => ctx.exists(key, 'mlFeature'),

    ...ctx.moreFields(ctx, 'mlFeature', requested, key),
  };
}

export function mlFeatureTableNode(ctx: ReadContext, requested: string, urn: MlFeatureTableUrn, key: string): Json {
  const props = (): Json | null => {
    const p = ctx.value(key, 'mlFeatureTableProperties');
    if (!p) return null;
    return {
      description: textOf(p['description']),
      mlFeatures: () =>
        Array.isArray(p['mlFeatures']) ? p['mlFeatures'].map((f) => referenceNode(ctx, f, 'mlFeature')) : null,
      customProperties: customProperties(p['customProperties'], requested),
    };
  };
  return {
    __typename: 'MLFeatureTable',
    urn: requested,
    type: 'MLFEATURE_TABLE',
    name: urn.table,
    platform: platformNode(urn.namespace, urn.platform),
    description: () => props()?.['description'] ?? null,
    properties: props,
    editableProperties: () => editableMl(ctx.value(key, 'editableMlFeatureTableProperties')),
    exists: () => ctx.exists(key, 'mlFeatureTable'),

    ...ctx.moreFields(ctx, 'mlFeatureTable', requested, key),
  };
}

/**
 * An ML entity's edited description (its `editableMl…Properties` aspect), as DataHub's mappers
 * give it: an object whenever the aspect is stored, null otherwise (MLModelGroupMapper
 * `mapEditableProperties`, MLFeatureMapper, MLFeatureTableMapper, MLModelMapper).
 */
function editableMl(e: Json | undefined): Json | null {
  return e ? { description: textOf(e['description']) } : null;
}

/** MLModelProperties.version is a String in DataHub's schema: the aspect's versionTag. */
function modelVersion(v: unknown): string | null {
  if (typeof v === 'string') return v;
  return isRecord(v) ? str(v['versionTag']) : null;
}

function params(v: unknown): Json[] | null {
  if (!Array.isArray(v)) return null;
  return v.filter(isRecord).map((m) => ({
    name: str(m['name']),
    description: str(m['description']),
    value: str(m['value']),
    createdAt: num(m['createdAt']),
  }));
}

export function mlModelNode(ctx: ReadContext, requested: string, urn: MlModelUrn, key: string): Json {
  const props = (): Json | null => {
    const p = ctx.value(key, 'mlModelProperties');
    if (!p) return null;
    return {
      name: str(p['name']),
      description: textOf(p['description']),
      lastModified: auditStamp(p['lastModified']),
      created: auditStamp(p['created']),
      version: modelVersion(p['version']),
      type: str(p['type']),
      hyperParams: params(p['hyperParams']),
      trainingMetrics: params(p['trainingMetrics']),
      mlFeatures: Array.isArray(p['mlFeatures']) ? p['mlFeatures'].filter((f) => typeof f === 'string') : null,
      tags: Array.isArray(p['tags']) ? p['tags'].filter((t) => typeof t === 'string') : null,
      groups: () => (Array.isArray(p['groups']) ? p['groups'].map((g) => referenceNode(ctx, g, 'mlModelGroup')) : []),
      customProperties: customProperties(p['customProperties'], requested),
      externalUrl: str(p['externalUrl']),
    };
  };
  return {
    __typename: 'MLModel',
    urn: requested,
    type: 'MLMODEL',
    name: urn.name,
    platform: platformNode(urn.namespace, urn.platform),
    description: () => props()?.['description'] ?? null,
    properties: props,
    institutionalMemory: () => institutionalMemory(ctx.value(key, 'institutionalMemory'), requested),
    editableProperties: () => editableMl(ctx.value(key, 'editableMlModelProperties')),
    exists: () => ctx.exists(key, 'mlModel'),

    ...ctx.moreFields(ctx, 'mlModel', requested, key),
  };
}

export function mlModelGroupNode(ctx: ReadContext, requested: string, urn: MlModelGroupUrn, key: string): Json {
  const props = (): Json | null => {
    const p = ctx.value(key, 'mlModelGroupProperties');
    if (!p) return null;
    return {
      name: str(p['name']),
      description: textOf(p['description']),
      created: auditStamp(p['created']),
      lastModified: auditStamp(p['lastModified']),
      version: versionTag(p['version']),
      customProperties: customProperties(p['customProperties'], requested),
      externalUrl: str(p['externalUrl']),
    };
  };
  return {
    __typename: 'MLModelGroup',
    urn: requested,
    type: 'MLMODEL_GROUP',
    name: urn.name,
    platform: platformNode(urn.namespace, urn.platform),
    description: () => props()?.['description'] ?? null,
    properties: props,
    editableProperties: () => editableMl(ctx.value(key, 'editableMlModelGroupProperties')),
    exists: () => ctx.exists(key, 'mlModelGroup'),

    ...ctx.moreFields(ctx, 'mlModelGroup', requested, key),
  };
}

/** The node for any URN of the five entity kinds (the caller has resolved its key). */
export function entityNode(ctx: ReadContext, requested: string, urn: Urn, key: string): Json | null {
  switch (urn.kind) {
    case 'dataset':
      return datasetNode(ctx, requested, urn, key);
    case 'mlFeature':
      return mlFeatureNode(ctx, requested, urn, key);
    case 'mlFeatureTable':
      return mlFeatureTableNode(ctx, requested, urn, key);
    case 'mlModel':
      return mlModelNode(ctx, requested, urn, key);
    case 'mlModelGroup':
      return mlModelGroupNode(ctx, requested, urn, key);
    default:
      return null;
  }
}

/**
 * A URN held inside an aspect (feature sources, table features, model groups): always an object
 * with the names read from the URN, whether or not the entity exists (`exists` tells), as the
 * UI's Features and Group tabs list what the aspect names.
 */
function referenceNode(ctx: ReadContext, text: unknown, kind: CatalogKind): Json | null {
  if (typeof text !== 'string') return null;
  const parsed = parseUrn(text);
  const key = ctx.namespaces.keyOf(text);
  if (!parsed.ok || key === undefined || parsed.urn.kind !== kind) return null;
  return entityNode(ctx, text, parsed.urn, key);
}
