/**
 * What else the catalog knows of an entity, in hovers: the answer read leniently
 * (server/src/resolution/context.ts), its lines (features/hover.ts contextLines), and the hover
 * over LSP against the real local catalog in both modes, with a deprecation written to it.
 */
import assert from 'node:assert/strict';
import { ToolRequest, type ToolResult } from '../../model/src/protocol';
import { describe, test } from 'node:test';
import { CatalogClient } from '../../server/src/catalogClient/client';
import { askWithEntity, contextOf, parseContext } from '../../server/src/resolution/context';
import { contextLines } from '../../server/src/features/hover';
import { caret, hoverText } from '../support/lspClient';
import { COMPAT_MODES, S, useSampleServerPerTest, type Catalog } from '../support/fixture';

describe('the context answer, read', () => {
  test("DataHub's shapes: display names over ids, the first domain, deprecation with date and replacement, lineage totals", () => {
    const c = parseContext({
      urn: 'u',
      ownership: {
        owners: [
          { owner: { urn: 'urn:li:corpuser:jdoe', username: 'jdoe', properties: { displayName: 'Jane Doe' } } },
          { owner: { urn: 'urn:li:corpGroup:eng', name: 'eng', properties: null } },
          { owner: null },
        ],
      },
      tags: { tags: [{ tag: { urn: 'urn:li:tag:pii', name: 'pii', properties: { name: 'PII' } } }] },
      glossaryTerms: {
        terms: [{ term: { urn: 'urn:li:glossaryTerm:abc-123', name: 'abc-123', properties: { name: 'Email' } } }],
      },
      domain: { domain: { urn: 'urn:li:domain:9f2c', id: '9f2c', properties: { name: 'Marketing' } } },
      deprecation: {
        deprecated: true,
        note: 'Moved.',
        decommissionTime: 1767225600000,
        replacement: { urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.v2,PROD)', type: 'DATASET' },
      },
      up: { total: 3 },
      down: { total: 0 },
    });
    assert.deepEqual(c, {
      owners: ['Jane Doe', 'eng'],
      tags: ['PII'],
      terms: ['Email'],
      domain: 'Marketing',
      deprecation: {
        note: 'Moved.',
        decommissionTime: 1767225600000,
        replacement: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.v2,PROD)',
      },
      upstream: 3,
      downstream: 0,
    });
  });

  test('nulls, a deprecation flag of false, odd totals and no entity', () => {
    assert.deepEqual(
      parseContext({
        ownership: null,
        tags: null,
        glossaryTerms: null,
        domain: null,
        deprecation: { deprecated: false, note: 'x' },
        up: { total: 1.5 },
        down: null,
      }),
      { owners: [], tags: [], terms: [] },
    );
    assert.equal(parseContext(null), undefined);
    assert.equal(parseContext('x'), undefined);
  });
});

describe('a cold hover: the entity and its context in one document', () => {
  const URN = (i: number): string => `urn:li:mlFeature:(users_table,f${i})`;
  const FOUND = { urn: URN(0), name: 'f', exists: true, deprecation: { deprecated: false } };

  /** A client on a fake catalog answering each document by its operation, and what it was sent. */
  function fakeCatalog(answer: (operation: string) => unknown): { client: CatalogClient; sent: string[] } {
    const sent: string[] = [];
    const client = new CatalogClient({
      url: 'http://catalog.invalid',
      graphqlUrl: '',
      token: undefined,
      timeoutMs: 5_000,
      batchSize: 100,
      complexityBudget: 2000,
      cacheEntries: 100,
      cacheTtlMs: 60_000,
      fetch: async (_url, init) => {
        const { query } = JSON.parse(String(init.body)) as { query: string };
        const operation = /^(?:query|mutation) (\w+)/.exec(query)?.[1] ?? '?';
        sent.push(operation);
        const { Response } = await import('node-fetch');
        return new Response(JSON.stringify(answer(operation)), { status: 200 });
      },
    });
    return { client, sent };
  }

  const hover = async (client: CatalogClient, urn: string) => {
    askWithEntity(client, urn, 'mlFeature');
    return Promise.all([client.resolve([{ urn, kind: 'mlFeature' }]), contextOf(client, urn, 'mlFeature')]);
  };

  test('one request answers both; a second hover on the same entity asks nothing', async () => {
    const { client, sent } = fakeCatalog(() => ({
      data: { e0: FOUND, c0: { urn: URN(0), tags: { tags: [{ tag: { urn: 'urn:li:tag:pii', name: 'pii' } }] } } },
    }));
    const [resolved, context] = await hover(client, URN(0));
    assert.equal(resolved.get(URN(0))?.state, 'found');
    assert.deepEqual(context, { owners: [], tags: ['pii'], terms: [] });
    await hover(client, URN(0));
    assert.deepEqual(sent, ['entityWithContext']);
  });

  test("an error in the context leaves the entity whole; the context's error is the hover's to leave out", async () => {
    const { client } = fakeCatalog(() => ({
      data: { e0: FOUND, c0: null },
      errors: [{ message: 'lineage is down', path: ['c0', 'up'] }],
    }));
    const [resolved, context] = await hover(client, URN(0));
    assert.equal(resolved.get(URN(0))?.state, 'found');
    assert.ok(context && 'kind' in context && /lineage is down/.test(context.message), JSON.stringify(context));
  });

  test('a catalog that refuses the document as a whole (a field it lacks) gets the two documents apart, then always', async () => {
    const { client, sent } = fakeCatalog((operation) =>
      operation === 'resolveEntities'
        ? { data: { e0: FOUND } }
        : { errors: [{ message: "Validation error (FieldUndefined@[c0/up]) : Field 'lineage' is undefined" }] },
    );
    const [resolved, context] = await hover(client, URN(0));
    assert.equal(resolved.get(URN(0))?.state, 'found');
    assert.ok(context && 'kind' in context, 'the context is an error, as its own document was before');
    assert.deepEqual(sent, ['entityWithContext', 'resolveEntities', 'entityContext']);
    sent.length = 0;
    const [again] = await hover(client, URN(1));
    assert.equal(again.get(URN(1))?.state, 'found');
    assert.deepEqual(sent.sort(), ['entityContext', 'resolveEntities']);
  });
});

