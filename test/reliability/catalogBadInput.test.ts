/**
 * Bad input to the local catalog, one table row per malformed request: the request, the status
 * and error it must get (a Rest.li error body, a GraphQL error, or DataHub's 401 body), each with
 * a message saying what is wrong, and a read-back: every sample entity and the row's own target
 * read back exactly as before (aspects, values and versions), so nothing was stored.
 * (test/catalog/validation.test.ts checks the proposal messages in detail; this table covers
 * every kind of bad request across the write, read and GraphQL paths and auth.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startCatalog, type RunningCatalog } from '../../catalog/src/server';
import { SAMPLE } from '../../catalog/src/sample';
import { encodeUrnForPath } from '../../model/src/urn';
import { rawRequest, type RawRequest } from './support/rawHttp';

const TOKEN = 'tok-bad-input-7c1e';
const AUTH = { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' };
const MAX_BODY = 1024 * 1024;
const NEW_GROUP = 'urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,never-stored,PROD)';
const USERS = SAMPLE.datasets.users;
const GHOST = SAMPLE.missing.dataset;

type Shape = 'restli' | 'graphql' | 'unauthorized';
interface Row {
  name: string;
  request: RawRequest;
  status: number;
  shape: Shape;
  message: RegExp;
  readBack?: string[];
}

function proposal(p: Record<string, unknown>): Record<string, unknown> {
  return {
    entityType: 'mlModelGroup',
    entityUrn: NEW_GROUP,
    changeType: 'UPSERT',
    aspectName: 'mlModelGroupProperties',
    aspect: { value: '{"description":"x"}', contentType: 'application/json' },
    ...p,
  };
}
const write = (body: unknown, headers: Record<string, string> = AUTH, action = 'ingestProposal'): RawRequest => ({
  path: `/aspects?action=${action}`,
  headers,
  body: typeof body === 'string' ? body : JSON.stringify(body),
});
const propose = (p: Record<string, unknown>): RawRequest => write({ proposal: proposal(p), async: 'false' });
const gql = (query: string, variables?: unknown, headers: Record<string, string> = AUTH): RawRequest => ({
  path: '/api/graphql',
  headers,
  body: JSON.stringify(variables === undefined ? { query } : { query, variables }),
});
const gqlRaw = (body: string): RawRequest => ({ path: '/api/graphql', headers: AUTH, body });
const read = (path: string, method = 'GET', headers: Record<string, string> = AUTH): RawRequest => ({
  method,
  path,
  headers,
});

const deepValue = JSON.stringify({
  description: 'x',
  extra: JSON.parse(`${'['.repeat(1500)}${']'.repeat(1500)}`) as unknown,
});
const big = 'x'.repeat(MAX_BODY + 1);
const wide = `{ ${Array.from({ length: 1001 }, (_, i) => `a${i}: entityExists(urn: "${USERS}")`).join(' ')} }`;
const wideBelow = `{ ${Array.from({ length: 300 }, (_, i) => `a${i}: dataset(urn: "${USERS}") { ${Array.from({ length: 200 }, (_, k) => `f${k}: urn`).join(' ')} }`).join(' ')} }`;
const UPDATE_DATASET =
  'mutation u($urn: String!, $input: DatasetUpdateInput!) { updateDataset(urn: $urn, input: $input) { urn } }';
const UPDATE_DESCRIPTION = 'mutation d($input: DescriptionUpdateInput!) { updateDescription(input: $input) }';

const ROWS: Row[] = [
  // The aspect write path: the body.
  {
    name: 'truncated JSON',
    request: write('{"proposal": {"entityType": "mlModelGroup",'),
    status: 400,
    shape: 'restli',
    message: /^malformed JSON in the request body/,
  },
  {
    name: 'an empty body',
    request: write(''),
    status: 400,
    shape: 'restli',
    message: /^malformed JSON in the request body/,
  },
  {
    name: 'JSON null',
    request: write('null'),
    status: 400,
    shape: 'restli',
    message: /^request body: expected a JSON object, found null/,
  },
  {
    name: 'a JSON array',
    request: write('[{"proposal": {}}]'),
    status: 400,
    shape: 'restli',
    message: /^request body: expected a JSON object, found an array/,
  },
  {
    name: 'a JSON string',
    request: write('"proposal"'),
    status: 400,
    shape: 'restli',
    message: /^request body: expected a JSON object, found a string/,
  },
  {
    name: 'bytes that are not UTF-8',
    request: { path: '/aspects?action=ingestProposal', headers: AUTH, body: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) },
    status: 400,
    shape: 'restli',
    message: /not valid UTF-8/,
  },
  {
    name: 'no proposal',
    request: write({ async: 'false' }),
    status: 400,
    shape: 'restli',
    message: /^proposal: required/,
  },
  {
    name: 'proposal null',
    request: write({ proposal: null }),
    status: 400,
    shape: 'restli',
    message: /^proposal: expected an object, found null/,
  },
  {
    name: 'async neither true nor false',
    request: write({ proposal: proposal({}), async: 'maybe' }),
    status: 400,
    shape: 'restli',
    message: /^async: expected "true" or "false"/,
  },
  // Wrong types.
  {
    name: 'entityType a number',
    request: propose({ entityType: 7 }),
    status: 400,
    shape: 'restli',
    message: /^proposal\.entityType: expected a string, found a number/,
  },
  {
    name: 'entityUrn an object',
    request: propose({ entityUrn: { urn: NEW_GROUP } }),
    status: 400,
    shape: 'restli',
    message: /^proposal\.entityUrn: expected a string, found an object/,
  },
  {
    name: 'aspectName an array',
    request: propose({ aspectName: ['mlModelGroupProperties'] }),
    status: 400,
    shape: 'restli',
    message: /^proposal\.aspectName: expected a string, found an array/,
  },
  {
    name: 'aspect.value an object, not a string',
    request: propose({ aspect: { value: { description: 'x' }, contentType: 'application/json' } }),
    status: 400,
    shape: 'restli',
    message: /^proposal\.aspect\.value: expected a string, found an object/,
  },
  {
    name: 'aspect a string',
    request: propose({ aspect: '{"description":"x"}' }),
    status: 400,
    shape: 'restli',
    message: /^proposal\.aspect: expected an object, found a string/,
  },
  {
    name: 'a description that is a number',
    request: propose({ aspect: { value: '{"description": 42}', contentType: 'application/json' } }),
    status: 422,
    shape: 'restli',
    message: /description: expected a string, found number 42/,
  },
  {
    name: 'aspect.value not JSON',
    request: propose({ aspect: { value: '{"description": ', contentType: 'application/json' } }),
    status: 422,
    shape: 'restli',
    message: /^proposal\.aspect\.value: not valid JSON/,
  },
  {
    name: 'aspect.value a JSON array',
    request: propose({ aspect: { value: '["x"]', contentType: 'application/json' } }),
    status: 422,
    shape: 'restli',
    message: /must be a JSON object, found an array/,
  },
  {
    name: 'aspect.value nested 1,500 levels deep',
    request: propose({ aspect: { value: deepValue, contentType: 'application/json' } }),
    status: 422,
    shape: 'restli',
    message: /^proposal\.aspect\.value: nested more than 1000 levels deep/,
  },
  {
    name: 'a contentType other than JSON',
    request: propose({ aspect: { value: '{}', contentType: 'application/xml' } }),
    status: 400,
    shape: 'restli',
    message: /only application\/json is supported/,
  },
  {
    name: 'If-Version-Match a number',
    request: propose({ headers: { 'If-Version-Match': 1 } }),
    status: 400,
    shape: 'restli',
    message: /If-Version-Match: expected a string, found a number/,
  },
  {
    name: 'If-Version-Match not a version',
    request: propose({ headers: { 'If-Version-Match': 'latest' } }),
    status: 400,
    shape: 'restli',
    message: /expected a version number as a string/,
  },
  // Unknown aspects, kinds and mismatches.
  {
    name: 'changeType DELETE',
    request: propose({ changeType: 'DELETE' }),
    status: 400,
    shape: 'restli',
    message: /only UPSERT and PATCH are supported/,
  },
  {
    name: 'an unknown entity type',
    request: propose({ entityType: 'chartz' }),
    status: 400,
    shape: 'restli',
    message: /unknown entity type 'chartz'/,
  },
  {
    name: 'an unknown aspect',
    request: propose({ aspectName: 'bogusAspect' }),
    status: 400,
    shape: 'restli',
    message: /unknown aspect 'bogusAspect'/,
  },
  {
    name: 'an aspect of another entity type',
    request: propose({
      aspectName: 'schemaMetadata',
      aspect: { value: '{"fields": []}', contentType: 'application/json' },
    }),
    status: 400,
    shape: 'restli',
    message: /'schemaMetadata' is not an aspect of entity type 'mlModelGroup'/,
  },
  {
    name: 'a URN of another kind than entityType',
    request: propose({ entityUrn: SAMPLE.features.age }),
    status: 400,
    shape: 'restli',
    message: /is a mlFeature URN, but proposal\.entityType is 'mlModelGroup'/,
    readBack: [SAMPLE.features.age],
  },
  {
    name: 'a malformed URN',
    request: propose({ entityUrn: 'urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,x' }),
    status: 400,
    shape: 'restli',
    message: /is not a valid URN: unbalanced parenthesis/,
  },
  {
    name: 'a namespace the catalog does not accept',
    request: propose({ entityUrn: NEW_GROUP.replaceAll('urn:li:', 'urn:acme:') }),
    status: 400,
    shape: 'restli',
    message: /namespace 'acme', which this catalog does not accept/,
  },
  {
    name: 'a bad URN inside the aspect',
    request: propose({
      entityType: 'mlModel',
      entityUrn: SAMPLE.models.churnV3,
      aspectName: 'mlModelProperties',
      aspect: { value: '{"groups": ["urn:li:mlModelGroup:(x"]}', contentType: 'application/json' },
    }),
    status: 422,
    shape: 'restli',
    message: /groups\[0\]: 'urn:li:mlModelGroup:\(x' is not a valid URN/,
    readBack: [SAMPLE.models.churnV3],
  },
  {
    name: 'an aspect of an entity that does not exist',
    request: propose({
      entityType: 'dataset',
      entityUrn: GHOST,
      aspectName: 'editableDatasetProperties',
      aspect: { value: '{"description":"x"}', contentType: 'application/json' },
    }),
    status: 404,
    shape: 'restli',
    message: /does not exist, and nothing was stored/,
    readBack: [GHOST],
  },
  {
    name: 'a stale If-Version-Match',
    request: propose({
      entityType: 'mlModelGroup',
      entityUrn: SAMPLE.modelGroups.churn,
      headers: { 'If-Version-Match': '99' },
    }),
    status: 422,
    shape: 'restli',
    message: /Expected version 99, actual version 1/,
    readBack: [SAMPLE.modelGroups.churn],
  },
  {
    name: 'a batch with one bad proposal among good ones',
    request: write(
      {
        proposals: [
          proposal({}),
          proposal({ entityUrn: NEW_GROUP.replace('never-stored', 'also-new') }),
          proposal({ aspectName: 'bogusAspect' }),
        ],
        async: 'false',
      },
      AUTH,
      'ingestProposalBatch',
    ),
    status: 400,
    shape: 'restli',
    message: /^proposals\[2\]\.aspectName: unknown aspect/,
    readBack: [NEW_GROUP.replace('never-stored', 'also-new')],
  },
  {
    name: 'a batch whose proposals are not a list',
    request: write({ proposals: { a: proposal({}) } }, AUTH, 'ingestProposalBatch'),
    status: 400,
    shape: 'restli',
    message: /^proposals: expected an array, found an object/,
  },
  {
    name: 'an unknown action',
    request: write({ proposal: proposal({}) }, AUTH, 'delete'),
    status: 400,
    shape: 'restli',
    message: /^action: expected \?action=ingestProposal or \?action=ingestProposalBatch, found 'delete'/,
  },
  // Oversized bodies (the catalog runs with --max-body 1 MiB here).
  {
    name: 'a body over the limit, with its length declared',
    request: propose({ aspect: { value: JSON.stringify({ description: big }), contentType: 'application/json' } }),
    status: 413,
    shape: 'restli',
    message: /larger than the limit of 1048576 bytes/,
  },
  {
    name: 'a body over the limit, streamed without a length',
    request: {
      path: '/aspects?action=ingestProposal',
      headers: AUTH,
      body: Array.from({ length: 300 }, () => Buffer.from('x'.repeat(4096))),
    },
    status: 413,
    shape: 'restli',
    message: /larger than the limit of 1048576 bytes/,
  },
  {
    name: 'a GraphQL body over the limit',
    request: gql(`{ entityExists(urn: "${big}") }`),
    status: 413,
    shape: 'graphql',
    message: /larger than the limit of 1048576 bytes/,
  },
  // Wrong methods and paths.
  {
    name: 'GET on the write path',
    request: read('/aspects?action=ingestProposal'),
    status: 405,
    shape: 'restli',
    message: /method GET is not supported here; use POST/,
  },
  {
    name: 'PUT on the write path',
    request: { ...propose({}), method: 'PUT' },
    status: 405,
    shape: 'restli',
    message: /method PUT is not supported here; use POST/,
  },
  {
    name: 'DELETE of an entity',
    request: read(`/entitiesV2/${encodeUrnForPath(USERS)}`, 'DELETE'),
    status: 405,
    shape: 'restli',
    message: /method DELETE is not supported here; use GET/,
    readBack: [USERS],
  },
  {
    name: 'POST on an aspect read',
    request: {
      ...read(`/aspects/${encodeUrnForPath(USERS)}?aspect=datasetProperties`, 'POST'),
      body: '{"description":"x"}',
    },
    status: 405,
    shape: 'restli',
    message: /method POST is not supported here; use GET/,
    readBack: [USERS],
  },
  {
    name: 'GET on the GraphQL endpoint',
    request: read('/api/graphql?query=%7B__typename%7D'),
    status: 405,
    shape: 'graphql',
    message: /method GET is not supported/,
  },
  {
    name: 'a path that does not exist',
    request: read('/openapi/v2/entity/dataset', 'POST'),
    status: 404,
    shape: 'restli',
    message: /No root resource defined for path/,
  },
  // Bad reads.
  {
    name: 'an aspect read with broken percent-encoding',
    request: read('/aspects/urn%3Ali%3A%ZZ?aspect=datasetProperties'),
    status: 400,
    shape: 'restli',
    message: /not valid percent-encoding/,
  },
  {
    name: 'an aspect read without ?aspect',
    request: read(`/aspects/${encodeUrnForPath(USERS)}`),
    status: 400,
    shape: 'restli',
    message: /aspect: required query parameter/,
  },
  {
    name: 'an aspect read of an unknown aspect',
    request: read(`/aspects/${encodeUrnForPath(USERS)}?aspect=bogusAspect`),
    status: 400,
    shape: 'restli',
    message: /unknown aspect 'bogusAspect'/,
  },
  {
    name: 'an aspect read of an old version',
    request: read(`/aspects/${encodeUrnForPath(USERS)}?aspect=datasetProperties&version=3`),
    status: 400,
    shape: 'restli',
    message: /only version=0 \(the latest\) is kept/,
  },
  {
    name: "an entity read of a type DataHub's registry does not have",
    request: read(`/entitiesV2/${encodeUrnForPath('urn:li:myThing:jdoe')}`),
    status: 400,
    shape: 'restli',
    message: /is a myThing URN, an entity type DataHub's entity registry does not have/,
  },
  // The token.
  {
    name: 'a write without the token',
    request: write({ proposal: proposal({}) }, { 'Content-Type': 'application/json' }),
    status: 401,
    shape: 'unauthorized',
    message: /^Unauthorized to perform this action\.$/,
  },
  {
    name: 'a write with a wrong token',
    request: write({ proposal: proposal({}) }, { ...AUTH, Authorization: `Bearer ${TOKEN}x` }),
    status: 401,
    shape: 'unauthorized',
    message: /^Unauthorized/,
  },
  {
    name: 'a write with the token as Basic credentials',
    request: write(
      { proposal: proposal({}) },
      { ...AUTH, Authorization: `Basic ${Buffer.from(`u:${TOKEN}`).toString('base64')}` },
    ),
    status: 401,
    shape: 'unauthorized',
    message: /^Unauthorized/,
  },
  {
    name: 'a write with the token in the query string',
    request: {
      ...write({ proposal: proposal({}) }, { 'Content-Type': 'application/json' }),
      path: `/aspects?action=ingestProposal&access_token=${TOKEN}`,
    },
    status: 401,
    shape: 'unauthorized',
    message: /^Unauthorized/,
  },
  {
    name: 'a GraphQL mutation without the token',
    request: gql(
      UPDATE_DATASET,
      { urn: USERS, input: { editableProperties: { description: 'x' } } },
      { 'Content-Type': 'application/json' },
    ),
    status: 401,
    shape: 'unauthorized',
    message: /^Unauthorized/,
    readBack: [USERS],
  },
  {
    name: 'an aspect read with a wrong token',
    request: read(`/aspects/${encodeUrnForPath(USERS)}?aspect=datasetProperties`, 'GET', {
      Authorization: 'Bearer nope',
    }),
    status: 401,
    shape: 'unauthorized',
    message: /^Unauthorized/,
  },
  // GraphQL: not a request, invalid, too deep, too wide.
  {
    name: 'a GraphQL body that is not JSON',
    request: gqlRaw('{"query": '),
    status: 400,
    shape: 'graphql',
    message: /malformed JSON in the request body/,
  },
  {
    name: 'a GraphQL body that is an array',
    request: gqlRaw('[{"query": "{ __typename }"}]'),
    status: 400,
    shape: 'graphql',
    message: /must be a JSON object/,
  },
  {
    name: 'a GraphQL body without a query',
    request: gqlRaw('{"variables": {}}'),
    status: 400,
    shape: 'graphql',
    message: /^query: required/,
  },
  {
    name: 'a query that is a number',
    request: gqlRaw('{"query": 42}'),
    status: 400,
    shape: 'graphql',
    message: /^query: required, a GraphQL document as a string/,
  },
  {
    name: 'variables that are a list',
    request: gqlRaw('{"query": "{ __typename }", "variables": [1]}'),
    status: 400,
    shape: 'graphql',
    message: /^variables: expected an object/,
  },
  {
    name: 'an operationName that is a number',
    request: gqlRaw('{"query": "{ __typename }", "operationName": 1}'),
    status: 400,
    shape: 'graphql',
    message: /^operationName: expected a string/,
  },
  { name: 'a syntax error', request: gql('{ dataset(urn: '), status: 200, shape: 'graphql', message: /Syntax Error/ },
  {
    name: 'a field the schema does not have',
    request: gql(`{ dataset(urn: "${USERS}") { status { removed } } }`),
    status: 200,
    shape: 'graphql',
    message: /Cannot query field "status" on type "Dataset"/,
  },
  {
    name: 'a fragment that spreads itself',
    request: gql(`{ dataset(urn: "${USERS}") { ...A } } fragment A on Dataset { urn ...A }`),
    status: 200,
    shape: 'graphql',
    message: /Cannot spread fragment "A" within itself/,
  },
  {
    name: 'a query 16 levels deep',
    request: gql(`{ dataset(urn: "${USERS}") ${'{ platform '.repeat(14)}{ name }${' }'.repeat(14)} }`),
    status: 200,
    shape: 'graphql',
    message: /nested 16 levels deep; the limit is 15/,
  },
  {
    name: 'a query ten thousand levels deep',
    request: gql(`{ __typename ${'{ a '.repeat(10_000)}${'}'.repeat(10_000)} }`),
    status: 200,
    shape: 'graphql',
    message: /nested too deeply to read; the limit is 15 levels/,
  },
  {
    name: 'a query 1001 root fields wide',
    request: gql(wide),
    status: 200,
    shape: 'graphql',
    message: /has 1001 root fields \(aliases included\); the limit is 1000/,
  },
  {
    name: 'a query of 300 roots of 200 fields each',
    request: gql(wideBelow),
    status: 200,
    shape: 'graphql',
    message: /selects 60300 fields in all .*; the limit is 50000/,
  },
  // GraphQL mutations that must store nothing.
  {
    name: 'updateDataset of a dataset that does not exist',
    request: gql(UPDATE_DATASET, { urn: GHOST, input: { editableProperties: { description: 'x' } } }),
    status: 200,
    shape: 'graphql',
    message: /does not exist, and nothing was stored/,
    readBack: [GHOST],
  },
  {
    name: 'updateDataset of a URN of another kind',
    request: gql(UPDATE_DATASET, { urn: SAMPLE.features.age, input: { editableProperties: { description: 'x' } } }),
    status: 200,
    shape: 'graphql',
    message: /expected a dataset URN, found a mlFeature URN/,
    readBack: [SAMPLE.features.age],
  },
  {
    name: 'updateDataset with a description of the wrong type',
    request: gql(UPDATE_DATASET, { urn: USERS, input: { editableProperties: { description: 5 } } }),
    status: 200,
    shape: 'graphql',
    message: /String cannot represent a non string value/,
    readBack: [USERS],
  },
  {
    name: 'updateDataset whose link author is not a user (nothing of it is kept)',
    request: gql(UPDATE_DATASET, {
      urn: USERS,
      input: {
        editableProperties: { description: 'new' },
        institutionalMemory: { elements: [{ url: 'https://x', description: 'd', author: SAMPLE.features.age }] },
      },
    }),
    status: 200,
    shape: 'graphql',
    message: /expected a user URN/,
    readBack: [USERS],
  },
  {
    name: 'updateDescription of a column the schema lacks',
    request: gql(UPDATE_DESCRIPTION, {
      input: { description: 'x', resourceUrn: USERS, subResource: 'no_such_column', subResourceType: 'DATASET_FIELD' },
    }),
    status: 200,
    shape: 'graphql',
    message: /Field 'no_such_column' does not exist in the schema/,
    readBack: [USERS],
  },
  {
    name: 'updateDescription without DATASET_FIELD',
    request: gql(UPDATE_DESCRIPTION, { input: { description: 'x', resourceUrn: USERS } }),
    status: 200,
    shape: 'graphql',
    message: /supports only dataset schema fields/,
    readBack: [USERS],
  },
];

const EVERY_SAMPLE_URN: string[] = [
  ...Object.values(SAMPLE.datasets),
  ...Object.values(SAMPLE.features),
  ...Object.values(SAMPLE.featureTables),
  ...Object.values(SAMPLE.modelGroups),
  ...Object.values(SAMPLE.models),
];

describe('bad input to the local catalog (table-driven)', () => {
  let catalog: RunningCatalog;
  const logs: string[] = [];
  const start = (log: (line: string) => void): Promise<RunningCatalog> =>
    startCatalog({ port: 0, db: ':memory:', sample: true, token: TOKEN, maxBodyBytes: MAX_BODY, log });
  before(async () => {
    catalog = await start((l) => logs.push(l));
  });
  after(async () => {
    console.log(`catalog bad-input cases: ${ROWS.length}`);
    await catalog.close();
  });

  /** What every entity the row could touch holds: aspects with their values and versions. */
  async function snapshot(urns: string[], of: RunningCatalog = catalog): Promise<string> {
    const all = await Promise.all(
      urns.map(async (urn) => {
        const r = await rawRequest(of.url, read(`/entitiesV2/${encodeUrnForPath(urn)}`));
        assert.equal(r.status, 200, r.text);
        const aspects = (
          JSON.parse(r.text) as { aspects: Record<string, { value: unknown; systemMetadata: { version: string } }> }
        ).aspects;
        return [urn, Object.entries(aspects).map(([k, v]) => [k, v.value, v.systemMetadata.version])];
      }),
    );
    return JSON.stringify(all);
  }

  for (const row of ROWS) {
    test(`${row.name} → ${row.status} ${row.shape === 'graphql' ? 'GraphQL error' : row.shape === 'unauthorized' ? 'Unauthorized' : 'Rest.li error'}, and nothing is stored`, async () => {
      const urns = [...EVERY_SAMPLE_URN, NEW_GROUP, ...(row.readBack ?? [])];
      const before = await snapshot(urns);
      const r = await rawRequest(catalog.url, row.request);
      assert.equal(r.status, row.status, `status of ${row.name}: ${r.text.slice(0, 300)}`);
      const body = JSON.parse(r.text) as Record<string, unknown>;
      if (row.shape === 'restli') {
        assert.equal(body['exceptionClass'], 'com.linkedin.restli.server.RestLiServiceException');
        assert.equal(body['status'], row.status);
        assert.match(String(body['message']), row.message);
      } else if (row.shape === 'unauthorized') {
        assert.deepEqual(Object.keys(body).sort(), ['error', 'status']);
        assert.match(String(body['error']), row.message);
      } else {
        const errors = body['errors'] as Array<{ message: string; extensions: { code: number; type: string } }>;
        assert.ok(Array.isArray(errors) && errors.length > 0, `no GraphQL errors in ${r.text.slice(0, 300)}`);
        assert.ok(
          errors.some((e) => row.message.test(e.message)),
          `no error matches ${row.message}: ${JSON.stringify(errors).slice(0, 500)}`,
        );
        for (const e of errors)
          assert.ok(typeof e.extensions?.code === 'number' && e.extensions.code >= 400, `error code of ${e.message}`);
        const data = body['data'] as Record<string, unknown> | null;
        assert.ok(
          data === null || Object.values(data).every((v) => v === null),
          `data beside the error: ${JSON.stringify(data)}`,
        );
      }
      assert.equal(await snapshot(urns), before, 'read back: every entity holds what it held before');
      assert.ok(
        !logs.some((l) => l.startsWith('internal error')),
        `the catalog logged an internal error: ${logs.filter((l) => l.startsWith('internal error')).join('\n')}`,
      );
    });
  }

  test('the token appears in no log line of all those requests (but the one that put it in its URL)', async (t) => {
    // A catalog and a log of its own, sent every row's requests (read back, the request, read back)
    // here: the test does not count on the rows' tests having run before it.
    const own: string[] = [];
    const mine = await start((l) => own.push(l));
    t.after(() => mine.close());
    for (const row of ROWS) {
      const urns = [...EVERY_SAMPLE_URN, NEW_GROUP, ...(row.readBack ?? [])];
      await snapshot(urns, mine);
      await rawRequest(mine.url, row.request);
      await snapshot(urns, mine);
    }
    assert.ok(own.length > ROWS.length);
    // The catalog logs request URLs as they came; a client that puts the token in one has leaked it already.
    assert.deepEqual(
      own.filter((l) => l.includes(TOKEN) && !l.includes(`access_token=${TOKEN}`)),
      [],
    );
  });
});
