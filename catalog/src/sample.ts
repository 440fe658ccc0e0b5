/**
 * The sample catalog that matches examples/ (the demo workspace). `--sample` loads it through
 * the same proposal path as any client, in one transaction; loading it again changes nothing
 * (identical values make no new version).
 */
import type { CompatMode } from './compat';
import { ingestProposalBatch } from './ingest';
import type { NamespacePolicy } from './namespaces';
import type { AspectStore } from './store';

const hive = 'urn:li:dataPlatform:hive';
const feast = 'urn:li:dataPlatform:feast';
const mlflow = 'urn:li:dataPlatform:mlflow';

/** Every sample URN, in DataHub's `li` namespace. */
export const SAMPLE = {
  datasets: {
    users: `urn:li:dataset:(${hive},db.users,PROD)`,
    orders: `urn:li:dataset:(${hive},db.orders,PROD)`,
    clicks: 'urn:li:dataset:(urn:li:dataPlatform:kafka,events.clicks,PROD)',
    revenue: 'urn:li:dataset:(urn:li:dataPlatform:snowflake,analytics.public.revenue,PROD)',
    /** Deprecated, replaced by db.users: examples/pipelines/features.py names it. */
    usersLegacy: `urn:li:dataset:(${hive},db.users_legacy,PROD)`,
  },
  features: {
    age: 'urn:li:mlFeature:(users_table,age)',
    country: 'urn:li:mlFeature:(users_table,country)',
    signupDays: 'urn:li:mlFeature:(users_table,signup_days)',
    orderCount: 'urn:li:mlFeature:(orders_table,order_count)',
    avgAmount: 'urn:li:mlFeature:(orders_table,avg_amount)',
  },
  featureTables: {
    users: `urn:li:mlFeatureTable:(${feast},users_table)`,
    orders: `urn:li:mlFeatureTable:(${feast},orders_table)`,
  },
  modelGroups: {
    churn: `urn:li:mlModelGroup:(${mlflow},churn-model,PROD)`,
    ltv: `urn:li:mlModelGroup:(${mlflow},ltv-model,PROD)`,
  },
  models: {
    churnV3: `urn:li:mlModel:(${mlflow},churn-model-v3,PROD)`,
    ltvV1: `urn:li:mlModel:(${mlflow},ltv-model-v1,PROD)`,
  },
  /** Well-formed URNs that the sample catalog does NOT hold. */
  missing: {
    dataset: `urn:li:dataset:(${hive},db.ghost,PROD)`,
    feature: 'urn:li:mlFeature:(users_table,ghost)',
  },
  user: 'urn:li:corpuser:jdoe',
  /**
   * Users, groups, tags, terms, a domain, a container, an Airflow flow and its jobs, a chart and a
   * dashboard, a data product and platforms: looked up by name (examples/catalog/people_and_pipelines.yml).
   * The owners, tag, term and domain the datasets above name keep no aspects of their own.
   */
  people: {
    alice: 'urn:li:corpuser:asmith',
    bob: 'urn:li:corpuser:bwong',
    group: 'urn:li:corpGroup:data-platform',
  },
  tags: {
    gdpr: 'urn:li:tag:gdpr',
    gold: 'urn:li:tag:gold',
  },
  glossary: {
    node: 'urn:li:glossaryNode:Classification',
    sensitive: 'urn:li:glossaryTerm:Classification.Sensitive',
    /** Deprecated, replaced by Classification.Sensitive. */
    secret: 'urn:li:glossaryTerm:Classification.Secret',
  },
  domain: 'urn:li:domain:7f3c9a52-1b7e-4c1d-9d7a-2f8e5b6c4a10',
  container: 'urn:li:container:25384e01fcde1063114925e9661766e7',
  flow: 'urn:li:dataFlow:(airflow,daily_revenue,PROD)',
  jobs: {
    load: 'urn:li:dataJob:(urn:li:dataFlow:(airflow,daily_revenue,PROD),load_revenue)',
    /** Deprecated, replaced by load_revenue. */
    loadV1: 'urn:li:dataJob:(urn:li:dataFlow:(airflow,daily_revenue,PROD),load_revenue_v1)',
  },
  chart: 'urn:li:chart:(looker,revenue_by_day)',
  dashboard: 'urn:li:dashboard:(looker,revenue_overview)',
  dataProduct: 'urn:li:dataProduct:revenue-reporting',
  platforms: {
    airflow: 'urn:li:dataPlatform:airflow',
    looker: 'urn:li:dataPlatform:looker',
  },
  primaryKey: 'urn:li:mlPrimaryKey:(users_table,user_id)',
  query: 'urn:li:query:revenue-by-day',
  /** The domain the Marketing domain sits in. */
  parentDomain: 'urn:li:domain:business',
  structuredProperty: 'urn:li:structuredProperty:io.acryl.privacy.retentionTime',
  /** A column assertion on the revenue table, its last run a success. */
  assertion: 'urn:li:assertion:4c6a0a2f9d1e4b7c8e3f5a6b7c8d9e0f',
  ownershipType: 'urn:li:ownershipType:steward',
} as const;

