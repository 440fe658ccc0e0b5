/**
 * The catalog's GraphQL schema: a subset of DataHub's (same type, field and argument names and
 * types, nullability included; test/catalog/schemaSubset.test.ts checks it against DataHub's
 * schema files, datahub-graphql-core/src/main/resources/*.graphql), so a document valid here is valid against DataHub.
 */
import { buildSchema, type GraphQLSchema } from 'graphql';

export const CATALOG_SDL = /* GraphQL */ `
  scalar Long

  schema {
    query: Query
    mutation: Mutation
  }

  type Query {
    dataset(urn: String!): Dataset
    mlFeature(urn: String!): MLFeature
    mlFeatureTable(urn: String!): MLFeatureTable
    mlModel(urn: String!): MLModel
    mlModelGroup(urn: String!): MLModelGroup
    entity(urn: String!): Entity
    entityExists(urn: String!): Boolean
    searchAcrossEntities(input: SearchAcrossEntitiesInput!): SearchResults
    scrollAcrossEntities(input: ScrollAcrossEntitiesInput!): ScrollResults
    autoComplete(input: AutoCompleteInput!): AutoCompleteResults
    autoCompleteForMultiple(input: AutoCompleteMultipleInput!): AutoCompleteMultipleResults
  }

  # Search (issue 16): catalog/src/searchIndex.ts, resolvers in search.ts.
  input SearchAcrossEntitiesInput {
    types: [EntityType!]
    query: String!
    start: Int
    count: Int
    orFilters: [AndFilterInput!]
  }

  # What DataHub's Python SDK (v2 search, get_urns_by_filter) sends: scrollId pages on; keepAlive and
  # the searchFlags it sets are taken and change nothing here (no point-in-time snapshot, no cache).
  input ScrollAcrossEntitiesInput {
    types: [EntityType!]
    query: String!
    scrollId: String
    keepAlive: String
    count: Int
    orFilters: [AndFilterInput!]
    searchFlags: SearchFlags
  }

  input SearchFlags {
    skipCache: Boolean
    fulltext: Boolean
    skipHighlighting: Boolean
    skipAggregates: Boolean
  }

  type ScrollResults {
    nextScrollId: String
    count: Int!
    total: Int!
    searchResults: [SearchResult!]!
  }

  input AndFilterInput {
    and: [FacetFilterInput!]
  }

  input FacetFilterInput {
    field: String!
    value: String
    values: [String!]
    negated: Boolean
    condition: FilterOperator
  }

  enum FilterOperator {
    CONTAIN
    EQUAL
    IN
  }

  input AutoCompleteInput {
    type: EntityType
    query: String!
    field: String
    limit: Int
    orFilters: [AndFilterInput!]
  }

  input AutoCompleteMultipleInput {
    types: [EntityType!]
    query: String!
    field: String
    limit: Int
    orFilters: [AndFilterInput!]
  }

  type SearchResults {
    start: Int!
    count: Int!
    total: Int!
    searchResults: [SearchResult!]!
  }

  type SearchResult {
    entity: Entity!
    matchedFields: [MatchedField!]!
  }

  type MatchedField {
    name: String!
    value: String!
  }

  type AutoCompleteResults {
    query: String!
    suggestions: [String!]!
    entities: [Entity!]!
  }

  type AutoCompleteMultipleResults {
    query: String!
    suggestions: [AutoCompleteResultForEntity!]!
  }

  type AutoCompleteResultForEntity {
    type: EntityType!
    suggestions: [String!]!
    entities: [Entity!]!
  }

  type Mutation {
    updateDataset(urn: String!, input: DatasetUpdateInput!): Dataset
    updateDescription(input: DescriptionUpdateInput!): Boolean
    addLink(input: AddLinkInput!): Boolean
  }

  enum EntityType {
    DATASET
    CORP_USER
    CORP_GROUP
    DATA_PLATFORM
    TAG
    GLOSSARY_TERM
    DOMAIN
    MLMODEL
    MLMODEL_GROUP
    MLFEATURE_TABLE
    MLFEATURE
  }

  interface Entity {
    urn: String!
    type: EntityType!
  }

  type DataPlatform implements Entity {
    urn: String!
    type: EntityType!
    name: String!
  }

  type CorpUser implements Entity {
    urn: String!
    type: EntityType!
    username: String!
    properties: CorpUserProperties
    exists: Boolean
  }

  # Users, groups, tags, terms and domains are not stored here: their properties read null.
  type CorpUserProperties {
    active: Boolean!
    displayName: String
  }

  type AuditStamp {
    time: Long!
    actor: String
  }

  type CustomPropertiesEntry {
    key: String!
    value: String
    associatedUrn: String!
  }

  type VersionTag {
    versionTag: String
  }

  # What else DataHub knows of an entity (issue 17): catalog/src/graphql/contextShapes.ts.
  type CorpGroup implements Entity {
    urn: String!
    type: EntityType!
    name: String!
    properties: CorpGroupProperties
    exists: Boolean
  }

  type CorpGroupProperties {
    displayName: String
    description: String
  }

  union OwnerType = CorpUser | CorpGroup

  enum OwnershipType {
    TECHNICAL_OWNER
    BUSINESS_OWNER
    DATA_STEWARD
    NONE
    CUSTOM
    DATAOWNER @deprecated
    DEVELOPER @deprecated
    DELEGATE @deprecated
    PRODUCER @deprecated
    STAKEHOLDER @deprecated
    CONSUMER @deprecated
  }

  type Owner {
    owner: OwnerType!
    type: OwnershipType @deprecated
    associatedUrn: String!
  }

  type Ownership {
    owners: [Owner!]
    lastModified: AuditStamp!
  }

  type Tag implements Entity {
    urn: String!
    type: EntityType!
    name: String! @deprecated
    properties: TagProperties
  }

  type TagProperties {
    name: String!
    description: String
  }

  type TagAssociation {
    tag: Tag!
    associatedUrn: String!
    context: String
  }

  type GlobalTags {
    tags: [TagAssociation!]
  }

  type GlossaryTerm implements Entity {
    urn: String!
    type: EntityType!
    name: String! @deprecated
    hierarchicalName: String!
    properties: GlossaryTermProperties
  }

  type GlossaryTermProperties {
    name: String!
    description: String
  }

  type GlossaryTermAssociation {
    term: GlossaryTerm!
    actor: CorpUser
    associatedUrn: String!
    context: String
  }

  type GlossaryTerms {
    terms: [GlossaryTermAssociation!]
  }

  type Domain implements Entity {
    urn: String!
    type: EntityType!
    id: String!
    properties: DomainProperties
  }

  type DomainProperties {
    name: String!
    description: String
  }

  type DomainAssociation {
    domain: Domain!
    associatedUrn: String!
  }

  type Deprecation {
    deprecated: Boolean!
    decommissionTime: Long
    note: String
    actor: String
    replacement: Entity
  }

  type SiblingProperties {
    isPrimary: Boolean
    siblings: [Entity]
  }

  enum LineageDirection {
    UPSTREAM
    DOWNSTREAM
  }

  input LineageInput {
    direction: LineageDirection!
    start: Int
    count: Int
    separateSiblings: Boolean
    startTimeMillis: Long
    endTimeMillis: Long
    includeGhostEntities: Boolean = false
  }

  type LineageRelationship {
    type: String!
    entity: Entity
    degree: Int!
  }

  type EntityLineageResult {
    start: Int
    count: Int
    total: Int
    filtered: Int
    relationships: [LineageRelationship!]!
  }

  type Dataset implements Entity {
    urn: String!
    type: EntityType!
    platform: DataPlatform!
    name: String!
    properties: DatasetProperties
    editableProperties: DatasetEditableProperties
    institutionalMemory: InstitutionalMemory
    schemaMetadata(version: Long): SchemaMetadata
    editableSchemaMetadata: EditableSchemaMetadata
    description: String @deprecated
    exists: Boolean
    ownership: Ownership
    tags: GlobalTags
    glossaryTerms: GlossaryTerms
    domain: DomainAssociation
    deprecation: Deprecation
    lineage(input: LineageInput!): EntityLineageResult
    siblings: SiblingProperties
  }

  type DatasetProperties {
    name: String!
    qualifiedName: String
    description: String
    customProperties: [CustomPropertiesEntry!]
    externalUrl: String
  }

  type DatasetEditableProperties {
    description: String
    name: String
  }

  type InstitutionalMemory {
    elements: [InstitutionalMemoryMetadata!]!
  }

  type InstitutionalMemoryMetadata {
    url: String!
    label: String!
    author: CorpUser! @deprecated(reason: "Use \`actor\`")
    created: AuditStamp!
    description: String! @deprecated
    associatedUrn: String!
  }

  enum SchemaFieldDataType {
    BOOLEAN
    FIXED
    STRING
    BYTES
    NUMBER
    DATE
    TIME
    ENUM
    NULL
    MAP
    ARRAY
    UNION
    STRUCT
  }

  type SchemaMetadata {
    name: String!
    platformUrn: String!
    version: Long!
    hash: String!
    fields: [SchemaField!]!
    primaryKeys: [String!]
  }

  type SchemaField {
    fieldPath: String!
    label: String
    nullable: Boolean!
    description: String
    type: SchemaFieldDataType!
    nativeDataType: String
    recursive: Boolean!
    isPartOfKey: Boolean
  }

  type EditableSchemaMetadata {
    editableSchemaFieldInfo: [EditableSchemaFieldInfo!]!
  }

  type EditableSchemaFieldInfo {
    fieldPath: String!
    description: String
  }

  enum MLFeatureDataType {
    USELESS
    NOMINAL
    ORDINAL
    BINARY
    COUNT
    TIME
    INTERVAL
    IMAGE
    VIDEO
    AUDIO
    TEXT
    MAP
    SEQUENCE
    SET
    CONTINUOUS
    BYTE
    UNKNOWN
  }

  type MLFeature implements Entity {
    urn: String!
    type: EntityType!
    name: String!
    featureNamespace: String!
    description: String
    dataType: MLFeatureDataType
    properties: MLFeatureProperties
    editableProperties: MLFeatureEditableProperties
    exists: Boolean
    ownership: Ownership
    tags: GlobalTags
    glossaryTerms: GlossaryTerms
    domain: DomainAssociation
    deprecation: Deprecation
    lineage(input: LineageInput!): EntityLineageResult
  }

  type MLFeatureEditableProperties {
    description: String
  }

  type MLFeatureTableEditableProperties {
    description: String
  }

  type MLModelEditableProperties {
    description: String
  }

  type MLModelGroupEditableProperties {
    description: String
  }

  type MLFeatureProperties {
    description: String
    dataType: MLFeatureDataType
    version: VersionTag
    sources: [Dataset]
    customProperties: [CustomPropertiesEntry!]
  }

  type MLFeatureTable implements Entity {
    urn: String!
    type: EntityType!
    name: String!
    platform: DataPlatform!
    description: String
    properties: MLFeatureTableProperties
    editableProperties: MLFeatureTableEditableProperties
    exists: Boolean
    ownership: Ownership
    tags: GlobalTags
    glossaryTerms: GlossaryTerms
    domain: DomainAssociation
    deprecation: Deprecation
    lineage(input: LineageInput!): EntityLineageResult
  }

  type MLFeatureTableProperties {
    description: String
    mlFeatures: [MLFeature]
    customProperties: [CustomPropertiesEntry!]
  }

  type MLHyperParam {
    name: String
    description: String
    value: String
    createdAt: Long
  }

  type MLMetric {
    name: String
    description: String
    value: String
    createdAt: Long
  }

  type MLModel implements Entity {
    urn: String!
    type: EntityType!
    name: String!
    platform: DataPlatform!
    description: String
    properties: MLModelProperties
    editableProperties: MLModelEditableProperties
    institutionalMemory: InstitutionalMemory
    exists: Boolean
    ownership: Ownership
    tags: GlobalTags
    glossaryTerms: GlossaryTerms
    domain: DomainAssociation
    deprecation: Deprecation
    lineage(input: LineageInput!): EntityLineageResult
  }

  type MLModelProperties {
    name: String
    description: String
    lastModified: AuditStamp
    version: String
    type: String
    hyperParams: [MLHyperParam]
    trainingMetrics: [MLMetric]
    mlFeatures: [String!]
    tags: [String!]
    groups: [MLModelGroup]
    customProperties: [CustomPropertiesEntry!]
    externalUrl: String
    created: AuditStamp
  }

  type MLModelGroup implements Entity {
    urn: String!
    type: EntityType!
    name: String!
    platform: DataPlatform!
    description: String
    properties: MLModelGroupProperties
    editableProperties: MLModelGroupEditableProperties
    exists: Boolean
    ownership: Ownership
    tags: GlobalTags
    glossaryTerms: GlossaryTerms
    domain: DomainAssociation
    deprecation: Deprecation
    lineage(input: LineageInput!): EntityLineageResult
  }

  type MLModelGroupProperties {
    name: String
    description: String
    created: AuditStamp
    lastModified: AuditStamp
    version: VersionTag
    customProperties: [CustomPropertiesEntry!]
    externalUrl: String
  }

  input DatasetUpdateInput {
    institutionalMemory: InstitutionalMemoryUpdate
    editableProperties: DatasetEditablePropertiesUpdate
  }

  input DatasetEditablePropertiesUpdate {
    description: String!
    name: String
  }

  input InstitutionalMemoryUpdate {
    elements: [InstitutionalMemoryMetadataUpdate!]!
  }

  input InstitutionalMemoryMetadataUpdate {
    url: String!
    description: String
    author: String!
    createdAt: Long
  }

  input AddLinkInput {
    linkUrl: String!
    label: String!
    resourceUrn: String!
    settings: LinkSettingsInput
  }

  input LinkSettingsInput {
    showInAssetPreview: Boolean
  }

  enum SubResourceType {
    DATASET_FIELD
  }

  input DescriptionUpdateInput {
    description: String!
    resourceUrn: String!
    subResourceType: SubResourceType
    subResource: String
  }
`;

let cached: GraphQLSchema | undefined;

export function catalogSchema(): GraphQLSchema {
  cached ??= buildSchema(CATALOG_SDL);
  return cached;
}
