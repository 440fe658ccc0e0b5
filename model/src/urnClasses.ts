/**
 * DataHub's URN classes and the SDK entities that make a URN from ids, as specs the server's
 * class extractors read calls with: Python's `datahub.metadata.urns` (SDK v2), `datahub.sdk`
 * entities, and Java's `com.linkedin.common.urn` classes. Each spec names the DataHub file its
 * signature comes from. Pure: the URN text is built as DataHub builds it; the URN parser judges it.
 */
import { encodePart } from './urn';

/**
 * How a Python URN class treats one constructor field (metadata-ingestion/scripts/avro_codegen.py,
 * generate_urn_class): a `platform` field is coerced with `DataPlatformUrn(platform).urn()`, a
 * field typed as an URN is kept as given (`str(x)`), `env` is upper-cased, every other field goes
 * through `UrnEncoder.encode_string`; DataPlatformUrn's `platform_name` drops a `urn:li:dataPlatform:` prefix.
 */
export type PyFieldKind = 'string' | 'platform' | 'urn' | 'env' | 'platformName';

export interface PyUrnClass {
  entityType: string;
  /** Constructor fields in order: the key aspect's fields, snake_cased (origin → env, platformName → platform_name). */
  fields: ReadonlyArray<readonly [name: string, kind: PyFieldKind]>;
}

/**
 * One way to call something that builds a URN: parameter names (keyword names) in order, how many are
 * required, defaults, and how the values (in parameter order, '' for an absent optional) become the
 * class's constructor fields.
 */
export interface CallSpec {
  params: readonly string[];
  required: number;
  defaults?: Readonly<Record<string, string>>;
  /** Positional arguments are refused (the signature starts with `*`). */
  keywordOnly?: boolean;
  /** Parameters that take any value (entity properties): skipped, not read. All others must be literals. */
  ignored?: readonly string[];
  /** The class whose URN is built. */
  urnClass: string;
  /** Constructor field values from the parameter values; absent: the values are the fields. */
  toFields?: (args: readonly string[]) => string[];
}

// Key aspects: metadata-models/src/main/pegasus/com/linkedin/metadata/key/<Name>Key.pdl.
export const PY_URN_CLASSES: Readonly<Record<string, PyUrnClass>> = {
  DatasetUrn: {
    entityType: 'dataset',
    fields: [
      ['platform', 'platform'],
      ['name', 'string'],
      ['env', 'env'],
    ],
  }, // DatasetKey.pdl
  DataPlatformUrn: { entityType: 'dataPlatform', fields: [['platform_name', 'platformName']] }, // DataPlatformKey.pdl
  MlModelUrn: {
    entityType: 'mlModel',
    fields: [
      ['platform', 'platform'],
      ['name', 'string'],
      ['env', 'env'],
    ],
  }, // MLModelKey.pdl
  MlModelGroupUrn: {
    entityType: 'mlModelGroup',
    fields: [
      ['platform', 'platform'],
      ['name', 'string'],
      ['env', 'env'],
    ],
  }, // MLModelGroupKey.pdl
  MlFeatureUrn: {
    entityType: 'mlFeature',
    fields: [
      ['feature_namespace', 'string'],
      ['name', 'string'],
    ],
  }, // MLFeatureKey.pdl
  MlFeatureTableUrn: {
    entityType: 'mlFeatureTable',
    fields: [
      ['platform', 'platform'],
      ['name', 'string'],
    ],
  }, // MLFeatureTableKey.pdl
  CorpUserUrn: { entityType: 'corpuser', fields: [['username', 'string']] }, // CorpUserKey.pdl
  CorpGroupUrn: { entityType: 'corpGroup', fields: [['name', 'string']] }, // CorpGroupKey.pdl
  SchemaFieldUrn: {
    entityType: 'schemaField',
    fields: [
      ['parent', 'urn'],
      ['field_path', 'string'],
    ],
  }, // SchemaFieldKey.pdl (parent: Urn)
  TagUrn: { entityType: 'tag', fields: [['name', 'string']] }, // TagKey.pdl
  GlossaryTermUrn: { entityType: 'glossaryTerm', fields: [['name', 'string']] }, // GlossaryTermKey.pdl
  DataFlowUrn: {
    entityType: 'dataFlow',
    fields: [
      ['orchestrator', 'string'],
      ['flow_id', 'string'],
      ['cluster', 'string'],
    ],
  }, // DataFlowKey.pdl
  DataJobUrn: {
    entityType: 'dataJob',
    fields: [
      ['flow', 'urn'],
      ['job_id', 'string'],
    ],
  }, // DataJobKey.pdl (flow: Urn)
  ContainerUrn: { entityType: 'container', fields: [['guid', 'string']] }, // ContainerKey.pdl (guid made required by avro_codegen.py)
  DomainUrn: { entityType: 'domain', fields: [['id', 'string']] }, // DomainKey.pdl
  ChartUrn: {
    entityType: 'chart',
    fields: [
      ['dashboard_tool', 'string'],
      ['chart_id', 'string'],
    ],
  }, // ChartKey.pdl
  DashboardUrn: {
    entityType: 'dashboard',
    fields: [
      ['dashboard_tool', 'string'],
      ['dashboard_id', 'string'],
    ],
  }, // DashboardKey.pdl
  DataPlatformInstanceUrn: {
    entityType: 'dataPlatformInstance',
    fields: [
      ['platform', 'platform'],
      ['instance', 'string'],
    ],
  }, // DataPlatformInstanceKey.pdl
};