/** The v2 field paths of the clicks dataset. */
export const CLICKS_FIELDS = {
  sessionId: '[version=2.0].[type=struct].[type=string].session_id',
  deviceOs: '[version=2.0].[type=struct].[type=struct].device.[type=string].os',
  ts: '[version=2.0].[type=struct].[type=long].ts',
} as const;

/** Fixed stamp inside sample aspect values, so that reloading writes identical values. */
const SAMPLE_TIME = 1735689600000;
const SAMPLE_ACTOR = 'urn:li:corpuser:datahub';
const stamp = { time: SAMPLE_TIME, actor: SAMPLE_ACTOR };

type Json = Record<string, unknown>;
type FieldType = 'StringType' | 'NumberType' | 'TimeType' | 'DateType' | 'BooleanType';

interface SampleField {
  path: string;
  native: string;
  type: FieldType;
  description?: string;
  key?: boolean;
}

function schema(name: string, platform: string, fields: SampleField[]): Json {
  return {
    schemaName: name,
    platform,
    version: 0,
    created: stamp,
    lastModified: stamp,
    hash: '',
    platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
    fields: fields.map((f) => ({
      fieldPath: f.path,
      nullable: !f.key,
      ...(f.description !== undefined ? { description: f.description } : {}),
      type: { type: { [`com.linkedin.schema.${f.type}`]: {} } },
      nativeDataType: f.native,
      recursive: false,
      isPartOfKey: f.key === true,
    })),
  };
}

function datasetProperties(name: string, qualifiedName: string, description?: string): Json {
  return { customProperties: {}, name, qualifiedName, ...(description !== undefined ? { description } : {}), tags: [] };
}