describe('the context lines of a hover', () => {
  test('one line of owners, tags, terms, domain and lineage; the deprecation before it; lists capped', () => {
    assert.deepEqual(
      contextLines({
        owners: ['a', 'b', 'c', 'd', 'e'],
        tags: ['pii'],
        terms: [],
        domain: 'growth',
        upstream: 1,
        downstream: 0,
        deprecation: {
          note: 'Use the new table.\nSee the wiki.',
          decommissionTime: 1767225600000,
          replacement: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.v2,PROD)',
        },
      }),
      [
        '⚠ **Deprecated** (decommission 2026-01-01): Use the new table. See the wiki. Use `db.v2` instead.',
        'Owners a, b, c +2 · Tags pii · Domain growth · Lineage ↑1 ↓0',
      ],
    );
    assert.deepEqual(contextLines({ owners: [], tags: [], terms: [], upstream: 0, downstream: 0 }), []);
  });

  test('catalog text is inert: Markdown, links and hidden characters in names and notes do nothing', () => {
    const [dep, line] = contextLines({
      owners: ['[me](command:catalogLens.clearAccessToken)'],
      tags: ['**bold**\u202e'],
      terms: [],
      deprecation: { note: '<img src=x onerror=alert(1)> `code`' },
    });
    assert.doesNotMatch(line!, /(^|[^\\])\]\(command:/, 'the link is escaped');
    assert.doesNotMatch(line!, /(^|[^\\])\*\*bold/, 'the emphasis is escaped');
    assert.doesNotMatch(line!, /\u202e/);
    assert.doesNotMatch(dep!, /(^|[^\\])<img/, 'HTML is escaped');
  });
});

/** Writes one aspect through the catalog's aspect path. */
async function ingest(
  catalog: Catalog,
  entityType: string,
  urn: string,
  aspectName: string,
  value: unknown,
): Promise<void> {
  const r = await fetch(`${catalog.url}/aspects?action=ingestProposal`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      proposal: {
        entityType,
        entityUrn: urn,
        changeType: 'UPSERT',
        aspectName,
        aspect: { value: JSON.stringify(value), contentType: 'application/json' },
      },
      async: 'false',
    }),
  });
  assert.equal(r.status, 200, `writing ${aspectName} of ${urn}: ${await r.text()}`);
}

