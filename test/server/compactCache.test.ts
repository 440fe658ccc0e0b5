/**
 * The catalog cache's compact form of found datasets (server/src/catalogClient/compact.ts): what
 * it gives back is the answer it was made from, field by field and in key order, for
 * DataHub-shaped answers written out and generated; any other shape is kept as it came; and the
 * features that read cached answers (diagnostics, hovers, inlay hints, code actions) answer the
 * same from a client's cache before and after it compacted (differential, through a client on a
 * fake catalog).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_SETTINGS } from '../../model/src/protocol';
import type { GqlDataset } from '../../model/src/readShapes';
import { LruTtlCache } from '../../server/src/catalogClient/cache';
import { CatalogClient, type Resolution } from '../../server/src/catalogClient/client';
import { compact, CompactDataset, expand } from '../../server/src/catalogClient/compact';
import { codeActionsFor } from '../../server/src/features/codeActions';
import { diagnosticsFor } from '../../server/src/features/diagnostics';
import { hoverAt } from '../../server/src/features/hover';
import { nameHints } from '../../server/src/features/inlayHints';
import { resolvableItems } from '../../server/src/resolution/resolve';
import { scanText } from '../../server/src/pipeline/check';
import { toLspDiagnostic } from '../../server/src/lsp';
import { TextDocument } from 'vscode-languageserver-textdocument';

const URN = (name: string): string => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;

/** A dataset as DataHub answers the resolve batches' selection (queries.ts), keys in that order. */
function answer(name: string, over: Partial<GqlDataset> = {}): GqlDataset {
  return {
    urn: URN(name),
    properties: { name, description: `Table ${name}.` },
    editableProperties: null,
    schemaMetadata: {
      fields: [
        { fieldPath: 'id', description: 'The key.', nativeDataType: 'bigint' },
        { fieldPath: 'email', description: null, nativeDataType: 'varchar(255)' },
      ],
    },
    editableSchemaMetadata: null,
    exists: true,
    deprecation: null,
    siblings: null,
    ...over,
  };
}

function withoutSiblings(d: GqlDataset): GqlDataset {
  const out = { ...d };
  delete out.siblings;
  return out;
}

const found = (entity: GqlDataset): Resolution => ({ state: 'found', kind: 'dataset', entity });

/** Compacted then expanded: equal to what it was made from, keys in the same order. */
function assertRoundTrip(r: Resolution, compacted: boolean, what: string): void {
  const kept = compact(r);
  assert.equal(kept instanceof CompactDataset, compacted, `${what}: compacted`);
  const back = expand(kept);
  assert.deepStrictEqual(back, r, what);
  assert.equal(JSON.stringify(back), JSON.stringify(r), `${what}: key order`);
}

/** Texts of the kinds catalogs hold: empty, spaces only, Markdown, non-Latin, astral, long. */
const TEXTS = ['', ' ', 'One row per user.', '| a | b |\n`x`', 'Résumé — 顧客', '😀 emoji', 'x'.repeat(5000)];

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** A DataHub-shaped dataset answer with each part present, null or empty at random. */
function generated(i: number, next: () => number): GqlDataset {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const text = (): string | null => (next() < 0.25 ? null : pick(TEXTS));
  const columns = Math.floor(next() * 8);
  return {
    urn: URN(`db.t_${i}`),
    properties:
      next() < 0.15
        ? null
        : { name: next() < 0.1 ? null! : next() < 0.5 ? `t_${i}` : `Table number ${i}`, description: text() },
    editableProperties: next() < 0.6 ? null : { description: text() },
    schemaMetadata:
      next() < 0.15
        ? null
        : {
            fields: Array.from({ length: columns }, (_, c) => ({
              fieldPath: next() < 0.2 ? `[version=2.0].[type=struct].c${c}` : `c${c}`,
              description: text(),
              nativeDataType: next() < 0.2 ? null : pick(['string', 'bigint', 'decimal(10,2)']),
            })),
          },
    editableSchemaMetadata:
      next() < 0.8 ? null : { editableSchemaFieldInfo: [{ fieldPath: 'c0', description: text() }] },
    exists: next() < 0.9 ? true : null,
    deprecation: next() < 0.5 ? null : { deprecated: false },
    siblings: next() < 0.8 ? null : { isPrimary: next() < 0.5, siblings: [{ urn: URN(`dbt.t_${i}`) }, null] },
  };
}

