/**
 * DataHub's GraphQL cost limits: the cost function (graphql-java's MaxQueryDepthInstrumentation
 * and MaxQueryComplexityInstrumentation counts) on documents whose counts are worked out by hand,
 * and the DataHub mode's answers over real HTTP: graphql-java's AbortExecutionException body,
 * exactly, over the limit; the document run at the limit; validation first; the options.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parse } from 'graphql';
import { queryCost } from '../../model/src/queryCost';
import { SAMPLE } from '../../catalog/src/sample';
import { batchQuery } from '../../server/src/catalogClient/queries';
import { gql, testCatalog } from './helpers';

const cost = (doc: string, variables?: Record<string, unknown>, operationName?: string) =>
  queryCost(parse(doc), { variables: variables ?? null, operationName: operationName ?? null });
const aliases = (n: number, selection: string): string =>
  `query many($u: String!) { ${Array.from({ length: n }, (_, i) => `a${i}: dataset(urn: $u) ${selection}`).join(' ')} }`;

describe('queryCost (graphql-java counts)', () => {
  test('each field is 1 + its children; a root field is depth 1; __typename costs 0 but counts for depth', () => {
    assert.deepEqual(cost('{ dataset(urn: "x") { urn } }'), { depth: 2, complexity: 2 });
    assert.deepEqual(cost('{ dataset(urn: "x") { urn platform { urn name } } }'), { depth: 3, complexity: 5 });
    assert.deepEqual(cost('{ __typename }'), { depth: 1, complexity: 0 });
    assert.deepEqual(cost('{ dataset(urn: "x") { __typename urn } }'), { depth: 2, complexity: 2 });
  });

  test('fragments count at every spread, inline fragments in place whatever their type; @skip and @include leave fields out', () => {
    assert.deepEqual(
      cost(
        '{ a: dataset(urn: "x") { ...F } b: dataset(urn: "y") { ...F } } fragment F on Dataset { urn platform { name } }',
      ),
      { depth: 3, complexity: 8 },
    );
    assert.deepEqual(
      cost('{ entity(urn: "x") { urn ... on Dataset { name } ... on MLFeature { name featureNamespace } } }'),
      { depth: 2, complexity: 5 },
    );
    const doc =
      'query q($v: Boolean!) { dataset(urn: "x") { urn name @skip(if: true) platform @include(if: $v) { name } } }';
    assert.deepEqual(cost(doc, { v: false }), { depth: 2, complexity: 2 });
    assert.deepEqual(cost(doc, { v: true }), { depth: 3, complexity: 4 });
  });

  test('a fragment spread twice at each of 40 levels counts 2^40 fields, measured once per fragment', () => {
    const fragments = [
      'fragment F0 on Dataset { urn }',
      ...Array.from({ length: 40 }, (_, i) => `fragment F${i + 1} on Dataset { ...F${i} ...F${i} }`),
    ];
    assert.deepEqual(cost(`{ dataset(urn: "x") { ...F40 } } ${fragments.join(' ')}`), {
      depth: 2,
      complexity: 1 + 2 ** 40,
    });
  });

  test('the operation execute would run: by name, or the only one; none when it cannot choose', () => {
    const two = 'query a { dataset(urn: "x") { urn } } query b { __typename }';
    assert.deepEqual(cost(two, undefined, 'b'), { depth: 1, complexity: 0 });
    assert.equal(cost(two), undefined);
  });
});

describe('DataHub mode: query limits over HTTP', () => {
  test("over the complexity limit: HTTP 200, graphql-java's ExecutionAborted error and no data key, byte for byte; at the limit it runs", async (t) => {
    const catalog = await testCatalog(t, { sample: true, compat: 'datahub' });
    const over = aliases(700, '{ urn name }');
    assert.deepEqual(cost(over), { depth: 2, complexity: 2100 });
    const r = await fetch(`${catalog.url}/api/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: over, variables: { u: SAMPLE.datasets.users } }),
    });
    assert.equal(r.status, 200);
    assert.equal(
      await r.text(),
      '{"errors":[{"message":"maximum query complexity exceeded 2100 > 2000","extensions":{"classification":"ExecutionAborted"}}],"extensions":{}}',
    );
    const at = await gql(catalog, aliases(1000, '{ urn }'), { u: SAMPLE.datasets.users });
    assert.equal(at.body['errors'], undefined);
    assert.equal(Object.keys(at.body['data'] as object).length, 1000);

    // The spec mode has its own limits (1000 root fields, 50,000 fields): the same document runs.
    const spec = await testCatalog(t, { sample: true });
    assert.equal((await gql(spec, over, { u: SAMPLE.datasets.users })).body['errors'], undefined);
  });

  test('validation comes first: an invalid document over the limit gets its validation error', async (t) => {
    const catalog = await testCatalog(t, { compat: 'datahub' });
    const r = await gql(
      catalog,
      aliases(700, '{ urn nope }'),
      { u: SAMPLE.datasets.users },
      { invalidOnPurpose: true },
    );
    const errors = r.body['errors'] as Array<{ message: string }>;
    assert.match(errors[0]!.message, /Cannot query field "nope" on type "Dataset"/);
  });

  test('the limits are options: depth 3 refuses a document 5 deep, complexity 10 one of 11', async (t) => {
    const catalog = await testCatalog(t, {
      sample: true,
      compat: 'datahub',
      graphqlDepthLimit: 3,
      graphqlComplexityLimit: 10,
    });
    const deep = 'query f($u: String!) { mlFeature(urn: $u) { properties { sources { platform { name } } } } }';
    const d = await fetch(`${catalog.url}/api/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: deep, variables: { u: SAMPLE.features.age } }),
    });
    assert.deepEqual(await d.json(), {
      errors: [{ message: 'maximum query depth exceeded 5 > 3', extensions: { classification: 'ExecutionAborted' } }],
      extensions: {},
    });
    const wide = await gql(catalog, aliases(5, '{ urn }') + ' ', { u: SAMPLE.datasets.users });
    assert.equal(wide.body['errors'], undefined, 'complexity 10 is at the limit');
    const wider = await gql(
      catalog,
      `query many($u: String!) { ${Array.from({ length: 5 }, (_, i) => `a${i}: dataset(urn: $u) { urn }`).join(' ')} z: entityExists(urn: $u) }`,
      { u: SAMPLE.datasets.users },
    );
    assert.deepEqual(wider.body['errors'], [
      { message: 'maximum query complexity exceeded 11 > 10', extensions: { classification: 'ExecutionAborted' } },
    ]);
  });

  test("the language server's batch document is run or refused as its cost says", async (t) => {
    const catalog = await testCatalog(t, { sample: true, compat: 'datahub' });
    for (const n of [50, 100, 101]) {
      const b = batchQuery(Array.from({ length: n }, () => ({ urn: SAMPLE.datasets.users, kind: 'dataset' as const })));
      const c = cost(b.query, b.variables)!;
      const r = await gql(catalog, b.query, b.variables);
      if (c.complexity <= 2000) assert.equal(r.body['errors'], undefined, `${n} datasets cost ${c.complexity}`);
      else
        assert.deepEqual(r.body['errors'], [
          {
            message: `maximum query complexity exceeded ${c.complexity} > 2000`,
            extensions: { classification: 'ExecutionAborted' },
          },
        ]);
      t.diagnostic(`batch of ${n} datasets: complexity ${c.complexity}, depth ${c.depth}`);
    }
  });
});
