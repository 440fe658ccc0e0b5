/**
 * The catalog client's named reads (server/src/catalogClient/namedReads.ts), in process: the
 * documents they send, their chunks, and how each answer's aliases are decoded. A fake sender
 * answers alias data; the client's own methods are driven through a fake fetch. What the real
 * local catalog answers them, in both modes, is covered by the spawned tests
 * (test/server/deprecation.test.ts for the details, test/server/writes.test.ts for the links).
 */
import type { CatalogKind } from '../../model/src/kinds';
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CatalogClient } from '../../server/src/catalogClient/client';
import type { GraphqlAnswer } from '../../server/src/catalogClient/graphqlReads';
import {
  DETAILS_PER_DOCUMENT,
  readDeprecationDetails,
  readLinks,
  type SendDocument,
} from '../../server/src/catalogClient/namedReads';

const ds = (i: number): { urn: string; kind: CatalogKind } => ({
  urn: `urn:li:dataset:(urn:li:dataPlatform:hive,db.t${i},PROD)`,
  kind: 'dataset',
});

/** A sender that records each document and answers with `answer(variables, n)` (n: the document's index). */
function sender(answer: (variables: Record<string, unknown>, n: number) => GraphqlAnswer): SendDocument & {
  sent: Array<{ query: string; variables: Record<string, unknown> }>;
} {
  const sent: Array<{ query: string; variables: Record<string, unknown> }> = [];
  const send = (query: string, variables: Record<string, unknown>): Promise<GraphqlAnswer> => {
    sent.push({ query, variables });
    return Promise.resolve(answer(variables, sent.length - 1));
  };
  return Object.assign(send, { sent });
}

/** Every alias `e<j>` of a document answered with a deprecation whose note names its URN. */
const deprecatedAll = (variables: Record<string, unknown>): GraphqlAnswer => ({
  ok: true,
  data: Object.fromEntries(
    Object.entries(variables).map(([u, urn]) => [
      `e${u.slice(1)}`,
      { deprecation: { deprecated: true, note: `note of ${String(urn)}`, decommissionTime: 1, replacement: null } },
    ]),
  ),
});

describe('readDeprecationDetails', () => {
  test('asks in documents of at most DETAILS_PER_DOCUMENT entities and answers every URN its own details', async () => {
    const items = Array.from({ length: 2 * DETAILS_PER_DOCUMENT + 7 }, (_, i) => ds(i));
    const send = sender(deprecatedAll);
    const details = await readDeprecationDetails(send, items);
    assert.deepEqual(
      send.sent.map((d) => Object.keys(d.variables).length),
      [DETAILS_PER_DOCUMENT, DETAILS_PER_DOCUMENT, 7],
    );
    assert.ok(send.sent.every((d) => d.query.startsWith('query deprecationDetails(')));
    assert.equal(details.size, items.length);
    for (const { urn } of items) assert.equal(details.get(urn)?.note, `note of ${urn}`);
  });

  test('an alias answered null, without a deprecation, or not as an object is absent from the answer', async () => {
    const items = [ds(0), ds(1), ds(2), ds(3), ds(4)];
    const send = sender(() => ({
      ok: true,
      data: {
        e0: null,
        e1: { deprecation: null },
        e2: 'text',
        e3: {
          deprecation: { deprecated: true, note: 'kept', decommissionTime: null, replacement: { urn: ds(9).urn } },
        },
      },
    }));
    const details = await readDeprecationDetails(send, items);
    assert.deepEqual([...details.keys()], [ds(3).urn]);
    assert.deepEqual(details.get(ds(3).urn), {
      deprecated: true,
      note: 'kept',
      decommissionTime: null,
      replacement: { urn: ds(9).urn },
    });
  });

  test('the first document the catalog does not answer ends the reads: the details read before it stay', async () => {
    const items = Array.from({ length: 3 * DETAILS_PER_DOCUMENT }, (_, i) => ds(i));
    const send = sender((variables, n) =>
      n === 1 ? { ok: false, error: { kind: 'rejected', message: 'no' } as never } : deprecatedAll(variables),
    );
    const details = await readDeprecationDetails(send, items);
    assert.equal(send.sent.length, 2, 'the third document is not sent');
    assert.equal(details.size, DETAILS_PER_DOCUMENT);
    assert.ok(details.has(items[0]!.urn));
    assert.ok(!details.has(items[DETAILS_PER_DOCUMENT]!.urn));
  });

  test('no entity: no document', async () => {
    const send = sender(deprecatedAll);
    assert.equal((await readDeprecationDetails(send, [])).size, 0);
    assert.equal(send.sent.length, 0);
  });
});

