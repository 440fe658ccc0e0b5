/**
 * The aspects the catalog reads and writes, as TypeScript types, which entity kind has which aspects, and a
 * shape check used by the local catalog (and by the server before it writes).
 *
 * Real DataHub payloads carry more than the spec shows (customProperties, platformSchema …):
 * the types are open (`[key: string]: unknown`) and the check looks only at the fields it knows.
 */
import { isRecord } from './json';
import type { CatalogKind, MlKind } from './kinds';
import { parseUrn, type UrnKind } from './urn';

export interface AuditStamp {
  time: number;
  actor: string;
  [key: string]: unknown;
}

export interface MlFeatureProperties {
  description?: string | null;
  sources?: string[];
  dataType?: string;
  version?: { versionTag?: string | null } | null;
  [key: string]: unknown;
}
export interface MlFeatureTableProperties {
  description?: string | null;
  mlFeatures?: string[];
  [key: string]: unknown;
}
export interface MlMetric {
  name: string;
  description?: string;
  value?: string;
  [key: string]: unknown;
}
export interface MlModelProperties {
  description?: string;
  groups?: string[];
  mlFeatures?: string[] | null;
  trainingMetrics?: MlMetric[];
  hyperParams?: MlMetric[];
  version?: unknown;
  type?: string;
  [key: string]: unknown;
}
export interface MlModelGroupProperties {
  description?: string;
  [key: string]: unknown;
}
export interface DatasetProperties {
  description?: string;
  customProperties?: Record<string, string>;
  [key: string]: unknown;
}
export interface EditableDatasetProperties {
  description?: string;
  created?: AuditStamp;
  [key: string]: unknown;
}
export interface InstitutionalMemoryElement {
  url: string;
  description: string;
  createStamp: AuditStamp;
  [key: string]: unknown;
}
export interface InstitutionalMemory {
  elements: InstitutionalMemoryElement[];
  [key: string]: unknown;
}
export interface SchemaField {
  fieldPath: string;
  description?: string;
  [key: string]: unknown;
}
export interface SchemaMetadata {
  fields: SchemaField[];
  [key: string]: unknown;
}
export interface EditableSchemaFieldInfo {
  fieldPath: string;
  description?: string;
  [key: string]: unknown;
}
export interface EditableSchemaMetadata {
  editableSchemaFieldInfo: EditableSchemaFieldInfo[];
  created?: AuditStamp;
  [key: string]: unknown;
}

/**
 * An ML entity's edited description: DataHub's `editableMlFeatureProperties`,
 * `editableMlFeatureTableProperties`, `editableMlModelProperties`, `editableMlModelGroupProperties`
 * (com.linkedin.ml.metadata.EditableML…Properties; Constants.ML_…_EDITABLE_PROPERTIES_ASPECT_NAME).
 * DataHub's UI and its updateDescription mutation write these (DescriptionUtils.updateMl…Description),
 * and the UI shows them over the properties aspect's description. Beyond the catalog interface: the
 * local catalog keeps them because DataHub has them.
 */
export interface EditableMlProperties {
  description?: string;
  [key: string]: unknown;
}

/*
 * What DataHub knows about an entity beyond its description: who owns it, its tags,
 * glossary terms and domain, whether it is deprecated, its siblings and its upstream lineage. Beyond
 * the catalog interface: the local catalog keeps them because DataHub has them, in DataHub's shapes
 * (metadata-models/src/main/pegasus/com/linkedin/common/{Ownership,Owner,GlobalTags,TagAssociation,
 * GlossaryTerms,GlossaryTermAssociation,Deprecation,Siblings}.pdl, com/linkedin/domain/Domains.pdl,
 * com/linkedin/dataset/{UpstreamLineage,Upstream}.pdl), on the entity types DataHub's registry gives
 * them (entity-registry.yml: datasets all seven; the ML kinds all but siblings and upstreamLineage).
 */
