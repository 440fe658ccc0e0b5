/**
 * DataHub's entity registry as the URN grammar needs it: every entity type and the fields of
 * its key aspect, in order. A hand-checked table of facts, not DataHub code.
 *
 * Read from (datahub-project/datahub and a current copy of its master):
 *  - metadata-models/src/main/resources/entity-registry.yml — the entity names and their
 *    keyAspect. The newest stored copy is the one in the fork StephenSook/datahub at commit
 *    32bc164f3157e84d17eed7e05154603364389623 (it has semanticModel, metric, lifecycleStageType,
 *    dataHubFile …; the copies stored under datahub-project/datahub, 000b1d8e… and d9b2a45c…, are
 *    older and are subsets of it).
 *  - The key aspects' PDLs, datahub-project/datahub: metadata-models/src/main/pegasus/com/linkedin/
 *    metadata/key/*Key.pdl, plus application/ApplicationKey, dataproduct/DataProductKey,
 *    businessattribute/BusinessAttributeKey, entitytype/EntityTypeKey, datatype/DataTypeKey,
 *    structured/StructuredPropertyKey and platformresource/PlatformResourceKey.
 *  - metadata-utils/…/EntityKeyUtils.java (convertUrnToEntityKey): a URN's key has exactly as
 *    many parts as the key aspect has fields, bound by position; a one-field key is the bare id,
 *    n > 1 fields are a tuple `(a,b,…)` (Urn.createFromTuple). No shorter arity is accepted, so
 *    optional or defaulted fields (ContainerKey.guid is `optional`; DataHubRetentionKey's two
 *    fields default to "*") do not make a part optional.
 *  - li-utils/…/common/urn/*Urn.java and metadata-ingestion/…/utilities/urns/: the typed URN
 *    classes agree with the key aspects (e.g. MLPrimaryKeyUrn checks 2 parts).
 *
 * Other registries: entity-registry.yml has no include; the plugin example
 * (metadata-models-custom/registry/entity-registry.yaml) only adds aspects to dataset and
 * container; longtail-sample-data-entity-registry.yml is a subset; test registries are left out.
 *
 * Field types: 'urn' — DataHub types the field `Urn` (a URN nested as the part); 'enum' — a
 * FabricType (PROD, DEV …); 'string' — anything else.
 */

export type KeyFieldType = 'string' | 'urn' | 'enum';

export interface KeyField {
  /** The field of the key aspect, as DataHub names it. */
  readonly name: string;
  readonly type: KeyFieldType;
  /** The field name in words ('fieldPath' → 'field path'), for messages. */
  readonly label: string;
}

export interface RegistryEntry {
  readonly entityType: string;
  readonly keyAspect: string;
  readonly fields: readonly KeyField[];
}

type F = readonly [name: string, type?: KeyFieldType];
const u = (name: string): F => [name, 'urn'];
const e = (name: string): F => [name, 'enum'];

