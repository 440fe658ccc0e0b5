/**
 * Every bad aspect write is refused with the status DataHub uses, a message that says what is
 * wrong and where (JSON path), and nothing stored (read back after each one).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SAMPLE } from '../../catalog/src/sample';
import { urlForLog } from '../../catalog/src/server';
import { assertRestLiError, getEntity, ingestRaw, proposal, request, testCatalog, type Json } from './helpers';

const group = 'urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,checked-group,PROD)';
const good = proposal('mlModelGroup', group, 'mlModelGroupProperties', { description: 'ok' });

function body(p: unknown): string {
  return JSON.stringify({ proposal: p, async: 'false' });
}

function without(key: string): Json {
  const copy: Json = { ...good };
  delete copy[key];
  return copy;
}

const CASES: Array<{ name: string; body: string; status: number; message: RegExp; action?: string }> = [
  {
    name: 'malformed JSON',
    body: '{"proposal": {"entityType": "mlModelGroup",',
    status: 400,
    message: /^malformed JSON in the request body: /,
  },
  {
    name: 'body not an object',
    body: '[1, 2]',
    status: 400,
    message: /^request body: expected a JSON object, found an array/,
  },
  { name: 'no proposal', body: '{"async": "false"}', status: 400, message: /^proposal: required/ },
  {
    name: 'proposal not an object',
    body: body('x'),
    status: 400,
    message: /^proposal: expected an object, found a string/,
  },
  {
    name: 'missing entityType',
    body: body(without('entityType')),
    status: 400,
    message: /^proposal\.entityType: required$/,
  },
  {
    name: 'missing entityUrn',
    body: body(without('entityUrn')),
    status: 400,
    message: /^proposal\.entityUrn: required$/,
  },
  {
    name: 'missing aspectName',
    body: body(without('aspectName')),
    status: 400,
    message: /^proposal\.aspectName: required$/,
  },
  { name: 'missing aspect', body: body(without('aspect')), status: 400, message: /^proposal\.aspect: required/ },
  {
    name: 'entityType not a string',
    body: body({ ...good, entityType: 5 }),
    status: 400,
    message: /^proposal\.entityType: expected a string, found a number/,
  },
  {
    name: 'aspect.value not a string',
    body: body({ ...good, aspect: { value: { description: 'x' }, contentType: 'application/json' } }),
    status: 400,
    message: /^proposal\.aspect\.value: expected a string, found an object/,
  },
  {
    name: 'wrong contentType',
    body: body({ ...good, aspect: { value: '{}', contentType: 'text/plain' } }),
    status: 400,
    message: /^proposal\.aspect\.contentType: only application\/json is supported, found 'text\/plain'/,
  },
  {
    name: 'changeType DELETE',
    body: body({ ...good, changeType: 'DELETE' }),
    status: 400,
    message: /^proposal\.changeType: only UPSERT and PATCH are supported by this catalog, found 'DELETE'/,
  },
  {
    name: 'unknown entityType',
    body: body({ ...good, entityType: 'chartz' }),
    status: 400,
    message: /^proposal\.entityType: unknown entity type 'chartz': not an entity of DataHub's entity registry/,
  },
  {
    name: 'unknown aspectName',
    body: body({ ...good, aspectName: 'bogusAspect' }),
    status: 400,
    message:
      /^proposal\.aspectName: unknown aspect 'bogusAspect': 'bogusAspect' is not an aspect of entity type 'mlModelGroup'/,
  },
  {
    name: 'aspect of another entity',
    body: body({ ...good, aspectName: 'datasetProperties' }),
    status: 400,
    message:
      /^proposal\.aspectName: unknown aspect 'datasetProperties': 'datasetProperties' is not an aspect of entity type 'mlModelGroup' in DataHub's entity registry \("Unknown aspect datasetProperties for entity mlModelGroup"; its aspects: mlModelGroupKey, glossaryTerms, editableMlModelGroupProperties, domains, applications, mlModelGroupProperties, ownership, status/,
  },
  {
    name: 'unparsable URN',
    body: body({ ...good, entityUrn: 'urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,checked-group)' }),
    status: 400,
    message:
      /^proposal\.entityUrn: '.*' is not a valid URN: expected 3 parts \(platform, group name, env\), found 2 \(at offset 20\)/,
  },
  {
    name: 'URN kind differs from entityType',
    body: body({ ...good, entityUrn: SAMPLE.features.age }),
    status: 400,
    message:
      /^proposal\.entityUrn: 'urn:li:mlFeature:\(users_table,age\)' is a mlFeature URN, but proposal\.entityType is 'mlModelGroup'/,
  },
  {
    name: 'namespace not accepted',
    body: body({ ...good, entityUrn: group.replaceAll('urn:li:', 'urn:acme:') }),
    status: 400,
    message: /is in namespace 'acme', which this catalog does not accept \(accepted: li, svc/,
  },
  {
    name: 'bad headers',
    body: body({ ...good, headers: { 'If-Version-Match': 3 } }),
    status: 400,
    message: /^proposal\.headers\.If-Version-Match: expected a string, found a number/,
  },
  {
    name: 'bad async',
    body: JSON.stringify({ proposal: good, async: 'maybe' }),
    status: 400,
    message: /^async: expected "true" or "false"/,
  },
  {
    name: 'value not JSON',
    body: body({ ...good, aspect: { value: '{"description": ', contentType: 'application/json' } }),
    status: 422,
    message: /^proposal\.aspect\.value: not valid JSON \(/,
  },
  {
    name: 'value not an object',
    body: body({ ...good, aspect: { value: '["a"]', contentType: 'application/json' } }),
    status: 422,
    message: /^proposal\.aspect\.value: the mlModelGroupProperties aspect must be a JSON object, found an array/,
  },
  {
    name: 'value fails the aspect check',
    body: body(proposal('mlModelGroup', group, 'mlModelGroupProperties', { description: ['not', 'text'] })),
    status: 422,
    message:
      /^mlModelGroupProperties is not valid: proposal\.aspect\.value\.description: expected a string, found an array/,
  },
  {
    name: 'bad URN inside the value',
    body: body(
      proposal('mlModel', 'urn:li:mlModel:(urn:li:dataPlatform:mlflow,m,PROD)', 'mlModelProperties', {
        groups: ['urn:li:mlModelGroup:(oops'],
      }),
    ),
    status: 422,
    message: /proposal\.aspect\.value\.groups\[0\]: 'urn:li:mlModelGroup:\(oops' is not a valid URN/,
  },
  {
    name: 'unknown dataType',
    body: body(proposal('mlFeature', 'urn:li:mlFeature:(t,f)', 'mlFeatureProperties', { dataType: 'STRING' })),
    status: 422,
    message: /proposal\.aspect\.value\.dataType: expected one of USELESS, NOMINAL/,
  },
  {
    name: 'no action',
    body: body(good),
    status: 400,
    message: /^action: expected \?action=ingestProposal or \?action=ingestProposalBatch, found 'nope'/,
    action: 'nope',
  },
  {
    name: 'batch without proposals',
    body: '{"async": "false"}',
    status: 400,
    message: /^proposals: required/,
    action: 'ingestProposalBatch',
  },
];

describe('aspect write validation', () => {
  for (const c of CASES) {
    test(`${c.name} → ${c.status} with the JSON path, nothing stored`, async (t) => {
      const catalog = await testCatalog(t);
      const r = await ingestRaw(catalog, c.body, c.action ?? 'ingestProposal');
      assertRestLiError(r, c.status, c.message);
      assert.equal(r.headers.get('x-restli-error-response'), 'true');
      assert.deepEqual((await getEntity(catalog, group)).body['aspects'], {});
    });
  }

  test('a body over the limit → 413, nothing stored', async (t) => {
    const catalog = await testCatalog(t, { maxBodyBytes: 1024 });
    const big = proposal('mlModelGroup', group, 'mlModelGroupProperties', { description: 'x'.repeat(2000) });
    const r = await ingestRaw(catalog, body(big));
    assertRestLiError(r, 413, /larger than the limit of 1024 bytes/);
    assert.deepEqual((await getEntity(catalog, group)).body['aspects'], {});
    assert.equal((await ingestRaw(catalog, body(good))).status, 200, 'a body within the limit is accepted');
  });

  test('a body that is not UTF-8 → 400', async (t) => {
    const catalog = await testCatalog(t);
    const r = await fetch(`${catalog.url}/aspects?action=ingestProposal`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]),
    });
    const answer = (await r.json()) as Json;
    assert.equal(r.status, 400);
    assert.match(answer['message'] as string, /not valid UTF-8/);
  });

  test('the sample is untouched by refused writes', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    const r = await ingestRaw(
      catalog,
      body(proposal('dataset', SAMPLE.datasets.users, 'datasetProperties', { description: 42 })),
    );
    assertRestLiError(r, 422, /description: expected a string, found number 42/);
    const aspects = (await getEntity(catalog, SAMPLE.datasets.users, ['datasetProperties'])).body['aspects'] as Record<
      string,
      { value: Json }
    >;
    assert.equal(aspects['datasetProperties']!.value['description'], 'One row per registered user of the product.');
  });
});

describe('request log', () => {
  test('a 12 KB URL is answered and logged as one short line that says how long it was', async (t) => {
    const lines: string[] = [];
    const catalog = await testCatalog(t, { sample: true, log: (l) => lines.push(l) });
    const path = `/aspects/${'x'.repeat(12_000)}?aspect=datasetProperties`;
    const r = await request(`${catalog.url}${path}`);
    assert.ok(r.status >= 400 && r.status < 500, `status ${r.status}`);
    for (let i = 0; i < 50 && lines.length === 0; i++) await new Promise((done) => setImmediate(done));
    const line = lines.find((l) => l.startsWith('GET /aspects/'));
    assert.ok(line, `logged: ${JSON.stringify(lines).slice(0, 300)}`);
    assert.ok(line.length < 400, `${line.length} characters`);
    assert.match(line, new RegExp(`… \\(${path.length} characters\\) ${r.status} `));
  });

  test('what a lenient HTTP parser would hand on is logged as escapes: no control character reaches the log', () => {
    assert.equal(urlForLog('/a\x1b[31m\x9b2J\u202eb'), '/a\\x1b[31m\\x9b2J\\u202eb');
    assert.equal(urlForLog('/aspects?x=1'), '/aspects?x=1');
    assert.equal(urlForLog('/' + 'a'.repeat(400), 10), `/${'a'.repeat(9)}… (401 characters)`);
  });
});
