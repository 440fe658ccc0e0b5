/**
 * GraphQL reads against the sample catalog: every entity query (model/src/readShapes.ts) with its
 * exact shape (DataHub's names and nullability), nulls for what is unset or absent, aliases, errors, limits.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SAMPLE, CLICKS_FIELDS } from '../../catalog/src/sample';
import {
  batchDocument,
  DATASET_DESCRIPTIONS,
  DATASET_QUERY,
  ENTITY_EXISTS,
  ENTITY_QUERY,
  MLFEATURE_QUERY,
  MLFEATURE_TABLE_QUERY,
  MLMODEL_GROUP_QUERY,
  MLMODEL_QUERY,
} from './documents';
import { gql, gqlData, onlyError, request, testCatalog } from './helpers';

const hive = { urn: 'urn:li:dataPlatform:hive', name: 'hive' };

describe('GraphQL dataset query (spec §2.4)', () => {
  test('dataset returns ingested properties, schema fields and null for unset aspects', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    const data = await gqlData(catalog, DATASET_QUERY, { urn: SAMPLE.datasets.users });
    const field = (
      fieldPath: string,
      description: string | null,
      nativeDataType: string,
      type: string,
      nullable: boolean,
    ) => ({ fieldPath, description, nativeDataType, type, nullable });
    assert.deepEqual(data['dataset'], {
      urn: SAMPLE.datasets.users,
      type: 'DATASET',
      name: 'db.users',
      exists: true,
      description: 'One row per registered user of the product.',
      platform: hive,
      properties: {
        name: 'users',
        qualifiedName: 'db.users',
        description: 'One row per registered user of the product.',
        customProperties: [],
      },
      editableProperties: null,
      schemaMetadata: {
        name: 'db.users',
        platformUrn: 'urn:li:dataPlatform:hive',
        fields: [
          field('user_id', 'Primary key of the user.', 'bigint', 'NUMBER', false),
          field('email', 'Login e-mail address, unique.', 'string', 'STRING', true),
          field('age', null, 'int', 'NUMBER', true),
          field('country', 'ISO 3166-1 alpha-2 country code.', 'string', 'STRING', true),
          field('signup_ts', null, 'timestamp', 'TIME', true),
        ],
      },
      editableSchemaMetadata: null,
      institutionalMemory: null,
    });
  });

  test('a dataset without an ingested description reads description null', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    const data = await gqlData(catalog, DATASET_DESCRIPTIONS, { urn: SAMPLE.datasets.orders });
    assert.deepEqual(data['dataset'], {
      urn: SAMPLE.datasets.orders,
      properties: { description: null },
      editableProperties: null,
      schemaMetadata: {
        fields: [
          { fieldPath: 'order_id', description: 'Primary key of the order.' },
          { fieldPath: 'user_id', description: 'The user who placed the order.' },
          { fieldPath: 'amount', description: null },
          { fieldPath: 'created_at', description: 'When the order was placed (UTC).' },
        ],
      },
      editableSchemaMetadata: null,
    });
  });

  test('v2 field paths are returned exactly as ingested', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    const data = await gqlData(catalog, DATASET_DESCRIPTIONS, { urn: SAMPLE.datasets.clicks });
    assert.deepEqual((data['dataset'] as { schemaMetadata: unknown }).schemaMetadata, {
      fields: [
        { fieldPath: CLICKS_FIELDS.sessionId, description: 'Browser or app session.' },
        { fieldPath: CLICKS_FIELDS.deviceOs, description: null },
        { fieldPath: CLICKS_FIELDS.ts, description: 'Event time, epoch milliseconds.' },
      ],
    });
  });

  test('edited descriptions are returned beside the ingested ones, not merged (DataHub notes §9)', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    const data = await gqlData(catalog, DATASET_DESCRIPTIONS, { urn: SAMPLE.datasets.revenue });
    assert.deepEqual(data['dataset'], {
      urn: SAMPLE.datasets.revenue,
      properties: { description: 'Daily revenue.' },
      editableProperties: { description: 'Daily revenue per country, in EUR, after refunds.' },
      schemaMetadata: {
        fields: [
          { fieldPath: 'day', description: 'Calendar day (UTC).' },
          { fieldPath: 'revenue_eur', description: 'revenue' },
        ],
      },
      editableSchemaMetadata: {
        editableSchemaFieldInfo: [{ fieldPath: 'revenue_eur', description: 'Revenue after refunds, EUR.' }],
      },
    });
  });

  test('a dataset that does not exist reads null, without an error', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    const data = await gqlData(catalog, DATASET_QUERY, { urn: SAMPLE.missing.dataset });
    assert.equal(data['dataset'], null);
  });
});

describe('GraphQL ML entity queries (spec §2.4)', () => {
  test('mlFeature: name is the feature, featureNamespace the table, properties as written', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    const data = await gqlData(catalog, MLFEATURE_QUERY, { urn: SAMPLE.features.orderCount });
    assert.deepEqual(data['mlFeature'], {
      urn: SAMPLE.features.orderCount,
      type: 'MLFEATURE',
      name: 'order_count',
      featureNamespace: 'orders_table',
      description: 'Orders placed in the last 90 days.',
      dataType: 'COUNT',
      exists: true,
      properties: {
        description: 'Orders placed in the last 90 days.',
        dataType: 'COUNT',
        version: { versionTag: '2' },
        sources: [{ urn: SAMPLE.datasets.orders, name: 'db.orders', platform: { name: 'hive' } }],
      },
    });
  });

  test('mlFeature without description, version or sources reads them as null', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    const data = await gqlData(catalog, MLFEATURE_QUERY, { urn: SAMPLE.features.signupDays });
    assert.deepEqual(data['mlFeature'], {
      urn: SAMPLE.features.signupDays,
      type: 'MLFEATURE',
      name: 'signup_days',
      featureNamespace: 'users_table',
      description: null,
      dataType: 'COUNT',
      exists: true,
      properties: { description: null, dataType: 'COUNT', version: null, sources: null },
    });
    assert.equal((await gqlData(catalog, MLFEATURE_QUERY, { urn: SAMPLE.missing.feature }))['mlFeature'], null);
  });

  test('mlFeatureTable: own name, platform name and the features it lists', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    const data = await gqlData(catalog, MLFEATURE_TABLE_QUERY, { urn: SAMPLE.featureTables.users });
    assert.deepEqual(data['mlFeatureTable'], {
      urn: SAMPLE.featureTables.users,
      type: 'MLFEATURE_TABLE',
      name: 'users_table',
      description: 'Features about users.',
      platform: { urn: 'urn:li:dataPlatform:feast', name: 'feast' },
      properties: {
        description: 'Features about users.',
        mlFeatures: [
          { urn: SAMPLE.features.age, name: 'age', featureNamespace: 'users_table', exists: true },
          { urn: SAMPLE.features.country, name: 'country', featureNamespace: 'users_table', exists: true },
        ],
      },
    });
  });

  test('mlModel: version is the versionTag string, mlFeatures URNs, groups with urn and name', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    const data = await gqlData(catalog, MLMODEL_QUERY, { urn: SAMPLE.models.churnV3 });
    assert.deepEqual(data['mlModel'], {
      urn: SAMPLE.models.churnV3,
      type: 'MLMODEL',
      name: 'churn-model-v3',
      description: 'Churn classifier, third training run.',
      platform: { urn: 'urn:li:dataPlatform:mlflow', name: 'mlflow' },
      properties: {
        description: 'Churn classifier, third training run.',
        version: '3',
        type: 'gradient boosted trees',
        mlFeatures: [SAMPLE.features.age, SAMPLE.features.country, SAMPLE.features.orderCount],
        groups: [{ urn: SAMPLE.modelGroups.churn, name: 'churn-model' }],
        trainingMetrics: [{ name: 'auc', description: 'Area under ROC', value: '0.91' }],
        hyperParams: [{ name: 'max_depth', description: 'Tree depth', value: '6' }],
      },
    });
  });

  test('a model with no groups returns groups [] and mlFeatures null (spec §2.4)', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    const data = await gqlData(catalog, MLMODEL_QUERY, { urn: SAMPLE.models.ltvV1 });
    assert.deepEqual(data['mlModel'], {
      urn: SAMPLE.models.ltvV1,
      type: 'MLMODEL',
      name: 'ltv-model-v1',
      description: null,
      platform: { urn: 'urn:li:dataPlatform:mlflow', name: 'mlflow' },
      properties: {
        description: null,
        version: null,
        type: null,
        mlFeatures: null,
        groups: [],
        trainingMetrics: null,
        hyperParams: null,
      },
    });
  });

  test('mlModelGroup: own name, platform name, description or null', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    const churn = await gqlData(catalog, MLMODEL_GROUP_QUERY, { urn: SAMPLE.modelGroups.churn });
    assert.deepEqual(churn['mlModelGroup'], {
      urn: SAMPLE.modelGroups.churn,
      type: 'MLMODEL_GROUP',
      name: 'churn-model',
      description: 'Predicts which users will stop ordering within 60 days.',
      platform: { urn: 'urn:li:dataPlatform:mlflow', name: 'mlflow' },
      properties: { description: 'Predicts which users will stop ordering within 60 days.' },
    });
    const ltv = await gqlData(catalog, MLMODEL_GROUP_QUERY, { urn: SAMPLE.modelGroups.ltv });
    assert.deepEqual(ltv['mlModelGroup'], {
      urn: SAMPLE.modelGroups.ltv,
      type: 'MLMODEL_GROUP',
      name: 'ltv-model',
      description: null,
      platform: { urn: 'urn:li:dataPlatform:mlflow', name: 'mlflow' },
      properties: { description: null },
    });
  });

  test('entity and entityExists answer for every kind', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    assert.deepEqual((await gqlData(catalog, ENTITY_QUERY, { urn: SAMPLE.features.age }))['entity'], {
      urn: SAMPLE.features.age,
      type: 'MLFEATURE',
      name: 'age',
      featureNamespace: 'users_table',
    });
    assert.deepEqual((await gqlData(catalog, ENTITY_QUERY, { urn: SAMPLE.datasets.users }))['entity'], {
      urn: SAMPLE.datasets.users,
      type: 'DATASET',
      name: 'db.users',
    });
    assert.equal((await gqlData(catalog, ENTITY_QUERY, { urn: SAMPLE.missing.dataset }))['entity'], null);
    assert.equal((await gqlData(catalog, ENTITY_EXISTS, { urn: SAMPLE.models.churnV3 }))['entityExists'], true);
    assert.equal((await gqlData(catalog, ENTITY_EXISTS, { urn: SAMPLE.missing.feature }))['entityExists'], false);
  });
});

describe('GraphQL batching and errors', () => {
  test('one document with 100 aliased root fields resolves every URN, absent ones as null', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    const known = [
      { kind: 'dataset', urn: SAMPLE.datasets.users },
      { kind: 'mlFeature', urn: SAMPLE.features.age },
      { kind: 'mlFeatureTable', urn: SAMPLE.featureTables.orders },
      { kind: 'mlModel', urn: SAMPLE.models.churnV3 },
      { kind: 'mlModelGroup', urn: SAMPLE.modelGroups.ltv },
    ];
    const items = Array.from({ length: 100 }, (_, i) =>
      i % 10 === 9
        ? { kind: 'dataset', urn: `urn:li:dataset:(urn:li:dataPlatform:hive,db.ghost_${i},PROD)` }
        : known[i % known.length]!,
    );
    const { query, variables } = batchDocument(items);
    catalog.stats.reset();
    const data = await gqlData(catalog, query, variables);
    assert.equal(catalog.stats.graphql, 1);
    items.forEach((it, i) => {
      const got = data[`e${i}`] as Record<string, unknown> | null;
      if (it.urn.includes('ghost')) assert.equal(got, null, `e${i}`);
      else assert.equal(got?.['urn'], it.urn, `e${i}`);
    });
    assert.deepEqual((data['e3'] as { properties: unknown }).properties, {
      description: 'Churn classifier, third training run.',
      version: '3',
      type: 'gradient boosted trees',
      mlFeatures: [SAMPLE.features.age, SAMPLE.features.country, SAMPLE.features.orderCount],
      groups: [{ urn: SAMPLE.modelGroups.churn, name: 'churn-model' }],
    });
  });

  test('a malformed URN is a BAD_REQUEST error on that field only, with the parser message and offset', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    const { query, variables } = batchDocument([
      { kind: 'dataset', urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users)' },
      { kind: 'mlFeature', urn: SAMPLE.features.age },
    ]);
    const r = await gql(catalog, query, variables);
    assert.equal(r.status, 200);
    const e = onlyError(r);
    assert.equal(e.code, 400);
    assert.equal(e.type, 'BAD_REQUEST');
    assert.deepEqual(e.path, ['e0']);
    assert.match(
      e.message,
      /dataset\(urn\): 'urn:li:dataset:\(urn:li:dataPlatform:hive,db\.users\)' is not a valid URN: expected 3 parts .* \(at offset \d+\)/,
    );
    const data = r.body['data'] as Record<string, { name?: string } | null>;
    assert.equal(data['e0'], null);
    assert.equal(data['e1']?.name, 'age');
  });

  test('a URN of another kind than the query field is refused', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    const e = onlyError(await gql(catalog, DATASET_QUERY, { urn: SAMPLE.features.age }));
    assert.equal(e.code, 400);
    assert.match(e.message, /expected a dataset URN, found a mlFeature URN/);
  });

  test('a document that is not valid GraphQL gets a 200 with a ValidationError', async (t) => {
    const catalog = await testCatalog(t);
    const r = await gql(catalog, '{ dataset(urn: "x") { nosuchfield } }', undefined, { invalidOnPurpose: true });
    assert.equal(r.status, 200);
    const e = onlyError(r);
    assert.equal(e.code, 400);
    assert.match(e.message, /Cannot query field "nosuchfield" on type "Dataset"/);
    assert.equal(r.body['data'], null);
    const syntax = await gql(catalog, '{ dataset(urn: ', undefined, { invalidOnPurpose: true });
    assert.match(onlyError(syntax).message, /Syntax Error/);
  });

  test('a body that is not JSON, or has no query, is HTTP 400 with a JSON error', async (t) => {
    const catalog = await testCatalog(t);
    const post = (body: string) =>
      request(`${catalog.url}/api/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    const notJson = await post('{"query": ');
    assert.equal(notJson.status, 400);
    assert.match(onlyError(notJson).message, /malformed JSON in the request body/);
    const noQuery = await post('{"variables": {}}');
    assert.equal(noQuery.status, 400);
    assert.match(onlyError(noQuery).message, /query: required/);
    const badVariables = await post('{"query": "{ entityExists(urn: \\"x\\") }", "variables": [1]}');
    assert.equal(badVariables.status, 400);
    assert.match(onlyError(badVariables).message, /variables: expected an object/);
  });

  test('GET /api/graphql is 405', async (t) => {
    const catalog = await testCatalog(t);
    const r = await request(`${catalog.url}/api/graphql?query=%7B__typename%7D`);
    assert.equal(r.status, 405);
    assert.equal(r.headers.get('allow'), 'POST');
    assert.match(onlyError(r).message, /method GET is not supported/);
  });

  test('limits: more than 15 levels deep or more than 1000 root fields is refused with a message', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    const deep = `{ dataset(urn: "${SAMPLE.datasets.users}") ${'{ platform '.repeat(15)}{ name }${' }'.repeat(15)} }`;
    const r1 = await gql(catalog, deep, undefined, { invalidOnPurpose: true });
    assert.equal(r1.status, 200);
    assert.match(onlyError(r1).message, /nested 17 levels deep; the limit is 15/);
    const { query, variables } = batchDocument(
      Array.from({ length: 1001 }, () => ({ kind: 'mlFeature', urn: SAMPLE.features.age })),
    );
    const r2 = await gql(catalog, query, variables, { invalidOnPurpose: true });
    assert.match(onlyError(r2).message, /has 1001 root fields \(aliases included\); the limit is 1000/);
    assert.equal(r2.body['data'], null);
    const { query: ok, variables: okVars } = batchDocument(
      Array.from({ length: 1000 }, () => ({ kind: 'mlFeature', urn: SAMPLE.features.age })),
    );
    const data = await gqlData(catalog, ok, okVars);
    assert.equal(Object.keys(data).length, 1000);
  });

  test('schemaMetadata(version: 0) is the latest; other versions are not kept', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    const doc = 'query v($urn: String!, $v: Long) { dataset(urn: $urn) { schemaMetadata(version: $v) { name } } }';
    assert.deepEqual(await gqlData(catalog, doc, { urn: SAMPLE.datasets.users, v: 0 }), {
      dataset: { schemaMetadata: { name: 'db.users' } },
    });
    const e = onlyError(await gql(catalog, doc, { urn: SAMPLE.datasets.users, v: 3 }));
    assert.match(e.message, /only the latest version \(0\) is kept/);
  });
});
