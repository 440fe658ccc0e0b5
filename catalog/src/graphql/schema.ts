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
    corpUser(urn: String!): CorpUser
    corpGroup(urn: String!): CorpGroup
    tag(urn: String!): Tag
    glossaryTerm(urn: String!): GlossaryTerm
    glossaryNode(urn: String!): GlossaryNode
    domain(urn: String!): Domain
    container(urn: String!): Container
    dataFlow(urn: String!): DataFlow
    dataJob(urn: String!): DataJob
    chart(urn: String!): Chart
    dashboard(urn: String!): Dashboard
    dataProduct(urn: String!): DataProduct
    dataPlatform(urn: String!): DataPlatform
    mlPrimaryKey(urn: String!): MLPrimaryKey
    dataPlatformInstance(urn: String!): DataPlatformInstance
    dataProcessInstance(urn: String!): DataProcessInstance
    structuredProperty(urn: String!): StructuredPropertyEntity
    assertion(urn: String!): Assertion
    notebook(urn: String!): Notebook
    application(urn: String!): Application
    form(urn: String!): Form
    businessAttribute(urn: String!): BusinessAttribute
    entity(urn: String!): Entity
    entities(urns: [String!]!): [Entity]
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
    updateStructuredProperty(input: UpdateStructuredPropertyInput!): StructuredPropertyEntity!
    addTags(input: AddTagsInput!): Boolean
    removeTag(input: TagAssociationInput!): Boolean
    addTerms(input: AddTermsInput!): Boolean
    removeTerm(input: TermAssociationInput!): Boolean
    addOwners(input: AddOwnersInput!): Boolean
    removeOwner(input: RemoveOwnerInput!): Boolean
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
    GLOSSARY_NODE
    CONTAINER
    DATA_FLOW
    DATA_JOB
    CHART
    DASHBOARD
    DATA_PRODUCT
    DATA_PLATFORM_INSTANCE
    MLPRIMARY_KEY
    QUERY
    NOTEBOOK
    ASSERTION
    DATA_PROCESS_INSTANCE
    CUSTOM_OWNERSHIP_TYPE
    INCIDENT
    DATA_CONTRACT
    STRUCTURED_PROPERTY
    FORM
    DATA_TYPE
    BUSINESS_ATTRIBUTE
    APPLICATION
  }

  interface Entity {
    urn: String!
    type: EntityType!
  }

  # Users, groups, tags, terms, domains, containers, flows, jobs, charts, dashboards, data products
  # and platforms: read from the aspects DataHub stores them in (catalog/src/graphql/viewShapes.ts).
  type DataPlatform implements Entity {
    urn: String!
    type: EntityType!
    name: String!
    properties: DataPlatformProperties
  }

  enum PlatformType {
    FILE_SYSTEM
    KEY_VALUE_STORE
    MESSAGE_BROKER
    OBJECT_STORE
    OLAP_DATASTORE
    QUERY_ENGINE
    RELATIONAL_DB
    SEARCH_ENGINE
    OTHERS
  }

  type DataPlatformProperties {
    type: PlatformType!
    displayName: String
    datasetNameDelimiter: String!
    logoUrl: String
  }

  type DataPlatformInstance implements Entity {
    urn: String!
    type: EntityType!
    platform: DataPlatform!
    instanceId: String!
    properties: DataPlatformInstanceProperties
    ownership: Ownership
    tags: GlobalTags
    deprecation: Deprecation
  }

  type DataPlatformInstanceProperties {
    name: String
    description: String
    externalUrl: String
  }

  # Relationships (a group's members, a chart's datasets, a dashboard's charts): viewShapes.ts.
  input RelationshipsInput {
    types: [String!]!
    direction: RelationshipDirection!
    start: Int
    count: Int
  }

  enum RelationshipDirection {
    INCOMING
    OUTGOING
  }

  type EntityRelationshipsResult {
    start: Int
    count: Int
    total: Int
    relationships: [EntityRelationship!]!
  }

  type EntityRelationship {
    type: String!
    direction: RelationshipDirection!
    entity: Entity
  }

  type ParentDomainsResult {
    count: Int!
    domains: [Entity!]!
  }

  type DataJobInputOutput {
    inputDatasets: [Dataset!] @deprecated
    outputDatasets: [Dataset!] @deprecated
    inputDatajobs: [DataJob!] @deprecated
  }

  type DataProcessInstance implements Entity {
    urn: String!
    type: EntityType!
    exists: Boolean
    state(startTimeMillis: Long, endTimeMillis: Long, limit: Int): [DataProcessRunEvent]
    properties: DataProcessInstanceProperties
    parentTemplate: Entity
  }

  type DataProcessInstanceProperties {
    name: String!
    externalUrl: String
    created: AuditStamp!
  }

  enum DataProcessRunStatus {
    STARTED
    COMPLETE
  }

  enum DataProcessInstanceRunResultType {
    SUCCESS
    FAILURE
    SKIPPED
    UP_FOR_RETRY
  }

  type DataProcessInstanceRunResult {
    resultType: DataProcessInstanceRunResultType
    nativeResultType: String
  }

  type DataProcessRunEvent {
    status: DataProcessRunStatus
    attempt: Int
    result: DataProcessInstanceRunResult
    timestampMillis: Long!
    durationMillis: Long
  }

  type StructuredPropertyEntity implements Entity {
    urn: String!
    type: EntityType!
    exists: Boolean
    definition: StructuredPropertyDefinition!
  }

  type StructuredPropertyDefinition {
    qualifiedName: String!
    displayName: String
    description: String
    cardinality: PropertyCardinality
    allowedValues: [AllowedValue!]
    valueType: DataTypeEntity!
    immutable: Boolean!
  }

  enum PropertyCardinality {
    SINGLE
    MULTIPLE
  }

  type AllowedValue {
    value: PropertyValue!
    description: String
  }

  union PropertyValue = StringValue | NumberValue

  type StringValue {
    stringValue: String!
  }

  type NumberValue {
    numberValue: Float!
  }

  type DataTypeEntity implements Entity {
    urn: String!
    type: EntityType!
    info: DataTypeInfo!
  }

  type DataTypeInfo {
    type: StdDataType!
    qualifiedName: String!
    displayName: String
    description: String
  }

  enum StdDataType {
    STRING
    NUMBER
    URN
    RICH_TEXT
    DATE
    OTHER
  }

  type Assertion implements Entity {
    urn: String!
    type: EntityType!
    info: AssertionInfo
    runEvents(
      status: AssertionRunStatus
      startTimeMillis: Long
      endTimeMillis: Long
      limit: Int
    ): AssertionRunEventsResult
    tags: GlobalTags
  }

  type AssertionInfo {
    type: AssertionType!
    description: String
    externalUrl: String
  }

  enum AssertionType {
    DATASET
    FRESHNESS
    VOLUME
    SQL
    FIELD
    DATA_SCHEMA
    CUSTOM
  }

  enum AssertionRunStatus {
    COMPLETE
  }

  type AssertionRunEventsResult {
    total: Int!
    failed: Int!
    succeeded: Int!
    errored: Int!
    runEvents: [AssertionRunEvent!]!
  }

  type AssertionRunEvent {
    timestampMillis: Long!
    lastObservedMillis: Long
    assertionUrn: String!
    asserteeUrn: String!
    runId: String!
    status: AssertionRunStatus!
    result: AssertionResult
  }

  type AssertionResult {
    type: AssertionResultType!
    rowCount: Long
    missingCount: Long
    unexpectedCount: Long
    actualAggValue: Float
    externalUrl: String
  }

  enum AssertionResultType {
    INIT
    SUCCESS
    FAILURE
    ERROR
  }

  type Incident implements Entity {
    urn: String!
    type: EntityType!
    incidentType: IncidentType!
    customType: String
    title: String
    description: String
    incidentStatus: IncidentStatus!
    status: IncidentStatus!
    priority: IncidentPriority
    tags: GlobalTags
  }

  enum IncidentType {
    FRESHNESS
    VOLUME
    FIELD
    SQL
    DATA_SCHEMA
    OPERATIONAL
    CUSTOM
  }

  type IncidentStatus {
    state: IncidentState!
    stage: IncidentStage
    message: String
  }

  enum IncidentState {
    ACTIVE
    RESOLVED
  }

  enum IncidentStage {
    TRIAGE
    INVESTIGATION
    WORK_IN_PROGRESS
    FIXED
    NO_ACTION_REQUIRED
  }

  enum IncidentPriority {
    LOW
    MEDIUM
    HIGH
    CRITICAL
  }

  type Notebook implements Entity {
    urn: String!
    type: EntityType!
    tool: String!
    notebookId: String!
    info: NotebookInfo
    editableProperties: NotebookEditableProperties
    ownership: Ownership
    tags: GlobalTags
    domain: DomainAssociation
    glossaryTerms: GlossaryTerms
    exists: Boolean
  }

  type NotebookInfo {
    title: String
    description: String
    externalUrl: String
  }

  type NotebookEditableProperties {
    description: String
  }

  type OwnershipTypeEntity implements Entity {
    urn: String!
    type: EntityType!
    info: OwnershipTypeInfo
  }

  type OwnershipTypeInfo {
    name: String!
    description: String
  }

  type Application implements Entity {
    urn: String!
    type: EntityType!
    properties: ApplicationProperties
    ownership: Ownership
    glossaryTerms: GlossaryTerms
    domain: DomainAssociation
    tags: GlobalTags
  }

  type ApplicationProperties {
    name: String!
    description: String
    externalUrl: String
    numAssets: Int
  }

  type Form implements Entity {
    urn: String!
    type: EntityType!
    info: FormInfo!
    ownership: Ownership
  }

  type FormInfo {
    name: String!
    description: String
    type: FormType!
  }

  enum FormType {
    VERIFICATION
    COMPLETION
  }

  type BusinessAttribute implements Entity {
    urn: String!
    type: EntityType!
    properties: BusinessAttributeInfo
    ownership: Ownership
  }

  type BusinessAttributeInfo {
    name: String!
    description: String
    type: SchemaFieldDataType
  }

  type DataContract implements Entity {
    urn: String!
    type: EntityType!
    properties: DataContractProperties
    status: DataContractStatus
  }

  type DataContractProperties {
    entityUrn: String!
  }

  type DataContractStatus {
    state: DataContractState!
  }

  enum DataContractState {
    ACTIVE
    PENDING
  }

  type CorpUser implements Entity {
    urn: String!
    type: EntityType!
    username: String!
    properties: CorpUserProperties
    editableProperties: CorpUserEditableProperties
    tags: GlobalTags
    exists: Boolean
  }

  type CorpUserProperties {
    active: Boolean!
    displayName: String
    email: String
    title: String
    firstName: String
    lastName: String
    fullName: String
  }

  type CorpUserEditableProperties {
    displayName: String
    title: String
    aboutMe: String
    teams: [String!]
    skills: [String!]
    pictureLink: String
    slack: String
    phone: String
    email: String
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
    ownership: Ownership
    properties: CorpGroupProperties
    editableProperties: CorpGroupEditableProperties
    relationships(input: RelationshipsInput!): EntityRelationshipsResult
    exists: Boolean
  }

  type CorpGroupProperties {
    displayName: String
    description: String
    email: String
    slack: String
  }

  type CorpGroupEditableProperties {
    description: String
    slack: String
    email: String
    pictureLink: String
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
    ownership: Ownership
  }

  type TagProperties {
    name: String!
    description: String
    colorHex: String
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
    ownership: Ownership
    domain: DomainAssociation
    type: EntityType!
    name: String! @deprecated
    hierarchicalName: String!
    properties: GlossaryTermProperties
    deprecation: Deprecation
    parentNodes: ParentNodesResult
    exists: Boolean
  }

  type GlossaryTermProperties {
    name: String!
    description: String
    definition: String! @deprecated
    termSource: String!
    sourceRef: String
    sourceUrl: String
  }

  type GlossaryNode implements Entity {
    urn: String!
    ownership: Ownership
    type: EntityType!
    properties: GlossaryNodeProperties
    parentNodes: ParentNodesResult
    exists: Boolean
  }

  type GlossaryNodeProperties {
    name: String!
    description: String
  }

  type ParentNodesResult {
    count: Int!
    nodes: [GlossaryNode!]!
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
    ownership: Ownership
    parentDomains: ParentDomainsResult
  }

  type SubTypes {
    typeNames: [String!]
  }

  type Container implements Entity {
    urn: String!
    type: EntityType!
    platform: DataPlatform!
    container: Container
    parentContainers: ParentContainersResult
    properties: ContainerProperties
    editableProperties: ContainerEditableProperties
    ownership: Ownership
    tags: GlobalTags
    glossaryTerms: GlossaryTerms
    subTypes: SubTypes
    domain: DomainAssociation
    deprecation: Deprecation
    dataPlatformInstance: DataPlatformInstance
    exists: Boolean
  }

  type ContainerProperties {
    name: String!
    description: String
    externalUrl: String
    qualifiedName: String
  }

  type ContainerEditableProperties {
    description: String
  }

  type ParentContainersResult {
    count: Int!
    containers: [Container!]!
  }

  type DataFlow implements Entity {
    urn: String!
    type: EntityType!
    orchestrator: String!
    flowId: String!
    cluster: String!
    properties: DataFlowProperties
    editableProperties: DataFlowEditableProperties
    ownership: Ownership
    tags: GlobalTags
    deprecation: Deprecation
    glossaryTerms: GlossaryTerms
    domain: DomainAssociation
    lineage(input: LineageInput!): EntityLineageResult
    exists: Boolean
  }

  type DataFlowProperties {
    name: String!
    description: String
    project: String
    externalUrl: String
  }

  type DataFlowEditableProperties {
    description: String
  }

  type DataJob implements Entity {
    urn: String!
    type: EntityType!
    dataFlow: DataFlow
    jobId: String!
    properties: DataJobProperties
    editableProperties: DataJobEditableProperties
    inputOutput: DataJobInputOutput
    tags: GlobalTags
    ownership: Ownership
    deprecation: Deprecation
    glossaryTerms: GlossaryTerms
    domain: DomainAssociation
    lineage(input: LineageInput!): EntityLineageResult
    exists: Boolean
  }

  type DataJobProperties {
    name: String!
    description: String
    externalUrl: String
  }

  type DataJobEditableProperties {
    description: String
  }

  type Chart implements Entity {
    urn: String!
    type: EntityType!
    tool: String!
    chartId: String!
    properties: ChartProperties
    editableProperties: ChartEditableProperties
    relationships(input: RelationshipsInput!): EntityRelationshipsResult
    ownership: Ownership
    deprecation: Deprecation
    tags: GlobalTags
    glossaryTerms: GlossaryTerms
    domain: DomainAssociation
    lineage(input: LineageInput!): EntityLineageResult
    exists: Boolean
  }

  type ChartProperties {
    name: String!
    description: String
    externalUrl: String
    lastModified: AuditStamp!
    created: AuditStamp!
  }

  type ChartEditableProperties {
    description: String
  }

  type Dashboard implements Entity {
    urn: String!
    type: EntityType!
    tool: String!
    dashboardId: String!
    properties: DashboardProperties
    editableProperties: DashboardEditableProperties
    relationships(input: RelationshipsInput!): EntityRelationshipsResult
    ownership: Ownership
    deprecation: Deprecation
    tags: GlobalTags
    glossaryTerms: GlossaryTerms
    domain: DomainAssociation
    lineage(input: LineageInput!): EntityLineageResult
    exists: Boolean
  }

  type DashboardProperties {
    name: String!
    description: String
    externalUrl: String
    lastModified: AuditStamp!
    created: AuditStamp!
  }

  type DashboardEditableProperties {
    description: String
  }

  type MLPrimaryKey implements Entity {
    urn: String!
    type: EntityType!
    name: String!
    featureNamespace: String!
    description: String
    properties: MLPrimaryKeyProperties
    ownership: Ownership
    deprecation: Deprecation
    lineage(input: LineageInput!): EntityLineageResult
    tags: GlobalTags
    glossaryTerms: GlossaryTerms
    domain: DomainAssociation
    editableProperties: MLPrimaryKeyEditableProperties
    exists: Boolean
  }

  type MLPrimaryKeyProperties {
    description: String
    dataType: MLFeatureDataType
  }

  type MLPrimaryKeyEditableProperties {
    description: String
  }

  type QueryEntity implements Entity {
    urn: String!
    type: EntityType!
    properties: QueryProperties
  }

  type QueryProperties {
    statement: QueryStatement!
    name: String
    description: String
  }

  enum QueryLanguage {
    SQL
  }

  type QueryStatement {
    value: String!
    language: QueryLanguage!
  }

  type DataProduct implements Entity {
    urn: String!
    type: EntityType!
    properties: DataProductProperties
    ownership: Ownership
    glossaryTerms: GlossaryTerms
    domain: DomainAssociation
    tags: GlobalTags
  }

  type DataProductProperties {
    name: String!
    description: String
    externalUrl: String
    numAssets: Int
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

  # Tags, glossary terms and owners (catalog/src/graphql/labels.ts).
  input AddTagsInput {
    tagUrns: [String!]!
    resourceUrn: String!
    subResourceType: SubResourceType
    subResource: String
  }

  input TagAssociationInput {
    tagUrn: String!
    resourceUrn: String!
    subResourceType: SubResourceType
    subResource: String
  }

  input AddTermsInput {
    termUrns: [String!]!
    resourceUrn: String!
    subResourceType: SubResourceType
    subResource: String
  }

  input TermAssociationInput {
    termUrn: String!
    resourceUrn: String!
    subResourceType: SubResourceType
    subResource: String
  }

  enum OwnerEntityType {
    CORP_USER
    CORP_GROUP
  }

  input OwnerInput {
    ownerUrn: String!
    ownerEntityType: OwnerEntityType!
    type: OwnershipType @deprecated
    ownershipTypeUrn: String
  }

  input AddOwnersInput {
    owners: [OwnerInput!]!
    resourceUrn: String!
  }

  input RemoveOwnerInput {
    ownerUrn: String!
    ownershipTypeUrn: String
    resourceUrn: String!
  }

  input DescriptionUpdateInput {
    description: String!
    resourceUrn: String!
    subResourceType: SubResourceType
    subResource: String
  }

  input UpdateStructuredPropertyInput {
    urn: String!
    displayName: String
    description: String
  }
`;

let cached: GraphQLSchema | undefined;

export function catalogSchema(): GraphQLSchema {
  cached ??= buildSchema(CATALOG_SDL);
  return cached;
}
