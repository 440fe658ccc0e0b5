/**
 * The DataHub mode (`compat: 'datahub'`) over real HTTP, one test per difference from the spec
 * mode listed in docs/local-catalog.md "DataHub mode": Rest.li protocol versions, entities that were
 * never written, upserts that create, DataHub's 422 text, namespaces kept apart, a database file
 * that remembers its mode. Each asserts the DataHub answer and, where it differs, the spec mode's.
 * (Mutations: datahubMutations.test.ts; query limits: queryCost.test.ts; addLink: addLink.test.ts.)
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { SAMPLE } from '../../catalog/src/sample';
import { startCatalog, type RunningCatalog } from '../../catalog/src/server';
import { encodeUrnForPath } from '../../model/src/urn';
import { DATASET_DESCRIPTIONS, ENTITY_EXISTS, MLFEATURE_QUERY } from './documents';
import {
  assertRestLiError,
  gqlData,
  ingest,
  ingestRaw,
  proposal,
  request,
  testCatalog,
  type HttpAnswer,
  type Json,
} from './helpers';

const V2 = { 'X-RestLi-Protocol-Version': '2.0.0' };
const USERS = SAMPLE.datasets.users;
const GHOST = SAMPLE.missing.dataset;
const USERS_KEY = { platform: 'urn:li:dataPlatform:hive', name: 'db.users', origin: 'PROD' };

async function entitiesV2(
  catalog: RunningCatalog,
  urn: string,
  query: string,
  headers: Record<string, string> = {},
): Promise<HttpAnswer> {
  return request(`${catalog.url}/entitiesV2/${encodeUrnForPath(urn)}${query}`, { headers });
}

const aspectNames = (r: HttpAnswer): string[] => Object.keys(r.body['aspects'] as Json).sort();

describe('DataHub mode: Rest.li protocol versions', () => {
  test('without X-RestLi-Protocol-Version, ?aspects=List(a,b) is one aspect literally named so: 200 with the key aspect only', async (t) => {
    const catalog = await testCatalog(t, { sample: true, compat: 'datahub' });
    const r = await entitiesV2(catalog, USERS, '?aspects=List(datasetProperties,schemaMetadata)');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(aspectNames(r), ['datasetKey']);
    const key = (r.body['aspects'] as Record<string, Json>)['datasetKey']!;
    assert.deepEqual(key['value'], USERS_KEY);
    assert.equal(key['name'], 'datasetKey');
    assert.equal((key['created'] as Json)['actor'], 'urn:li:corpuser:__datahub_system');
    assert.equal(key['systemMetadata'], undefined);

    // With the header (2.0.0) the list works; Rest.li 1.0's repeated parameter works without it.
    const v2 = await entitiesV2(catalog, USERS, '?aspects=List(datasetProperties,schemaMetadata)', V2);
    assert.deepEqual(aspectNames(v2), ['datasetKey', 'datasetProperties', 'schemaMetadata']);
    const v1 = await entitiesV2(catalog, USERS, '?aspects=datasetProperties&aspects=schemaMetadata');
    assert.deepEqual(aspectNames(v1), ['datasetKey', 'datasetProperties', 'schemaMetadata']);
    const lower = await entitiesV2(catalog, USERS, '?aspects=List(datasetProperties)', {
      'x-restli-protocol-version': '2.0.0',
    });
    assert.deepEqual(aspectNames(lower), ['datasetKey', 'datasetProperties']);
  });

  test('the spec mode accepts both forms with or without the header', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    for (const [query, headers] of [
      ['?aspects=List(datasetProperties,schemaMetadata)', {}],
      ['?aspects=List(datasetProperties,schemaMetadata)', V2],
      ['?aspects=datasetProperties&aspects=schemaMetadata', {}],
    ] as const) {
      assert.deepEqual(
        aspectNames(await entitiesV2(catalog, USERS, query, headers)),
        ['datasetProperties', 'schemaMetadata'],
        query,
      );
    }
  });

  test('unknown aspect names read as absent in the DataHub mode (a 400 in the spec mode); a protocol version above 2.0.0 is refused', async (t) => {
    const catalog = await testCatalog(t, { sample: true, compat: 'datahub' });
    assert.deepEqual(aspectNames(await entitiesV2(catalog, USERS, '?aspects=List(status,datasetProperties)', V2)), [
      'datasetKey',
      'datasetProperties',
    ]);
    const noMessage = await request(`${catalog.url}/aspects/${encodeUrnForPath(USERS)}?aspect=status&version=0`);
    assert.equal(noMessage.status, 404);
    assert.equal(noMessage.headers.get('x-restli-error-response'), 'true');
    assert.deepEqual(
      Object.keys(noMessage.body).sort(),
      ['exceptionClass', 'stackTrace', 'status'],
      'DataHub sends this 404 without a message',
    );
    const keyRead = await request(`${catalog.url}/aspects/${encodeUrnForPath(USERS)}?aspect=datasetKey&version=0`);
    assert.deepEqual(keyRead.body, { aspect: { 'com.linkedin.metadata.key.DatasetKey': USERS_KEY }, version: 0 });
    const plain = await request(`${catalog.url}/aspects/${encodeUrnForPath(USERS)}?aspect=datasetProperties&version=0`);
    assert.equal(plain.status, 200, '`aspect=` is a plain parameter under 1.0 and 2.0 alike');
    const tooNew = await entitiesV2(catalog, USERS, '?aspects=List(datasetProperties)', {
      'X-RestLi-Protocol-Version': '3.0.0',
    });
    assertRestLiError(tooNew, 400, /^Rest\.li protocol version 3\.0\.0 used by the client is not supported!$/);

    const spec = await testCatalog(t, { sample: true });
    // `status` is an aspect of datasets in DataHub's registry: the spec mode reads it as absent; a name the registry does not give datasets is a 400.
    assert.equal((await entitiesV2(spec, USERS, '?aspects=List(status)')).status, 200);
    assertRestLiError(await entitiesV2(spec, USERS, '?aspects=List(bogus)'), 400, /unknown aspect 'bogus'/);
  });
});

describe('DataHub mode: entities that were never written', () => {
  test('GraphQL answers an object with exists: false and null aspects; entitiesV2 answers the key aspect; the spec mode answers null', async (t) => {
    const catalog = await testCatalog(t, { sample: true, compat: 'datahub' });
    const d = (
      await gqlData(
        catalog,
        `query($urn: String!) { dataset(urn: $urn) { urn name exists properties { description } editableProperties { description } schemaMetadata { fields { fieldPath } } } }`,
        { urn: GHOST },
      )
    )['dataset'];
    assert.deepEqual(d, {
      urn: GHOST,
      name: 'db.ghost',
      exists: false,
      properties: null,
      editableProperties: null,
      schemaMetadata: null,
    });
    const f = (await gqlData(catalog, MLFEATURE_QUERY, { urn: SAMPLE.missing.feature }))['mlFeature'] as Json;
    assert.equal(f['exists'], false);
    assert.equal(f['properties'], null);
    assert.equal(f['name'], 'ghost');
    assert.equal((await gqlData(catalog, ENTITY_EXISTS, { urn: GHOST }))['entityExists'], false);
    assert.equal((await gqlData(catalog, ENTITY_EXISTS, { urn: USERS }))['entityExists'], true);
    const env = await entitiesV2(catalog, GHOST, '?aspects=List(datasetProperties,editableDatasetProperties)', V2);
    assert.equal(env.status, 200);
    assert.deepEqual(env.body['aspects'], {
      datasetKey: {
        ...((env.body['aspects'] as Json)['datasetKey'] as Json),
        value: { platform: 'urn:li:dataPlatform:hive', name: 'db.ghost', origin: 'PROD' },
      },
    });

    const spec = await testCatalog(t, { sample: true });
    assert.equal((await gqlData(spec, DATASET_DESCRIPTIONS, { urn: GHOST }))['dataset'], null);
  });

  test('any aspect makes an entity exist (its key aspect is written with it)', async (t) => {
    const catalog = await testCatalog(t, { compat: 'datahub' });
    const r = await ingest(
      catalog,
      proposal('dataset', GHOST, 'editableDatasetProperties', { description: 'Edited first.' }),
      V2,
    );
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const d = (
      await gqlData(
        catalog,
        `query($urn: String!) { dataset(urn: $urn) { exists properties { description } editableProperties { description } } }`,
        { urn: GHOST },
      )
    )['dataset'];
    assert.deepEqual(d, { exists: true, properties: null, editableProperties: { description: 'Edited first.' } });
    assert.equal((await gqlData(catalog, ENTITY_EXISTS, { urn: GHOST }))['entityExists'], true);
  });
});

describe('DataHub mode: upserts create', () => {
  test('ingestProposal and ingestProposalBatch of any aspect to an entity that does not exist create it (the spec mode: 404, nothing stored)', async (t) => {
    const catalog = await testCatalog(t, { compat: 'datahub' });
    const memory = {
      elements: [
        { url: 'https://wiki.example/ghost', description: 'Docs', createStamp: { time: 1, actor: SAMPLE.user } },
      ],
    };
    const one = await ingest(catalog, proposal('dataset', GHOST, 'institutionalMemory', memory), V2);
    assert.deepEqual([one.status, one.body], [200, { value: 'success' }]);
    const model = 'urn:li:mlModel:(urn:li:dataPlatform:mlflow,never-written,PROD)';
    const batch = await ingestRaw(
      catalog,
      JSON.stringify({ proposals: [proposal('mlModel', model, 'institutionalMemory', memory)], async: 'false' }),
      'ingestProposalBatch',
    );
    assert.equal(batch.status, 200, JSON.stringify(batch.body));
    const stored = await entitiesV2(catalog, GHOST, '?aspects=List(institutionalMemory)', V2);
    assert.deepEqual(aspectNames(stored), ['datasetKey', 'institutionalMemory']);
    assert.deepEqual((stored.body['aspects'] as Record<string, Json>)['institutionalMemory']!['value'], memory);
    assert.equal((await gqlData(catalog, ENTITY_EXISTS, { urn: model }))['entityExists'], true);

    const spec = await testCatalog(t, {});
    assertRestLiError(
      await ingest(spec, proposal('dataset', GHOST, 'institutionalMemory', memory)),
      404,
      /does not exist, and nothing was stored/,
    );
  });
});

describe("DataHub mode: DataHub's 422 for a stale If-Version-Match", () => {
  test('the message is ValidationExceptionCollection{…AspectValidationException(item=…, msg=Expected version X, actual version Y)]}, the marker past character 300', async (t) => {
    const catalog = await testCatalog(t, { compat: 'datahub' });
    const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)';
    await ingest(catalog, proposal('dataset', urn, 'editableDatasetProperties', { description: 'v1' }), V2);
    const r = await ingest(
      catalog,
      proposal(
        'dataset',
        urn,
        'editableDatasetProperties',
        { description: 'v2' },
        { headers: { 'If-Version-Match': '7' } },
      ),
      V2,
    );
    assertRestLiError(
      r,
      422,
      /^ValidationExceptionCollection\{EntityAspect:\(urn:li:dataset:\(urn:li:dataPlatform:hive,t,PROD\),editableDatasetProperties\) Exceptions: \[AspectValidationException\(item=ChangeItemImpl\{changeType=UPSERT, auditStamp=\{actor=urn:li:corpuser:datahub, time=\d+\}, systemMetadata=\{lastObserved=\d+, runId=no-run-id-provided\}, recordTemplate=\{description=v2\}, aspectName='editableDatasetProperties', urn=urn:li:dataset:\(urn:li:dataPlatform:hive,t,PROD\)\}, changeType=UPSERT, entityUrn=urn:li:dataset:\(urn:li:dataPlatform:hive,t,PROD\), aspectName=editableDatasetProperties, subType=PRECONDITION, msg=Expected version 7, actual version 1\)\]\}$/,
    );
    const message = r.body['message'] as string;
    assert.ok(message.indexOf('Expected version') > 300, `the marker is at ${message.indexOf('Expected version')}`);
    assert.equal(r.headers.get('x-restli-error-response'), 'true');
    assert.match(
      r.body['stackTrace'] as string,
      /^com\.linkedin\.restli\.server\.RestLiServiceException \[HTTP Status:422\]: ValidationExceptionCollection\{/,
    );
    const after = (await entitiesV2(catalog, urn, '?aspects=List(editableDatasetProperties)', V2)).body[
      'aspects'
    ] as Record<string, Json>;
    assert.deepEqual(after['editableDatasetProperties']!['value'], { description: 'v1' }, 'nothing was written');

    const spec = await testCatalog(t, {});
    await ingest(spec, proposal('dataset', urn, 'datasetProperties', { description: 'v1' }));
    const short = await ingest(
      spec,
      proposal('dataset', urn, 'datasetProperties', { description: 'v2' }, { headers: { 'If-Version-Match': '7' } }),
    );
    assertRestLiError(
      short,
      422,
      /^ValidationExceptionCollection\{EntityAspect:\(.*,datasetProperties\) Exceptions: \[Expected version 7, actual version 1\]\}$/,
    );
  });
});

describe('DataHub mode: namespaces', () => {
  test('urn:svc:… and urn:li:… are different entities (the spec mode stores them as one)', async (t) => {
    const svcUsers = USERS.replaceAll('urn:li:', 'urn:svc:');
    const catalog = await testCatalog(t, { sample: true, compat: 'datahub' });
    const svc = (
      await gqlData(catalog, `query($urn: String!) { dataset(urn: $urn) { urn exists properties { description } } }`, {
        urn: svcUsers,
      })
    )['dataset'];
    assert.deepEqual(svc, { urn: svcUsers, exists: false, properties: null });
    await ingest(catalog, proposal('dataset', svcUsers, 'datasetProperties', { description: 'The svc one.' }), V2);
    const li = (await gqlData(catalog, DATASET_DESCRIPTIONS, { urn: USERS }))['dataset'] as Json;
    assert.deepEqual(li['properties'], { description: 'One row per registered user of the product.' });
    const svcKey = (await entitiesV2(catalog, svcUsers, '?aspects=List(datasetProperties)', V2)).body[
      'aspects'
    ] as Record<string, Json>;
    assert.deepEqual(svcKey['datasetKey']!['value'], {
      platform: 'urn:svc:dataPlatform:hive',
      name: 'db.users',
      origin: 'PROD',
    });
    assert.deepEqual(svcKey['datasetProperties']!['value'], { description: 'The svc one.' });

    const spec = await testCatalog(t, { sample: true });
    assert.deepEqual(
      ((await gqlData(spec, DATASET_DESCRIPTIONS, { urn: svcUsers }))['dataset'] as Json)['properties'],
      { description: 'One row per registered user of the product.' },
    );
  });

  test('a database file remembers its mode: opening a spec-mode file in the DataHub mode is refused, and the other way round', async (t) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'catalog-compat-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const specFile = path.join(dir, 'spec.db');
    await (await startCatalog({ port: 0, db: specFile, sample: true })).close();
    await assert.rejects(
      startCatalog({ port: 0, db: specFile, compat: 'datahub' }),
      /written in the spec mode .* started in the DataHub mode .* use another --db file/,
    );
    const datahubFile = path.join(dir, 'datahub.db');
    await (await startCatalog({ port: 0, db: datahubFile, compat: 'datahub' })).close();
    await assert.rejects(
      startCatalog({ port: 0, db: datahubFile }),
      /written in the DataHub mode .* started in the spec mode/,
    );
    const again = await startCatalog({ port: 0, db: specFile, sample: true });
    await again.close();
  });
});
