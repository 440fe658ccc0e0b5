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
 * - `written`: a kind Catalog Lens also writes and the catalog's pages list (the five above, the
 *   `CatalogKind`s); the other rows are looked up only (`LookupKind`: users, groups, tags, terms …);
 * - `view` (looked-up-only rows): how the server asks for the entity and reads the answer without
 *   a shape of its own: DataHub's GraphQL root `field` and `typename`, the `selection` a resolve
 *   batch asks (DataHub's field names), whether the type has `exists` and `deprecation`, which
 *   context fields it has (owners, tags, terms, domain, lineage), and dotted paths into the answer
 *   for the display `name`, the `description` and the `facts` a hover lists (`a|b`: the first
 *   path with a value). A type without `exists` is taken as never written when `writtenWhen`
 *   (a path) has no value: DataHub answers an object for any URN, its aspects null.
 *
 * Every lookup below reads the table; none switches on the kind. Another kind of DataHub's
 * registry (registry.ts) is added as a ROW here, not as new switch arms elsewhere. A kind
 * DataHub's GraphQL has no type for (mlModelDeployment) is parsed only, not looked up.
 *
 * No imports: aspects.ts, urn.ts and entityNames.ts build on this file.
 */

/** The context fields a GraphQL type has (DataHub's `ownership`, `tags`, `glossaryTerms`, `domain`, `lineage`). */
export type ContextField = 'ownership' | 'tags' | 'glossaryTerms' | 'domain' | 'lineage';

/** How a looked-up-only kind is asked for and read (see the header). */
export interface KindView {
  readonly field: string;
  readonly typename: string;
  readonly selection: string;
  readonly exists: boolean;
  readonly deprecation: boolean;
  readonly context: readonly ContextField[];
  readonly writtenWhen?: string;
  readonly name: readonly string[];
  readonly description: readonly string[];
  /** Label, path, and for a list asked one page at a time the path of its `total` (the count beyond the page). */
  readonly facts: ReadonlyArray<readonly [label: string, path: string, total?: string]>;
  /** The aspects the local catalog reads the entity from (the names its search index covers first). */
  readonly aspects: readonly string[];
}

interface KindRow {
  readonly kind: string;
  readonly graphqlEntityType: string;
  readonly propertiesAspect: string;
  readonly keyAspect: string;
  readonly ml: boolean;
  readonly written: boolean;
  readonly label: string;
  readonly plural: string;
  readonly word: string;
  readonly view?: KindView;
}

const EDITED = 'editableProperties { description }';
const DESCRIBED = ['editableProperties.description', 'properties.description'];
const ASSET_CONTEXT: readonly ContextField[] = ['ownership', 'tags', 'glossaryTerms', 'domain'];

const ROWS = [
  {
    kind: 'dataset',
    graphqlEntityType: 'DATASET',
    propertiesAspect: 'datasetProperties',
    keyAspect: 'datasetKey',
    ml: false,
    written: true,
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
    written: true,
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
    written: true,
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
    written: true,
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
    written: true,
    label: 'Model group',
    plural: 'Model groups',
    word: 'model group',
  },
  {
    kind: 'corpuser',
    graphqlEntityType: 'CORP_USER',
    propertiesAspect: 'corpUserInfo',
    keyAspect: 'corpUserKey',
    ml: false,
    written: false,
    label: 'User',
    plural: 'Users',
    word: 'user',
    view: {
      field: 'corpUser',
      typename: 'CorpUser',
      selection:
        'urn username properties { displayName fullName title email } editableProperties { displayName title email teams }',
      exists: true,
      deprecation: false,
      context: ['tags'],
      name: ['editableProperties.displayName', 'properties.displayName', 'properties.fullName'],
      description: [],
      facts: [
        ['Title', 'editableProperties.title|properties.title'],
        ['Email', 'editableProperties.email|properties.email'],
        ['Teams', 'editableProperties.teams'],
      ],
      aspects: ['corpUserInfo', 'corpUserEditableInfo'],
    },
  },
  {
    kind: 'corpGroup',
    graphqlEntityType: 'CORP_GROUP',
    propertiesAspect: 'corpGroupInfo',
    keyAspect: 'corpGroupKey',
    ml: false,
    written: false,
    label: 'Group',
    plural: 'Groups',
    word: 'group',
    view: {
      field: 'corpGroup',
      typename: 'CorpGroup',
      // The member count as DataHub's web UI asks it (datahub-web-react's search results:
      // `memberCount: relationships(…, count: 1) { total }`): the users whose groupMembership or
      // nativeGroupMembership names the group; only the total is read.
      selection:
        'urn name properties { displayName description email } editableProperties { description email } members: relationships(input: { types: ["IsMemberOfGroup", "IsMemberOfNativeGroup"], direction: INCOMING, start: 0, count: 1 }) { total }',
      exists: true,
      deprecation: false,
      context: ['ownership'],
      name: ['properties.displayName'],
      description: DESCRIBED,
      facts: [
        ['Email', 'editableProperties.email|properties.email'],
        ['Members', 'members.total'],
      ],
      aspects: ['corpGroupInfo', 'corpGroupEditableInfo'],
    },
  },
  {
    kind: 'tag',
    graphqlEntityType: 'TAG',
    propertiesAspect: 'tagProperties',
    keyAspect: 'tagKey',
    ml: false,
    written: false,
    label: 'Tag',
    plural: 'Tags',
    word: 'tag',
    view: {
      field: 'tag',
      typename: 'Tag',
      selection: 'urn properties { name description colorHex }',
      exists: false,
      writtenWhen: 'properties',
      deprecation: false,
      context: ['ownership'],
      name: ['properties.name'],
      description: ['properties.description'],
      facts: [['Colour', 'properties.colorHex']],
      aspects: ['tagProperties'],
    },
  },
  {
    kind: 'glossaryTerm',
    graphqlEntityType: 'GLOSSARY_TERM',
    propertiesAspect: 'glossaryTermInfo',
    keyAspect: 'glossaryTermKey',
    ml: false,
    written: false,
    label: 'Glossary term',
    plural: 'Glossary terms',
    word: 'glossary term',
    view: {
      field: 'glossaryTerm',
      typename: 'GlossaryTerm',
      selection: 'urn properties { name description } parentNodes { nodes { urn properties { name } } }',
      exists: true,
      deprecation: true,
      context: ['ownership', 'domain'],
      name: ['properties.name'],
      description: ['properties.description'],
      facts: [['Parent nodes', 'parentNodes.nodes.properties.name']],
      aspects: ['glossaryTermInfo'],
    },
  },
  {
    kind: 'glossaryNode',
    graphqlEntityType: 'GLOSSARY_NODE',
    propertiesAspect: 'glossaryNodeInfo',
    keyAspect: 'glossaryNodeKey',
    ml: false,
    written: false,
    label: 'Term group',
    plural: 'Term groups',
    word: 'term group',
    view: {
      field: 'glossaryNode',
      typename: 'GlossaryNode',
      selection: 'urn properties { name description } parentNodes { nodes { urn properties { name } } }',
      exists: true,
      deprecation: false,
      context: ['ownership'],
      name: ['properties.name'],
      description: ['properties.description'],
      facts: [['Parent nodes', 'parentNodes.nodes.properties.name']],
      aspects: ['glossaryNodeInfo'],
    },
  },
  {
    kind: 'domain',
    graphqlEntityType: 'DOMAIN',
    propertiesAspect: 'domainProperties',
    keyAspect: 'domainKey',
    ml: false,
    written: false,
    label: 'Domain',
    plural: 'Domains',
    word: 'domain',
    view: {
      field: 'domain',
      typename: 'Domain',
      selection:
        'urn properties { name description } parentDomains { domains { urn ... on Domain { properties { name } } } }',
      exists: false,
      writtenWhen: 'properties',
      deprecation: false,
      context: ['ownership'],
      name: ['properties.name'],
      description: ['properties.description'],
      facts: [['In', 'parentDomains.domains.properties.name']],
      aspects: ['domainProperties'],
    },
  },
  {
    kind: 'container',
    graphqlEntityType: 'CONTAINER',
    propertiesAspect: 'containerProperties',
    keyAspect: 'containerKey',
    ml: false,
    written: false,
    label: 'Container',
    plural: 'Containers',
    word: 'container',
    view: {
      field: 'container',
      typename: 'Container',
      selection: `urn dataPlatformInstance { platform { urn name properties { displayName } } } properties { name description } ${EDITED} subTypes { typeNames } parentContainers { containers { urn properties { name } } }`,
      exists: true,
      deprecation: true,
      context: ASSET_CONTEXT,
      name: ['properties.name'],
      description: DESCRIBED,
      facts: [
        ['Type', 'subTypes.typeNames'],
        ['Platform', 'dataPlatformInstance.platform.properties.displayName|dataPlatformInstance.platform.name'],
        ['In', 'parentContainers.containers.properties.name'],
      ],
      aspects: ['containerProperties', 'editableContainerProperties'],
    },
  },
  {
    kind: 'dataFlow',
    graphqlEntityType: 'DATA_FLOW',
    propertiesAspect: 'dataFlowInfo',
    keyAspect: 'dataFlowKey',
    ml: false,
    written: false,
    label: 'Data flow',
    plural: 'Data flows',
    word: 'data flow',
    view: {
      field: 'dataFlow',
      typename: 'DataFlow',
      selection: `urn orchestrator flowId cluster properties { name description } ${EDITED}`,
      exists: true,
      deprecation: true,
      context: [...ASSET_CONTEXT, 'lineage'],
      name: ['properties.name'],
      description: DESCRIBED,
      facts: [
        ['Orchestrator', 'orchestrator'],
        ['Cluster', 'cluster'],
      ],
      aspects: ['dataFlowInfo', 'editableDataFlowProperties'],
    },
  },
  {
    kind: 'dataJob',
    graphqlEntityType: 'DATA_JOB',
    propertiesAspect: 'dataJobInfo',
    keyAspect: 'dataJobKey',
    ml: false,
    written: false,
    label: 'Data job',
    plural: 'Data jobs',
    word: 'data job',
    view: {
      field: 'dataJob',
      typename: 'DataJob',
      selection: `urn jobId dataFlow { urn orchestrator flowId properties { name } } properties { name description } ${EDITED} inputOutput { inputDatasets { name } outputDatasets { name } }`,
      exists: true,
      deprecation: true,
      context: [...ASSET_CONTEXT, 'lineage'],
      name: ['properties.name'],
      description: DESCRIBED,
      facts: [
        ['Flow', 'dataFlow.properties.name|dataFlow.flowId'],
        ['Orchestrator', 'dataFlow.orchestrator'],
        ['Inputs', 'inputOutput.inputDatasets.name'],
        ['Outputs', 'inputOutput.outputDatasets.name'],
      ],
      aspects: ['dataJobInfo', 'editableDataJobProperties'],
    },
  },
  {
    kind: 'chart',
    graphqlEntityType: 'CHART',
    propertiesAspect: 'chartInfo',
    keyAspect: 'chartKey',
    ml: false,
    written: false,
    label: 'Chart',
    plural: 'Charts',
    word: 'chart',
    view: {
      field: 'chart',
      typename: 'Chart',
      // The datasets a chart reads, as DataHub's web UI asks them (datahub-web-react's chart query:
      // `inputs: relationships(input: { types: ["Consumes"], direction: OUTGOING … })`).
      selection: `urn tool chartId properties { name description } ${EDITED} inputs: relationships(input: { types: ["Consumes"], direction: OUTGOING, start: 0, count: 10 }) { total relationships { entity { urn ... on Dataset { name } } } }`,
      exists: true,
      deprecation: true,
      context: [...ASSET_CONTEXT, 'lineage'],
      name: ['properties.name'],
      description: DESCRIBED,
      facts: [
        ['Tool', 'tool'],
        ['Inputs', 'inputs.relationships.entity.name', 'inputs.total'],
      ],
      aspects: ['chartInfo', 'editableChartProperties'],
    },
  },
  {
    kind: 'dashboard',
    graphqlEntityType: 'DASHBOARD',
    propertiesAspect: 'dashboardInfo',
    keyAspect: 'dashboardKey',
    ml: false,
    written: false,
    label: 'Dashboard',
    plural: 'Dashboards',
    word: 'dashboard',
    view: {
      field: 'dashboard',
      typename: 'Dashboard',
      // The charts a dashboard holds: its outgoing `Contains` relationships (DashboardInfo.charts'
      // @Relationship; a chart's page asks the same type incoming for its dashboards).
      selection: `urn tool dashboardId properties { name description } ${EDITED} charts: relationships(input: { types: ["Contains"], direction: OUTGOING, start: 0, count: 10 }) { total relationships { entity { urn ... on Chart { properties { name } } } } }`,
      exists: true,
      deprecation: true,
      context: [...ASSET_CONTEXT, 'lineage'],
      name: ['properties.name'],
      description: DESCRIBED,
      facts: [
        ['Tool', 'tool'],
        ['Charts', 'charts.relationships.entity.properties.name', 'charts.total'],
      ],
      aspects: ['dashboardInfo', 'editableDashboardProperties'],
    },
  },
  {
    kind: 'dataProduct',
    graphqlEntityType: 'DATA_PRODUCT',
    propertiesAspect: 'dataProductProperties',
    keyAspect: 'dataProductKey',
    ml: false,
    written: false,
    label: 'Data product',
    plural: 'Data products',
    word: 'data product',
    view: {
      field: 'dataProduct',
      typename: 'DataProduct',
      selection: 'urn properties { name description numAssets } domain { domain { urn properties { name } } }',
      exists: false,
      writtenWhen: 'properties',
      deprecation: false,
      context: ['ownership', 'tags', 'glossaryTerms'],
      name: ['properties.name'],
      description: ['properties.description'],
      facts: [
        ['Domain', 'domain.domain.properties.name'],
        ['Assets', 'properties.numAssets'],
      ],
      aspects: ['dataProductProperties'],
    },
  },
  {
    kind: 'dataPlatform',
    graphqlEntityType: 'DATA_PLATFORM',
    propertiesAspect: 'dataPlatformInfo',
    keyAspect: 'dataPlatformKey',
    ml: false,
    written: false,
    label: 'Data platform',
    plural: 'Data platforms',
    word: 'platform',
    view: {
      field: 'dataPlatform',
      typename: 'DataPlatform',
      selection: 'urn name properties { displayName type }',
      exists: false,
      writtenWhen: 'properties',
      deprecation: false,
      context: [],
      name: ['properties.displayName'],
      description: [],
      facts: [['Type', 'properties.type']],
      aspects: ['dataPlatformInfo'],
    },
  },
  {
    kind: 'mlPrimaryKey',
    graphqlEntityType: 'MLPRIMARY_KEY',
    propertiesAspect: 'mlPrimaryKeyProperties',
    keyAspect: 'mlPrimaryKeyKey',
    ml: false,
    written: false,
    label: 'Primary key',
    plural: 'Primary keys',
    word: 'primary key',
    view: {
      field: 'mlPrimaryKey',
      typename: 'MLPrimaryKey',
      selection: `urn name featureNamespace description properties { description dataType } ${EDITED}`,
      exists: true,
      deprecation: true,
      context: [...ASSET_CONTEXT, 'lineage'],
      name: [],
      description: [...DESCRIBED, 'description'],
      facts: [
        ['Feature table', 'featureNamespace'],
        ['Type', 'properties.dataType'],
      ],
      aspects: ['mlPrimaryKeyProperties', 'editableMlPrimaryKeyProperties'],
    },
  },
  {
    kind: 'query',
    graphqlEntityType: 'QUERY',
    propertiesAspect: 'queryProperties',
    keyAspect: 'queryKey',
    ml: false,
    written: false,
    label: 'Query',
    plural: 'Queries',
    word: 'query',
    view: {
      // DataHub's Query has no root field of its own: `entity(urn:)` answers it as a QueryEntity.
      field: 'entity',
      typename: 'QueryEntity',
      selection: 'urn properties { name description statement { value } }',
      exists: false,
      writtenWhen: 'properties',
      deprecation: false,
      context: [],
      name: ['properties.name'],
      description: ['properties.description'],
      facts: [['Statement', 'properties.statement.value']],
      aspects: ['queryProperties'],
    },
  },
  {
    kind: 'dataPlatformInstance',
    graphqlEntityType: 'DATA_PLATFORM_INSTANCE',
    propertiesAspect: 'dataPlatformInstanceProperties',
    keyAspect: 'dataPlatformInstanceKey',
    ml: false,
    written: false,
    label: 'Platform instance',
    plural: 'Platform instances',
    word: 'platform instance',
    view: {
      field: 'dataPlatformInstance',
      typename: 'DataPlatformInstance',
      selection: 'urn instanceId platform { urn name properties { displayName } } properties { name description }',
      exists: false,
      writtenWhen: 'properties',
      deprecation: true,
      context: ['ownership', 'tags'],
      name: ['properties.name'],
      description: ['properties.description'],
      facts: [['Platform', 'platform.properties.displayName|platform.name']],
      aspects: ['dataPlatformInstanceProperties'],
    },
  },
  {
    kind: 'dataProcessInstance',
    graphqlEntityType: 'DATA_PROCESS_INSTANCE',
    propertiesAspect: 'dataProcessInstanceProperties',
    keyAspect: 'dataProcessInstanceKey',
    ml: false,
    written: false,
    label: 'Run',
    plural: 'Runs',
    word: 'run',
    view: {
      // A run of a job or flow: its name, its last state (DataHub's `state`, newest first) and what it ran.
      field: 'dataProcessInstance',
      typename: 'DataProcessInstance',
      selection:
        'urn properties { name } state(limit: 1) { status result { resultType } } parentTemplate { urn ... on DataJob { properties { name } } }',
      exists: true,
      deprecation: false,
      context: [],
      name: ['properties.name'],
      description: [],
      facts: [
        ['Last state', 'state.result.resultType|state.status'],
        ['Of', 'parentTemplate.properties.name|parentTemplate.urn'],
      ],
      aspects: ['dataProcessInstanceProperties'],
    },
  },
  {
    kind: 'structuredProperty',
    graphqlEntityType: 'STRUCTURED_PROPERTY',
    propertiesAspect: 'propertyDefinition',
    keyAspect: 'structuredPropertyKey',
    ml: false,
    written: false,
    label: 'Structured property',
    plural: 'Structured properties',
    word: 'structured property',
    view: {
      field: 'structuredProperty',
      typename: 'StructuredPropertyEntity',
      selection:
        'urn definition { qualifiedName displayName description cardinality valueType { urn info { type displayName } } allowedValues { value { ... on StringValue { stringValue } ... on NumberValue { numberValue } } } }',
      exists: true,
      deprecation: false,
      context: [],
      name: ['definition.displayName'],
      description: ['definition.description'],
      facts: [
        ['Type', 'definition.valueType.info.displayName|definition.valueType.info.type'],
        ['Cardinality', 'definition.cardinality'],
        ['Allowed values', 'definition.allowedValues.value.stringValue|definition.allowedValues.value.numberValue'],
      ],
      aspects: ['propertyDefinition'],
    },
  },
  {
    kind: 'assertion',
    graphqlEntityType: 'ASSERTION',
    propertiesAspect: 'assertionInfo',
    keyAspect: 'assertionKey',
    ml: false,
    written: false,
    label: 'Assertion',
    plural: 'Assertions',
    word: 'assertion',
    view: {
      // Its description as the title (assertion ids are GUIDs), its type and its last result
      // (DataHub's `runEvents(limit: 1)`: the newest run; its counts over the runs it holds).
      field: 'assertion',
      typename: 'Assertion',
      selection:
        'urn info { type description } runEvents(limit: 1) { total failed runEvents { timestampMillis status result { type } } }',
      exists: false,
      writtenWhen: 'info',
      deprecation: false,
      context: ['tags'],
      name: ['info.description'],
      description: [],
      facts: [
        ['Type', 'info.type'],
        ['Last result', 'runEvents.runEvents.result.type'],
        ['Runs', 'runEvents.total'],
        ['Failed', 'runEvents.failed'],
      ],
      aspects: ['assertionInfo'],
    },
  },
  {
    kind: 'incident',
    graphqlEntityType: 'INCIDENT',
    propertiesAspect: 'incidentInfo',
    keyAspect: 'incidentKey',
    ml: false,
    written: false,
    label: 'Incident',
    plural: 'Incidents',
    word: 'incident',
    view: {
      // DataHub's Incident has no root field of its own: `entity(urn:)` answers it.
      field: 'entity',
      typename: 'Incident',
      selection: 'urn title description incidentType customType priority incidentStatus { state stage }',
      exists: false,
      writtenWhen: 'incidentType',
      deprecation: false,
      context: ['tags'],
      name: ['title'],
      description: ['description'],
      facts: [
        ['Type', 'customType|incidentType'],
        ['Status', 'incidentStatus.state'],
        ['Stage', 'incidentStatus.stage'],
        ['Priority', 'priority'],
      ],
      aspects: ['incidentInfo'],
    },
  },
  {
    kind: 'notebook',
    graphqlEntityType: 'NOTEBOOK',
    propertiesAspect: 'notebookInfo',
    keyAspect: 'notebookKey',
    ml: false,
    written: false,
    label: 'Notebook',
    plural: 'Notebooks',
    word: 'notebook',
    view: {
      field: 'notebook',
      typename: 'Notebook',
      selection: `urn tool notebookId info { title description } ${EDITED}`,
      exists: true,
      deprecation: false,
      context: ASSET_CONTEXT,
      name: ['info.title'],
      description: ['editableProperties.description', 'info.description'],
      facts: [['Tool', 'tool']],
      aspects: ['notebookInfo', 'editableNotebookProperties'],
    },
  },
  {
    kind: 'ownershipType',
    graphqlEntityType: 'CUSTOM_OWNERSHIP_TYPE',
    propertiesAspect: 'ownershipTypeInfo',
    keyAspect: 'ownershipTypeKey',
    ml: false,
    written: false,
    label: 'Ownership type',
    plural: 'Ownership types',
    word: 'ownership type',
    view: {
      // DataHub's OwnershipTypeEntity has no root field of its own: `entity(urn:)` answers it.
      field: 'entity',
      typename: 'OwnershipTypeEntity',
      selection: 'urn info { name description }',
      exists: false,
      writtenWhen: 'info',
      deprecation: false,
      context: [],
      name: ['info.name'],
      description: ['info.description'],
      facts: [],
      aspects: ['ownershipTypeInfo'],
    },
  },
  {
    kind: 'application',
    graphqlEntityType: 'APPLICATION',
    propertiesAspect: 'applicationProperties',
    keyAspect: 'applicationKey',
    ml: false,
    written: false,
    label: 'Application',
    plural: 'Applications',
    word: 'application',
    view: {
      field: 'application',
      typename: 'Application',
      selection: 'urn properties { name description numAssets }',
      exists: false,
      writtenWhen: 'properties',
      deprecation: false,
      context: ASSET_CONTEXT,
      name: ['properties.name'],
      description: ['properties.description'],
      facts: [['Assets', 'properties.numAssets']],
      aspects: ['applicationProperties'],
    },
  },
  {
    kind: 'form',
    graphqlEntityType: 'FORM',
    propertiesAspect: 'formInfo',
    keyAspect: 'formKey',
    ml: false,
    written: false,
    label: 'Form',
    plural: 'Forms',
    word: 'form',
    view: {
      field: 'form',
      typename: 'Form',
      selection: 'urn info { name description type }',
      exists: false,
      writtenWhen: 'info',
      deprecation: false,
      context: ['ownership'],
      name: ['info.name'],
      description: ['info.description'],
      facts: [['Type', 'info.type']],
      aspects: ['formInfo'],
    },
  },
  {
    kind: 'businessAttribute',
    graphqlEntityType: 'BUSINESS_ATTRIBUTE',
    propertiesAspect: 'businessAttributeInfo',
    keyAspect: 'businessAttributeKey',
    ml: false,
    written: false,
    label: 'Business attribute',
    plural: 'Business attributes',
    word: 'business attribute',
    view: {
      field: 'businessAttribute',
      typename: 'BusinessAttribute',
      selection: 'urn properties { name description type }',
      exists: false,
      writtenWhen: 'properties',
      deprecation: false,
      context: ['ownership'],
      name: ['properties.name'],
      description: ['properties.description'],
      facts: [['Type', 'properties.type']],
      aspects: ['businessAttributeInfo'],
    },
  },
  {
    kind: 'dataContract',
    graphqlEntityType: 'DATA_CONTRACT',
    propertiesAspect: 'dataContractProperties',
    keyAspect: 'dataContractKey',
    ml: false,
    written: false,
    label: 'Data contract',
    plural: 'Data contracts',
    word: 'data contract',
    view: {
      // DataHub's DataContract has no root field of its own: `entity(urn:)` answers it. It has no
      // name: the hover shows its state and the dataset it is about.
      field: 'entity',
      typename: 'DataContract',
      selection: 'urn properties { entityUrn } status { state }',
      exists: false,
      writtenWhen: 'properties',
      deprecation: false,
      context: [],
      name: [],
      description: [],
      facts: [
        ['State', 'status.state'],
        ['Dataset', 'properties.entityUrn'],
      ],
      aspects: ['dataContractProperties'],
    },
  },
] as const satisfies readonly KindRow[];

type AnyRow = (typeof ROWS)[number];
type Row = Extract<AnyRow, { written: true }>;

/** A catalog kind's word (`dataset`, `mlFeature` …): the kinds written and listed as well as looked up. */
export type CatalogKind = Row['kind'];
/** Every kind the server looks up: the catalog kinds and the looked-up-only ones (`corpuser`, `tag` …). */
export type LookupKind = AnyRow['kind'];
/** A looked-up-only kind (`corpuser`, `tag`, `container` …). */
export type ViewKind = Exclude<LookupKind, CatalogKind>;
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

const WRITTEN_ROWS: readonly Row[] = ROWS.filter((r): r is Row => r.written);

/** Every catalog kind, in the table's order. */
export const CATALOG_KINDS: readonly CatalogKind[] = WRITTEN_ROWS.map((r) => r.kind);

/** Every kind the server looks up, in the table's order. */
export const LOOKUP_KINDS: readonly LookupKind[] = ROWS.map((r) => r.kind);

/** The looked-up-only kinds, in the table's order. */
export const VIEW_KINDS: readonly ViewKind[] = ROWS.flatMap((r) => (r.written ? [] : [r.kind]));

/** The ML kinds, in the table's order. */
export const ML_KINDS: readonly MlKind[] = WRITTEN_ROWS.flatMap((r) => (r.ml ? [r.kind] : []));

const BY_KIND: ReadonlyMap<string, Row> = new Map(WRITTEN_ROWS.map((r) => [r.kind, r]));
const BY_GRAPHQL_TYPE: ReadonlyMap<string, Row> = new Map(WRITTEN_ROWS.map((r) => [r.graphqlEntityType, r]));
const ANY_BY_KIND: ReadonlyMap<string, AnyRow> = new Map(ROWS.map((r) => [r.kind, r]));
const ANY_BY_GRAPHQL_TYPE: ReadonlyMap<string, AnyRow> = new Map(ROWS.map((r) => [r.graphqlEntityType, r]));

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

/** Whether `word` is a kind the server looks up (a Map lookup, as isCatalogKind). */
export function isLookupKind(word: string): word is LookupKind {
  return ANY_BY_KIND.has(word);
}

/** Whether `kind` is looked up only (it has a `view`). */
export function isViewKind(kind: string): kind is ViewKind {
  return ANY_BY_KIND.get(kind)?.written === false;
}

/** How a looked-up-only kind is asked for and read. */
export function viewOf(kind: ViewKind): KindView {
  return (ANY_BY_KIND.get(kind) as { view: KindView }).view;
}

/** DataHub's GraphQL `EntityType` of any looked-up kind: `corpuser` → `CORP_USER`. */
export function lookupGraphqlEntityTypeOf(kind: LookupKind): string {
  return ANY_BY_KIND.get(kind)!.graphqlEntityType;
}

/** The looked-up kind of a DataHub GraphQL `EntityType` (`CORP_USER` → `corpuser`); undefined for others. */
export function lookupKindOfGraphqlEntityType(type: string): LookupKind | undefined {
  return ANY_BY_GRAPHQL_TYPE.get(type)?.kind;
}

/** How any looked-up kind is named to a person. */
export function lookupLabels(kind: LookupKind): KindLabels {
  const { label, plural, word } = ANY_BY_KIND.get(kind)!;
  return { label, plural, word };
}

/** The key aspect of any looked-up kind: `tag` → `tagKey`. */
export function lookupKeyAspectOf(kind: LookupKind): string {
  return ANY_BY_KIND.get(kind)!.keyAspect;
}

/**
 * The values at a dotted path of an answer (`parentNodes.nodes.properties.name`), lists walked
 * through; `a|b` reads `b` when `a` has none. Strings and numbers only, empty strings left out.
 */
export function valuesAt(value: unknown, path: string): string[] {
  for (const alternative of path.split('|')) {
    let here: unknown[] = [value];
    for (const step of alternative.split('.')) {
      here = here.flatMap((v) => {
        if (v === null || typeof v !== 'object' || Array.isArray(v)) return [];
        const next = Object.hasOwn(v, step) ? (v as Record<string, unknown>)[step] : undefined;
        return Array.isArray(next) ? next : next === undefined || next === null ? [] : [next];
      });
    }
    const out = here.flatMap((v) =>
      typeof v === 'string' && v.trim() !== '' ? [v] : typeof v === 'number' && Number.isFinite(v) ? [String(v)] : [],
    );
    if (out.length > 0) return out;
  }
  return [];
}

/** The first value at any of `paths` (valuesAt), or undefined. */
export function firstValueAt(value: unknown, paths: readonly string[]): string | undefined {
  for (const p of paths) {
    const v = valuesAt(value, p)[0];
    if (v !== undefined) return v;
  }
  return undefined;
}
