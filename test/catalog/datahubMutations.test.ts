/**
 * updateDataset and updateDescription in the DataHub mode, over real HTTP: whole aspects replaced
 * and missing datasets created (DatasetType.update, DatasetUpdateInputMapper), DataHub's checks
 * and messages for column descriptions (DescriptionUtils.validateFieldDescriptionInput). Each
 * reads back what was stored; the spec mode's merging and refusals are in graphqlMutations.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CLICKS_FIELDS, SAMPLE } from '../../catalog/src/sample';
import { encodeUrnForPath } from '../../model/src/urn';
import { ENTITY_EXISTS, UPDATE_DATASET, UPDATE_DESCRIPTION } from './documents';
import { gql, gqlData, ingest, onlyError, proposal, request, testCatalog, type Json } from './helpers';
import type { RunningCatalog } from '../../catalog/src/server';

const V2 = { 'X-RestLi-Protocol-Version': '2.0.0' };
const USERS = SAMPLE.datasets.users;
const GHOST = SAMPLE.missing.dataset;

/** Stored aspect values by name (the key aspect left out). */
async function stored(catalog: RunningCatalog, urn: string, names: string[]): Promise<Record<string, Json>> {
  const r = await request(`${catalog.url}/entitiesV2/${encodeUrnForPath(urn)}?aspects=List(${names.join(',')})`, {
    headers: V2,
  });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(r.body['aspects'] as Record<string, Json>))
    if (!k.endsWith('Key')) out[k] = v['value'] as Json;
  return out;
}

describe('DataHub mode: updateDataset', () => {
  test('replaces editableDatasetProperties with {description, created, lastModified} (the edited name is dropped) and institutionalMemory with exactly the elements sent', async (t) => {
    const catalog = await testCatalog(t, { sample: true, compat: 'datahub' });
    const oldStamp = { time: 1, actor: SAMPLE.user };
    await ingest(
      catalog,
      proposal('dataset', USERS, 'editableDatasetProperties', {
        description: 'Old.',
        name: 'Users (display)',
        created: oldStamp,
      }),
      V2,
    );
    await ingest(
      catalog,
      proposal('dataset', USERS, 'institutionalMemory', {
        elements: [
          {
            url: 'https://wiki.example/users',
            description: 'Wiki',
            createStamp: oldStamp,
            updateStamp: oldStamp,
            settings: { showInAssetPreview: true },
          },
        ],
      }),
      V2,
    );
    const before = Date.now();
    await gqlData(catalog, UPDATE_DATASET, {
      urn: USERS,
      input: {
        editableProperties: { description: 'New.', name: 'Renamed' },
        institutionalMemory: {
          elements: [
            { url: 'https://wiki.example/users', description: 'Wiki', author: SAMPLE.user, createdAt: 5 },
            { url: 'https://runbook.example/users', description: 'Runbook', author: 'urn:li:corpuser:alice' },
          ],
        },
      },
    });
    const after = Date.now();
    const s = await stored(catalog, USERS, ['editableDatasetProperties', 'institutionalMemory']);
    const e = s['editableDatasetProperties']!;
    assert.deepEqual(Object.keys(e).sort(), ['created', 'description', 'lastModified'], 'name is gone');
    assert.equal(e['description'], 'New.');
    assert.deepEqual(e['created'], e['lastModified']);
    const created = e['created'] as { time: number; actor: string };
    assert.equal(created.actor, 'urn:li:corpuser:datahub');
    assert.ok(created.time >= before && created.time <= after, 'created is now, not the old stamp');
    const elements = s['institutionalMemory']!['elements'] as Json[];
    assert.deepEqual(
      elements[0],
      { description: 'Wiki', url: 'https://wiki.example/users', createStamp: { actor: SAMPLE.user, time: 5 } },
      'updateStamp and settings dropped',
    );
    assert.equal(elements.length, 2);
    const second = elements[1]!['createStamp'] as { time: number; actor: string };
    assert.equal(second.actor, 'urn:li:corpuser:alice');
    assert.ok(second.time >= before && second.time <= after, 'no createdAt: now');
  });

  test('creates a dataset that does not exist, with no precondition', async (t) => {
    const catalog = await testCatalog(t, { compat: 'datahub' });
    assert.equal((await gqlData(catalog, ENTITY_EXISTS, { urn: GHOST }))['entityExists'], false);
    const data = await gqlData(catalog, UPDATE_DATASET, {
      urn: GHOST,
      input: { editableProperties: { description: 'Made by updateDataset.' } },
    });
    assert.deepEqual((data['updateDataset'] as Json)['editableProperties'], { description: 'Made by updateDataset.' });
    assert.equal((await gqlData(catalog, ENTITY_EXISTS, { urn: GHOST }))['entityExists'], true);
  });

  test("a link author that is not urn:li:corpuser:… is DataHub's unknown error (SERVER_ERROR), and nothing is written", async (t) => {
    const lines: string[] = [];
    const catalog = await testCatalog(t, { sample: true, compat: 'datahub', log: (l) => lines.push(l) });
    const r = await gql(catalog, UPDATE_DATASET, {
      urn: USERS,
      input: {
        editableProperties: { description: 'Not kept.' },
        institutionalMemory: {
          elements: [{ url: 'https://x.example', description: 'x', author: 'urn:svc:corpuser:jdoe' }],
        },
      },
    });
    assert.deepEqual(onlyError(r), {
      message: 'An unknown error occurred.',
      code: 500,
      type: 'SERVER_ERROR',
      path: ['updateDataset'],
    });
    assert.deepEqual(await stored(catalog, USERS, ['editableDatasetProperties', 'institutionalMemory']), {});
    assert.ok(
      lines.some((l) => l.includes("'urn:svc:corpuser:jdoe' is not a urn:li:corpuser URN")),
      'the catalog logs why',
    );
  });
});

