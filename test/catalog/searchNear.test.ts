/**
 * The near-name pass of the local catalog's search (catalog/src/searchIndex.ts `near`), bounded
 * by the words' lengths and computed bit-parallel (`OsaDistance`), finds and orders exactly what
 * the pass it replaced did: every name's words, each compared with editDistance (model/src/urn.ts)
 * at full table, kept within max(1, a third of the query) and ordered by typos, length and key.
 * Checked on generated names and queries (typos of them, and strings unlike any), with type and
 * platform filters, pages, a write in between, and non-ASCII characters.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OsaDistance, type SearchQuery } from '../../catalog/src/searchIndex';
import { AspectStore } from '../../catalog/src/store';
import { editDistance } from '../../model/src/urn';
import { seededRandom } from '../support/random';

const ALPHABET = 'abcdeusr_.-/é0123ü';

function word(rnd: () => number, min: number, max: number, alphabet = ALPHABET): string {
  const n = min + Math.floor(rnd() * (max - min + 1));
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[Math.floor(rnd() * alphabet.length)];
  return s;
}

/** One to three typos (swap, insert, delete, replace) of `s`. */
function typo(rnd: () => number, s: string): string {
  let t = s;
  const edits = 1 + Math.floor(rnd() * 3);
  for (let e = 0; e < edits; e++) {
    const i = Math.floor(rnd() * Math.max(1, t.length));
    const c = ALPHABET[Math.floor(rnd() * ALPHABET.length)]!;
    switch (Math.floor(rnd() * 4)) {
      case 0:
        if (t.length > 1 && i + 1 < t.length) t = t.slice(0, i) + t[i + 1] + t[i] + t.slice(i + 2);
        break;
      case 1:
        t = t.slice(0, i) + c + t.slice(i);
        break;
      case 2:
        t = t.slice(0, i) + t.slice(i + 1);
        break;
      default:
        t = t.slice(0, i) + c + t.slice(i + 1);
    }
  }
  return t;
}

test('OsaDistance = editDistance, with and without a limit (generated strings)', () => {
  const rnd = seededRandom(7);
  for (let k = 0; k < 20_000; k++) {
    const a = word(rnd, 0, k % 10 === 0 ? 40 : 12, k % 3 === 0 ? 'ab' : ALPHABET);
    const b = k % 2 === 0 ? typo(rnd, a) : word(rnd, 0, 14, k % 3 === 0 ? 'ab' : ALPHABET);
    const limit = k % 4 === 0 ? Infinity : Math.floor(rnd() * 5);
    const expected = editDistance(a, b, limit);
    const got = new OsaDistance(a).to(b, limit);
    assert.equal(Math.min(got, limit + 1), Math.min(expected, limit + 1), `${JSON.stringify([a, b, limit])}`);
  }
  // Swaps, the edit Myers' algorithm alone counts as two.
  assert.equal(new OsaDistance('usres').to('users'), 1);
  assert.equal(new OsaDistance('ca').to('abc'), 3);
  assert.equal(new OsaDistance('x'.repeat(31)).to('x'.repeat(29) + 'yx'), 1);
});

interface Named {
  key: string;
  name: string;
  type: string;
  platform: string | null;
}

/** The near-name pass as it was: every name, every word, editDistance at full table. */
function oldNear(names: readonly Named[], q: SearchQuery): string[] {
  const query = q.query.trim().toLowerCase();
  const limit = Math.max(1, Math.floor([...query].length / 3));
  const found: Array<{ n: Named; d: number }> = [];
  for (const n of names) {
    if (
      (q.types && !q.types.includes(n.type as never)) ||
      (q.platforms && !(n.platform !== null && q.platforms.includes(n.platform)))
    )
      continue;
    const lower = n.name.toLowerCase();
    const words = [lower, ...lower.split(/[._\-/\s:]+/).filter((w) => w !== '' && w !== lower)];
    let d = limit + 1;
    for (const w of words) d = Math.min(d, editDistance(query, w, limit));
    if (d <= limit) found.push({ n, d });
  }
  return found
    .sort(
      (a, b) => a.d - b.d || a.n.name.length - b.n.name.length || (a.n.key < b.n.key ? -1 : a.n.key > b.n.key ? 1 : 0),
    )
    .map(({ n }) => n.key);
}

test('the near names = the pass over every name it replaced (generated names, filters, pages, a write)', () => {
  const store = new AspectStore(':memory:', 'normal', 'li');
  const stamp = { time: 1, actor: 'urn:li:corpuser:t' };
  const rnd = seededRandom(42);
  const names: Named[] = [];
  const put = (name: string, platform: string): void => {
    const key = `urn:li:dataset:(urn:li:dataPlatform:${platform},${name},PROD)`;
    if (names.some((n) => n.key === key)) return;
    store.put({
      urn: key,
      aspect: 'datasetProperties',
      entityType: 'dataset',
      value: { name },
      version: 1,
      created: stamp,
      lastModified: stamp,
      systemMetadata: {},
    });
    names.push({ key, name, type: 'dataset', platform });
  };
  const generate = (count: number): void =>
    store.transaction(() => {
      for (let i = 0; i < count; i++) {
        const parts = 1 + Math.floor(rnd() * 3);
        const name = Array.from({ length: parts }, () => word(rnd, 1, 9, 'abcdeusrtéü0123')).join(
          ['.', '_', '-', '/'][Math.floor(rnd() * 4)],
        );
        put(i % 7 === 0 ? name.toUpperCase() : name, i % 3 === 0 ? 'kafka' : 'hive');
      }
    });
  generate(1500);
  const ask = (checked: { n: number }): void => {
    for (let k = 0; k < 400; k++) {
      const base = names[Math.floor(rnd() * names.length)]!.name.toLowerCase();
      const part = k % 2 === 0 ? base : (base.split(/[._\-/]/)[0] ?? base);
      const query = k % 5 === 0 ? word(rnd, 1, 12, 'abcdeusrtéü0123xyz') : typo(rnd, part);
      if (query.trim() === '' || query.trim() === '*') continue;
      const filters: Array<Partial<SearchQuery>> = [{}, { platforms: ['hive'] }, { types: ['mlFeature'] }];
      for (const f of filters)
        for (const [start, count] of [
          [0, 1000],
          [1, 3],
        ] as const) {
          const q: SearchQuery = { query, start, count, ...f };
          const got = store.search.search(q);
          // Only the queries no name holds (there are no descriptions) go to the near-name pass.
          const lower = query.trim().toLowerCase();
          const direct = names.some(
            (n) =>
              (!q.types || q.types.includes(n.type as never)) &&
              (!q.platforms || (n.platform !== null && q.platforms.includes(n.platform))) &&
              n.name.toLowerCase().includes(lower),
          );
          if (direct) continue;
          const expected = oldNear(names, q);
          if (expected.length > 0) checked.n++;
          assert.deepEqual(
            { total: got.total, keys: got.hits.map((h) => h.key) },
            { total: expected.length, keys: expected.slice(start, start + count) },
            JSON.stringify(q),
          );
        }
    }
  };
  const checked = { n: 0 };
  ask(checked);
  // A write drops the words by length: the next pass reads the new names too.
  generate(300);
  ask(checked);
  assert.ok(checked.n > 300, `${checked.n} near answers compared`);
  store.close();
});