/** [entityType, urn, aspectName, value] in write order: what creates an entity comes first. */
function sampleAspects(): Array<[string, string, string, Json]> {
  const d = SAMPLE.datasets;
  const f = SAMPLE.features;
  return [
    [
      'dataset',
      d.users,
      'datasetProperties',
      datasetProperties('users', 'db.users', 'One row per registered user of the product.'),
    ],
    [
      'dataset',
      d.users,
      'schemaMetadata',
      schema('db.users', hive, [
        { path: 'user_id', native: 'bigint', type: 'NumberType', description: 'Primary key of the user.', key: true },
        { path: 'email', native: 'string', type: 'StringType', description: 'Login e-mail address, unique.' },
        { path: 'age', native: 'int', type: 'NumberType' },
        { path: 'country', native: 'string', type: 'StringType', description: 'ISO 3166-1 alpha-2 country code.' },
        { path: 'signup_ts', native: 'timestamp', type: 'TimeType' },
      ]),
    ],
    ['dataset', d.orders, 'datasetProperties', datasetProperties('orders', 'db.orders')],
    [
      'dataset',
      d.orders,
      'schemaMetadata',
      schema('db.orders', hive, [
        { path: 'order_id', native: 'bigint', type: 'NumberType', description: 'Primary key of the order.', key: true },
        { path: 'user_id', native: 'bigint', type: 'NumberType', description: 'The user who placed the order.' },
        { path: 'amount', native: 'decimal(10,2)', type: 'NumberType' },
        { path: 'created_at', native: 'timestamp', type: 'TimeType', description: 'When the order was placed (UTC).' },
      ]),
    ],
    [
      'dataset',
      d.clicks,
      'datasetProperties',
      datasetProperties('events.clicks', 'events.clicks', 'Click events from the web and mobile apps.'),
    ],
    [
      'dataset',
      d.clicks,
      'schemaMetadata',
      schema('events.clicks', 'urn:li:dataPlatform:kafka', [
        { path: CLICKS_FIELDS.sessionId, native: 'string', type: 'StringType', description: 'Browser or app session.' },
        { path: CLICKS_FIELDS.deviceOs, native: 'string', type: 'StringType' },
        { path: CLICKS_FIELDS.ts, native: 'long', type: 'NumberType', description: 'Event time, epoch milliseconds.' },
      ]),
    ],
    [
      'dataset',
      d.revenue,
      'datasetProperties',
      datasetProperties('revenue', 'analytics.public.revenue', 'Daily revenue.'),
    ],
    [
      'dataset',
      d.revenue,
      'schemaMetadata',
      schema('analytics.public.revenue', 'urn:li:dataPlatform:snowflake', [
        { path: 'day', native: 'DATE', type: 'DateType', description: 'Calendar day (UTC).', key: true },
        { path: 'revenue_eur', native: 'NUMBER(18,2)', type: 'NumberType', description: 'revenue' },
      ]),
    ],
    [
      'dataset',
      d.revenue,
      'editableDatasetProperties',
      { created: stamp, description: 'Daily revenue per country, in EUR, after refunds.' },
    ],
    [
      'dataset',
      d.revenue,
      'editableSchemaMetadata',
      {
        created: stamp,
        editableSchemaFieldInfo: [{ fieldPath: 'revenue_eur', description: 'Revenue after refunds, EUR.' }],
      },
    ],
    [
      'mlFeature',
      f.age,
      'mlFeatureProperties',
      { customProperties: {}, description: 'Age of the user in years.', dataType: 'CONTINUOUS', sources: [d.users] },
    ],
    [
      'mlFeature',
      f.country,
      'mlFeatureProperties',
      { customProperties: {}, description: 'Country of residence.', dataType: 'NOMINAL', sources: [d.users] },
    ],
    ['mlFeature', f.signupDays, 'mlFeatureProperties', { customProperties: {}, dataType: 'COUNT' }],
    [
      'mlFeature',
      f.orderCount,
      'mlFeatureProperties',
      {
        customProperties: {},
        description: 'Orders placed in the last 90 days.',
        dataType: 'COUNT',
        version: { versionTag: '2' },
        sources: [d.orders],
      },
    ],
    [
      'mlFeature',
      f.avgAmount,
      'mlFeatureProperties',
      { customProperties: {}, description: 'Average order amount, EUR.', dataType: 'CONTINUOUS' },
    ],
    [
      'mlFeatureTable',
      SAMPLE.featureTables.users,
      'mlFeatureTableProperties',
      {
        customProperties: {},
        description: 'Features about users.',
        mlFeatures: [f.age, f.country],
      },
    ],
    [
      'mlFeatureTable',
      SAMPLE.featureTables.orders,
      'mlFeatureTableProperties',
      {
        customProperties: {},
        description: 'Features about orders.',
        mlFeatures: [f.orderCount],
      },
    ],
    [
      'mlModelGroup',
      SAMPLE.modelGroups.churn,
      'mlModelGroupProperties',
      {
        customProperties: {},
        description: 'Predicts which users will stop ordering within 60 days.',
      },
    ],
    ['mlModelGroup', SAMPLE.modelGroups.ltv, 'mlModelGroupProperties', { customProperties: {} }],
    [
      'mlModel',
      SAMPLE.models.churnV3,
      'mlModelProperties',
      {
        customProperties: {},
        description: 'Churn classifier, third training run.',
        groups: [SAMPLE.modelGroups.churn],
        mlFeatures: [f.age, f.country, f.orderCount],
        trainingMetrics: [{ name: 'auc', description: 'Area under ROC', value: '0.91' }],
        hyperParams: [{ name: 'max_depth', description: 'Tree depth', value: '6' }],
        type: 'gradient boosted trees',
        version: { versionTag: '3' },
        tags: [],
      },
    ],
    ['mlModel', SAMPLE.models.ltvV1, 'mlModelProperties', { customProperties: {}, tags: [] }],
    // What else DataHub knows: owners, tags, a glossary term and a domain on db.users,
    // and lineage events.clicks → db.orders → analytics.public.revenue.
    [
      'dataset',
      d.users,
      'ownership',
      {
        owners: [
          { owner: SAMPLE.user, type: 'TECHNICAL_OWNER' },
          { owner: 'urn:li:corpGroup:growth-analytics', type: 'BUSINESS_OWNER' },
        ],
        lastModified: stamp,
      },
    ],
    ['dataset', d.users, 'globalTags', { tags: [{ tag: 'urn:li:tag:pii' }] }],
    [
      'dataset',
      d.users,
      'glossaryTerms',
      { terms: [{ urn: 'urn:li:glossaryTerm:Customer.Profile' }], auditStamp: stamp },
    ],
    ['dataset', d.users, 'domains', { domains: ['urn:li:domain:growth'] }],
    [
      'dataset',
      d.orders,
      'ownership',
      { owners: [{ owner: SAMPLE.user, type: 'TECHNICAL_OWNER' }], lastModified: stamp },
    ],
    [
      'dataset',
      d.orders,
      'upstreamLineage',
      { upstreams: [{ dataset: d.clicks, type: 'TRANSFORMED', auditStamp: stamp }] },
    ],
    [
      'dataset',
      d.revenue,
      'upstreamLineage',
      { upstreams: [{ dataset: d.orders, type: 'TRANSFORMED', auditStamp: stamp }] },
    ],
    [
      'dataset',
      d.usersLegacy,
      'datasetProperties',
      datasetProperties('users_legacy', 'db.users_legacy', 'Users as the old sign-up service kept them.'),
    ],
    [
      'dataset',
      d.usersLegacy,
      'deprecation',
      {
        deprecated: true,
        note: 'Replaced by db.users, which has every user since 2019.',
        actor: SAMPLE.user,
        decommissionTime: Date.UTC(2026, 11, 31),
        replacement: d.users,
      },
    ],
  ];
}