export interface Owner {
  /** A corpuser or corpGroup URN. */
  owner: string;
  /** OwnershipType (the GraphQL schema's enum; DataHub marks the older values deprecated but still reads them). */
  type: string;
  typeUrn?: string;
  source?: { type: string; url?: string; [key: string]: unknown };
  [key: string]: unknown;
}
export interface Ownership {
  owners: Owner[];
  /** Optional on write: the PDL gives it a default (time 0, urn:li:corpuser:unknown). */
  lastModified?: AuditStamp;
  [key: string]: unknown;
}
export interface TagAssociation {
  tag: string;
  context?: string;
  [key: string]: unknown;
}
export interface GlobalTags {
  tags: TagAssociation[];
  [key: string]: unknown;
}
export interface GlossaryTermAssociation {
  urn: string;
  actor?: string;
  context?: string;
  [key: string]: unknown;
}
export interface GlossaryTerms {
  terms: GlossaryTermAssociation[];
  auditStamp: AuditStamp;
  [key: string]: unknown;
}
export interface Domains {
  domains: string[];
  [key: string]: unknown;
}
export interface Deprecation {
  deprecated: boolean;
  /** Milliseconds since epoch. */
  decommissionTime?: number | null;
  note: string;
  actor: string;
  /** The entity to use instead, when DataHub names one. */
  replacement?: string | null;
  [key: string]: unknown;
}
export interface Siblings {
  siblings: string[];
  /** Whether this entity leads its siblings (DataHub's UI shows the primary's metadata first). */
  primary: boolean;
  [key: string]: unknown;
}
export interface Upstream {
  dataset: string;
  type: string;
  auditStamp?: AuditStamp;
  created?: AuditStamp;
  [key: string]: unknown;
}
export interface UpstreamLineage {
  upstreams: Upstream[];
  [key: string]: unknown;
}

/** DataHub's OwnershipType (datahub-graphql-core/src/main/resources/entity.graphql, the PDL's enum alike). */
export const OWNERSHIP_TYPES: readonly string[] = [
  'TECHNICAL_OWNER',
  'BUSINESS_OWNER',
  'DATA_STEWARD',
  'NONE',
  'CUSTOM',
  'DATAOWNER',
  'DEVELOPER',
  'DELEGATE',
  'PRODUCER',
  'STAKEHOLDER',
  'CONSUMER',
];

/**
 * The ownership type's entity URN as DataHub keys an owner by it: a custom type's URN as given, a
 * type name as `urn:li:ownershipType:__system__<name in lower case>` (datahub-graphql-core's
 * OwnerUtils and metadata-service's OwnerServiceUtils.mapOwnershipTypeToEntity).
 */
export function ownershipTypeUrn(type: string): string {
  return type.startsWith('urn:') ? type : `urn:li:ownershipType:__system__${type.toLowerCase()}`;
}

/** An owner's ownership type as DataHub compares owners: its typeUrn, else its type mapped (OwnerServiceUtils.isOwnerEqual). */
export function ownerTypeUrn(o: { type?: string | null; typeUrn?: string | null }): string {
  return o.typeUrn ?? ownershipTypeUrn(o.type ?? 'NONE');
}

/** DataHub's DatasetLineageType. */
export const DATASET_LINEAGE_TYPES: readonly string[] = ['COPY', 'TRANSFORMED', 'VIEW'];

export interface AspectTypes {
  mlFeatureProperties: MlFeatureProperties;
  mlFeatureTableProperties: MlFeatureTableProperties;
  mlModelProperties: MlModelProperties;
  mlModelGroupProperties: MlModelGroupProperties;
  datasetProperties: DatasetProperties;
  editableDatasetProperties: EditableDatasetProperties;
  institutionalMemory: InstitutionalMemory;
  schemaMetadata: SchemaMetadata;
  editableSchemaMetadata: EditableSchemaMetadata;
  editableMlFeatureProperties: EditableMlProperties;
  editableMlFeatureTableProperties: EditableMlProperties;
  editableMlModelProperties: EditableMlProperties;
  editableMlModelGroupProperties: EditableMlProperties;
  ownership: Ownership;
  globalTags: GlobalTags;
  glossaryTerms: GlossaryTerms;
  domains: Domains;
  deprecation: Deprecation;
  siblings: Siblings;
  upstreamLineage: UpstreamLineage;
}

export type AspectName = keyof AspectTypes;

export const ASPECT_NAMES: readonly AspectName[] = [
  'mlFeatureProperties',
  'mlFeatureTableProperties',
  'mlModelProperties',
  'mlModelGroupProperties',
  'datasetProperties',
  'editableDatasetProperties',
  'institutionalMemory',
  'schemaMetadata',
  'editableSchemaMetadata',
  'editableMlFeatureProperties',
  'editableMlFeatureTableProperties',
  'editableMlModelProperties',
  'editableMlModelGroupProperties',
  'ownership',
  'globalTags',
  'glossaryTerms',
  'domains',
  'deprecation',
  'siblings',
  'upstreamLineage',
];

/** What DataHub's registry gives every kind here (entity-registry.yml), beside its own aspects. */
const CONTEXT_ASPECTS: readonly AspectName[] = ['ownership', 'globalTags', 'glossaryTerms', 'domains', 'deprecation'];