const PLATFORM_PREFIX = 'urn:li:dataPlatform:';

/** encodePart, without its regex replace for the usual part that holds no reserved character. */
function encode(v: string): string {
  return v.indexOf(',') < 0 && v.indexOf('(') < 0 && v.indexOf(')') < 0 && v.indexOf('\u241F') < 0 ? v : encodePart(v);
}

/** The URN a Python URN class's constructor builds from its field values (avro_codegen.py, generate_urn_class). */
export function buildPyUrn(className: string, values: readonly string[]): string {
  const spec = PY_URN_CLASSES[className]!;
  const parts = spec.fields.map(([, kind], i) => {
    const v = values[i] ?? '';
    switch (kind) {
      case 'platform':
        return v.startsWith(PLATFORM_PREFIX) ? v : PLATFORM_PREFIX + encode(v);
      case 'platformName':
        return encode(v.startsWith(PLATFORM_PREFIX) ? v.slice(PLATFORM_PREFIX.length) : v);
      case 'urn':
        return v;
      case 'env':
        return encode(v.toUpperCase());
      case 'string':
        return encode(v);
    }
  });
  // Urn.urn() in metadata-ingestion/src/datahub/utilities/urns/_urn_base.py: one part bare, several in a tuple.
  return parts.length === 1
    ? `urn:li:${spec.entityType}:${parts[0]}`
    : `urn:li:${spec.entityType}:(${parts.join(',')})`;
}

/** `f"{platform_instance}.{name}"` when an instance is given (avro_codegen.py create_from_ids; mce_builder.py). */
const withInstance = (instance: string, name: string): string => (instance ? `${instance}.${name}` : name);

function constructorSpec(className: string): CallSpec {
  const fields = PY_URN_CLASSES[className]!.fields;
  const hasEnv = fields.some(([, kind]) => kind === 'env');
  return {
    params: fields.map(([name]) => name),
    // generate_urn_class gives env the default "PROD"; every other field is required.
    required: hasEnv ? fields.length - 1 : fields.length,
    ...(hasEnv ? { defaults: { env: 'PROD' } } : {}),
    urnClass: className,
  };
}

