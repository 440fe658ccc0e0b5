/**
 * The GraphQL cost budget against the local catalog's DataHub mode, which refuses documents over
 * graphql-java's complexity limit as DataHub does (HTTP 200, no data, "maximum query complexity
 * exceeded N > 2000"): what the server sends stays within the budget, and a catalog with a lower
 * limit is learnt from its refusal, with every URN still resolved and the status never an error.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startCatalog } from '../../catalog/src/server';
import { documentCost } from '../../server/src/catalogClient/cost';
import { serverFor } from '../support/fixture';
import { startRecordingProxy } from '../support/recordingProxy';

const KNOWN = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
const ghost = (i: number): string => `urn:li:dataset:(urn:li:dataPlatform:hive,bench.ghost_${i},PROD)`;

async function diagnose(opts: { limit?: number; settings?: Record<string, unknown>; urns: number }) {
  const catalog = await startCatalog({
    port: 0,
    db: ':memory:',
    sample: true,
    compat: 'datahub',
    log: () => undefined,
    ...(opts.limit ? { graphqlComplexityLimit: opts.limit } : {}),
  });
  const proxy = await startRecordingProxy(catalog.url);
  const lsp = await serverFor(proxy.url, { settings: { cache: { ttlSeconds: 0 }, ...opts.settings } });
  try {
    const urns = [KNOWN, ...Array.from({ length: opts.urns - 1 }, (_, i) => ghost(i))];
    const uri = 'file:///w/many.py';
    await lsp.open(uri, 'python', urns.map((u, i) => `U${i} = "${u}"`).join('\n') + '\n');
    const diagnostics = await lsp.diagnostics(
      uri,
      (ds) => ds.filter((d) => d.code === 'unknown-urn').length === opts.urns - 1,
      60_000,
    );
    // The one real URN came back as an existing dataset in one of the answers, not lost to a refusal.
    const known = proxy.graphql.some((e) =>
      Object.values((e.answer.data ?? {}) as Record<string, { urn?: string; exists?: boolean } | null>).some(
        (v) => v?.urn === KNOWN && v.exists === true,
      ),
    );
    return { diagnostics, known, exchanges: proxy.graphql, statuses: lsp.statuses.map((s) => s.state) };
  } finally {
    await lsp.stop();
    await proxy.close();
    await catalog.close();
  }
}

describe("the GraphQL cost budget against DataHub's limits", () => {
  test('500 URNs: every document sent costs at most 2,000 (86 datasets), none is refused, the one real URN is found and 499 are unknown', async () => {
    const r = await diagnose({ urns: 500 });
    const resolving = r.exchanges.filter((e) => e.query.includes('resolveEntities'));
    assert.equal(resolving.length, Math.ceil(500 / 86));
    for (const e of resolving) {
      const cost = documentCost(e.query);
      assert.ok(cost.complexity <= 2000 && cost.depth <= 50, JSON.stringify(cost));
      assert.equal(e.answer.errors, undefined, JSON.stringify(e.answer.errors));
    }
    assert.ok(r.known, 'db.users was answered as an existing dataset');
  });

  test('a catalog whose limit is lower than the budget: its refusal names the limit, the batch is split and sent again, every URN resolves, the status stays connected', async () => {
    const r = await diagnose({ urns: 200, limit: 500 });
    const refused = r.exchanges.filter((e) =>
      e.answer.errors?.some((x) => /maximum query complexity exceeded/.test(x.message ?? '')),
    );
    assert.ok(refused.length >= 1, "the first document was over the catalog's limit");
    const after = r.exchanges
      .slice(r.exchanges.indexOf(refused[refused.length - 1]!) + 1)
      .filter((e) => e.query.includes('resolveEntities'));
    assert.ok(after.length >= Math.ceil(200 / 21), `${after.length} smaller documents`);
    for (const e of after) assert.ok(documentCost(e.query).complexity <= 500);
    assert.ok(r.known, 'the real URN was found, not lost to the refusal');
    assert.ok(!r.statuses.includes('error'), r.statuses.join(', '));
  });

  test("a budget set above DataHub's 2,000 with a batchSize of 1,000 is corrected by the first refusal", async () => {
    const r = await diagnose({ urns: 400, settings: { graphqlComplexityBudget: 50_000, batchSize: 1000 } });
    const resolving = r.exchanges.filter((e) => e.query.includes('resolveEntities'));
    assert.equal(documentCost(resolving[0]!.query).complexity, 400 * 23, 'the first document holds all 400');
    assert.match(resolving[0]!.answer.errors?.[0]?.message ?? '', /maximum query complexity exceeded 9200 > 2000/);
    for (const e of resolving.slice(1)) assert.ok(documentCost(e.query).complexity <= 2000);
    assert.ok(r.known, 'db.users was answered as an existing dataset');
    assert.ok(!r.statuses.includes('error'), r.statuses.join(', '));
  });
});