describe('DataHub mode: updateDescription', () => {
  const input = (over: Json): Json => ({
    input: {
      description: 'Described.',
      resourceUrn: SAMPLE.datasets.clicks,
      subResourceType: 'DATASET_FIELD',
      subResource: CLICKS_FIELDS.sessionId,
      ...over,
    },
  });

  test("needs the exact schema field path: a simple path is refused with DataHub's message (the spec mode takes it)", async (t) => {
    const catalog = await testCatalog(t, { sample: true, compat: 'datahub' });
    const simple = onlyError(await gql(catalog, UPDATE_DESCRIPTION, input({ subResource: 'session_id' })));
    assert.deepEqual(simple, {
      message: `Failed to update ${SAMPLE.datasets.clicks} & field session_id. Field session_id does not exist in the datasets schema.`,
      code: 400,
      type: 'BAD_REQUEST',
      path: ['updateDescription'],
    });
    assert.equal((await gqlData(catalog, UPDATE_DESCRIPTION, input({})))['updateDescription'], true);
    const s = await stored(catalog, SAMPLE.datasets.clicks, ['editableSchemaMetadata']);
    assert.deepEqual(s['editableSchemaMetadata'], {
      editableSchemaFieldInfo: [{ fieldPath: CLICKS_FIELDS.sessionId, description: 'Described.' }],
    });

    const spec = await testCatalog(t, { sample: true });
    assert.equal(
      (await gqlData(spec, UPDATE_DESCRIPTION, input({ subResource: 'session_id' })))['updateDescription'],
      true,
    );
  });

  test("refuses a missing subResourceType, a dataset that does not exist, and one without a schema, with DataHub's messages; nothing is written", async (t) => {
    const catalog = await testCatalog(t, { sample: true, compat: 'datahub' });
    assert.equal(
      onlyError(await gql(catalog, UPDATE_DESCRIPTION, { input: { description: 'x', resourceUrn: USERS } })).message,
      'Update description without subresource is not currently supported',
    );
    assert.equal(
      onlyError(await gql(catalog, UPDATE_DESCRIPTION, input({ resourceUrn: GHOST, subResource: 'id' }))).message,
      `Failed to update ${GHOST}. ${GHOST} does not exist.`,
    );
    await ingest(
      catalog,
      proposal('dataset', GHOST, 'editableDatasetProperties', { description: 'No schema here.' }),
      V2,
    );
    assert.equal(
      onlyError(await gql(catalog, UPDATE_DESCRIPTION, input({ resourceUrn: GHOST, subResource: 'id' }))).message,
      `Failed to update ${GHOST} & field id. ${GHOST} has no schema.`,
    );
    assert.deepEqual(await stored(catalog, GHOST, ['editableSchemaMetadata']), {});
    assert.deepEqual(await stored(catalog, USERS, ['editableSchemaMetadata']), {});
  });
});