/** entity type → [key aspect, key fields in order]. In entity-registry.yml's order. */
const TABLE: ReadonlyArray<readonly [string, string, readonly F[]]> = [
  ['dataPlatform', 'dataPlatformKey', [['platformName']]],
  ['role', 'roleKey', [['id']]],
  ['dataset', 'datasetKey', [u('platform'), ['name'], e('origin')]],
  ['dataHubPolicy', 'dataHubPolicyKey', [['id']]],
  ['dataJob', 'dataJobKey', [u('flow'), ['jobId']]],
  ['dataFlow', 'dataFlowKey', [['orchestrator'], ['flowId'], ['cluster']]],
  ['dataProcess', 'dataProcessKey', [['name'], ['orchestrator'], e('origin')]],
  ['dataProcessInstance', 'dataProcessInstanceKey', [['id']]],
  ['chart', 'chartKey', [['dashboardTool'], ['chartId']]],
  ['dashboard', 'dashboardKey', [['dashboardTool'], ['dashboardId']]],
  ['notebook', 'notebookKey', [['notebookTool'], ['notebookId']]],
  ['corpuser', 'corpUserKey', [['username']]],
  ['corpGroup', 'corpGroupKey', [['name']]],
  ['domain', 'domainKey', [['id']]],
  ['container', 'containerKey', [['guid']]], // `guid: optional string` — still the one part
  ['tag', 'tagKey', [['name']]],
  ['glossaryTerm', 'glossaryTermKey', [['name']]],
  ['glossaryNode', 'glossaryNodeKey', [['name']]],
  ['document', 'documentKey', [['id']]],
  ['dataHubIngestionSource', 'dataHubIngestionSourceKey', [['id']]],
  ['dataHubSecret', 'dataHubSecretKey', [['id']]],
  ['dataHubExecutionRequest', 'dataHubExecutionRequestKey', [['id']]],
  ['assertion', 'assertionKey', [['assertionId']]],
  ['dataHubRetention', 'dataHubRetentionKey', [['entityName'], ['aspectName']]], // both default to "*"
  ['dataPlatformInstance', 'dataPlatformInstanceKey', [u('platform'), ['instance']]],
  ['mlModel', 'mlModelKey', [u('platform'), ['name'], e('origin')]],
  ['mlModelGroup', 'mlModelGroupKey', [u('platform'), ['name'], e('origin')]],
  ['mlModelDeployment', 'mlModelDeploymentKey', [u('platform'), ['name'], e('origin')]],
  ['mlFeatureTable', 'mlFeatureTableKey', [u('platform'), ['name']]],
  ['mlFeature', 'mlFeatureKey', [['featureNamespace'], ['name']]],
  ['mlPrimaryKey', 'mlPrimaryKeyKey', [['featureNamespace'], ['name']]],
  ['telemetry', 'telemetryKey', [['name']]],
  ['dataHubAccessToken', 'dataHubAccessTokenKey', [['id']]],
  ['test', 'testKey', [['id']]],
  ['dataHubUpgrade', 'dataHubUpgradeKey', [['id']]],
  ['inviteToken', 'inviteTokenKey', [['id']]],
  ['schemaField', 'schemaFieldKey', [u('parent'), ['fieldPath']]],
  ['globalSettings', 'globalSettingsKey', [['id']]],
  ['versionSet', 'versionSetKey', [['id'], ['entityType']]],
  ['incident', 'incidentKey', [['id']]],
  ['dataHubRole', 'dataHubRoleKey', [['id']]],
  ['post', 'postKey', [['id']]],
  ['dataHubStepState', 'dataHubStepStateKey', [['id']]],
  ['dataHubView', 'dataHubViewKey', [['id']]],
  ['erModelRelationship', 'erModelRelationshipKey', [['id']]],
  ['query', 'queryKey', [['id']]],
  ['dataProduct', 'dataProductKey', [['id']]],
  ['application', 'applicationKey', [['id']]],
  ['semanticModel', 'semanticModelKey', [['platform'], ['id']]], // platform is a string here, not a URN
  ['metric', 'metricKey', [u('platform'), ['path'], ['id']]],
  ['ownershipType', 'ownershipTypeKey', [['id']]],
  ['lifecycleStageType', 'lifecycleStageTypeKey', [['id']]],
  ['businessAttribute', 'businessAttributeKey', [['id']]],
  ['dataContract', 'dataContractKey', [['id']]],
  ['dataHubPersona', 'dataHubPersonaKey', [['id']]],
  ['dataHubAction', 'dataHubActionKey', [['id']]],
  ['entityType', 'entityTypeKey', [['id']]],
  ['dataType', 'dataTypeKey', [['id']]],
  ['structuredProperty', 'structuredPropertyKey', [['id']]],
  ['form', 'formKey', [['id']]],
  ['dataHubPageTemplate', 'dataHubPageTemplateKey', [['id']]],
  ['dataHubPageModule', 'dataHubPageModuleKey', [['id']]],
  ['dataHubFile', 'dataHubFileKey', [['id']]],
  ['dataHubConnection', 'dataHubConnectionKey', [['id']]],
  ['platformResource', 'platformResourceKey', [['id']]],
  ['dataHubOpenAPISchema', 'dataHubOpenAPISchemaKey', [['id']]],
];

/** 'fieldPath' → 'field path', 'jobId' → 'job id'. */
function words(name: string): string {
  return name.replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);
}

/** Every entity type of DataHub's registry, by name (a Map: one lookup per parsed URN). */
export const ENTITY_REGISTRY: ReadonlyMap<string, RegistryEntry> = new Map(
  TABLE.map(([entityType, keyAspect, fields]) => [
    entityType,
    {
      entityType,
      keyAspect,
      fields: fields.map(([name, type = 'string']) => ({ name, type, label: words(name) })),
    },
  ]),
);

/** The entity type names of the registry, in its order. */
export const REGISTRY_ENTITY_TYPES: readonly string[] = TABLE.map(([t]) => t);

export function registryEntry(entityType: string): RegistryEntry | undefined {
  return ENTITY_REGISTRY.get(entityType);
}
