/**
 * What a search page reads (ReadContext.readTogether, AspectStore.aspectOf): the nodes of a search,
 * autocomplete or scroll page read each aspect a field asks for all the page's entities in one
 * statement, not every aspect of each entity. The answers are the same as when each entity is read
 * whole (a context whose readTogether does nothing, as before): many queries and selections, every
 * kind, edited and ingested descriptions, tags, owners, schemas, `exists`, in both modes. A
 * completion's document reads no entity whole. The values read are cached like getAll's (writes,
 * other connections' commits and rollbacks seen).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { AUTOCOMPLETE_ENTITIES, SEARCH_ENTITIES } from '../../server/src/catalogClient/queries';
import { keyFormOf } from '../../catalog/src/compat';
import { runGraphQL, type GraphQLLimits } from '../../catalog/src/graphql/endpoint';
import { contextFields } from '../../catalog/src/graphql/contextShapes';
import { ReadContext } from '../../catalog/src/graphql/readShapes';
import { DEFAULT_QUERY_LIMITS } from '../../catalog/src/graphql/limits';
import { DATAHUB_QUERY_LIMITS } from '../../model/src/queryCost';
import { ingestProposalBatch } from '../../catalog/src/ingest';
import { DEFAULT_NAMESPACES, NamespacePolicy } from '../../catalog/src/namespaces';
import { loadSample } from '../../catalog/src/sample';
import { AspectStore } from '../../catalog/src/store';
import { writeAspect } from '../../catalog/src/writes';

type Json = Record<string, unknown>;

const SPEC_LIMITS: GraphQLLimits = { kind: 'spec', limits: DEFAULT_QUERY_LIMITS };

/** A GraphQL answer as JSON text, read through `ctx`. */
async function answer(ctx: ReadContext, query: string, variables: Json, limits = SPEC_LIMITS): Promise<string> {
  return JSON.stringify((await runGraphQL({ query, variables }, ctx, { limits })).body);
}

/** Counts a store's getAll calls and the keys of each aspectOf call, until `restore`. */
function countReads(store: AspectStore): {
  getAll: number;
  aspectOf: Array<{ aspect: string; keys: number }>;
  restore: () => void;
} {
  const getAll = store.getAll.bind(store);
  const aspectOf = store.aspectOf.bind(store);
  const calls = {
    getAll: 0,
    aspectOf: [] as Array<{ aspect: string; keys: number }>,
    restore: () => {
      store.getAll = getAll;
      store.aspectOf = aspectOf;
    },
  };
  store.getAll = (key) => {
    calls.getAll++;
    return getAll(key);
  };
  store.aspectOf = (aspect, keys, unreadable) => {
    calls.aspectOf.push({ aspect, keys: keys.length });
    return aspectOf(aspect, keys, unreadable);
  };
  return calls;
}

/** The context as it read before: every entity whole (aspectsOf), whatever the page. */
class WholeReads extends ReadContext {
  override readTogether(): void {}
}

const ds = (name: string): string => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;

function proposal(urn: string, aspectName: string, value: Json): Json {
  return {
    entityType: 'dataset',
    entityUrn: urn,
    changeType: 'UPSERT',
    aspectName,
    aspect: { value: JSON.stringify(value), contentType: 'application/json' },
  };
}

/** 1,200 datasets `reads.t_<i>`: ingested descriptions, edited ones, both, tags and owners on some. */
function readsProposals(): Json[] {
  const out: Json[] = [];
  for (let i = 0; i < 1200; i++) {
    const urn = ds(`reads.t_${i}`);
    if (i % 4 !== 3) out.push(proposal(urn, 'datasetProperties', { name: `reads.t_${i}`, description: `Table ${i}.` }));
    if (i % 4 === 3 || i % 5 === 0)
      out.push(
        proposal(urn, 'schemaMetadata', {
          schemaName: `t_${i}`,
          platform: 'urn:li:dataPlatform:hive',
          version: 0,
          hash: '',
          platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
          fields: [
            { fieldPath: 'id', nativeDataType: 'string', type: { type: { 'com.linkedin.schema.StringType': {} } } },
          ],
        }),
      );
    if (i % 3 === 0) out.push(proposal(urn, 'editableDatasetProperties', { description: `Edited ${i}.` }));
    if (i % 7 === 0) out.push(proposal(urn, 'globalTags', { tags: [{ tag: 'urn:li:tag:pii' }] }));
    if (i % 11 === 0)
      out.push(
        proposal(urn, 'ownership', {
          owners: [{ owner: 'urn:li:corpuser:jdoe', type: 'DATAOWNER' }],
          lastModified: { time: 0, actor: 'urn:li:corpuser:jdoe' },
        }),
      );
  }
  return out;
}

