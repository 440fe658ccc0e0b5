/**
 * The catalog interface's rules as the catalog must keep them: updateDescription for dataset
 * fields only, no write to an entity that does not exist, and its part of the aspect writes
 * (blocking writes, aspects stored as written, conditional writes for safe appends).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SAMPLE } from '../../catalog/src/sample';
import {
  MLFEATURE_QUERY,
  MLFEATURE_TABLE_QUERY,
  MLMODEL_GROUP_QUERY,
  MLMODEL_QUERY,
  DATASET_DESCRIPTIONS,
  UPDATE_DATASET,
  UPDATE_DESCRIPTION,
} from './documents';
import {
  aspectValue,
  assertRestLiError,
  getEntity,
  gql,
  gqlData,
  ingest,
  ingestRaw,
  onlyError,
  proposal,
  testCatalog,
  versionOf,
  write,
  type Json,
} from './helpers';

const TABLE_FQCN = 'com.linkedin.ml.metadata.MLFeatureTableProperties';
const MODEL_FQCN = 'com.linkedin.ml.metadata.MLModelProperties';

describe('spec §4.1 (GraphQL rules)', () => {
  test('§4.1 rule 1: updateDescription supports only dataset schema fields', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    const noType = onlyError(
      await gql(catalog, UPDATE_DESCRIPTION, { input: { description: 'x', resourceUrn: SAMPLE.datasets.users } }),
    );
    assert.equal(noType.code, 400);
    assert.match(noType.message, /supports only dataset schema fields \(spec §4\.1 rule 1\).*use updateDataset/);
    const onModel = onlyError(
      await gql(catalog, UPDATE_DESCRIPTION, {
        input: {
          description: 'x',
          resourceUrn: SAMPLE.models.churnV3,
          subResourceType: 'DATASET_FIELD',
          subResource: 'age',
        },
      }),
    );
    assert.match(onModel.message, /expected a dataset URN, found a mlModel URN/);
    const noField = onlyError(
      await gql(catalog, UPDATE_DESCRIPTION, {
        input: {
          description: 'x',
          resourceUrn: SAMPLE.datasets.users,
          subResourceType: 'DATASET_FIELD',
        },
      }),
    );
    assert.match(noField.message, /subResource\): required with DATASET_FIELD/);
    assert.deepEqual((await getEntity(catalog, SAMPLE.datasets.users, ['editableSchemaMetadata'])).body['aspects'], {});
  });

  test('§4.1 rule 2: a mutation aimed at a missing dataset fails and writes nothing', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    const ghost = SAMPLE.missing.dataset;
    const r1 = await gql(catalog, UPDATE_DATASET, {
      urn: ghost,
      input: {
        editableProperties: { description: 'Ghost.' },
        institutionalMemory: { elements: [{ url: 'https://x.example.com', author: SAMPLE.user }] },
      },
    });
    const e1 = onlyError(r1);
    assert.equal(e1.code, 404);
    assert.equal(e1.type, 'NOT_FOUND');
    assert.ok(e1.message.includes(`${ghost} does not exist`), e1.message);
    assert.match(e1.message, /A dataset comes to exist when its datasetProperties or schemaMetadata aspect is written/);
    assert.deepEqual(r1.body['data'], { updateDataset: null });

    const e2 = onlyError(
      await gql(catalog, UPDATE_DESCRIPTION, {
        input: {
          description: 'x',
          resourceUrn: ghost,
          subResourceType: 'DATASET_FIELD',
          subResource: 'id',
        },
      }),
    );
    assert.equal(e2.code, 404);
    assert.ok(e2.message.includes(ghost), e2.message);
    assert.deepEqual((await getEntity(catalog, ghost)).body['aspects'], {}, 'nothing stored for the ghost');
  });

  test('§4.1 rule 2: an aspect write aimed at an entity that does not exist fails (404) and writes nothing', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    const ghost = SAMPLE.missing.dataset;
    const cases: Array<[string, string, string, Json]> = [
      ['dataset', ghost, 'editableDatasetProperties', { description: 'x' }],
      ['dataset', ghost, 'institutionalMemory', { elements: [] }],
      ['dataset', ghost, 'editableSchemaMetadata', { editableSchemaFieldInfo: [] }],
      [
        'mlModel',
        'urn:li:mlModel:(urn:li:dataPlatform:mlflow,ghost-model,PROD)',
        'institutionalMemory',
        { elements: [] },
      ],
    ];
    for (const [type, urn, aspect, value] of cases) {
      const r = await ingest(catalog, proposal(type, urn, aspect, value));
      assertRestLiError(
        r,
        404,
        new RegExp(
          `Writing ${aspect} failed: .* does not exist, and nothing was stored\\. A ${type} comes to exist when its`,
        ),
      );
      assert.ok((r.body['message'] as string).includes(urn));
      assert.deepEqual((await getEntity(catalog, urn)).body['aspects'], {}, `${aspect} on ${urn}`);
    }
  });
});

describe('spec §7 and §4.4 (existence)', () => {
  test('§7: ML entities come to exist by writing their properties aspect (§4.4 create)', async (t) => {
    const catalog = await testCatalog(t);
    const feature = 'urn:li:mlFeature:(new_table,new_feature)';
    const table = 'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,new_table)';
    const group = 'urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,new-group,PROD)';
    const model = 'urn:li:mlModel:(urn:li:dataPlatform:mlflow,new-model,PROD)';
    assert.equal((await gqlData(catalog, MLFEATURE_QUERY, { urn: feature }))['mlFeature'], null);
    await write(catalog, 'mlFeature', feature, 'mlFeatureProperties', {
      description: 'New.',
      dataType: 'TEXT',
      sources: [],
    });
    await write(catalog, 'mlFeatureTable', table, 'mlFeatureTableProperties', {
      description: 'T.',
      mlFeatures: [feature],
    });
    await write(catalog, 'mlModelGroup', group, 'mlModelGroupProperties', { description: 'G.' });
    await write(catalog, 'mlModel', model, 'mlModelProperties', {
      description: 'M.',
      groups: [group],
      mlFeatures: [feature],
      trainingMetrics: [],
      hyperParams: [],
    });
    assert.equal(
      ((await gqlData(catalog, MLFEATURE_QUERY, { urn: feature }))['mlFeature'] as Json)['name'],
      'new_feature',
    );
    assert.deepEqual(
      ((await gqlData(catalog, MLFEATURE_TABLE_QUERY, { urn: table }))['mlFeatureTable'] as Json)['properties'],
      {
        description: 'T.',
        mlFeatures: [{ urn: feature, name: 'new_feature', featureNamespace: 'new_table', exists: true }],
      },
    );
    assert.equal(
      ((await gqlData(catalog, MLMODEL_GROUP_QUERY, { urn: group }))['mlModelGroup'] as Json)['description'],
      'G.',
    );
    assert.deepEqual(
      (((await gqlData(catalog, MLMODEL_QUERY, { urn: model }))['mlModel'] as Json)['properties'] as Json)['groups'],
      [{ urn: group, name: 'new-group' }],
    );
  });

  test('§7: a dataset comes to exist by writing datasetProperties or schemaMetadata', async (t) => {
    const catalog = await testCatalog(t);
    const a = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.a,PROD)';
    const b = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.b,PROD)';
    await write(catalog, 'dataset', a, 'datasetProperties', { description: 'A.' });
    await write(catalog, 'dataset', b, 'schemaMetadata', { fields: [{ fieldPath: 'id' }] });
    await write(catalog, 'dataset', a, 'editableDatasetProperties', { description: 'A, edited.' });
    await write(catalog, 'dataset', b, 'institutionalMemory', { elements: [] });
    assert.deepEqual((await gqlData(catalog, DATASET_DESCRIPTIONS, { urn: b }))['dataset'], {
      urn: b,
      properties: null,
      editableProperties: null,
      schemaMetadata: { fields: [{ fieldPath: 'id', description: null }] },
      editableSchemaMetadata: null,
    });
  });

  test('§7: a successful GraphQL call returns data with an empty extensions object; updateDescription returns true', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    const r = await gql(catalog, UPDATE_DESCRIPTION, {
      input: {
        description: 'Login e-mail.',
        resourceUrn: SAMPLE.datasets.users,
        subResourceType: 'DATASET_FIELD',
        subResource: 'email',
      },
    });
    assert.deepEqual(r.body, { data: { updateDescription: true }, extensions: {} });
  });
});

describe('spec §4.2 (aspect writes)', () => {
  test('§4.2 rule 1: emission is blocking: a write is readable as soon as it is answered (async "true" too)', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    for (const asyncFlag of ['false', 'true']) {
      const description = `Written with async ${asyncFlag}.`;
      const r = await ingestRaw(
        catalog,
        JSON.stringify({
          proposal: proposal('mlModelGroup', SAMPLE.modelGroups.ltv, 'mlModelGroupProperties', { description }),
          async: asyncFlag,
        }),
      );
      assert.equal(r.status, 200);
      assert.equal(
        ((await gqlData(catalog, MLMODEL_GROUP_QUERY, { urn: SAMPLE.modelGroups.ltv }))['mlModelGroup'] as Json)[
          'description'
        ],
        description,
      );
    }
  });

  test('§4.2 rule 2: a write carrying only a list field sets the aspect as written (the old list is replaced)', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    await write(catalog, 'mlFeatureTable', SAMPLE.featureTables.users, 'mlFeatureTableProperties', {
      mlFeatures: [SAMPLE.features.signupDays],
    });
    assert.deepEqual(await aspectValue(catalog, SAMPLE.featureTables.users, 'mlFeatureTableProperties', TABLE_FQCN), {
      mlFeatures: [SAMPLE.features.signupDays],
    });
    await write(catalog, 'mlModel', SAMPLE.models.churnV3, 'mlModelProperties', { groups: [SAMPLE.modelGroups.ltv] });
    assert.deepEqual(await aspectValue(catalog, SAMPLE.models.churnV3, 'mlModelProperties', MODEL_FQCN), {
      groups: [SAMPLE.modelGroups.ltv],
    });
  });

  test('§4.2 rule 2: read-concatenate-write appends lose nothing when two clients race (If-Version-Match)', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    const table = SAMPLE.featureTables.orders;
    const read = async () => ({
      value: (await aspectValue(catalog, table, 'mlFeatureTableProperties', TABLE_FQCN))!,
      version: await versionOf(catalog, table, 'mlFeatureTableProperties'),
    });
    const append = (snapshot: { value: Json; version: string }, feature: string) =>
      ingest(
        catalog,
        proposal(
          'mlFeatureTable',
          table,
          'mlFeatureTableProperties',
          { ...snapshot.value, mlFeatures: [...(snapshot.value['mlFeatures'] as string[]), feature] },
          { headers: { 'If-Version-Match': snapshot.version } },
        ),
      );
    const seenByA = await read();
    const seenByB = await read();
    assert.equal((await append(seenByA, SAMPLE.features.avgAmount)).status, 200);
    const lost = await append(seenByB, 'urn:li:mlFeature:(orders_table,refund_rate)');
    assertRestLiError(lost, 422, /Expected version 1, actual version 2/);
    assert.equal((await append(await read(), 'urn:li:mlFeature:(orders_table,refund_rate)')).status, 200);
    assert.deepEqual((await read()).value['mlFeatures'], [
      SAMPLE.features.orderCount,
      SAMPLE.features.avgAmount,
      'urn:li:mlFeature:(orders_table,refund_rate)',
    ]);
    assert.equal(await versionOf(catalog, table, 'mlFeatureTableProperties'), '3');
  });

  test('§4.2 rule 3: editableDatasetProperties is created with created and description; an equal value makes no new version', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    const value = { created: { time: 1700000000000, actor: SAMPLE.user }, description: 'Users, **one row each**.' };
    await write(catalog, 'dataset', SAMPLE.datasets.users, 'editableDatasetProperties', value, {
      headers: { 'If-Version-Match': '-1' },
    });
    assert.deepEqual(
      await aspectValue(
        catalog,
        SAMPLE.datasets.users,
        'editableDatasetProperties',
        'com.linkedin.dataset.EditableDatasetProperties',
      ),
      value,
    );
    await write(catalog, 'dataset', SAMPLE.datasets.users, 'editableDatasetProperties', {
      description: value.description,
      created: value.created,
    });
    assert.equal(await versionOf(catalog, SAMPLE.datasets.users, 'editableDatasetProperties'), '1');
    const second = await ingest(
      catalog,
      proposal('dataset', SAMPLE.datasets.users, 'editableDatasetProperties', value, {
        headers: { 'If-Version-Match': '-1' },
      }),
    );
    assertRestLiError(second, 422, /Expected version -1, actual version 1/);
  });

  test('§4.2 rule 4: institutionalMemory is created with one element and later stored with the appended list', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    const link = (url: string) => ({
      url,
      description: `Link ${url}`,
      createStamp: { time: 1700000000000, actor: SAMPLE.user },
    });
    await write(catalog, 'dataset', SAMPLE.datasets.orders, 'institutionalMemory', {
      elements: [link('https://a.example.com')],
    });
    await write(
      catalog,
      'dataset',
      SAMPLE.datasets.orders,
      'institutionalMemory',
      { elements: [link('https://a.example.com'), link('https://b.example.com')] },
      { headers: { 'If-Version-Match': '1' } },
    );
    const stored = await aspectValue(
      catalog,
      SAMPLE.datasets.orders,
      'institutionalMemory',
      'com.linkedin.common.InstitutionalMemory',
    );
    assert.deepEqual(stored, { elements: [link('https://a.example.com'), link('https://b.example.com')] });
  });

  test('§4.2 rule 5: editableSchemaMetadata is created with one entry and created; a later write sets one entry and keeps the others', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    const created = { time: 1700000000000, actor: SAMPLE.user };
    await write(catalog, 'dataset', SAMPLE.datasets.orders, 'editableSchemaMetadata', {
      created,
      editableSchemaFieldInfo: [{ fieldPath: 'amount', description: 'Total, EUR.' }],
    });
    await write(
      catalog,
      'dataset',
      SAMPLE.datasets.orders,
      'editableSchemaMetadata',
      {
        created,
        editableSchemaFieldInfo: [
          { fieldPath: 'amount', description: 'Order total in EUR, after discounts.' },
          { fieldPath: 'order_id', description: 'Order id.' },
        ],
      },
      { headers: { 'If-Version-Match': '1' } },
    );
    const data = await gqlData(catalog, DATASET_DESCRIPTIONS, { urn: SAMPLE.datasets.orders });
    assert.deepEqual((data['dataset'] as Json)['editableSchemaMetadata'], {
      editableSchemaFieldInfo: [
        { fieldPath: 'amount', description: 'Order total in EUR, after discounts.' },
        { fieldPath: 'order_id', description: 'Order id.' },
      ],
    });
  });
});