/** The users, tags, terms, domain, container, flow, jobs, chart, dashboard and data product of SAMPLE. */
function peopleAndPipelines(): Array<[string, string, string, Json]> {
  const p = SAMPLE.people;
  const g = SAMPLE.glossary;
  const audit = { created: stamp, lastModified: stamp };
  return [
    // The owner the datasets name: written (so not unknown), with no display name (owners show as `jdoe`).
    ['corpuser', SAMPLE.user, 'corpUserInfo', { active: true, title: 'Analytics Engineer', email: 'jdoe@example.com' }],
    [
      'corpuser',
      p.alice,
      'corpUserInfo',
      {
        active: true,
        displayName: 'Alice Smith',
        fullName: 'Alice Smith',
        firstName: 'Alice',
        lastName: 'Smith',
        title: 'Data Engineer',
        email: 'asmith@example.com',
      },
    ],
    ['corpuser', p.alice, 'corpUserEditableInfo', { teams: ['Data Platform'], skills: [], pictureLink: '' }],
    ['corpuser', p.alice, 'groupMembership', { groups: [p.group] }],
    ['corpuser', p.bob, 'groupMembership', { groups: [p.group] }],
    [
      'corpuser',
      p.bob,
      'corpUserInfo',
      { active: true, displayName: 'Bob Wong', title: 'Analyst', email: 'bwong@example.com' },
    ],
    [
      'corpGroup',
      p.group,
      'corpGroupInfo',
      {
        displayName: 'Data Platform',
        description: 'Runs the warehouse and the pipelines that feed it.',
        email: 'data-platform@example.com',
        admins: [p.alice],
        members: [p.alice, p.bob],
        groups: [],
      },
    ],
    [
      'tag',
      SAMPLE.tags.gdpr,
      'tagProperties',
      { name: 'GDPR', description: 'Personal data of EU residents.', colorHex: '#d4380d' },
    ],
    [
      'tag',
      SAMPLE.tags.gold,
      'tagProperties',
      { name: 'Gold', description: 'Curated, tested, owned.', colorHex: '#faad14' },
    ],
    [
      'glossaryNode',
      g.node,
      'glossaryNodeInfo',
      { name: 'Classification', definition: 'How sensitive a piece of data is.' },
    ],
    [
      'glossaryTerm',
      g.sensitive,
      'glossaryTermInfo',
      {
        name: 'Sensitive Data',
        definition: 'Data that must be masked outside the warehouse.',
        parentNode: g.node,
        termSource: 'INTERNAL',
      },
    ],
    [
      'glossaryTerm',
      g.secret,
      'glossaryTermInfo',
      { name: 'Secret', definition: 'The old name of Sensitive Data.', parentNode: g.node, termSource: 'INTERNAL' },
    ],
    [
      'glossaryTerm',
      g.secret,
      'deprecation',
      { deprecated: true, note: 'Merged into Sensitive Data.', actor: SAMPLE.user, replacement: g.sensitive },
    ],
    [
      'domain',
      SAMPLE.domain,
      'domainProperties',
      {
        name: 'Marketing',
        description: 'Campaigns, attribution and revenue reporting.',
        parentDomain: SAMPLE.parentDomain,
      },
    ],
    ['domain', SAMPLE.parentDomain, 'domainProperties', { name: 'Business', description: 'The business units.' }],
    [
      'container',
      SAMPLE.container,
      'containerProperties',
      { name: 'analytics', description: 'The analytics database.', qualifiedName: 'analytics' },
    ],
    ['container', SAMPLE.container, 'subTypes', { typeNames: ['Database'] }],
    ['container', SAMPLE.container, 'dataPlatformInstance', { platform: 'urn:li:dataPlatform:snowflake' }],
    [
      'container',
      SAMPLE.container,
      'ownership',
      { owners: [{ owner: p.alice, type: 'TECHNICAL_OWNER' }], lastModified: stamp },
    ],
    [
      'dataFlow',
      SAMPLE.flow,
      'dataFlowInfo',
      { name: 'Daily revenue', description: 'Loads the revenue table every night.' },
    ],
    [
      'dataFlow',
      SAMPLE.flow,
      'ownership',
      { owners: [{ owner: p.group, type: 'TECHNICAL_OWNER' }], lastModified: stamp },
    ],
    [
      'dataJob',
      SAMPLE.jobs.load,
      'dataJobInfo',
      { name: 'Load revenue', description: 'Sums the day of orders into revenue.', type: { string: 'COMMAND' } },
    ],
    [
      'dataJob',
      SAMPLE.jobs.load,
      'dataJobInputOutput',
      { inputDatasets: [SAMPLE.datasets.orders], outputDatasets: [SAMPLE.datasets.revenue] },
    ],
    [
      'dataJob',
      SAMPLE.jobs.loadV1,
      'dataJobInfo',
      { name: 'Load revenue (v1)', description: 'The first version of the load.', type: { string: 'COMMAND' } },
    ],
    [
      'dataJob',
      SAMPLE.jobs.loadV1,
      'deprecation',
      { deprecated: true, note: 'Use load_revenue.', actor: SAMPLE.user, replacement: SAMPLE.jobs.load },
    ],
    [
      'chart',
      SAMPLE.chart,
      'chartInfo',
      {
        title: 'Revenue by day',
        description: 'Daily revenue, last 90 days.',
        inputs: [SAMPLE.datasets.revenue],
        lastModified: audit,
      },
    ],
    [
      'dashboard',
      SAMPLE.dashboard,
      'dashboardInfo',
      {
        title: 'Revenue overview',
        description: 'Revenue for the marketing team.',
        charts: [SAMPLE.chart],
        lastModified: audit,
      },
    ],
    [
      'dataProduct',
      SAMPLE.dataProduct,
      'dataProductProperties',
      {
        name: 'Revenue reporting',
        description: 'The revenue table and the dashboard on it.',
        assets: [{ destinationUrn: SAMPLE.datasets.revenue }, { destinationUrn: SAMPLE.dashboard }],
      },
    ],
    ['dataProduct', SAMPLE.dataProduct, 'domains', { domains: [SAMPLE.domain] }],
    [
      'mlPrimaryKey',
      SAMPLE.primaryKey,
      'mlPrimaryKeyProperties',
      { description: 'The id of a user.', dataType: 'ORDINAL', sources: [SAMPLE.datasets.users] },
    ],
    [
      'query',
      SAMPLE.query,
      'queryProperties',
      {
        name: 'Revenue by day',
        statement: { value: 'SELECT day, sum(amount)\nFROM db.orders\nGROUP BY day', language: 'SQL' },
        source: 'MANUAL',
        created: stamp,
        lastModified: stamp,
      },
    ],
    [
      'structuredProperty',
      SAMPLE.structuredProperty,
      'propertyDefinition',
      {
        qualifiedName: 'io.acryl.privacy.retentionTime',
        displayName: 'Retention time',
        description: 'How many days the data is kept.',
        valueType: 'urn:li:dataType:datahub.number',
        cardinality: 'SINGLE',
        allowedValues: [{ value: { double: 30 } }, { value: { double: 90 } }, { value: { double: 365 } }],
        entityTypes: ['urn:li:entityType:datahub.dataset'],
        immutable: false,
      },
    ],
    [
      'assertion',
      SAMPLE.assertion,
      'assertionInfo',
      {
        type: 'DATASET',
        description: 'Revenue is never negative',
        datasetAssertion: {
          dataset: SAMPLE.datasets.revenue,
          scope: 'DATASET_COLUMN',
          operator: 'GREATER_THAN_OR_EQUAL_TO',
          parameters: { value: { value: '0', type: 'NUMBER' } },
        },
      },
    ],
    [
      'assertion',
      SAMPLE.assertion,
      'assertionRunEvent',
      {
        timestampMillis: SAMPLE_TIME,
        runId: 'sample-run-1',
        asserteeUrn: SAMPLE.datasets.revenue,
        assertionUrn: SAMPLE.assertion,
        status: 'COMPLETE',
        result: { type: 'SUCCESS', actualAggValue: 0 },
      },
    ],
    [
      'ownershipType',
      SAMPLE.ownershipType,
      'ownershipTypeInfo',
      {
        name: 'Data Steward',
        description: 'Answers for the meaning and quality of the data.',
        created: stamp,
        lastModified: stamp,
      },
    ],
    // The platforms the datasets and ML entities name, written (DataHub bootstraps every platform it
    // knows) without a display name: their hovers stay `hive`, `kafka` ….
    ...(
      [
        ['hive', 'FILE_SYSTEM'],
        ['kafka', 'MESSAGE_BROKER'],
        ['snowflake', 'RELATIONAL_DB'],
        ['feast', 'OTHERS'],
        ['mlflow', 'OTHERS'],
      ] as const
    ).map(([name, type]): [string, string, string, Json] => [
      'dataPlatform',
      `urn:li:dataPlatform:${name}`,
      'dataPlatformInfo',
      { name, type, datasetNameDelimiter: '.' },
    ]),
    [
      'dataPlatform',
      SAMPLE.platforms.airflow,
      'dataPlatformInfo',
      { name: 'airflow', displayName: 'Airflow', type: 'OTHERS', datasetNameDelimiter: '.' },
    ],
    [
      'dataPlatform',
      SAMPLE.platforms.looker,
      'dataPlatformInfo',
      { name: 'looker', displayName: 'Looker', type: 'OTHERS', datasetNameDelimiter: '.' },
    ],
  ];
}

/** The sample as Rest.li proposals (the body of `ingestProposalBatch`), in namespace `ns`. */
export function sampleProposals(ns = 'li'): Json[] {
  const inNs = (s: string): string => (ns === 'li' ? s : s.replaceAll('urn:li:', `urn:${ns}:`));
  return [...sampleAspects(), ...peopleAndPipelines()].map(([entityType, urn, aspectName, value]) => ({
    entityType,
    entityUrn: inNs(urn),
    changeType: 'UPSERT',
    aspectName,
    aspect: { value: inNs(JSON.stringify(value)), contentType: 'application/json' },
    systemMetadata: { runId: 'catalog-lens-sample', lastObserved: SAMPLE_TIME },
  }));
}

/** Loads the sample (idempotent); returns how many aspects changed. */
export function loadSample(
  store: AspectStore,
  namespaces: NamespacePolicy,
  actor: string,
  compat: CompatMode = 'spec',
): number {
  const ns = namespaces.words.includes('li') ? 'li' : namespaces.canonical;
  const outcomes = ingestProposalBatch(
    store,
    { proposals: sampleProposals(ns), async: 'false' },
    namespaces,
    actor,
    compat,
  );
  return outcomes.filter((o) => o.changed).length;
}