/**
 * Which aspects each entity type holds. `institutionalMemory` is also valid on an mlModel in
 * DataHub's registry (one fixture carries it), so it is accepted there too.
 */
export const ASPECTS_BY_ENTITY: Readonly<Record<CatalogKind, readonly AspectName[]>> = {
  dataset: [
    'datasetProperties',
    'editableDatasetProperties',
    'institutionalMemory',
    'schemaMetadata',
    'editableSchemaMetadata',
    ...CONTEXT_ASPECTS,
    'siblings',
    'upstreamLineage',
  ],
  mlFeature: ['mlFeatureProperties', 'editableMlFeatureProperties', ...CONTEXT_ASPECTS],
  mlFeatureTable: ['mlFeatureTableProperties', 'editableMlFeatureTableProperties', ...CONTEXT_ASPECTS],
  mlModel: ['mlModelProperties', 'institutionalMemory', 'editableMlModelProperties', ...CONTEXT_ASPECTS],
  mlModelGroup: ['mlModelGroupProperties', 'editableMlModelGroupProperties', ...CONTEXT_ASPECTS],
};

/** Each ML kind's edited properties aspect (EditableMlProperties). */
export const EDITABLE_ML_ASPECT = {
  mlFeature: 'editableMlFeatureProperties',
  mlFeatureTable: 'editableMlFeatureTableProperties',
  mlModel: 'editableMlModelProperties',
  mlModelGroup: 'editableMlModelGroupProperties',
} as const satisfies Record<MlKind, AspectName>;

/**
 * The aspects whose presence makes an entity exist: an ML entity is created by writing its
 * properties aspect; a dataset by what ingestion writes (docs/local-catalog.md, "Existence").
 */
export const EXISTENCE_ASPECTS: Readonly<Record<CatalogKind, readonly AspectName[]>> = {
  dataset: ['datasetProperties', 'schemaMetadata'],
  mlFeature: ['mlFeatureProperties'],
  mlFeatureTable: ['mlFeatureTableProperties'],
  mlModel: ['mlModelProperties'],
  mlModelGroup: ['mlModelGroupProperties'],
};

/**
 * Pegasus record names, as DataHub's `GET /aspects` wraps them (the `@Aspect` records under
 * metadata-models/src/main/pegasus/).
 */
export const ASPECT_FQCN: Readonly<Record<AspectName, string>> = {
  mlFeatureProperties: 'com.linkedin.ml.metadata.MLFeatureProperties',
  mlFeatureTableProperties: 'com.linkedin.ml.metadata.MLFeatureTableProperties',
  mlModelProperties: 'com.linkedin.ml.metadata.MLModelProperties',
  mlModelGroupProperties: 'com.linkedin.ml.metadata.MLModelGroupProperties',
  datasetProperties: 'com.linkedin.dataset.DatasetProperties',
  editableDatasetProperties: 'com.linkedin.dataset.EditableDatasetProperties',
  institutionalMemory: 'com.linkedin.common.InstitutionalMemory',
  schemaMetadata: 'com.linkedin.schema.SchemaMetadata',
  editableSchemaMetadata: 'com.linkedin.schema.EditableSchemaMetadata',
  editableMlFeatureProperties: 'com.linkedin.ml.metadata.EditableMLFeatureProperties',
  editableMlFeatureTableProperties: 'com.linkedin.ml.metadata.EditableMLFeatureTableProperties',
  editableMlModelProperties: 'com.linkedin.ml.metadata.EditableMLModelProperties',
  editableMlModelGroupProperties: 'com.linkedin.ml.metadata.EditableMLModelGroupProperties',
  ownership: 'com.linkedin.common.Ownership',
  globalTags: 'com.linkedin.common.GlobalTags',
  glossaryTerms: 'com.linkedin.common.GlossaryTerms',
  domains: 'com.linkedin.domain.Domains',
  deprecation: 'com.linkedin.common.Deprecation',
  siblings: 'com.linkedin.common.Siblings',
  upstreamLineage: 'com.linkedin.dataset.UpstreamLineage',
};

/** DataHub's MLFeatureDataType (li-utils/src/main/pegasus/com/linkedin/common/MLFeatureDataType.pdl). */
export const ML_FEATURE_DATA_TYPES: readonly string[] = [
  'USELESS',
  'NOMINAL',
  'ORDINAL',
  'BINARY',
  'COUNT',
  'TIME',
  'INTERVAL',
  'IMAGE',
  'VIDEO',
  'AUDIO',
  'TEXT',
  'MAP',
  'SEQUENCE',
  'SET',
  'CONTINUOUS',
  'BYTE',
  'UNKNOWN',
];

