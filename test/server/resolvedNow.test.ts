/**
 * resolvedNow (server/src/resolution/resolve.ts), the hover's answers taken from the cache at once,
 * against resolveItems: over generated caches (found, missing and failed answers, deprecations with
 * and without their details, datasets whose siblings fill them, domains written by name), whenever
 * resolvedNow answers, resolveItems asks the catalog nothing and its lookup gives the same answers
 * for every URN; and a plain cached answer is taken at once.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Resolution } from '../../server/src/catalogClient/client';
import { resolvedNow, resolveItems, type ResolvableItem, type Resolver } from '../../server/src/resolution/resolve';
import { dataset, failed, MISSING } from './features/support/fakeResolution';
import { seededRandom } from '../support/random';

const URNS = [0, 1, 2, 3].map((i) => `urn:li:dataset:(urn:li:dataPlatform:hive,db.t${i},PROD)`);
const DBT = (i: number): string => `urn:li:dataset:(urn:li:dataPlatform:dbt,db.t${i},PROD)`;

/** One cached answer of a generated shape for `urn` (index `i`), or none. */
function answerFor(rnd: () => number, urn: string, i: number): Resolution | undefined {
  switch (Math.floor(rnd() * 7)) {
    case 0:
      return undefined;
    case 1:
      return MISSING;
    case 2:
      return failed('down');
    case 3:
      return dataset(urn, { description: 'd', deprecation: { deprecated: true } });
    case 4:
      return dataset(urn, {
        description: 'd',
        deprecation: { deprecated: true, note: 'old', decommissionTime: null, actor: null } as never,
      });
    case 5: {
      // No description: a sibling may have one.
      const d = dataset(urn, { description: null });
      return { ...d, entity: { ...d.entity, siblings: { isPrimary: false, siblings: [{ urn: DBT(i) }] } } as never };
    }
    default:
      return dataset(urn, { description: 'described' });
  }
}

/** A catalog client's stand-in over `cache`, recording what is asked beyond it. */
function client(cache: Map<string, Resolution>, withReads: boolean): Resolver & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    cached: (urn: string) => cache.get(urn),
    async resolve(items: ReadonlyArray<{ urn: string }>) {
      const out = new Map<string, Resolution>();
      for (const { urn } of items) {
        const hit = cache.get(urn);
        if (hit) out.set(urn, hit);
        else {
          asked.push(`resolve ${urn}`);
          out.set(urn, MISSING);
        }
      }
      return out;
    },
    ...(withReads
      ? {
          async readDeprecationDetails(items: ReadonlyArray<{ urn: string }>) {
            asked.push(...items.map((i) => `deprecation ${i.urn}`));
            return new Map();
          },
          async read() {
            asked.push('read');
            return { ok: true as const, data: { search: { total: 0, searchResults: [] } } };
          },
          searches: { fulltextPath: false },
        }
      : {}),
  } as unknown as Resolver & { asked: string[] };
}

describe('resolvedNow against resolveItems (differential)', () => {
  test('when it answers, resolveItems asks nothing and answers the same for every URN', async () => {
    let answered = 0;
    for (let seed = 1; seed <= 400; seed++) {
      const rnd = seededRandom(seed);
      const cache = new Map<string, Resolution>();
      URNS.forEach((urn, i) => {
        const a = answerFor(rnd, urn, i);
        if (a) cache.set(urn, a);
        if (rnd() < 0.5) cache.set(DBT(i), dataset(DBT(i), { description: 'from dbt' }));
      });
      const items: ResolvableItem[] = URNS.filter(() => rnd() < 0.5).map((urn) => ({
        urn,
        kind: 'dataset' as const,
        ...(rnd() < 0.2 ? { byName: 'Finance' } : {}),
      }));
      const withReads = rnd() < 0.7;
      const now = resolvedNow(client(cache, withReads), items);
      if (!now) continue;
      answered++;
      const c = client(cache, withReads);
      const later = await resolveItems(c, items);
      assert.deepEqual(c.asked, [], `seed ${seed}: resolveItems asked`);
      for (const urn of [...URNS, ...URNS.map((_, i) => DBT(i)), 'urn:li:corpuser:x'])
        assert.deepEqual(now(urn), later(urn), `seed ${seed}: ${urn}`);
    }
    assert.ok(answered > 50, `answered ${answered} of 400`);
  });

  test('a cached answer is taken at once; one not cached, or a deprecation without its details, is not', () => {
    const cache = new Map<string, Resolution>([[URNS[0]!, dataset(URNS[0]!, { description: 'd' })]]);
    assert.ok(resolvedNow(client(cache, true), [{ urn: URNS[0]!, kind: 'dataset' }]));
    assert.equal(resolvedNow(client(cache, true), [{ urn: URNS[1]!, kind: 'dataset' }]), undefined);
    cache.set(URNS[2]!, dataset(URNS[2]!, { description: 'd', deprecation: { deprecated: true } }));
    assert.equal(resolvedNow(client(cache, true), [{ urn: URNS[2]!, kind: 'dataset' }]), undefined);
  });
});
