/**
 * URN grammar (DataHub's TupleKey.java and _urn_base.py): each kind parses to its typed value
 * with part spans, in any namespace; DataHub's spellings that must be accepted are accepted.
 * The errors are in urnErrors.test.ts, the properties in urnProperties.test.ts.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { decodePart, parseUrn, type PartRole, type PartSpan, type ParseResult } from '../../model/src/urn';

/** The span of the `nth` occurrence of `sub` in `text`, found without the parser. */
function span(role: PartRole, text: string, sub: string, nth = 0): PartSpan {
  let start = -1;
  for (let i = 0; i <= nth; i++) start = text.indexOf(sub, start + 1);
  assert.ok(start >= 0, `'${sub}' occurs ${nth + 1} times in ${text}`);
  return { role, start, end: start + sub.length };
}

function parsed(text: string): ParseResult & { ok: true } {
  const r = parseUrn(text);
  assert.ok(r.ok, `${text} should parse: ${r.ok ? '' : r.error.message}`);
  return r;
}

describe('each URN kind of spec §2.1 parses to its typed value and part spans', () => {
  test('dataset: platform, name and env, with the nested platform URN located', () => {
    const text = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
    assert.deepEqual(parseUrn(text), {
      ok: true,
      urn: { kind: 'dataset', namespace: 'li', platform: 'hive', name: 'db.users', env: 'PROD' },
      parts: [
        { role: 'namespace', start: 4, end: 6 },
        { role: 'kind', start: 7, end: 14 },
        { role: 'platform', start: 36, end: 40 },
        { role: 'name', start: 41, end: 49 },
        { role: 'env', start: 50, end: 54 },
      ],
      platformUrn: { start: 16, end: 40 },
    });
  });

  test('dataPlatform: the platform name is the whole id', () => {
    assert.deepEqual(parseUrn('urn:li:dataPlatform:hive'), {
      ok: true,
      urn: { kind: 'dataPlatform', namespace: 'li', platform: 'hive' },
      parts: [
        { role: 'namespace', start: 4, end: 6 },
        { role: 'kind', start: 7, end: 19 },
        { role: 'platform', start: 20, end: 24 },
      ],
    });
  });

  test('corpuser: the user id, in the spec namespace svc', () => {
    assert.deepEqual(parseUrn('urn:svc:corpuser:jdoe'), {
      ok: true,
      urn: { kind: 'corpuser', namespace: 'svc', user: 'jdoe' },
      parts: [
        { role: 'namespace', start: 4, end: 7 },
        { role: 'kind', start: 8, end: 16 },
        { role: 'user', start: 17, end: 21 },
      ],
    });
  });

  test('mlFeature: feature table name and feature name, no platform', () => {
    const text = 'urn:svc:mlFeature:(feature_store.driver_hourly_stats,conv_rate)';
    assert.deepEqual(parseUrn(text), {
      ok: true,
      urn: { kind: 'mlFeature', namespace: 'svc', table: 'feature_store.driver_hourly_stats', feature: 'conv_rate' },
      parts: [
        { role: 'namespace', start: 4, end: 7 },
        { role: 'kind', start: 8, end: 17 },
        { role: 'table', start: 19, end: 52 },
        { role: 'feature', start: 53, end: 62 },
      ],
    });
  });

  test('mlFeatureTable: platform and table name', () => {
    const text = 'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,driver_hourly_stats)';
    assert.deepEqual(parseUrn(text), {
      ok: true,
      urn: { kind: 'mlFeatureTable', namespace: 'li', platform: 'feast', table: 'driver_hourly_stats' },
      parts: [
        span('namespace', text, 'li'),
        span('kind', text, 'mlFeatureTable'),
        span('platform', text, 'feast'),
        span('table', text, 'driver_hourly_stats'),
      ],
      platformUrn: { start: 23, end: 48 },
    });
  });

  test('mlModel: platform, model name and env', () => {
    const text = 'urn:li:mlModel:(urn:li:dataPlatform:mlflow,test-model_1,PROD)';
    assert.deepEqual(parseUrn(text), {
      ok: true,
      urn: { kind: 'mlModel', namespace: 'li', platform: 'mlflow', name: 'test-model_1', env: 'PROD' },
      parts: [
        span('namespace', text, 'li'),
        span('kind', text, 'mlModel'),
        span('platform', text, 'mlflow'),
        span('name', text, 'test-model_1'),
        span('env', text, 'PROD'),
      ],
      platformUrn: { start: 16, end: 42 },
    });
  });

  test("mlModelGroup: platform, group name and env, in a namespace of the user's own", () => {
    const text = 'urn:acme-2:mlModelGroup:(urn:acme-2:dataPlatform:sagemaker,cypress-model-package-group,DEV)';
    assert.deepEqual(parseUrn(text), {
      ok: true,
      urn: {
        kind: 'mlModelGroup',
        namespace: 'acme-2',
        platform: 'sagemaker',
        name: 'cypress-model-package-group',
        env: 'DEV',
      },
      parts: [
        span('namespace', text, 'acme-2'),
        span('kind', text, 'mlModelGroup'),
        span('platform', text, 'sagemaker'),
        span('name', text, 'cypress-model-package-group'),
        span('env', text, 'DEV'),
      ],
      platformUrn: { start: 25, end: 58 },
    });
  });
});