/** Every kind's fields a page may ask, read from many aspects (`exists` reads the entity whole: WIDE_EXISTS). */
const WIDE = `urn type
  ... on Dataset { name platform { name } description properties { name description customProperties { key value } }
    editableProperties { description } schemaMetadata { name fields { fieldPath type description } }
    editableSchemaMetadata { editableSchemaFieldInfo { fieldPath description } }
    tags { tags { tag { urn } } } ownership { owners { owner { ... on CorpUser { urn } } } }
    deprecation { deprecated } institutionalMemory { elements { url } } }
  ... on MLFeature { name description dataType properties { description dataType sources { urn } } editableProperties { description } }
  ... on MLFeatureTable { name description properties { description mlFeatures { urn name } } editableProperties { description } }
  ... on MLModel { name description properties { description groups { urn } } editableProperties { description } }
  ... on MLModelGroup { name description properties { description } editableProperties { description } }`;

/** WIDE, and then `exists` (which reads each entity whole) after the fields read together. */
const WIDE_EXISTS = `${WIDE}
  ... on Dataset { exists } ... on MLFeature { exists } ... on MLFeatureTable { exists } ... on MLModel { exists }
  ... on MLModelGroup { exists }`;

const DOCUMENTS: Array<{ name: string; query: string; input: (q: string) => Json }> = [
  {
    name: 'the server search',
    query: SEARCH_ENTITIES,
    input: (q) => ({ query: q, start: 0, count: 60 }),
  },
  {
    name: 'the server completion',
    query: AUTOCOMPLETE_ENTITIES,
    input: (q) => ({
      query: q,
      types: ['DATASET'],
      limit: 50,
      orFilters: [{ and: [{ field: 'platform', values: ['urn:li:dataPlatform:hive'] }] }],
    }),
  },
  {
    name: 'a wide search, a large page',
    query: `query ($input: SearchAcrossEntitiesInput!) { searchAcrossEntities(input: $input) { total searchResults { entity { ${WIDE} } matchedFields { name value } } } }`,
    input: (q) => ({ query: q, start: 3, count: 1000 }),
  },
  {
    name: 'a wide scroll with a filter left to JS',
    query: `query ($input: ScrollAcrossEntitiesInput!) { scrollAcrossEntities(input: $input) { nextScrollId total searchResults { entity { ${WIDE_EXISTS} } } } }`,
    input: (q) => ({
      query: q,
      count: 40,
      orFilters: [
        { and: [{ field: 'platform', values: ['hive'] }] },
        { and: [{ field: '_entityType', values: ['MLFEATURE'] }] },
      ],
    }),
  },
  {
    name: 'a wide completion of every kind',
    query: `query ($input: AutoCompleteMultipleInput!) { autoCompleteForMultiple(input: $input) { suggestions { type suggestions entities { ${WIDE} } } } }`,
    input: (q) => ({ query: q, limit: 30 }),
  },
  {
    name: 'autoComplete',
    query: `query ($input: AutoCompleteInput!) { autoComplete(input: $input) { suggestions entities { ${WIDE_EXISTS} } } }`,
    input: (q) => ({ query: q, type: 'DATASET', limit: 25 }),
  },
];

const QUERIES = ['users', 'reads', 'reads.t_1', 't_11', 'table 1', 'edited', 'churn', 'age', 'us', 'e', '*', 'usres'];

