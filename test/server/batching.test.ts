/** Requests per document, counted at the real catalog: batching, cache, single flight, cancellation. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { hoverText, positionOf, type LspSession } from '../support/lspClient';
import { S, sampleCatalog, serverFor, type Catalog } from '../support/fixture';
import { startProxy, type TestProxy } from '../support/proxy';

describe('batching, cache and single flight', () => {
  // The server reaches the catalog through a proxy, whose answers are events a test can wait for;
  // the requests are counted at the catalog.
  const env = {} as { catalog: Catalog; proxy: TestProxy; lsp: LspSession };
  before(async () => {
    env.catalog = await sampleCatalog();
    env.proxy = await startProxy({ target: env.catalog.url });
    env.lsp = await serverFor(env.proxy.url);
  });
  after(async () => {
    await env.lsp?.stop();
    await env.proxy?.stop();
    await env.catalog?.close();
  });

  test('a document with 1,000 distinct URNs makes 12 GraphQL requests (and 10 did-you-mean searches), and a second look makes none', async () => {
    const lines = Array.from(
      { length: 1000 },
      (_, i) => `t${i} = "urn:li:dataset:(urn:li:dataPlatform:hive,db.t${i},PROD)"`,
    );
    lines.push(`u = "${S.users}"`, `u2 = "${S.users}"`);
    const text = lines.join('\n');
    env.catalog.stats.reset();
    const from = env.proxy.exchanges.length;
    await env.lsp.open('file:///w/many.py', 'python', text);
    const ds = await env.lsp.diagnostics(
      'file:///w/many.py',
      (d) => d.filter((x) => x.code === 'unknown-urn').length === 1000,
    );
    assert.equal(ds.length, 1000);
    // 86 datasets fit DataHub's complexity budget of 2,000 per document (each costs 23 with its deprecation flag and siblings).
    // Then did-you-mean searches near names for the first 10 unknown URNs (MAX_SUGGESTION_SEARCHES).
    // (None finds a near name in the sample: no second publication to wait for, so the answers are.)
    await env.proxy
      .waitFor(
        (all) => all.slice(from).filter((e) => e.path === '/api/graphql' && e.answer !== undefined).length >= 22,
        '22 GraphQL answers',
        5000,
      )
      .catch(() => undefined); // the count below says what came instead
    assert.equal(env.catalog.stats.graphql, 12 + 10, '1,001 distinct URNs in batches of 86, and 10 searches');

    env.catalog.stats.reset();
    await env.lsp.open('file:///w/many-again.py', 'python', text);
    await env.lsp.diagnostics('file:///w/many-again.py', (d) => d.length === 1000);
    const h = hoverText(await env.lsp.hover('file:///w/many-again.py', positionOf(text, 'db.t500')));
    // Its unknown-URN diagnostic says "not in the catalog" in the same hover box; the hover has the title.
    assert.match(h, /^\*\*Dataset\*\* `db\.t500`/);
    assert.equal(env.catalog.stats.graphql, 0, 'everything came from the cache');
  });

  test('two hovers on one URN at once make one request for the entity and one for what else the catalog knows', async () => {
    env.catalog.stats.reset();
    // Opening the file starts its diagnostics; both hovers arrive before the catalog answers.
    const text = `y = "urn:li:mlFeature:(orders_table,avg_amount)"\n`;
    await env.lsp.open('file:///w/sf.py', 'python', text);
    const [a, b] = await Promise.all([
      env.lsp.hover('file:///w/sf.py', positionOf(text, 'avg_amount')),
      env.lsp.hover('file:///w/sf.py', positionOf(text, 'orders_table')),
    ]);
    assert.match(hoverText(a), /Average order amount, EUR\./);
    assert.match(hoverText(b), /Average order amount, EUR\./);
    await env.lsp.diagnostics('file:///w/sf.py');
    // The entity (with the document's diagnostics) and its owners, tags and lineage (entityContext).
    assert.equal(env.catalog.stats.graphql, 2);
  });

  test('a cancelled hover is answered as cancelled and the server goes on', async () => {
    // The catalog answers through a proxy that holds every request until the cancellation has been
    // answered, so the hover is still waiting on the catalog when its cancellation arrives (with the
    // catalog answering at once, the hover could be answered before the cancellation is read, which
    // LSP allows).
    const proxy = await startProxy({ target: env.catalog.url });
    const lsp = await serverFor(proxy.url);
    try {
      const hold = proxy.hold();
      const text = `z = "${S.ordersTable}"\n`;
      await lsp.open('file:///w/cancel.py', 'python', text);
      const { CancellationTokenSource } = await import('vscode-languageserver-protocol');
      const source = new CancellationTokenSource();
      const pending = lsp.connection.sendRequest(
        'textDocument/hover',
        { textDocument: { uri: 'file:///w/cancel.py' }, position: positionOf(text, 'orders_table') },
        source.token,
      );
      source.cancel();
      await assert.rejects(pending, (e: { code?: number }) => e.code === -32800);
      hold.release();
      const h = await lsp.hover('file:///w/cancel.py', positionOf(text, 'orders_table'));
      assert.match(hoverText(h), /Features about orders\./);
    } finally {
      await lsp.stop();
      await proxy.stop();
    }
  });
});
