/**
 * Bearer auth, as DataHub's GMS does it: open without a token, and with one every request but
 * GET /health and GET /config needs `Authorization: Bearer <token>`; the token is never logged.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SAMPLE } from '../../catalog/src/sample';
import { MLFEATURE_QUERY } from './documents';
import { getAspect, gql, ingest, proposal, request, testCatalog } from './helpers';

const TOKEN = 'tok-3f1c9a-secret';
const UNAUTHORIZED = { error: 'Unauthorized to perform this action.', status: 401 };

describe('auth', () => {
  test('without a token every request is accepted and /config says auth is off', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    assert.equal((await gql(catalog, MLFEATURE_QUERY, { urn: SAMPLE.features.age })).status, 200);
    assert.equal((await getAspect(catalog, SAMPLE.features.age, 'mlFeatureProperties')).status, 200);
    const config = await request(`${catalog.url}/config`);
    assert.deepEqual(config.body, {
      noCode: 'true',
      catalogLens: { version: '0.1.0', namespaces: ['li', 'svc'], auth: false },
    });
  });

  test('with a token: 401 without the header or with a wrong one, 200 with it', async (t) => {
    const lines: string[] = [];
    const catalog = await testCatalog(t, { sample: true, token: TOKEN, log: (l) => lines.push(l) });
    const anonymous = await gql(catalog, MLFEATURE_QUERY, { urn: SAMPLE.features.age });
    assert.equal(anonymous.status, 401);
    assert.deepEqual(anonymous.body, UNAUTHORIZED);
    for (const header of [`Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, TOKEN, 'Basic dXNlcjpwYXNz', 'Bearer ']) {
      const r = await gql(
        catalog,
        MLFEATURE_QUERY,
        { urn: SAMPLE.features.age },
        { headers: { Authorization: header } },
      );
      assert.equal(r.status, 401, header);
      assert.deepEqual(r.body, UNAUTHORIZED);
    }
    const ok = await gql(
      catalog,
      MLFEATURE_QUERY,
      { urn: SAMPLE.features.age },
      { headers: { Authorization: `Bearer ${TOKEN}` } },
    );
    assert.equal(ok.status, 200);
    assert.equal((ok.body['data'] as { mlFeature: { name: string } }).mlFeature.name, 'age');

    const write = proposal('mlModelGroup', SAMPLE.modelGroups.ltv, 'mlModelGroupProperties', { description: 'x' });
    assert.equal((await ingest(catalog, write)).status, 401);
    assert.equal((await getAspect(catalog, SAMPLE.modelGroups.ltv, 'mlModelGroupProperties', {})).status, 401);
    assert.equal((await request(`${catalog.url}/_catalog-lens/stats`)).status, 401);
    assert.equal((await ingest(catalog, write, { Authorization: `Bearer ${TOKEN}` })).status, 200);
    const read = await getAspect(catalog, SAMPLE.modelGroups.ltv, 'mlModelGroupProperties', {
      Authorization: `bearer ${TOKEN}`,
    });
    assert.equal(read.status, 200);

    assert.ok(lines.some((l) => l.startsWith('POST /api/graphql 401')));
    assert.ok(
      lines.every((l) => !l.includes(TOKEN)),
      'the token is never logged',
    );
  });

  test('with a token, GET /health and GET /config stay open (as DataHub)', async (t) => {
    const catalog = await testCatalog(t, { token: TOKEN });
    const health = await request(`${catalog.url}/health`);
    assert.equal(health.status, 200);
    const config = await request(`${catalog.url}/config`);
    assert.equal(config.status, 200);
    assert.equal(config.body['noCode'], 'true');
    assert.equal((config.body['catalogLens'] as { auth: boolean }).auth, true);
    assert.equal(
      (await request(`${catalog.url}/config`, { method: 'POST', headers: { 'Content-Type': 'application/json' } }))
        .status,
      401,
      'only GET is open',
    );
  });
});
