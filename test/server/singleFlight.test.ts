/**
 * Single flight (server/src/catalogClient/cache.ts `SingleFlight`): a fetch of many keys is one
 * flight; a later caller of any of its keys shares it, and its keys are forgotten when it settles.
 * Then the catalog client over a real local catalog: resolves that overlap a running batch wait for
 * it instead of asking again, and every URN is answered as a resolve of its own would answer it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SingleFlight } from '../../server/src/catalogClient/cache';
import { CatalogClient, type Resolution } from '../../server/src/catalogClient/client';
import { sampleCatalog, type Catalog } from '../support/fixture';

/** A promise and its settlers. */
function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((a, b) => {
    resolve = a;
    reject = b;
  });
  return { promise, resolve, reject };
}

const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('SingleFlight', () => {
  test('every key of a flight is answered from it, each by the same promise, and forgotten once it settles', async () => {
    const flights = new SingleFlight<string>();
    const run = deferred<Map<string, string>>();
    let picks = 0;
    flights.track(['a', 'b', 'c'], run.promise, (k) => {
      picks++;
      return run.promise.then((m) => m.get(k)!);
    });
    assert.equal(flights.size, 3);
    assert.equal(picks, 0, 'no key is picked before a caller asks for it');
    const b = flights.get('b');
    assert.ok(b);
    assert.equal(flights.get('b'), b, 'the same promise for the same key');
    assert.equal(picks, 1);
    assert.equal(flights.get('z'), undefined);
    run.resolve(
      new Map([
        ['a', 'A'],
        ['b', 'B'],
        ['c', 'C'],
      ]),
    );
    assert.equal(await b, 'B');
    await turn();
    assert.equal(flights.size, 0);
    assert.equal(flights.get('a'), undefined);
  });

  test('a key tracked again by a later flight stays with it when the earlier one settles', async () => {
    const flights = new SingleFlight<number>();
    const first = deferred<number>();
    const second = deferred<number>();
    flights.track(['x', 'y'], first.promise, () => first.promise);
    flights.track(['y'], second.promise, () => second.promise);
    first.resolve(1);
    await turn();
    assert.equal(flights.get('x'), undefined);
    const y = flights.get('y');
    assert.ok(y);
    second.resolve(2);
    assert.equal(await y, 2);
    await turn();
    assert.equal(flights.size, 0);
  });

  test('a flight that fails is forgotten too, and a caller that asked sees its failure', async () => {
    const flights = new SingleFlight<number>();
    const run = deferred<number>();
    flights.track(['k'], run.promise, () => run.promise);
    const k = flights.get('k');
    run.reject(new Error('gone'));
    await assert.rejects(k!, /gone/);
    await turn();
    assert.equal(flights.size, 0);
  });
});

describe('the catalog client: resolves that overlap a running batch, on a real local catalog', () => {
  const env = {} as { catalog: Catalog };
  before(async () => {
    env.catalog = await sampleCatalog();
  });
  after(async () => {
    await env.catalog?.close();
  });

  const urn = (name: string): string => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;
  const client = (): CatalogClient =>
    new CatalogClient({
      url: env.catalog.url,
      graphqlUrl: '',
      token: undefined,
      timeoutMs: 10_000,
      batchSize: 100,
      complexityBudget: 2000,
      cacheEntries: 10_000,
      cacheTtlMs: 60_000,
    });

  test('a second resolve while the first runs asks only for what the first does not, and both get every answer', async () => {
    // 300 URNs the catalog lacks, and the sample's users table: 4 documents of at most 86 datasets.
    const first = [urn('db.users'), ...Array.from({ length: 300 }, (_, i) => urn(`db.absent_${i}`))];
    // Half of them again, and 50 more.
    const second = [...first.slice(0, 151), ...Array.from({ length: 50 }, (_, i) => urn(`db.other_${i}`))];
    const c = client();
    env.catalog.stats.reset();
    const [a, b] = await Promise.all([
      c.resolve(first.map((u) => ({ urn: u, kind: 'dataset' as const }))),
      c.resolve(second.map((u) => ({ urn: u, kind: 'dataset' as const }))),
    ]);
    assert.equal(env.catalog.stats.graphql, 4 + 1, '301 URNs in 4 documents, then the 50 new ones in one');
    assert.equal(a.size, first.length);
    assert.equal(b.size, second.length);
    const found = (r: Resolution | undefined): string | undefined =>
      r?.state === 'found' ? (r.entity as { urn: string }).urn : r?.state;
    assert.equal(found(a.get(urn('db.users'))), urn('db.users'));
    assert.equal(found(b.get(urn('db.users'))), urn('db.users'));
    for (const u of second) assert.equal(found(b.get(u)), u === urn('db.users') ? u : 'missing', u);
    for (const u of first) assert.equal(b.has(u) ? found(b.get(u)) : found(a.get(u)), found(a.get(u)), u);

    // Answered alone, each URN gets what the batches answered.
    const alone = client();
    for (const u of [urn('db.users'), urn('db.absent_7'), urn('db.other_3')]) {
      const r = await alone.resolve([{ urn: u, kind: 'dataset' }]);
      assert.deepEqual(r.get(u), (a.get(u) ?? b.get(u))!, u);
    }
  });
});