describe('the compact form of cached datasets', () => {
  test('gives back each DataHub-shaped answer it was made from', () => {
    assertRoundTrip(found(answer('db.users')), true, 'plain');
    assertRoundTrip(
      found(answer('db.a', { properties: null, schemaMetadata: null })),
      true,
      'no properties, no schema',
    );
    assertRoundTrip(found(answer('db.b', { schemaMetadata: { fields: [] } })), true, 'an empty schema');
    assertRoundTrip(found(answer('db.c', { editableProperties: { description: '' } })), true, 'an empty edited text');
    assertRoundTrip(found(answer('db.d', { exists: null, deprecation: { deprecated: false } })), true, 'exists null');
    assertRoundTrip(
      found(
        answer('db.e', {
          editableSchemaMetadata: { editableSchemaFieldInfo: [{ fieldPath: 'id', description: 'Edited.' }] },
          siblings: { isPrimary: false, siblings: [{ urn: URN('dbt.e') }] },
        }),
      ),
      true,
      'edited columns and siblings',
    );
  });

  test('keeps every other shape as it came', () => {
    const kept: Array<[string, Resolution]> = [
      ['deprecated (its details are written in later)', found(answer('db.f', { deprecation: { deprecated: true } }))],
      [
        'a text with the mark between texts',
        found(answer('db.g', { properties: { name: 'g', description: 'a\u0001b' } })),
      ],
      [
        'a text that reads as the null mark',
        found(answer('db.h', { properties: { name: 'h', description: '\u0002' } })),
      ],
      ['a catalog without siblings', found(withoutSiblings(answer('db.i')))],
      ['another key', found({ ...answer('db.j'), name: 'j' })],
      ['keys in another order', found({ exists: true, ...answer('db.k') })],
      [
        'a column with another key',
        found(answer('db.l', { schemaMetadata: { fields: [{ fieldPath: 'x', description: null }] } })),
      ],
      ['a sibling merged in', { ...found(answer('db.m')), sibling: URN('dbt.m') } as Resolution],
      ['missing', { state: 'missing' }],
      [
        'an ML feature',
        {
          state: 'found',
          kind: 'mlFeature',
          entity: {
            urn: 'urn:li:mlFeature:(t,f)',
            name: 'f',
            featureNamespace: 't',
            description: null,
            properties: null,
            exists: true,
            deprecation: null,
          },
        },
      ],
    ];
    for (const [what, r] of kept) {
      assert.equal(compact(r), r, what);
      assertRoundTrip(r, false, what);
    }
  });

  test('gives back generated answers of every shape the selection allows', () => {
    const next = random(28);
    for (let i = 0; i < 2000; i++) assertRoundTrip(found(generated(i, next)), true, `generated ${i}`);
  });
});