for (const compat of ['spec', 'datahub'] as const)
  describe(`what a search page reads (${compat} mode)`, () => {
    const namespaces = new NamespacePolicy(DEFAULT_NAMESPACES, keyFormOf(compat));
    const actor = namespaces.userUrn('datahub');
    /** A store of the sample and readsProposals, its caches of reads empty. */
    const freshStore = (): AspectStore => {
      const s = new AspectStore(':memory:', 'normal', namespaces.canonical, keyFormOf(compat));
      loadSample(s, namespaces, actor, compat);
      ingestProposalBatch(s, { proposals: readsProposals(), async: 'false' }, namespaces, actor, compat);
      return s;
    };
    const store = freshStore();
    const limits: GraphQLLimits =
      compat === 'datahub'
        ? { kind: 'datahub', limits: DATAHUB_QUERY_LIMITS }
        : { kind: 'spec', limits: DEFAULT_QUERY_LIMITS };
    const run = async (ctx: ReadContext, query: string, input: Json): Promise<string> =>
      JSON.stringify((await runGraphQL({ query, variables: { input } }, ctx, { limits })).body);
    after(() => store.close());

    for (const d of DOCUMENTS)
      test(`${d.name}: the same answers as reading each entity whole`, async () => {
        for (const q of QUERIES) {
          const together = await run(
            new ReadContext(store, namespaces, actor, compat, contextFields),
            d.query,
            d.input(q),
          );
          const whole = await run(new WholeReads(store, namespaces, actor, compat, contextFields), d.query, d.input(q));
          assert.equal(together, whole, `${d.name}, query '${q}'`);
          assert.doesNotMatch(together, /"errors"/, `${d.name}, query '${q}'`);
        }
      });

    test("a completion's document reads no entity whole, and each aspect it asks once per page", async (t) => {
      // Its own store: the tests before it (whichever order they run in) leave entities in getAll's cache.
      const own = freshStore();
      t.after(() => own.close());
      const calls = countReads(own);
      try {
        const answer = JSON.parse(
          await run(
            new ReadContext(own, namespaces, actor, compat, contextFields),
            AUTOCOMPLETE_ENTITIES,
            DOCUMENTS[1]!.input('reads.t_'),
          ),
        ) as { data: { autoCompleteForMultiple: { suggestions: Array<{ entities: unknown[] }> } } };
        assert.equal(answer.data.autoCompleteForMultiple.suggestions[0]!.entities.length, 50);
        assert.equal(calls.getAll, 0);
        assert.deepEqual(calls.aspectOf, [
          { aspect: 'datasetProperties', keys: 50 },
          { aspect: 'editableDatasetProperties', keys: 50 },
        ]);
      } finally {
        calls.restore();
      }
    });

    test("a completion's entities the store holds whole in getAll's cache are taken from there, not read again", async (t) => {
      const own = freshStore();
      t.after(() => own.close());
      const ask = (): Promise<string> =>
        run(
          new ReadContext(own, namespaces, actor, compat, contextFields),
          AUTOCOMPLETE_ENTITIES,
          DOCUMENTS[1]!.input('reads.t_'),
        );
      const first = await ask();
      const urns = [...first.matchAll(/"urn":"(urn:li:dataset:[^"]*)"/g)].map((m) => m[1]!);
      assert.ok(urns.length >= 50);
      for (const urn of urns) own.getAll(urn);
      const calls = countReads(own);
      try {
        assert.equal(await ask(), first);
        assert.equal(calls.getAll, 0);
        assert.deepEqual(calls.aspectOf, []);
      } finally {
        calls.restore();
      }
    });
  });

test("aspectOf: one aspect's values by key, more keys than one statement takes, keys without it absent", () => {
  const namespaces = new NamespacePolicy(DEFAULT_NAMESPACES);
  const store = new AspectStore(':memory:', 'normal', namespaces.canonical);
  try {
    ingestProposalBatch(
      store,
      { proposals: readsProposals(), async: 'false' },
      namespaces,
      'urn:li:corpuser:x',
      'spec',
    );
    const keys = [...Array.from({ length: 1200 }, (_, i) => ds(`reads.t_${i}`)), ds('reads.none')];
    const edited = store.aspectOf('editableDatasetProperties', keys);
    assert.equal(edited.size, 400);
    assert.deepEqual(edited.get(ds('reads.t_1197')), { description: 'Edited 1197.' });
    assert.equal(edited.has(ds('reads.t_1198')), false);
    const props = store.aspectOf('datasetProperties', keys.slice(1000));
    assert.equal(props.size, 150);
    assert.deepEqual(props.get(ds('reads.t_1000')), store.getAll(ds('reads.t_1000')).get('datasetProperties')?.value);
    assert.equal(store.aspectOf('datasetProperties', []).size, 0);
    for (const n of [1, 7, 8, 9, 1024, 1025])
      assert.equal(store.aspectOf('editableDatasetProperties', keys.slice(0, n)).size, Math.ceil(n / 3), `${n} keys`);
  } finally {
    store.close();
  }
});

