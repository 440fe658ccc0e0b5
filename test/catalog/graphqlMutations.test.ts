/**
 * updateDataset and updateDescription: what they write (DataHub's aspects and
 * shapes), what reads show afterwards, versions, and the refusals with their messages.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CLICKS_FIELDS, SAMPLE } from '../../catalog/src/sample';
import { DATASET_DESCRIPTIONS, UPDATE_DATASET, UPDATE_DESCRIPTION } from './documents';
import { aspectValue, gql, gqlData, onlyError, testCatalog, versionOf, write, type Json } from './helpers';

const EDITABLE = 'com.linkedin.dataset.EditableDatasetProperties';
const MEMORY = 'com.linkedin.common.InstitutionalMemory';
const EDITABLE_SCHEMA = 'com.linkedin.schema.EditableSchemaMetadata';

describe('updateDataset', () => {
  test('editableProperties.description writes editableDatasetProperties with created; the ingested description stays', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    const before = Date.now();
    const data = await gqlData(catalog, UPDATE_DATASET, {
      urn: SAMPLE.datasets.users,
      input: { editableProperties: { description: 'Registered users, one row each.' } },
    });
    assert.deepEqual(data['updateDataset'], {
      urn: SAMPLE.datasets.users,
      properties: { description: 'One row per registered user of the product.' },
      editableProperties: { description: 'Registered users, one row each.' },
      institutionalMemory: null,
    });
    const stored = await aspectValue(catalog, SAMPLE.datasets.users, 'editableDatasetProperties', EDITABLE);
    assert.equal(stored?.['description'], 'Registered users, one row each.');
    const created = stored?.['created'] as { time: number; actor: string };
    assert.equal(created.actor, 'urn:li:corpuser:datahub');
    assert.ok(created.time >= before && created.time <= Date.now());
    assert.equal(await versionOf(catalog, SAMPLE.datasets.users, 'editableDatasetProperties'), '1');

    // The same description again is no change; a new one is version 2 and keeps `created`.
    await gqlData(catalog, UPDATE_DATASET, {
      urn: SAMPLE.datasets.users,
      input: { editableProperties: { description: 'Registered users, one row each.' } },
    });
    assert.equal(await versionOf(catalog, SAMPLE.datasets.users, 'editableDatasetProperties'), '1');
    await gqlData(catalog, UPDATE_DATASET, {
      urn: SAMPLE.datasets.users,
      input: { editableProperties: { description: 'Users.' } },
    });
    assert.equal(await versionOf(catalog, SAMPLE.datasets.users, 'editableDatasetProperties'), '2');
    const again = await aspectValue(catalog, SAMPLE.datasets.users, 'editableDatasetProperties', EDITABLE);
    assert.deepEqual(again?.['created'], created);
  });

  test('institutionalMemory.elements replaces the links: author → createStamp.actor, createdAt → time', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    const urn = SAMPLE.datasets.orders;
    await gqlData(catalog, UPDATE_DATASET, {
      urn,
      input: {
        institutionalMemory: {
          elements: [
            {
              url: 'https://wiki.example.com/orders',
              description: 'Orders wiki',
              author: SAMPLE.user,
              createdAt: 1700000000000,
            },
          ],
        },
      },
    });
    const before = Date.now();
    const data = await gqlData(catalog, UPDATE_DATASET, {
      urn,
      input: {
        institutionalMemory: {
          elements: [
            { url: 'https://runbook.example.com/orders', description: 'Runbook', author: 'urn:li:corpuser:alice' },
          ],
        },
      },
    });
    const elements = ((data['updateDataset'] as Json)['institutionalMemory'] as { elements: Json[] }).elements;
    assert.equal(elements.length, 1, 'the earlier link is replaced, as DataHub does');
    assert.equal(elements[0]!['url'], 'https://runbook.example.com/orders');
    assert.deepEqual(elements[0]!['author'], { urn: 'urn:li:corpuser:alice' });
    const stored = await aspectValue(catalog, urn, 'institutionalMemory', MEMORY);
    const [el] = stored?.['elements'] as Array<{
      url: string;
      description: string;
      createStamp: { time: number; actor: string };
    }>;
    assert.equal(el!.description, 'Runbook');
    assert.equal(el!.createStamp.actor, 'urn:li:corpuser:alice');
    assert.ok(el!.createStamp.time >= before && el!.createStamp.time <= Date.now(), 'createdAt absent → now');
    assert.equal(await versionOf(catalog, urn, 'institutionalMemory'), '2');
  });

  test('an input field DataHub has but this catalog does not support is a validation error; nothing is written', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    const doc = `mutation($urn: String!, $input: DatasetUpdateInput!) { updateDataset(urn: $urn, input: $input) { urn } }`;
    const input = { editableProperties: { description: 'x' }, deprecation: { deprecated: true, note: 'old' } };
    const r = await gql(catalog, doc, { urn: SAMPLE.datasets.users, input });
    assert.equal(r.status, 200);
    const e = onlyError(r);
    assert.equal(e.code, 400);
    assert.match(e.message, /Field "deprecation" is not defined by type "DatasetUpdateInput"/);
    assert.equal(await aspectValue(catalog, SAMPLE.datasets.users, 'editableDatasetProperties', EDITABLE), undefined);
  });

  test('an author that is not a user URN is refused and nothing is written', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    const e = onlyError(
      await gql(catalog, UPDATE_DATASET, {
        urn: SAMPLE.datasets.users,
        input: {
          editableProperties: { description: 'x' },
          institutionalMemory: { elements: [{ url: 'https://x', author: SAMPLE.datasets.orders }] },
        },
      }),
    );
    assert.equal(e.code, 400);
    assert.match(e.message, /elements\[0\]\.author\): expected a user URN/);
    assert.equal(await aspectValue(catalog, SAMPLE.datasets.users, 'editableDatasetProperties', EDITABLE), undefined);
  });
});

describe('updateDescription', () => {
  test('a column is described under its schema path; reads show it beside the ingested text', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    const ok = await gqlData(catalog, UPDATE_DESCRIPTION, {
      input: {
        description: 'Age in whole years, at signup.',
        resourceUrn: SAMPLE.datasets.users,
        subResourceType: 'DATASET_FIELD',
        subResource: 'age',
      },
    });
    assert.deepEqual(ok, { updateDescription: true });
    const data = await gqlData(catalog, DATASET_DESCRIPTIONS, { urn: SAMPLE.datasets.users });
    const d = data['dataset'] as Json;
    assert.deepEqual(d['editableSchemaMetadata'], {
      editableSchemaFieldInfo: [{ fieldPath: 'age', description: 'Age in whole years, at signup.' }],
    });
    const fields = (d['schemaMetadata'] as { fields: Json[] }).fields;
    assert.deepEqual(
      fields.find((f) => f['fieldPath'] === 'age'),
      { fieldPath: 'age', description: null },
      'ingested stays as it was',
    );
    const stored = await aspectValue(catalog, SAMPLE.datasets.users, 'editableSchemaMetadata', EDITABLE_SCHEMA);
    assert.equal((stored?.['created'] as Json)['actor'], 'urn:li:corpuser:datahub');
  });

  test('a simple path names its v2 field; the entry is stored under the full v2 path', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    await gqlData(catalog, UPDATE_DESCRIPTION, {
      input: {
        description: 'Operating system of the device.',
        resourceUrn: SAMPLE.datasets.clicks,
        subResourceType: 'DATASET_FIELD',
        subResource: 'device.os',
      },
    });
    const stored = await aspectValue(catalog, SAMPLE.datasets.clicks, 'editableSchemaMetadata', EDITABLE_SCHEMA);
    assert.deepEqual(stored?.['editableSchemaFieldInfo'], [
      { fieldPath: CLICKS_FIELDS.deviceOs, description: 'Operating system of the device.' },
    ]);
    // The exact v2 path updates the same entry.
    await gqlData(catalog, UPDATE_DESCRIPTION, {
      input: {
        description: 'OS of the device.',
        resourceUrn: SAMPLE.datasets.clicks,
        subResourceType: 'DATASET_FIELD',
        subResource: CLICKS_FIELDS.deviceOs,
      },
    });
    const again = await aspectValue(catalog, SAMPLE.datasets.clicks, 'editableSchemaMetadata', EDITABLE_SCHEMA);
    assert.deepEqual(again?.['editableSchemaFieldInfo'], [
      { fieldPath: CLICKS_FIELDS.deviceOs, description: 'OS of the device.' },
    ]);
    assert.equal(await versionOf(catalog, SAMPLE.datasets.clicks, 'editableSchemaMetadata'), '2');
  });

  test('an existing editableSchemaMetadata keeps its other entries and its created stamp', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    const urn = SAMPLE.datasets.revenue;
    const before = await aspectValue(catalog, urn, 'editableSchemaMetadata', EDITABLE_SCHEMA);
    await gqlData(catalog, UPDATE_DESCRIPTION, {
      input: { description: 'Day (UTC).', resourceUrn: urn, subResourceType: 'DATASET_FIELD', subResource: 'day' },
    });
    await gqlData(catalog, UPDATE_DESCRIPTION, {
      input: {
        description: 'Revenue, EUR, net of refunds.',
        resourceUrn: urn,
        subResourceType: 'DATASET_FIELD',
        subResource: 'revenue_eur',
      },
    });
    const after = await aspectValue(catalog, urn, 'editableSchemaMetadata', EDITABLE_SCHEMA);
    assert.deepEqual(after, {
      created: before?.['created'],
      editableSchemaFieldInfo: [
        { fieldPath: 'revenue_eur', description: 'Revenue, EUR, net of refunds.' },
        { fieldPath: 'day', description: 'Day (UTC).' },
      ],
    });
  });

  test('a field that is not in the schema, or is ambiguous, is refused with the schema fields named', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    const missing = onlyError(
      await gql(catalog, UPDATE_DESCRIPTION, {
        input: {
          description: 'x',
          resourceUrn: SAMPLE.datasets.users,
          subResourceType: 'DATASET_FIELD',
          subResource: 'no_such_column',
        },
      }),
    );
    assert.equal(missing.code, 400);
    assert.match(
      missing.message,
      /Field 'no_such_column' does not exist in the schema of urn:li:dataset:\(urn:li:dataPlatform:hive,db\.users,PROD\) \(its fields: 'user_id', 'email'/,
    );

    const urn = 'urn:li:dataset:(urn:li:dataPlatform:kafka,events.dupes,PROD)';
    await write(catalog, 'dataset', urn, 'schemaMetadata', {
      fields: [
        { fieldPath: '[version=2.0].[type=struct].[type=string].id' },
        { fieldPath: '[version=2.0].[key=True].[type=struct].[type=string].id' },
      ],
    });
    const ambiguous = onlyError(
      await gql(catalog, UPDATE_DESCRIPTION, {
        input: {
          description: 'x',
          resourceUrn: urn,
          subResourceType: 'DATASET_FIELD',
          subResource: 'id',
        },
      }),
    );
    assert.match(
      ambiguous.message,
      /Field 'id' of .* is ambiguous: it is the simple path of '\[version=2\.0\]\.\[type=struct\]\.\[type=string\]\.id', '\[version=2\.0\]\.\[key=True\]/,
    );
    assert.equal(await aspectValue(catalog, urn, 'editableSchemaMetadata', EDITABLE_SCHEMA), undefined);
  });

  test('a dataset without schemaMetadata cannot have a column described', async (t) => {
    const catalog = await testCatalog(t);
    const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.noschema,PROD)';
    await write(catalog, 'dataset', urn, 'datasetProperties', { description: 'No schema yet.' });
    const e = onlyError(
      await gql(catalog, UPDATE_DESCRIPTION, {
        input: {
          description: 'x',
          resourceUrn: urn,
          subResourceType: 'DATASET_FIELD',
          subResource: 'id',
        },
      }),
    );
    assert.equal(e.code, 400);
    assert.match(e.message, /has no schema \(no schemaMetadata aspect\), so field 'id' cannot be described/);
    assert.equal(await aspectValue(catalog, urn, 'editableSchemaMetadata', EDITABLE_SCHEMA), undefined);
  });
});