describe('features answer the same from the compact cache', () => {
  const NAMES = Array.from({ length: 40 }, (_, i) => `db.t_${i}`);
  /** Many datasets: each read after compaction must find the answer made by the first read of it. */
  const MANY = Array.from({ length: 150 }, (_, i) => `db.many_${i}`);
  const next = random(7);
  const entities = new Map([...NAMES, ...MANY].map((n, i) => [URN(n), { ...generated(i, next), urn: URN(n) }]));

  function client(): CatalogClient {
    return new CatalogClient({
      url: 'http://catalog.invalid',
      graphqlUrl: '',
      token: undefined,
      timeoutMs: 5_000,
      batchSize: 100,
      complexityBudget: 100_000,
      cacheEntries: 1000,
      cacheTtlMs: 600_000,
      fetch: async (_url, init) => {
        const { variables } = JSON.parse(String(init.body)) as { variables: Record<string, string> };
        const data: Record<string, unknown> = {};
        for (const [name, urn] of Object.entries(variables)) data[`e${name.slice(1)}`] = entities.get(urn) ?? null;
        const { Response } = await import('node-fetch');
        return new Response(JSON.stringify({ data }), { status: 200 });
      },
    });
  }

  test('diagnostics, hovers, inlay hints and code actions, before and after the cache compacted', async () => {
    const lines = NAMES.map((n, i) => `T_${i} = "${URN(n)}"`);
    lines.push(`COLUMN = "urn:li:schemaField:(${URN('db.t_3')},c0)"`, `GONE = "${URN('db.nowhere')}"`);
    const text = lines.join('\n');
    const settings = DEFAULT_SETTINGS;
    const scan = scanText(text, 'python', settings);
    const c = client();
    await c.resolve(resolvableItems([scan]));
    const lookup = (urn: string): Resolution | undefined => c.cached(urn);
    const doc = TextDocument.create('file:///w/a.py', 'python', 1, text);
    const everything = (): unknown => {
      const diagnostics = diagnosticsFor(scan, lookup, settings.diagnostics);
      const lsp = diagnostics.map((d) => toLspDiagnostic(doc, d));
      return {
        diagnostics,
        hints: nameHints(text, scan, lookup),
        hovers: scan.occurrences.map((o) => hoverAt(scan, o.start + 1, settings, lookup)),
        actions: scan.occurrences.map((o) => {
          const range = { start: doc.positionAt(o.start), end: doc.positionAt(o.end) };
          return codeActionsFor({
            doc,
            scan,
            params: { textDocument: { uri: doc.uri }, range, context: { diagnostics: lsp } },
            trusted: true,
            clientCommands: true,
            cached: lookup,
          });
        }),
      };
    };
    const before = JSON.stringify(everything());
    const parsed = NAMES.map((n) => c.cached(URN(n)));
    assert.ok(parsed.every((r) => r?.state === 'found'));
    assert.match(before, /One row per user\./);
    assert.match(before, /"hints":\[\{/);
    c.compactCache();
    // Each answer is now made from its record: another object, equal to the parsed one.
    NAMES.forEach((n, i) => {
      assert.notEqual(c.cached(URN(n)), parsed[i]);
      assert.deepStrictEqual(c.cached(URN(n)), parsed[i]);
    });
    const after = JSON.stringify(everything());
    assert.equal(after, before);
  });

  test('a record read again answers the same object (made once and put back), however many are read, so what features remember per answer is found', async () => {
    const c = client();
    await c.resolve(MANY.map((n) => ({ urn: URN(n), kind: 'dataset' as const })));
    c.compactCache();
    const first = MANY.map((n) => c.cached(URN(n)));
    const again = MANY.map((n) => c.cached(URN(n)));
    again.forEach((r, i) => assert.equal(r, first[i], MANY[i]));
    const resolved = await c.resolve(MANY.map((n) => ({ urn: URN(n), kind: 'dataset' as const })));
    MANY.forEach((n, i) => assert.equal(resolved.get(URN(n)), first[i], n));
    // Compacted again by the next tidy, then made anew.
    c.compactCache();
    assert.notEqual(c.cached(URN(MANY[0]!)), first[0]);
    assert.deepStrictEqual(c.cached(URN(MANY[0]!)), first[0]);
  });
});

describe("the cache's table", () => {
  const table = (clock: { now: number }) => {
    const cache = new LruTtlCache<string>(3, 1_000, () => clock.now);
    const made: string[] = [];
    const f = (v: string): string => {
      made.push(v);
      return v.toUpperCase();
    };
    return { cache, made, f };
  };

  test('replaceValues runs only when a value was set or swapped since, and drops expired entries', () => {
    const clock = { now: 5_000 };
    const { cache, made, f } = table(clock);
    cache.set('a', 'a');
    clock.now += 600;
    cache.set('b', 'b');
    cache.replaceValues(f);
    assert.deepEqual(made, ['a', 'b']);
    cache.replaceValues(f);
    assert.deepEqual(made, ['a', 'b'], 'nothing new: not run again');
    cache.swap('a', 'a2');
    clock.now += 500; // 'a' expired (1,100 ms old), 'b' not
    cache.replaceValues(f);
    assert.deepEqual(made, ['a', 'b', 'B']);
    assert.equal(cache.size, 1);
    assert.equal(cache.get('b'), 'B');
  });

  test('swap keeps the place in the order and the expiry, and does nothing for a key not there', () => {
    const clock = { now: 0 };
    const { cache } = table(clock);
    cache.set('a', 'a');
    cache.set('b', 'b');
    cache.set('c', 'c');
    cache.swap('a', 'a2');
    cache.swap('zz', 'x');
    assert.equal(cache.size, 3);
    cache.set('d', 'd'); // evicts the least recently used: 'a', swapped but not read
    assert.equal(cache.get('a'), undefined);
    assert.equal(cache.get('zz'), undefined);
    clock.now += 1_000;
    assert.equal(cache.get('b'), undefined, 'expired as set, whatever was swapped');
  });

  test('replaced counts fresh values replaced or dropped, not new keys, swaps or expiry; expiresAt tells when', () => {
    const clock = { now: 10_000 };
    const { cache, f } = table(clock);
    cache.set('a', 'a');
    cache.set('b', 'b');
    assert.equal(cache.replaced, 0, 'new keys');
    assert.equal(cache.expiresAt('a'), 11_000);
    assert.equal(cache.expiresAt('zz'), undefined);
    cache.swap('a', 'A');
    cache.replaceValues(f);
    assert.equal(cache.replaced, 0, 'the same answers in another form');
    cache.set('a', 'a2');
    assert.equal(cache.replaced, 1, 'a fresh value replaced');
    cache.delete('b');
    cache.delete('b');
    assert.equal(cache.replaced, 2, 'a value dropped (once: then it is not there)');
    cache.set('c', 'c');
    cache.set('d', 'd');
    cache.set('e', 'e'); // four keys in a table of three: the least recently used goes
    assert.equal(cache.replaced, 3, 'an eviction');
    clock.now += 1_000;
    assert.equal(cache.get('c'), undefined);
    cache.set('c', 'c2');
    assert.equal(cache.replaced, 3, 'an expired value read or set again: time told it');
    cache.clear();
    assert.equal(cache.replaced, 4);
    cache.clear();
    assert.equal(cache.replaced, 4, 'an empty table cleared');
  });
});