describe('readLinks', () => {
  const urn = ds(0).urn;

  test("answers the dataset's institutionalMemory elements, asked with the URN", async () => {
    const send = sender(() => ({
      ok: true,
      data: {
        dataset: {
          urn,
          exists: true,
          institutionalMemory: { elements: [{ url: 'https://a', label: 'A' }, { url: 'https://b' }, null] },
        },
      },
    }));
    assert.deepEqual(await readLinks(send, urn), {
      ok: true,
      links: [
        { url: 'https://a', label: 'A' },
        { url: 'https://b', label: undefined },
      ],
    });
    assert.deepEqual(send.sent[0]!.variables, { urn });
    assert.match(send.sent[0]!.query, /^query datasetLinks\(/);
  });

  test('a dataset without institutionalMemory has no links', async () => {
    const send = sender(() => ({ ok: true, data: { dataset: { urn, exists: true, institutionalMemory: null } } }));
    assert.deepEqual(await readLinks(send, urn), { ok: true, links: [] });
  });

  test('a dataset the catalog does not have (null, or exists false) answers links undefined', async () => {
    for (const dataset of [null, { urn, exists: false, institutionalMemory: null }])
      assert.deepEqual(
        await readLinks(
          sender(() => ({ ok: true, data: { dataset } })),
          urn,
        ),
        {
          ok: true,
          links: undefined,
        },
      );
  });

  test("the sender's error is the answer", async () => {
    const error = { kind: 'forbidden', message: 'not allowed' } as never;
    assert.deepEqual(
      await readLinks(
        sender(() => ({ ok: false, error })),
        urn,
      ),
      { ok: false, error },
    );
  });
});

describe('CatalogClient named reads', () => {
  const config = {
    graphqlUrl: '',
    token: undefined,
    timeoutMs: 5_000,
    batchSize: 100,
    complexityBudget: 2000,
    cacheEntries: 100,
    cacheTtlMs: 60_000,
  };

  /** A client whose fetch answers every GraphQL document with `reply(body)` and counts them. */
  function clientAnswering(reply: (body: { query: string; variables: Record<string, unknown> }) => unknown): {
    client: CatalogClient;
    bodies: Array<{ query: string; variables: Record<string, unknown> }>;
  } {
    const bodies: Array<{ query: string; variables: Record<string, unknown> }> = [];
    const client = new CatalogClient({
      ...config,
      url: 'http://catalog.invalid',
      fetch: async (_url, init) => {
        const body = JSON.parse(String(init.body)) as { query: string; variables: Record<string, unknown> };
        bodies.push(body);
        const { Response } = await import('node-fetch');
        return new Response(JSON.stringify(reply(body)), {
          status: 200,
          headers: { 'Content-Type': 'application/json' },
        });
      },
    });
    return { client, bodies };
  }

  test('readDeprecationDetails sends the details documents and decodes their aliases', async () => {
    const items = Array.from({ length: DETAILS_PER_DOCUMENT + 1 }, (_, i) => ds(i));
    const { client, bodies } = clientAnswering((b) => {
      const answer = deprecatedAll(b.variables);
      return answer.ok ? { data: answer.data } : {};
    });
    const details = await client.readDeprecationDetails(items);
    assert.equal(bodies.length, 2);
    assert.equal(details.get(items[DETAILS_PER_DOCUMENT]!.urn)?.note, `note of ${items[DETAILS_PER_DOCUMENT]!.urn}`);
    assert.equal(client.stats.graphqlRequests, 2);
  });

  test("readLinks decodes the dataset's links; a GraphQL error is the answer's error", async () => {
    const urn = ds(0).urn;
    const { client } = clientAnswering(() => ({
      data: { dataset: { urn, exists: true, institutionalMemory: { elements: [{ url: 'https://a', label: 'A' }] } } },
    }));
    assert.deepEqual(await client.readLinks(urn), { ok: true, links: [{ url: 'https://a', label: 'A' }] });
    const refusing = clientAnswering(() => ({
      data: null,
      errors: [{ message: 'Unauthorized', extensions: { code: 403 } }],
    }));
    const r = await refusing.client.readLinks(urn);
    assert.equal(r.ok, false);
    assert.equal(!r.ok && r.error.kind, 'forbidden');
  });

  test('without a catalog: no links (notConfigured) and no details, and nothing is sent', async () => {
    const client = new CatalogClient({ ...config, url: '' });
    const links = await client.readLinks(ds(0).urn);
    assert.equal(!links.ok && links.error.kind, 'notConfigured');
    assert.equal((await client.readDeprecationDetails([ds(0)])).size, 0);
    assert.equal(client.stats.graphqlRequests, 0);
  });
});
