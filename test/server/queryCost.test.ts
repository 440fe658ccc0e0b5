/**
 * What a GraphQL document costs DataHub (graphql-java's count, which DataHub limits to 2000 and 50
 * deep), and how the client splits batches to stay within a budget.
 */
import { CATALOG_KINDS, LOOKUP_KINDS, VIEW_KINDS, type CatalogKind } from '../../model/src/kinds';
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { documentCost, refusedForCost } from '../../server/src/catalogClient/cost';
import {
  batchQuery,
  contextQuery,
  costOfOne,
  everyDocument,
  planBatches,
  resolveWithContextQuery,
  viewSample,
} from '../../server/src/catalogClient/queries';

const urnOf = (kind: CatalogKind, i: number): string =>
  kind === 'mlFeature'
    ? `urn:li:mlFeature:(t,f${i})`
    : kind === 'mlFeatureTable'
      ? `urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,t${i})`
      : `urn:li:${kind}:(urn:li:dataPlatform:hive,n${i},PROD)`;

// graphql-java's count itself is tested with the catalog that enforces it (test/catalog/queryCost.test.ts).
describe("the client's documents as graphql-java counts them", () => {
  test("a cold hover's one document (the entity and its context) costs what the two documents cost apart, within DataHub's limits, for every looked-up kind", () => {
    for (const [i, kind] of LOOKUP_KINDS.entries()) {
      const urn = CATALOG_KINDS.includes(kind as CatalogKind) ? urnOf(kind as CatalogKind, i) : viewSample('li', kind);
      const cost = documentCost(resolveWithContextQuery({ urn, kind }).query);
      const apart = documentCost(contextQuery(kind));
      assert.equal(cost.complexity, costOfOne(kind).complexity + apart.complexity, kind);
      assert.ok(cost.complexity <= 2000 && cost.depth <= 50, `${kind}: ${JSON.stringify(cost)}`);
    }
  });

  test('the planned cost of a batch is the cost of the document built from it, for every kind and mixes of kinds', () => {
    for (const kind of CATALOG_KINDS) {
      const items = Array.from({ length: 7 }, (_, i) => ({ urn: urnOf(kind, i), kind }));
      assert.equal(documentCost(batchQuery(items).query).complexity, 7 * costOfOne(kind).complexity, kind);
    }
    const mixed = Array.from({ length: 40 }, (_, i) => ({
      urn: urnOf(CATALOG_KINDS[i % 5]!, i),
      kind: CATALOG_KINDS[i % 5]!,
    }));
    const planned = mixed.reduce((n, x) => n + costOfOne(x.kind).complexity, 0);
    assert.equal(documentCost(batchQuery(mixed).query).complexity, planned);
  });

  test("every looked-up kind in one document: planned as built, within DataHub's limits (no kind costs more than a dataset), and 1,000 mixed URNs planned in documents of at most 2,000", () => {
    const all = LOOKUP_KINDS.map((kind, i) => ({
      urn: CATALOG_KINDS.includes(kind as CatalogKind) ? urnOf(kind as CatalogKind, i) : viewSample('li', kind),
      kind,
    }));
    const cost = documentCost(batchQuery(all).query);
    assert.equal(
      cost.complexity,
      all.reduce((n, x) => n + costOfOne(x.kind).complexity, 0),
    );
    assert.ok(cost.complexity <= 2000 && cost.depth <= 50, JSON.stringify(cost));
    for (const kind of VIEW_KINDS) assert.ok(costOfOne(kind).complexity <= costOfOne('dataset').complexity, kind);
    const mixed = Array.from({ length: 1000 }, (_, i) => all[i % all.length]!).map((x, i) => ({
      ...x,
      urn: `${x.urn}#${i}`,
    }));
    const batches = planBatches(mixed, { maxItems: 100, complexity: 2000 });
    assert.deepEqual(batches.flat(), mixed);
    for (const b of batches) assert.ok(documentCost(batchQuery(b).query).complexity <= 2000);
  });

  test("a dataset costs 23 with exists, its deprecation flag and siblings: 100 in one document (2,300) would be over DataHub's 2,000", () => {
    assert.equal(costOfOne('dataset').complexity, 23);
    const hundred = Array.from({ length: 100 }, (_, i) => ({ urn: urnOf('dataset', i), kind: 'dataset' as const }));
    assert.equal(documentCost(batchQuery(hundred).query).complexity, 2300);
  });

  test("graphql-java's refusal texts are read, with the limit they name", () => {
    assert.deepEqual(refusedForCost('maximum query complexity exceeded 2100 > 2000'), {
      what: 'complexity',
      cost: 2100,
      limit: 2000,
    });
    assert.deepEqual(refusedForCost('maximum query depth exceeded 51 > 50'), { what: 'depth', cost: 51, limit: 50 });
    assert.equal(refusedForCost('Unauthorized to perform this action.'), undefined);
  });
});

describe('batches within the budget', () => {
  const limits = { maxItems: 100, complexity: 2000 };

  test('1,000 datasets go in documents of at most 86, each at most 2,000, in order, none lost', () => {
    const items = Array.from({ length: 1000 }, (_, i) => ({ urn: urnOf('dataset', i), kind: 'dataset' as const }));
    const batches = planBatches(items, limits);
    assert.deepEqual(batches.flat(), items);
    for (const b of batches) {
      assert.ok(b.length <= 86, `${b.length}`);
      const cost = documentCost(batchQuery(b).query);
      assert.ok(cost.complexity <= 2000 && cost.depth <= 50, JSON.stringify(cost));
    }
    assert.equal(batches.length, Math.ceil(1000 / 86));
  });

  test('batchSize is an upper bound: cheap kinds stop at it, not at the budget', () => {
    const features = Array.from({ length: 250 }, (_, i) => ({
      urn: urnOf('mlFeature', i),
      kind: 'mlFeature' as const,
    }));
    assert.deepEqual(
      planBatches(features, limits).map((b) => b.length),
      [100, 100, 50],
    );
    assert.deepEqual(
      planBatches(features, { ...limits, maxItems: 1000 })
        .map((b) => b.length)
        .every((n) => n * costOfOne('mlFeature').complexity <= 2000),
      true,
    );
  });

  test('a budget lower than one URN still sends each URN, alone', () => {
    const items = Array.from({ length: 3 }, (_, i) => ({ urn: urnOf('dataset', i), kind: 'dataset' as const }));
    assert.deepEqual(
      planBatches(items, { ...limits, complexity: 10 }).map((b) => b.length),
      [1, 1, 1],
    );
  });

  test("every document the server sends is within DataHub's limits", () => {
    for (const d of everyDocument()) {
      const cost = documentCost(d.query);
      assert.ok(cost.complexity <= 2000 && cost.depth <= 50, `${d.name}: ${JSON.stringify(cost)}`);
    }
  });
});