export function isAspectName(name: string): name is AspectName {
  return (ASPECT_NAMES as readonly string[]).includes(name);
}

type Check = (value: unknown, path: string, out: string[]) => void;

const str: Check = (v, p, out) => {
  if (typeof v !== 'string') out.push(`${p}: expected a string, found ${describe(v)}`);
};
const nullableStr: Check = (v, p, out) => {
  if (v !== null) str(v, p, out);
};
/** An optional string, also in the Avro union form `{"string": "…"}` that DataHub's MCE files use. */
const optionalText: Check = (v, p, out) => {
  if (v === null || typeof v === 'string') return;
  if (isRecord(v) && Object.keys(v).length === 1 && typeof v['string'] === 'string') return;
  out.push(`${p}: expected a string, found ${describe(v)}`);
};
const urnOf =
  (kind: UrnKind): Check =>
  (v, p, out) => {
    if (typeof v !== 'string') {
      out.push(`${p}: expected a ${kind} URN string, found ${describe(v)}`);
      return;
    }
    const r = parseUrn(v);
    if (!r.ok) out.push(`${p}: '${v}' is not a valid URN: ${r.error.message}`);
    else if (r.urn.kind !== kind)
      out.push(
        `${p}: expected a ${kind} URN, found a ${r.urn.kind === 'other' ? r.urn.entityType : r.urn.kind} URN '${v}'`,
      );
  };
/** Any URN DataHub accepts (an audit stamp's actor may be a corpuser, a platformResource …). */
const anyUrn: Check = (v, p, out) => {
  if (typeof v !== 'string') {
    out.push(`${p}: expected a URN string, found ${describe(v)}`);
    return;
  }
  const r = parseUrn(v);
  if (!r.ok) out.push(`${p}: '${v}' is not a valid URN: ${r.error.message}`);
};
const arrayOf =
  (item: Check): Check =>
  (v, p, out) => {
    if (!Array.isArray(v)) {
      out.push(`${p}: expected an array, found ${describe(v)}`);
      return;
    }
    v.forEach((x, i) => item(x, `${p}[${i}]`, out));
  };
/** A Pegasus map: an object whose every value passes `value`. */
const mapOf =
  (value: Check): Check =>
  (v, p, out) => {
    if (!isRecord(v)) {
      out.push(`${p}: expected an object, found ${describe(v)}`);
      return;
    }
    for (const [k, x] of Object.entries(v)) value(x, `${p}.${k}`, out);
  };
const nullable =
  (c: Check): Check =>
  (v, p, out) => {
    if (v !== null) c(v, p, out);
  };
const oneOf =
  (values: readonly string[]): Check =>
  (v, p, out) => {
    if (typeof v !== 'string' || !values.includes(v))
      out.push(`${p}: expected one of ${values.join(', ')}, found ${describe(v)}`);
  };
const record =
  (fields: Record<string, Check>, required: readonly string[] = []): Check =>
  (v, p, out) => {
    if (!isRecord(v)) {
      out.push(`${p || 'aspect'}: expected an object, found ${describe(v)}`);
      return;
    }
    for (const r of required) if (!(r in v)) out.push(`${p ? p + '.' : ''}${r}: required`);
    for (const [k, c] of Object.entries(fields)) {
      if (k in v && v[k] !== undefined) c(v[k], p ? `${p}.${k}` : k, out);
    }
  };
const auditStamp: Check = record(
  {
    time: (v, p, out) => {
      if (typeof v !== 'number' || !Number.isInteger(v))
        out.push(`${p}: expected milliseconds since epoch (an integer), found ${describe(v)}`);
    },
    actor: anyUrn,
  },
  ['time', 'actor'],
);
const metric: Check = record({ name: str, description: str, value: str }, ['name']);
/** A URN of one of DataHub's entity types (those the model has no kind for, such as tag, are matched by type). */
const urnOfType =
  (...types: string[]): Check =>
  (v, p, out) => {
    if (typeof v !== 'string') {
      out.push(`${p}: expected a ${types.join(' or ')} URN string, found ${describe(v)}`);
      return;
    }
    const r = parseUrn(v);
    if (!r.ok) {
      out.push(`${p}: '${v}' is not a valid URN: ${r.error.message}`);
      return;
    }
    const type = r.urn.kind === 'other' ? r.urn.entityType : r.urn.kind;
    if (!types.includes(type)) out.push(`${p}: expected a ${types.join(' or ')} URN, found a ${type} URN '${v}'`);
  };