describe('namespace words: li (DataHub), svc (the spec) and others', () => {
  for (const ns of ['li', 'svc', 'acme', 'Corp_1', 'my-org']) {
    test(`'${ns}' is read as the namespace, nested platform included`, () => {
      const r = parsed(`urn:${ns}:dataset:(urn:${ns}:dataPlatform:hive,db.users,PROD)`);
      assert.equal(r.urn.namespace, ns);
      assert.deepEqual(r.parts[0], { role: 'namespace', start: 4, end: 4 + ns.length });
    });
  }
});

describe('other DataHub entity types are well-formed URNs of kind other', () => {
  test('a tag with a one-part id', () => {
    assert.deepEqual(parseUrn('urn:li:tag:Legacy'), {
      ok: true,
      urn: { kind: 'other', namespace: 'li', entityType: 'tag', id: 'Legacy' },
      parts: [
        { role: 'namespace', start: 4, end: 6 },
        { role: 'kind', start: 7, end: 10 },
        { role: 'id', start: 11, end: 17 },
      ],
    });
  });

  test('a schemaField whose first part is a nested dataset URN (commas inside it do not split the tuple)', () => {
    // Was { kind: 'other' } before schemaField got its typed value (test/model/schemaField.test.ts).
    const text = 'urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,fct_users_deleted,PROD),user_id)';
    const r = parsed(text);
    assert.deepEqual(r.urn, {
      kind: 'schemaField',
      namespace: 'li',
      parent: 'urn:li:dataset:(urn:li:dataPlatform:hive,fct_users_deleted,PROD)',
      dataset: { kind: 'dataset', namespace: 'li', platform: 'hive', name: 'fct_users_deleted', env: 'PROD' },
      fieldPath: 'user_id',
    });
    assert.deepEqual(r.parts.at(-1), { role: 'fieldPath', start: text.length - 8, end: text.length - 1 });
  });

  test('a dataJob nesting a dataFlow tuple, and an id with an @ (from the fixtures)', () => {
    const job =
      'urn:li:dataJob:(urn:li:dataFlow:(sagemaker,training:a-training-job,PROD),arn:aws:sagemaker:us-west-2:1:training-job/a)';
    assert.equal(parsed(job).urn.kind, 'other');
    assert.deepEqual(parsed('urn:li:platformResource:abc@acryl.io').urn, {
      kind: 'other',
      namespace: 'li',
      entityType: 'platformResource',
      id: 'abc@acryl.io',
    });
  });
});

describe("DataHub's spellings that must be accepted as they are", () => {
  test('percent-encoded reserved characters stay encoded in the value; decodePart gives the reading', () => {
    const text = 'urn:li:dataset:(urn:li:dataPlatform:external,sample - superstore%2C %28new%29.xls.people,PROD)';
    const r = parsed(text);
    assert.equal(r.urn.kind === 'dataset' && r.urn.name, 'sample - superstore%2C %28new%29.xls.people');
    assert.deepEqual(r.parts[3], span('name', text, 'sample - superstore%2C %28new%29.xls.people'));
    assert.equal(decodePart('sample - superstore%2C %28new%29.xls.people'), 'sample - superstore, (new).xls.people');
  });

  test('a platform name with a colon, alone and nested', () => {
    assert.deepEqual(parsed('urn:li:dataPlatform:webdata-direct:marketo-marketo').urn, {
      kind: 'dataPlatform',
      namespace: 'li',
      platform: 'webdata-direct:marketo-marketo',
    });
    const text = 'urn:li:dataset:(urn:li:dataPlatform:webdata-direct:marketo-marketo,Marketo.activity,PROD)';
    const r = parsed(text);
    assert.equal(r.urn.kind === 'dataset' && r.urn.platform, 'webdata-direct:marketo-marketo');
    assert.deepEqual(r.parts[2], span('platform', text, 'webdata-direct:marketo-marketo'));
  });

  test('names with spaces inside, slashes, dots, colons, %, @ and non-ASCII letters', () => {
    const name = 'folder a/b.c:d %zz @x Lat %28°N%29';
    const r = parsed(`urn:li:dataset:(urn:li:dataPlatform:s3,${name},DEV)`);
    assert.equal(r.urn.kind === 'dataset' && r.urn.name, name);
    assert.equal(parsed('urn:li:mlFeature:(日本.表,特徴😀)').urn.kind, 'mlFeature');
  });

  test('spaces inside a one-part id are kept (DataHub refuses only leading or trailing ones)', () => {
    assert.deepEqual(parsed('urn:li:corpuser:John Smith').urn, {
      kind: 'corpuser',
      namespace: 'li',
      user: 'John Smith',
    });
    assert.deepEqual(parsed('urn:li:tag:Needs Documentation').urn, {
      kind: 'other',
      namespace: 'li',
      entityType: 'tag',
      id: 'Needs Documentation',
    });
  });

  test('any env word is accepted by the grammar, FabricType or not (the server warns on the others)', () => {
    for (const env of ['PROD', 'DEV', 'NON_PROD', 'prod', 'EU_West_1']) {
      const r = parsed(`urn:li:mlModel:(urn:li:dataPlatform:mlflow,m,${env})`);
      assert.equal(r.urn.kind === 'mlModel' && r.urn.env, env);
    }
  });

  test('a name that contains urn: is only a name outside the platform position', () => {
    const r = parsed('urn:li:mlFeature:(urn:li:x,f)');
    assert.deepEqual(r.urn, { kind: 'mlFeature', namespace: 'li', table: 'urn:li:x', feature: 'f' });
  });
});