describe('DataHub mode: updateDescription of an ML entity', () => {
  const FEATURE = SAMPLE.features.age;
  const describeIt = (resourceUrn: string, description: string): Json => ({ input: { description, resourceUrn } });
  const READ = `query read($urn: String!) {
  mlFeature(urn: $urn) { description properties { description } editableProperties { description } }
}`;

  test('writes the edited aspect (DescriptionUtils.updateMlFeatureDescription), keeps the ingested one, and reads show both', async (t) => {
    const catalog = await testCatalog(t, { sample: true, compat: 'datahub' });
    const before = await stored(catalog, FEATURE, ['mlFeatureProperties']);
    assert.equal(
      (await gqlData(catalog, UPDATE_DESCRIPTION, describeIt(FEATURE, 'Edited.')))['updateDescription'],
      true,
    );
    const after = await stored(catalog, FEATURE, ['mlFeatureProperties', 'editableMlFeatureProperties']);
    assert.deepEqual(after['editableMlFeatureProperties'], { description: 'Edited.' });
    assert.deepEqual(after['mlFeatureProperties'], before['mlFeatureProperties']);
    assert.deepEqual((await gqlData(catalog, READ, { urn: FEATURE }))['mlFeature'], {
      description: 'Age of the user in years.',
      properties: { description: 'Age of the user in years.' },
      editableProperties: { description: 'Edited.' },
    });
  });

  test("refuses an ML entity that does not exist with DataHub's message; nothing is written", async (t) => {
    const catalog = await testCatalog(t, { sample: true, compat: 'datahub' });
    const ghost = SAMPLE.missing.feature;
    assert.deepEqual(onlyError(await gql(catalog, UPDATE_DESCRIPTION, describeIt(ghost, 'x'))), {
      message: `Failed to update ${ghost}. ${ghost} does not exist.`,
      code: 400,
      type: 'BAD_REQUEST',
      path: ['updateDescription'],
    });
    assert.deepEqual(await stored(catalog, ghost, ['editableMlFeatureProperties']), {});
  });

  test('the spec mode refuses it (§4.1 rule 1: dataset fields only) and reads editableProperties as null', async (t) => {
    const spec = await testCatalog(t, { sample: true });
    assert.match(
      onlyError(await gql(spec, UPDATE_DESCRIPTION, describeIt(FEATURE, 'x'))).message,
      /supports only dataset schema fields \(spec §4\.1 rule 1\)/,
    );
    assert.equal(((await gqlData(spec, READ, { urn: FEATURE }))['mlFeature'] as Json)['editableProperties'], null);
  });
});