test("aspectOf's answers see this store's writes, another connection's commits and rollbacks; cached values are frozen", (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-lens-aspectof-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'c.db');
  const a = new AspectStore(file, 'normal', 'li');
  const b = new AspectStore(file, 'normal', 'li');
  const users = ds('db.users');
  const other = ds('db.other');
  const describeUsers = (store: AspectStore, description: string, now: number): void => {
    writeAspect(
      store,
      {
        key: users,
        requestedUrn: users,
        entityType: 'dataset',
        aspectName: 'datasetProperties',
        value: { name: 'users', description },
      },
      'urn:li:corpuser:t',
      now,
      'spec',
    );
  };
  const shown = (store: AspectStore): unknown =>
    store.aspectOf('datasetProperties', [users, other]).get(users)?.['description'];
  try {
    assert.equal(shown(a), undefined);
    a.transaction(() => describeUsers(a, 'first', 1));
    assert.equal(shown(a), 'first');
    assert.equal(shown(a), 'first');
    a.transaction(() => describeUsers(a, 'second', 2));
    assert.equal(shown(a), 'second');
    b.transaction(() => describeUsers(b, 'written by another connection', 3));
    assert.equal(shown(a), 'written by another connection');
    assert.throws(() =>
      a.transaction(() => {
        describeUsers(a, 'rolled back', 4);
        assert.equal(shown(a), 'rolled back');
        throw new Error('refused');
      }),
    );
    assert.equal(shown(a), 'written by another connection');
    const value = a.aspectOf('datasetProperties', [users]).get(users)!;
    assert.ok(Object.isFrozen(value));
    assert.equal(a.aspectOf('datasetProperties', [other]).size, 0);
  } finally {
    a.close();
    b.close();
  }
});

/** Writes (in its own transaction) one aspect of a dataset `db.<name>`. */
function writeDataset(store: AspectStore, name: string, aspectName: string, value: Json, now: number): void {
  const urn = ds(`db.${name}`);
  store.transaction(() =>
    writeAspect(
      store,
      { key: urn, requestedUrn: urn, entityType: 'dataset', aspectName, value },
      'urn:li:corpuser:t',
      now,
      'spec',
    ),
  );
}

const SEARCH_DESCRIPTIONS = `query ($input: SearchAcrossEntitiesInput!) { searchAcrossEntities(input: $input) {
  searchResults { entity { urn ... on Dataset { properties { description } editableProperties { description } } } } } }`;