/** Class methods that build a URN from ids (avro_codegen.py `_extra_urn_methods`). */
const PY_CLASS_METHODS: Readonly<Record<string, CallSpec>> = {
  'DatasetUrn.create_from_ids': {
    params: ['platform_id', 'table_name', 'env', 'platform_instance'],
    required: 3,
    urnClass: 'DatasetUrn',
    toFields: ([platform, table, env, instance]) => [platform!, withInstance(instance!, table!), env!],
  },
  'DataFlowUrn.create_from_ids': {
    // cluster=env: not upper-cased (the field is `cluster`, not `env`).
    params: ['orchestrator', 'flow_id', 'env', 'platform_instance'],
    required: 3,
    urnClass: 'DataFlowUrn',
    toFields: ([orchestrator, flow, env, instance]) => [orchestrator!, withInstance(instance!, flow!), env!],
  },
  'DataJobUrn.create_from_ids': { params: ['data_flow_urn', 'job_id'], required: 2, urnClass: 'DataJobUrn' },
  ...Object.fromEntries(
    ['CorpGroupUrn', 'CorpUserUrn', 'DataPlatformUrn', 'DomainUrn', 'TagUrn'].map((c) => [
      `${c}.create_from_id`,
      { params: ['id'], required: 1, urnClass: c },
    ]),
  ),
};

/** A Python call by its name as written after the last dot-free identifier chain: `DatasetUrn` or `DatasetUrn.create_from_ids`. */
export function pyUrnCallSpec(name: string): CallSpec | undefined {
  if (Object.prototype.hasOwnProperty.call(PY_CLASS_METHODS, name)) return PY_CLASS_METHODS[name];
  if (!Object.prototype.hasOwnProperty.call(PY_URN_CLASSES, name)) return undefined;
  let spec = CONSTRUCTORS.get(name);
  if (!spec) CONSTRUCTORS.set(name, (spec = constructorSpec(name)));
  return spec;
}

const CONSTRUCTORS = new Map<string, CallSpec>();

/**
 * `datahub.sdk` entities whose constructor makes their URN from ids (metadata-ingestion/src/datahub/sdk/*.py).
 * Only the identity parameters are read; every other keyword (description=, schema= …) takes any value.
 */
export const PY_SDK_ENTITIES: Readonly<Record<string, CallSpec>> = {
  // sdk/dataset.py: __init__(self, *, platform, name, platform_instance=None, env=DEFAULT_ENV, …) → DatasetUrn.create_from_ids.
  Dataset: {
    params: ['platform', 'name', 'platform_instance', 'env'],
    required: 2,
    defaults: { env: 'PROD' },
    keywordOnly: true,
    urnClass: 'DatasetUrn',
    toFields: ([platform, name, instance, env]) => [platform!, withInstance(instance!, name!), env!],
  },
  // sdk/mlmodel.py: __init__(self, id, platform, version=None, aliases=None, platform_instance=None, env=DEFAULT_ENV, name=None, …)
  // → MlModelUrn(platform=platform, name=id, env=env); platform_instance is not part of the URN.
  MLModel: {
    params: ['id', 'platform', 'version', 'aliases', 'platform_instance', 'env'],
    required: 2,
    defaults: { env: 'PROD' },
    ignored: ['version', 'aliases', 'platform_instance'],
    urnClass: 'MlModelUrn',
    toFields: ([id, platform, , , , env]) => [platform!, id!, env!],
  },
  // sdk/mlmodelgroup.py: id, platform, …, platform_instance=None, env=DEFAULT_ENV → MlModelGroupUrn(platform=platform, name=id, env=env).
  // Read by keyword only: the order of its leading parameters is not pinned down here.
  MLModelGroup: {
    params: ['id', 'platform', 'platform_instance', 'env'],
    required: 2,
    defaults: { env: 'PROD' },
    keywordOnly: true,
    ignored: ['platform_instance'],
    urnClass: 'MlModelGroupUrn',
    toFields: ([id, platform, , env]) => [platform!, id!, env!],
  },
  // sdk/dataflow.py: __init__(self, *, name, platform, display_name=None, platform_instance=None, env=DEFAULT_ENV, …)
  // → DataFlowUrn.create_from_ids(orchestrator=platform, flow_id=name, env=env, platform_instance=platform_instance).
  DataFlow: {
    params: ['name', 'platform', 'platform_instance', 'env'],
    required: 2,
    defaults: { env: 'PROD' },
    keywordOnly: true,
    urnClass: 'DataFlowUrn',
    toFields: ([name, platform, instance, env]) => [platform!, withInstance(instance!, name!), env!],
  },
};