const bool: Check = (v, p, out) => {
  if (typeof v !== 'boolean') out.push(`${p}: expected true or false, found ${describe(v)}`);
};
const millis: Check = (v, p, out) => {
  if (typeof v !== 'number' || !Number.isInteger(v))
    out.push(`${p}: expected milliseconds since epoch (an integer), found ${describe(v)}`);
};

const ASPECT_CHECKS: Record<AspectName, Check> = {
  mlFeatureProperties: record({
    description: nullableStr,
    sources: arrayOf(urnOf('dataset')),
    dataType: oneOf(ML_FEATURE_DATA_TYPES),
    version: nullable(record({ versionTag: nullableStr })),
  }),
  mlFeatureTableProperties: record({ description: nullableStr, mlFeatures: arrayOf(urnOf('mlFeature')) }),
  mlModelProperties: record({
    description: str,
    groups: arrayOf(urnOf('mlModelGroup')),
    mlFeatures: nullable(arrayOf(urnOf('mlFeature'))),
    trainingMetrics: arrayOf(metric),
    hyperParams: arrayOf(metric),
    type: str,
  }),
  mlModelGroupProperties: record({ description: str }),
  datasetProperties: record({ description: str, customProperties: mapOf(str) }),
  editableDatasetProperties: record({ description: str, created: auditStamp }),
  institutionalMemory: record(
    {
      elements: arrayOf(
        record({ url: str, description: str, createStamp: auditStamp }, ['url', 'description', 'createStamp']),
      ),
    },
    ['elements'],
  ),
  schemaMetadata: record({ fields: arrayOf(record({ fieldPath: str, description: optionalText }, ['fieldPath'])) }, [
    'fields',
  ]),
  editableSchemaMetadata: record(
    {
      editableSchemaFieldInfo: arrayOf(record({ fieldPath: str, description: str }, ['fieldPath'])),
      created: auditStamp,
    },
    ['editableSchemaFieldInfo'],
  ),
  editableMlFeatureProperties: record({ description: str }),
  editableMlFeatureTableProperties: record({ description: str }),
  editableMlModelProperties: record({ description: str }),
  editableMlModelGroupProperties: record({ description: str }),
  ownership: record(
    {
      owners: arrayOf(
        record(
          {
            owner: urnOfType('corpuser', 'corpGroup'),
            type: oneOf(OWNERSHIP_TYPES),
            typeUrn: urnOfType('ownershipType'),
            source: record({ type: str, url: str }, ['type']),
          },
          ['owner', 'type'],
        ),
      ),
      lastModified: auditStamp,
    },
    ['owners'],
  ),
  globalTags: record({ tags: arrayOf(record({ tag: urnOfType('tag'), context: str }, ['tag'])) }, ['tags']),
  glossaryTerms: record(
    {
      terms: arrayOf(record({ urn: urnOfType('glossaryTerm'), actor: anyUrn, context: str }, ['urn'])),
      auditStamp,
    },
    ['terms', 'auditStamp'],
  ),
  domains: record({ domains: arrayOf(urnOfType('domain')) }, ['domains']),
  deprecation: record(
    { deprecated: bool, decommissionTime: nullable(millis), note: str, actor: anyUrn, replacement: nullable(anyUrn) },
    ['deprecated', 'note', 'actor'],
  ),
  siblings: record({ siblings: arrayOf(urnOfType('dataset')), primary: bool }, ['siblings', 'primary']),
  upstreamLineage: record(
    {
      upstreams: arrayOf(
        record({ dataset: urnOfType('dataset'), type: oneOf(DATASET_LINEAGE_TYPES), auditStamp, created: auditStamp }, [
          'dataset',
          'type',
        ]),
      ),
    },
    ['upstreams'],
  ),
};

/** What is wrong with `value` as aspect `name`, each with its JSON path; empty when it fits the aspect's fields. */
export function checkAspect(name: AspectName, value: unknown): string[] {
  const out: string[] = [];
  ASPECT_CHECKS[name](value, '', out);
  return out;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v)}`;
  return typeof v === 'object' ? 'an object' : `${typeof v} ${String(v)}`;
}

/** The text of an optional string field, unwrapping the Avro union form `{"string": "…"}`. */
export function textOf(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (isRecord(v) && typeof v['string'] === 'string') return v['string'];
  return null;
}
