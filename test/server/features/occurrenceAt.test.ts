/**
 * The URN under the cursor found through the scan's index of ranges (features/intervals.ts) gives
 * exactly what a walk over every occurrence gave: the innermost occurrence (the first of equal
 * ones), a YAML column name before any URN, a schemaField's own URN for its nested parts. Checked
 * at every offset of random documents, and on random overlapping ranges.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { DEFAULT_SETTINGS } from '../../../model/src/protocol';
import { firstRangeAt, rangesAt, rangesEndingIn, type Ranged } from '../../../server/src/features/intervals';
import { linkAt } from '../../../server/src/features/links';
import { occurrenceAt, type AtCursor } from '../../../server/src/features/urnAt';
import { scanText } from '../../../server/src/pipeline/check';
import type { ScanResult, UrnOccurrence } from '../../../server/src/scan/types';
import { codeDocument, yamlDocument } from '../../reliability/support/fuzzInputs';

const seed = process.env['FUZZ_SEED'] ? Number(process.env['FUZZ_SEED']) : undefined;
const params = (numRuns: number): fc.Parameters<unknown> => ({ numRuns, ...(seed !== undefined ? { seed } : {}) });
const WITH_URL = { ...DEFAULT_SETTINGS, url: 'http://catalog.test' };

/** occurrenceAt as it was: a walk over every column and every occurrence. */
function occurrenceAtLinear(scan: ScanResult, offset: number): AtCursor | undefined {
  for (const c of scan.columns) {
    if (offset >= c.name.start && offset < c.name.end) {
      const occurrence = scan.occurrences[c.dataset];
      if (occurrence)
        return { occurrence, column: c.name.value, columnRange: { start: c.name.start, end: c.name.end } };
    }
  }
  let best: UrnOccurrence | undefined;
  for (const o of scan.occurrences) {
    if (offset >= o.start && offset < o.end && (!best || o.end - o.start < best.end - best.start)) best = o;
  }
  if (!best) return undefined;
  let found = best;
  for (let o: UrnOccurrence | undefined = best; o; o = o.parent === undefined ? undefined : scan.occurrences[o.parent])
    if (o.parsed?.ok && o.parsed.urn.kind === 'schemaField') found = o;
  return { occurrence: found };
}

/** linkAt as it was: the first outermost occurrence found by a walk. */
function linkAtLinear(scan: ScanResult, offset: number): UrnOccurrence | undefined {
  return scan.occurrences.find((x) => x.parent === undefined && offset >= x.start && offset < x.end);
}

function sameEverywhere(text: string, languageId: string): void {
  const scan = scanText(text, languageId, DEFAULT_SETTINGS);
  for (let offset = -1; offset <= text.length + 1; offset++) {
    const fast = occurrenceAt(scan, offset);
    const slow = occurrenceAtLinear(scan, offset);
    // The same object, not just an equal one: the hover and urnAt read its parent chain.
    assert.equal(fast?.occurrence, slow?.occurrence, `occurrence at ${offset} of ${JSON.stringify(text)}`);
    assert.deepEqual(fast, slow, `column at ${offset} of ${JSON.stringify(text)}`);
    const outer = linkAtLinear(scan, offset);
    assert.equal(
      firstRangeAt(scan.occurrences, offset, (x) => x.parent === undefined),
      outer,
      `outermost at ${offset}`,
    );
    if (!outer) assert.equal(linkAt(scan, offset, WITH_URL), false);
  }
}

describe('occurrenceAt through the index of ranges: the same as a walk over the document', () => {
  test('every offset of random code documents (python, sql, plaintext …)', () => {
    fc.assert(
      fc.property(codeDocument, ({ languageId, text }) => sameEverywhere(text, languageId)),
      params(300),
    );
  });

  test('every offset of random YAML documents (columns beside datasets, nested URNs)', () => {
    fc.assert(
      fc.property(yamlDocument, (text) => sameEverywhere(text, 'yaml')),
      params(300),
    );
  });

  test('fixed documents: nested platform URNs, a schemaField, YAML columns', () => {
    sameEverywhere(
      [
        'a = "urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)"',
        'b = "urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD),user_id)"',
        'c = ["urn:li:corpuser:jdoe", "urn:li:mlFeature:(users_table,age)"]',
      ].join('\n'),
      'python',
    );
    sameEverywhere(
      [
        'datasets:',
        '  - urn: urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)',
        '    columns:',
        '      - name: user_id',
        '        description: Primary key.',
        '      - name: email',
        '  - urn: urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)',
        '    columns: {amount: Total, user_id: ~}',
      ].join('\n'),
      'yaml',
    );
  });

  test('random ranges, overlapping and out of order: rangesAt and firstRangeAt find what a walk finds', () => {
    const range = fc
      .tuple(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 20 }))
      .map(([start, length]): Ranged => ({ start, end: start + length }));
    fc.assert(
      fc.property(fc.array(range, { maxLength: 40 }), (ranges) => {
        for (let offset = -1; offset <= 82; offset++) {
          const walked = ranges.filter((r) => offset >= r.start && offset < r.end);
          const found = rangesAt(ranges, offset);
          assert.equal(found.length, walked.length);
          found.forEach((r, i) => assert.equal(r, walked[i]));
          const long = (r: Ranged): boolean => r.end - r.start > 5;
          assert.equal(firstRangeAt(ranges, offset, long), walked.find(long));
        }
      }),
      params(2000),
    );
  });

  test('random ranges, sorted or out of order: rangesEndingIn finds what a walk finds, in array order', () => {
    const range = fc
      .tuple(fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 20 }))
      .map(([start, length]): Ranged => ({ start, end: start + length }));
    fc.assert(
      fc.property(fc.array(range, { maxLength: 40 }), fc.boolean(), (ranges, sortFirst) => {
        // Sorted by start: the scan's occurrences (positions met in array order); unsorted: the sort path.
        if (sortFirst) ranges.sort((a, b) => a.start - b.start);
        for (let from = -1; from <= 82; from += 3) {
          for (const to of [from, from + 1, from + 7, from + 40, 200]) {
            const walked = ranges.filter((r) => r.end >= from && r.end <= to);
            const found = rangesEndingIn(ranges, from, to);
            assert.equal(found.length, walked.length);
            found.forEach((r, i) => assert.equal(r, walked[i]));
          }
        }
      }),
      params(1000),
    );
  });
});