describe('DataHub mode: updateDescription of a glossary term, a glossary node and a data product', () => {
  const g = SAMPLE.glossary;
  const describeIt = (resourceUrn: string, description: string): Json => ({ input: { description, resourceUrn } });
  const READ = `query read($term: String!, $node: String!, $product: String!) {
  glossaryTerm(urn: $term) { properties { name description } }
  glossaryNode(urn: $node) { properties { name description } }
  dataProduct(urn: $product) { properties { name description } }
}`;

  test('sets glossaryTermInfo.definition, glossaryNodeInfo.definition and dataProductProperties.description, every other field kept; reads show them', async (t) => {
    const catalog = await testCatalog(t, { sample: true, compat: 'datahub' });
    const before = {
      term: await stored(catalog, g.sensitive, ['glossaryTermInfo']),
      node: await stored(catalog, g.node, ['glossaryNodeInfo']),
      product: await stored(catalog, SAMPLE.dataProduct, ['dataProductProperties']),
    };
    for (const [urn, text] of [
      [g.sensitive, 'Masked outside the warehouse.'],
      [g.node, 'How sensitive data is.'],
      [SAMPLE.dataProduct, 'Revenue, reported.'],
    ] as const)
      assert.equal((await gqlData(catalog, UPDATE_DESCRIPTION, describeIt(urn, text)))['updateDescription'], true);
    assert.deepEqual(await stored(catalog, g.sensitive, ['glossaryTermInfo']), {
      glossaryTermInfo: { ...before.term['glossaryTermInfo'], definition: 'Masked outside the warehouse.' },
    });
    assert.deepEqual(await stored(catalog, g.node, ['glossaryNodeInfo']), {
      glossaryNodeInfo: { ...before.node['glossaryNodeInfo'], definition: 'How sensitive data is.' },
    });
    assert.deepEqual(await stored(catalog, SAMPLE.dataProduct, ['dataProductProperties']), {
      dataProductProperties: { ...before.product['dataProductProperties'], description: 'Revenue, reported.' },
    });
    assert.deepEqual(await gqlData(catalog, READ, { term: g.sensitive, node: g.node, product: SAMPLE.dataProduct }), {
      glossaryTerm: { properties: { name: 'Sensitive Data', description: 'Masked outside the warehouse.' } },
      glossaryNode: { properties: { name: 'Classification', description: 'How sensitive data is.' } },
      dataProduct: { properties: { name: 'Revenue reporting', description: 'Revenue, reported.' } },
    });
  });

  test("refuses what does not exist, and a term or node without its info aspect, with DataHub's messages; nothing is written", async (t) => {
    const catalog = await testCatalog(t, { sample: true, compat: 'datahub' });
    const ghostTerm = 'urn:li:glossaryTerm:Classification.Ghost';
    assert.deepEqual(onlyError(await gql(catalog, UPDATE_DESCRIPTION, describeIt(ghostTerm, 'x'))), {
      message: `Failed to update ${ghostTerm}. ${ghostTerm} does not exist.`,
      code: 400,
      type: 'BAD_REQUEST',
      path: ['updateDescription'],
    });
    // An entity with another aspect only: DescriptionUtils finds no info aspect to set.
    const bareTerm = 'urn:li:glossaryTerm:Bare';
    const bareNode = 'urn:li:glossaryNode:Bare';
    await ingest(catalog, proposal('glossaryTerm', bareTerm, 'ownership', { owners: [] }), V2);
    await ingest(catalog, proposal('glossaryNode', bareNode, 'ownership', { owners: [] }), V2);
    assert.equal(
      onlyError(await gql(catalog, UPDATE_DESCRIPTION, describeIt(bareTerm, 'x'))).message,
      'Properties for this Glossary Term do not yet exist!',
    );
    assert.equal(
      onlyError(await gql(catalog, UPDATE_DESCRIPTION, describeIt(bareNode, 'x'))).message,
      'Glossary Node does not exist',
    );
    assert.deepEqual(await stored(catalog, bareTerm, ['glossaryTermInfo']), {});
    assert.deepEqual(await stored(catalog, bareNode, ['glossaryNodeInfo']), {});
  });

  test('the spec mode refuses them (§4.1 rule 1: dataset fields only); nothing is written', async (t) => {
    const spec = await testCatalog(t, { sample: true });
    for (const [urn, type] of [
      [g.sensitive, 'glossaryTerm'],
      [g.node, 'glossaryNode'],
      [SAMPLE.dataProduct, 'dataProduct'],
    ])
      assert.ok(
        onlyError(await gql(spec, UPDATE_DESCRIPTION, describeIt(urn!, 'x'))).message.startsWith(
          `updateDescription: this catalog supports only dataset schema fields (spec §4.1 rule 1), so it does not describe the ${type} '${urn}': pass subResourceType: DATASET_FIELD`,
        ),
      );
    assert.equal(
      ((await stored(spec, g.sensitive, ['glossaryTermInfo']))['glossaryTermInfo'] as Json)['definition'],
      'Data that must be masked outside the warehouse.',
    );
  });
});

describe('DataHub mode: updateStructuredProperty', () => {
  const PROPERTY = SAMPLE.structuredProperty;
  const UPDATE = `mutation updateStructuredProperty($input: UpdateStructuredPropertyInput!) {
  updateStructuredProperty(input: $input) { urn definition { displayName description } }
}`;

  test("patches the definition's description and display name (UpdateStructuredPropertyResolver), every other field kept, and answers the property", async (t) => {
    const catalog = await testCatalog(t, { sample: true, compat: 'datahub' });
    const before = (await stored(catalog, PROPERTY, ['propertyDefinition']))['propertyDefinition']!;
    const answer = await gqlData(catalog, UPDATE, { input: { urn: PROPERTY, description: 'Days kept.' } });
    assert.deepEqual(answer['updateStructuredProperty'], {
      urn: PROPERTY,
      definition: { displayName: 'Retention time', description: 'Days kept.' },
    });
    const after = (await stored(catalog, PROPERTY, ['propertyDefinition']))['propertyDefinition']!;
    const { lastModified, ...rest } = after;
    assert.deepEqual(rest, { ...before, description: 'Days kept.' });
    assert.equal((lastModified as Json)['actor'] !== undefined, true);
  });

  test("refuses a property with no definition with DataHub's message; the spec mode has no such mutation", async (t) => {
    const catalog = await testCatalog(t, { sample: true, compat: 'datahub' });
    const ghost = 'urn:li:structuredProperty:io.acryl.ghost';
    assert.equal(
      onlyError(await gql(catalog, UPDATE, { input: { urn: ghost, description: 'x' } })).message,
      'Attempting to update a structured property with no definition aspect.',
    );
    const spec = await testCatalog(t, { sample: true });
    assert.match(
      onlyError(await gql(spec, UPDATE, { input: { urn: PROPERTY, description: 'x' } })).message,
      /^updateStructuredProperty: this catalog does not write structured property definitions \(spec §4\.1/,
    );
  });
});