for (const compat of COMPAT_MODES)
  describe(`hover: what else the catalog knows (${compat} catalog)`, () => {
    const env = useSampleServerPerTest({}, compat);

    test('a deprecated feature table: the deprecation line with its date and replacement, and its owner', async () => {
      await ingest(env.catalog, 'mlFeatureTable', S.usersTable, 'deprecation', {
        deprecated: true,
        note: 'Replaced by the users_v2 table.',
        actor: 'urn:li:corpuser:jdoe',
        decommissionTime: 1767225600000,
        replacement: 'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users_v2)',
      });
      await ingest(env.catalog, 'mlFeatureTable', S.usersTable, 'ownership', {
        owners: [{ owner: 'urn:li:corpGroup:ml-platform', type: 'TECHNICAL_OWNER' }],
      });
      // The deprecation diagnostic is off here: the hover then says the deprecation itself.
      env.lsp.settings['diagnostics'] = { deprecated: 'off' };
      await env.lsp.configurationChanged();
      const { text, position } = caret(`T = "${S.usersTable.replace('users_table', 'users_ta|ble')}"\n`);
      await env.lsp.open('file:///w/t.py', 'python', text);
      const h = hoverText(await env.lsp.hover('file:///w/t.py', position));
      assert.match(
        h,
        /⚠ \*\*Deprecated\*\* \(decommission 2026-01-01\): Replaced by the users\\_v2 table\. Use `users_v2` instead\./,
      );
      assert.match(h, /\n\nOwners ml-platform\n\n/);
      // The deprecation comes before the description.
      assert.ok(h.indexOf('Deprecated') < h.indexOf('Features ('), h);
    });

    test('a cold hover asks the entity and what else the catalog knows of it in one request', async () => {
      await ingest(env.catalog, 'mlFeatureTable', S.usersTable, 'ownership', {
        owners: [{ owner: 'urn:li:corpGroup:ml-platform', type: 'TECHNICAL_OWNER' }],
      });
      // Nothing the catalog answered is kept: the hover finds neither the entity nor its context.
      env.lsp.settings['cache'] = { ttlSeconds: 0 };
      await env.lsp.configurationChanged();
      const { text, position } = caret(`T = "${S.usersTable.replace('users_table', 'users_ta|ble')}"\n`);
      await env.lsp.open('file:///w/cold.py', 'python', text);
      await env.lsp.diagnostics('file:///w/cold.py');
      env.catalog.stats.reset();
      const h = hoverText(await env.lsp.hover('file:///w/cold.py', position));
      assert.match(h, /Features about users\./);
      assert.match(h, /\n\nOwners ml-platform\n\n/);
      assert.equal(env.catalog.stats.graphql, 1);
    });

    test('the describe tool asks as the cold hover does: the entity and its context in one request', async () => {
      await ingest(env.catalog, 'mlFeatureTable', S.usersTable, 'ownership', {
        owners: [{ owner: 'urn:li:corpGroup:ml-platform', type: 'TECHNICAL_OWNER' }],
      });
      env.lsp.settings['cache'] = { ttlSeconds: 0 };
      await env.lsp.configurationChanged();
      env.catalog.stats.reset();
      const r = await env.lsp.connection.sendRequest<ToolResult>(ToolRequest.method, {
        name: 'describe',
        input: { urn: S.usersTable },
      });
      assert.equal(r.error, undefined, r.error);
      assert.match(r.text ?? '', /ml-platform/);
      assert.equal(env.catalog.stats.graphql, 1);
    });

    test("a hover on a column says nothing of its dataset's owners; an entity with none of these has no context line", async () => {
      const yaml = `datasets:\n  - urn: ${S.users}\n    columns:\n      - name: user_id\n`;
      const { text, position } = caret(yaml.replace('user_id', 'user_|id'));
      await env.lsp.open('file:///w/d.yml', 'yaml', text);
      assert.doesNotMatch(hoverText(await env.lsp.hover('file:///w/d.yml', position)), /Owners/);
      const group = caret(`G = "${S.ltvGroup.replace('ltv-model', 'ltv-mo|del')}"\n`);
      await env.lsp.open('file:///w/g.py', 'python', group.text);
      const g = hoverText(await env.lsp.hover('file:///w/g.py', group.position));
      assert.match(g, /\*\*Model group\*\*/);
      assert.doesNotMatch(g, /Owners|Tags|Lineage|Deprecated/);
    });
  });

describe('hover: the lineage counts open the lineage view in the Catalog Lens extension', () => {
  const vscodeLike = useSampleServerPerTest({ initializationOptions: { clientCommands: true } });

  test('a command link to catalogLens.showLineage with the URN as JSON, its parentheses encoded', async () => {
    const { text, position } = caret(`O = "${S.orders.replace('db.orders', 'db.ord|ers')}"\n`);
    await vscodeLike.lsp.open('file:///w/o.py', 'python', text);
    const h = hoverText(await vscodeLike.lsp.hover('file:///w/o.py', position));
    const link = /\[Lineage ↑1 ↓3\]\(command:catalogLens\.showLineage\?([^ )]+) "Show the lineage view"\)/.exec(h);
    assert.ok(link, h);
    assert.doesNotMatch(link[1]!, /[()]/);
    assert.deepEqual(JSON.parse(decodeURIComponent(link[1]!)), { urn: S.orders });
  });
});

describe('hover: other editors get the lineage counts as text', () => {
  const other = useSampleServerPerTest({});

  test('no command link', async () => {
    const { text, position } = caret(`O = "${S.orders.replace('db.orders', 'db.ord|ers')}"\n`);
    await other.lsp.open('file:///w/o.py', 'python', text);
    const h = hoverText(await other.lsp.hover('file:///w/o.py', position));
    assert.match(h, /Lineage ↑1 ↓3/);
    assert.doesNotMatch(h, /command:/);
  });
});