test('a stored value that does not parse fails its own row of a search page, as reading it whole did, and is read once', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-lens-unreadable-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'c.db');
  const namespaces = new NamespacePolicy(DEFAULT_NAMESPACES);
  let store = new AspectStore(file, 'normal', 'li');
  for (const [i, name] of ['orders_a', 'orders_b', 'orders_c'].entries()) {
    writeDataset(store, name, 'datasetProperties', { name, description: `Orders ${i}.` }, 1);
    writeDataset(store, name, 'editableDatasetProperties', { description: `Edited ${i}.` }, 1);
  }
  store.close();
  // Another connection stores text that is not JSON (test/catalog/groupCommit.test.ts allows for it).
  const db = new Database(file);
  db.prepare("UPDATE aspects SET value = '{not json' WHERE aspect = 'datasetProperties' AND urn = ?").run(
    ds('db.orders_b'),
  );
  db.close();
  store = new AspectStore(file, 'normal', 'li');
  try {
    const input = { input: { query: 'orders', start: 0, count: 10 } };
    const calls = countReads(store);
    let together: string;
    try {
      together = await answer(new ReadContext(store, namespaces, 'urn:li:corpuser:t'), SEARCH_DESCRIPTIONS, input);
    } finally {
      calls.restore();
    }
    const whole = await answer(new WholeReads(store, namespaces, 'urn:li:corpuser:t'), SEARCH_DESCRIPTIONS, input);
    assert.equal(together, whole);
    const body = JSON.parse(together) as {
      data: { searchAcrossEntities: { searchResults: Array<{ entity: Json }> } };
      errors: Array<{ path: unknown[] }>;
    };
    const rows = body.data.searchAcrossEntities.searchResults.map((r) => r.entity);
    assert.equal(rows.length, 3);
    const good = rows.filter((e) => e['urn'] !== ds('db.orders_b'));
    assert.equal(good.length, 2);
    for (const e of good) assert.match((e['properties'] as Json)['description'] as string, /^Orders \d\.$/);
    assert.ok(body.errors.length > 0);
    for (const e of body.errors)
      assert.equal(
        e.path[2],
        rows.findIndex((r) => r['urn'] === ds('db.orders_b')),
      );
    // Each aspect read once for the page, not again for each row after the failure.
    assert.deepEqual(calls.aspectOf, [
      { aspect: 'datasetProperties', keys: 3 },
      { aspect: 'editableDatasetProperties', keys: 3 },
    ]);
    // The readable values were cached, the unreadable one was not; aspectOf alone throws its error.
    const unreadable = new Set<string>();
    const keys = ['orders_a', 'orders_b', 'orders_c'].map((n) => ds(`db.${n}`));
    assert.equal(store.aspectOf('datasetProperties', keys, unreadable).size, 2);
    assert.deepEqual([...unreadable], [ds('db.orders_b')]);
    assert.throws(() => store.aspectOf('datasetProperties', keys), SyntaxError);
  } finally {
    store.close();
  }
});

test("a search page does not answer from getAll's cache what another connection changed since", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-lens-stale-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'c.db');
  const namespaces = new NamespacePolicy(DEFAULT_NAMESPACES);
  const a = new AspectStore(file, 'normal', 'li');
  const b = new AspectStore(file, 'normal', 'li');
  try {
    writeDataset(a, 'orders_x', 'datasetProperties', { name: 'orders_x', description: 'Old words.' }, 1);
    const x = ds('db.orders_x');
    assert.equal(a.getAll(x).get('datasetProperties')?.value['description'], 'Old words.');
    writeDataset(b, 'orders_x', 'datasetProperties', { name: 'orders_x', description: 'New words.' }, 2);
    const body = JSON.parse(
      await answer(new ReadContext(a, namespaces, 'urn:li:corpuser:t'), SEARCH_DESCRIPTIONS, {
        input: { query: 'orders_x', start: 0, count: 10 },
      }),
    ) as { data: { searchAcrossEntities: { searchResults: Array<{ entity: Json }> } } };
    const rows = body.data.searchAcrossEntities.searchResults.map((r) => r.entity);
    assert.deepEqual(
      rows.map((e) => [e['urn'], (e['properties'] as Json)['description']]),
      [[x, 'New words.']],
    );
  } finally {
    a.close();
    b.close();
  }
});

test('an entity on two aliased pages of one request is read together once', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'catalog-lens-aliased-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'c.db');
  const namespaces = new NamespacePolicy(DEFAULT_NAMESPACES);
  const store = new AspectStore(file, 'normal', 'li');
  try {
    for (const [i, name] of ['orders_a', 'orders_b', 'orders_c', 'orders_d'].entries())
      writeDataset(store, name, 'datasetProperties', { name, description: `Orders ${i}.` }, 1);
    const page = (alias: string, start: number): string =>
      `${alias}: searchAcrossEntities(input: { query: "orders", start: ${start}, count: 3 }) {
        searchResults { entity { urn ... on Dataset { properties { description } } } } }`;
    const query = `{ ${page('first', 0)} ${page('second', 1)} }`;
    const calls = countReads(store);
    let together: string;
    try {
      together = await answer(new ReadContext(store, namespaces, 'urn:li:corpuser:t'), query, {});
    } finally {
      calls.restore();
    }
    assert.equal(together, await answer(new WholeReads(store, namespaces, 'urn:li:corpuser:t'), query, {}));
    assert.doesNotMatch(together, /"errors"/);
    assert.deepEqual(calls.aspectOf, [
      { aspect: 'datasetProperties', keys: 3 },
      { aspect: 'datasetProperties', keys: 1 },
    ]);
  } finally {
    store.close();
  }
});