/** The entity type a Python class name stands for (`Urn` itself: any). */
export function pyClassEntityType(className: string): string | undefined {
  return Object.prototype.hasOwnProperty.call(PY_URN_CLASSES, className)
    ? PY_URN_CLASSES[className]!.entityType
    : undefined;
}

// ---------------------------------------------------------------------------------------------
// Java: li-utils/src/main/javaPegasus/com/linkedin/common/urn/*.java

/** A Java constructor parameter: a String, a nested URN of the given entity type, or a FabricType. */
export type JavaParam = 'string' | 'fabric' | { urn: string };

export interface JavaUrnClass {
  entityType: string;
  params: readonly JavaParam[];
  /** The constructor trims this parameter (DatasetUrn's sanitizeName). */
  trims?: number;
}

/** Constructors: `super(ENTITY_TYPE, TupleKey.create(…))`, parts as given (no encoding). */
export const JAVA_URN_CLASSES: Readonly<Record<string, JavaUrnClass>> = {
  // DatasetUrn.java: DatasetUrn(DataPlatformUrn platform, String name, FabricType origin); name.trim().
  DatasetUrn: { entityType: 'dataset', params: [{ urn: 'dataPlatform' }, 'string', 'fabric'], trims: 1 },
  DataPlatformUrn: { entityType: 'dataPlatform', params: ['string'] }, // DataPlatformUrn.java: DataPlatformUrn(String platformName)
  CorpuserUrn: { entityType: 'corpuser', params: ['string'] }, // CorpuserUrn.java: CorpuserUrn(String username)
  CorpGroupUrn: { entityType: 'corpGroup', params: ['string'] }, // CorpGroupUrn.java: CorpGroupUrn(String groupName)
  MLModelUrn: { entityType: 'mlModel', params: [{ urn: 'dataPlatform' }, 'string', 'fabric'] }, // MLModelUrn.java
  MlModelGroupUrn: { entityType: 'mlModelGroup', params: [{ urn: 'dataPlatform' }, 'string', 'fabric'] }, // MlModelGroupUrn.java
  MLFeatureUrn: { entityType: 'mlFeature', params: ['string', 'string'] }, // MLFeatureUrn.java: (String mlFeatureNamespace, String mlFeatureName)
  MLFeatureTableUrn: { entityType: 'mlFeatureTable', params: [{ urn: 'dataPlatform' }, 'string'] }, // MLFeatureTableUrn.java
  DataFlowUrn: { entityType: 'dataFlow', params: ['string', 'string', 'string'] }, // DataFlowUrn.java: (orchestrator, flowId, cluster)
  DataJobUrn: { entityType: 'dataJob', params: [{ urn: 'dataFlow' }, 'string'] }, // DataJobUrn.java: (DataFlowUrn flow, String jobId)
  TagUrn: { entityType: 'tag', params: ['string'] }, // TagUrn.java: TagUrn(String name)
  GlossaryTermUrn: { entityType: 'glossaryTerm', params: ['string'] }, // GlossaryTermUrn.java: GlossaryTermUrn(String name)
};

export function buildJavaUrn(className: string, values: readonly string[]): string {
  const spec = JAVA_URN_CLASSES[className]!;
  const parts = values.map((v, i) => (spec.trims === i ? v.trim() : v));
  return parts.length === 1
    ? `urn:li:${spec.entityType}:${parts[0]}`
    : `urn:li:${spec.entityType}:(${parts.join(',')})`;
}

/** UrnUtils.toFabricType (UrnUtils.java): upper-cased; only these four, else IllegalArgumentException. */
export const URN_UTILS_FABRICS: readonly string[] = ['PROD', 'CORP', 'EI', 'DEV'];
