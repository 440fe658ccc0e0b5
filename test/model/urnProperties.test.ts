/**
 * Properties of the URN grammar, checked with fast-check: print and parse are inverses, the
 * part spans point at the parts, DataHub's part encoding round-trips, and no input makes the
 * parser throw or report a range outside the text.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodePart, encodePart, parseUrn, printUrn, type PartRole, type Urn } from '../../model/src/urn';
import { ARBITRARY_BY_KIND, editedUrnText, RUNS, textOf, urnishText } from './urnArbitraries';

/** The value each span role must cover, read from the URN value. */
function expectedByRole(u: Urn): Partial<Record<PartRole, string>> {
  switch (u.kind) {
    case 'dataPlatform':
      return { namespace: u.namespace, kind: u.kind, platform: u.platform };
    case 'corpuser':
      return { namespace: u.namespace, kind: u.kind, user: u.user };
    case 'dataset':
    case 'mlModel':
    case 'mlModelGroup':
      return { namespace: u.namespace, kind: u.kind, platform: u.platform, name: u.name, env: u.env };
    case 'mlFeature':
      return { namespace: u.namespace, kind: u.kind, table: u.table, feature: u.feature };
    case 'mlFeatureTable':
      return { namespace: u.namespace, kind: u.kind, platform: u.platform, table: u.table };
    case 'schemaField':
      return u.dataset
        ? {
            namespace: u.namespace,
            kind: u.kind,
            parent: u.parent,
            platform: u.dataset.platform,
            name: u.dataset.name,
            env: u.dataset.env,
            fieldPath: u.fieldPath,
          }
        : { namespace: u.namespace, kind: u.kind, parent: u.parent, fieldPath: u.fieldPath };
    case 'other':
      return { namespace: u.namespace, kind: u.entityType, id: u.id };
  }
}

describe('parseUrn(printUrn(u)) deep-equals u for valid values of every kind', () => {
  for (const [kind, arbitrary] of Object.entries(ARBITRARY_BY_KIND)) {
    test(`${kind}: round trip, and each part span covers exactly that part`, () => {
      fc.assert(
        fc.property(arbitrary, (u) => {
          const text = printUrn(u);
          assert.equal(text, textOf(u), 'printUrn spells the URN as spec §2.1 writes it');
          const r = parseUrn(text);
          assert.ok(r.ok, `${text}: ${r.ok ? '' : r.error.message}`);
          assert.deepEqual(r.urn, { ...u }, 'same fields and values'); // fc.record builds null-prototype objects
          const expected = expectedByRole(u);
          assert.deepEqual(
            r.parts.map((p) => p.role),
            Object.keys(expected),
          );
          for (const p of r.parts) assert.equal(text.slice(p.start, p.end), expected[p.role], `span of ${p.role}`);
        }),
        { numRuns: RUNS },
      );
    });
  }
});

describe('printUrn(parseUrn(t).urn) === t for texts that parse', () => {
  test('texts of valid URNs written out by hand', () => {
    fc.assert(
      fc.property(fc.oneof(...Object.values(ARBITRARY_BY_KIND)), (u) => {
        const t = textOf(u);
        const r = parseUrn(t);
        assert.ok(r.ok, `${t}: ${r.ok ? '' : r.error.message}`);
        assert.equal(printUrn(r.urn), t);
      }),
      { numRuns: RUNS },
    );
  });

  test('valid texts with one character edited: whenever they still parse, they print back identically', () => {
    let stillValid = 0;
    fc.assert(
      fc.property(editedUrnText, (t) => {
        const r = parseUrn(t);
        if (r.ok) {
          stillValid++;
          assert.equal(printUrn(r.urn), t);
        }
      }),
      { numRuns: RUNS },
    );
    assert.ok(stillValid > RUNS / 10, `only ${stillValid} edited texts parsed: the property checked too little`);
  });
});

describe('decodePart(encodePart(s)) === s', () => {
  const reservedHeavy = fc.string({
    unit: fc.oneof(
      fc.constantFrom(',', '(', ')', '\u241F', 'C', '2', '8', '9', 'E'),
      fc.string({ unit: 'grapheme', maxLength: 1 }),
    ),
    maxLength: 30,
  });

  test('for strings without % (DataHub does not escape %, so a literal %2C cannot survive)', () => {
    fc.assert(
      fc.property(
        fc.oneof(reservedHeavy, fc.string({ unit: 'binary' })).filter((s) => !s.includes('%')),
        (s) => {
          const encoded = encodePart(s);
          assert.equal(decodePart(encoded), s);
          assert.doesNotMatch(encoded, /[,()\u241F]/, 'no reserved character is left');
        },
      ),
      { numRuns: RUNS },
    );
  });

  test('encoding changes only the reserved characters', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme' }).filter((s) => !/[,()\u241F]/.test(s)),
        (s) => {
          assert.equal(encodePart(s), s);
        },
      ),
      { numRuns: RUNS },
    );
  });

  test('examples: the escapes are exactly those of UrnEncoder.encode_string, and decoding ignores case', () => {
    assert.equal(encodePart('a,b(c)d\u241Fe%'), 'a%2Cb%28c%29d%E2%90%9Fe%');
    assert.equal(decodePart('a%2cb%28c%29d%e2%90%9fe%20'), 'a,b(c)d\u241Fe%20');
  });
});

describe('no input makes the parser throw; every error range lies inside the text', () => {
  function checkAnyText(t: string): void {
    const r = parseUrn(t);
    if (r.ok) {
      assert.equal(printUrn(r.urn), t);
      for (const p of r.parts)
        assert.ok(p.start >= 0 && p.start <= p.end && p.end <= t.length, `span ${JSON.stringify(p)}`);
      return;
    }
    const { message, offset, length } = r.error;
    assert.ok(message.length > 0);
    assert.ok(Number.isInteger(offset) && Number.isInteger(length), 'integer range');
    assert.ok(
      offset >= 0 && length >= 0 && offset + length <= t.length,
      `${JSON.stringify(t)}: ${offset}+${length} (${message})`,
    );
    // A range on a character is never empty, so the editor always has something to underline there.
    if (offset < t.length) assert.ok(length >= 1, `${JSON.stringify(t)}: empty range before the end (${message})`);
  }

  test('random strings of any code points', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 80 }), checkAnyText), { numRuns: RUNS });
  });

  test('texts assembled from URN pieces (reaching the nested and tuple rules)', () => {
    fc.assert(fc.property(urnishText, checkAnyText), { numRuns: RUNS });
  });

  test('valid URNs with one character deleted, inserted or replaced', () => {
    fc.assert(fc.property(editedUrnText, checkAnyText), { numRuns: RUNS });
  });

  test('deep nesting does not exhaust the stack (nested URN parts are read at most MAX_URN_NESTING deep)', () => {
    const depth = 20000;
    const deep = 'urn:li:dataset:('.repeat(depth) + 'x' + ',n,PROD)'.repeat(depth);
    assert.deepEqual(parseUrn(deep), {
      ok: false,
      error: {
        message: 'platform must be urn:li:dataPlatform:<name>, found a dataset URN',
        offset: 16,
        length: deep.length - 16 - ',n,PROD)'.length,
      },
    });
  });
});
