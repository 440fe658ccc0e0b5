/** The parse cache (server/src/scan/parseCache.ts): shared parses across scans, and what it keeps after a close. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  clearParseCache,
  hashRegion,
  parseCacheSize,
  parseUrnAt,
  parseUrnCached,
  retainParseCache,
  scanSequenceForTests,
  sequenceRoomForTests,
  startScanSequence,
  type SequenceItem,
} from '../../server/src/scan/parseCache';
import { findUrnsInText, scanDocument, type ScanResult } from '../../server/src/scan';
import { parseUrn } from '../../model/src/urn';

const urn = (i: number): string => `urn:li:dataset:(urn:li:dataPlatform:hive,db.t_${i},PROD)`;

describe('parse cache', () => {
  test("a scanned URN's parse is the cached one: the walks' hash of its text is the table's", () => {
    const urns = [
      'urn:svc:corpuser:a',
      'urn:li:corpuser:b',
      'urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)',
      'urn:svc:dataset:(urn:svc:dataPlatform:kafka,x,PROD)',
    ];
    for (const urn of urns) {
      clearParseCache();
      const o = scanDocument(`x = "${urn}"`, 'python', { namespaces: ['li', 'svc'] }).occurrences[0]!;
      assert.equal(o.urn, urn);
      assert.ok(o.parsed, urn);
      assert.strictEqual(parseUrnCached(o.urn), o.parsed, urn);
    }
  });

  test('the same URN text anywhere gives one shared string and parse', () => {
    clearParseCache();
    const text = `a = "${urn(1)}"; b = "${urn(1)}"`;
    const first = parseUrnAt(text, 5, 5 + urn(1).length);
    const start = text.lastIndexOf('urn:li:dataset');
    const second = parseUrnAt(text, start, start + urn(1).length);
    assert.strictEqual(second.urn, first.urn);
    assert.strictEqual(second.parsed, first.parsed);
    assert.equal(parseUrnCached(urn(1)), first.parsed);
  });

  test("clearParseCache keeps one sequence's room, not what it held; retainParseCache (a close) lets both go", () => {
    const text = Array.from({ length: 3_000 }, (_, i) => `x${i} = "${urn(i)}"`).join('\n');
    const cold = (): ScanResult => scanDocument(text, 'python', { namespaces: ['li'] });
    for (const [forget, kept] of [
      [clearParseCache, true],
      [() => retainParseCache([]), false],
    ] as const) {
      clearParseCache();
      const before = cold();
      cold(); // a warm rescan: the first scan's sequence becomes the last one
      forget();
      const { room, spare, held } = sequenceRoomForTests();
      if (kept) assert.ok(room >= 3_000, `room for ${room} items`);
      else assert.equal(room, 0, `room for ${room} items after a close`);
      assert.equal(spare, 0, `the other sequence has room for ${spare} items`);
      assert.equal(held, 0, 'no text, URN or parse of the scans before is held');
      assert.deepEqual(scanSequenceForTests().items, []);
      assert.deepEqual(scanSequenceForTests().last, []);
      // The next scan writes its items in that room and finds what a first scan finds.
      const after = cold();
      assert.deepEqual(after, before);
      const items = scanSequenceForTests().items;
      assert.deepEqual(
        items.map((item) => [item.start, item.end, item.urn]),
        after.occurrences.map((o) => [o.start, o.end, o.urn]),
      );
    }
  });

  test('retainParseCache keeps exactly the URNs given, with the same parses, and drops the rest', () => {
    clearParseCache();
    const kept = Array.from({ length: 10 }, (_, i) => ({ urn: urn(i), parsed: parseUrnCached(urn(i)) }));
    const dropped = Array.from({ length: 2_000 }, (_, i) => parseUrnCached(urn(100 + i)));
    assert.ok(parseCacheSize() >= 2_010, `${parseCacheSize()} entries before`);
    retainParseCache(kept);
    assert.equal(parseCacheSize(), 10);
    for (const k of kept) assert.equal(parseUrnCached(k.urn), k.parsed, `${k.urn} is still shared`);
    // A dropped URN is parsed again: an equal result, not the same object.
    const again = parseUrnCached(urn(100));
    assert.notEqual(again, dropped[0]);
    assert.deepEqual(again, dropped[0]);
  });

  test('occurrences without a parse (templates) are passed over', () => {
    clearParseCache();
    retainParseCache([{ urn: 'urn:li:dataset:{x}' }, { urn: urn(1), parsed: parseUrnCached(urn(1)) }]);
    assert.equal(parseCacheSize(), 1);
  });

  test('a rescan after an edit finds what a scan with an empty cache finds (the sequence of the last scan is only a shortcut)', () => {
    const opts = { namespaces: ['li', 'svc'] };
    const lines = Array.from(
      { length: 300 },
      (_, i) => `x${i} = ["${urn(i)}", "urn:li:corpuser:u${i % 7}"]  # urn:li:dataPlatform:hive`,
    );
    const text = lines.join('\n') + '\n';
    const mid = text.indexOf('\n', text.length >> 1) + 1;
    const lineEnd = (at: number, n: number): number => {
      let e = at;
      for (let i = 0; i < n; i++) e = text.indexOf('\n', e) + 1;
      return e;
    };
    const replaceAt = text.indexOf('db.t_', mid);
    const edits: Record<string, string> = {
      unchanged: text,
      'one character typed': text.slice(0, mid) + 'y' + text.slice(mid),
      'a URN changed, the length kept': text.slice(0, replaceAt) + 'db.q_' + text.slice(replaceAt + 5),
      'a line added': text.slice(0, mid) + `z = "${urn(1000)}"\n` + text.slice(mid),
      'three lines removed': text.slice(0, mid) + text.slice(lineEnd(mid, 3)),
      'a hundred lines removed': text.slice(0, mid) + text.slice(lineEnd(mid, 100)),
      'a hundred earlier lines pasted': text.slice(0, mid) + text.slice(0, lineEnd(0, 100)) + text.slice(mid),
    };
    const strip = (r: ScanResult): unknown => JSON.parse(JSON.stringify(r));
    for (const [name, edited] of Object.entries(edits)) {
      clearParseCache();
      const cold = strip(scanDocument(edited, 'python', opts));
      clearParseCache();
      scanDocument(text, 'python', opts);
      const rescan = scanDocument(edited, 'python', opts);
      assert.deepEqual(strip(rescan), cold, name);
      for (const o of rescan.occurrences)
        if (o.parsed) assert.equal(o.parsed, parseUrnCached(o.urn), `${name}: ${o.urn} shares the table's parse`);
    }
  });

  /** An item but its text (which a later scan may set to its own, where the same characters stand). */
  const withoutText = (item: SequenceItem): unknown => ({ ...item, text: undefined });

  test("a rescan's sequence is exactly its lookups in order, shared with the last scan's or written (random edits)", () => {
    const opts = { namespaces: ['li', 'svc'] };
    const piece = fc.constantFrom(
      urn(1),
      urn(2),
      `"${urn(3)}"`,
      'urn:li:corpuser:jdoe',
      'urn:svc:mlFeature:(t,f)',
      'urn:li:dataset:{x}',
      'urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:kafka,s,PROD),c)',
      ' ',
      '\n',
      '(',
      ')',
      ',',
      '"',
      'é',
    );
    const edit = fc.record({ at: fc.nat(), cut: fc.nat({ max: 40 }), insert: fc.array(piece, { maxLength: 3 }) });
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 30 }),
        fc.array(edit, { maxLength: 12 }),
        fc.boolean(),
        (pieces, edits, cold) => {
          if (cold) clearParseCache();
          let text = pieces.join('');
          let before: unknown[] | undefined;
          for (let e = -1; e < edits.length; e++) {
            if (e >= 0) {
              const { at, cut, insert } = edits[e]!;
              const i = at % (text.length + 1);
              text = text.slice(0, i) + insert.join('') + text.slice(i + cut);
            }
            startScanSequence();
            // The scan before's sequence is the one this scan follows (one that met no URN leaves the older one).
            const { last } = scanSequenceForTests();
            if (before !== undefined && before.length > 0) assert.deepEqual(last.map(withoutText), before);
            const looked = findUrnsInText(text, opts).filter((o) => !o.template);
            const { items, youngGeneration } = scanSequenceForTests();
            before = items.map(withoutText);
            assert.equal(items.length, looked.length);
            looked.forEach((o, k) => {
              const item = items[k]!;
              assert.ok(item.text === text, `item ${k} stands in the scanned text`);
              assert.deepEqual(
                [item.start, item.end, item.generation, item.ok],
                [o.start, o.end, youngGeneration, o.parsed!.ok],
              );
              assert.equal(item.hash, hashRegion(text, o.start, o.end) & 0x3fffffff);
              assert.equal(item.urn, o.urn);
              assert.equal(item.parsed, o.parsed);
              // Not only the sequence's own account: the parse is what the URN's text gives parsed anew.
              assert.deepEqual(o.parsed, parseUrn(o.urn), `${o.urn} parsed as its text gives`);
            });
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  test("a rescan shares the table's parse after the table's generations turned over (URNs of the last scan are looked up again)", () => {
    clearParseCache();
    const opts = { namespaces: ['li'] };
    const text = Array.from({ length: 20 }, (_, i) => `"${urn(i)}"`).join('\n');
    const fill = (from: number): void => {
      for (let i = 0; i < 50_001; i++) parseUrnCached(`urn:li:corpuser:fill${from + i}`);
    };
    scanDocument(text, 'python', opts);
    const first = scanSequenceForTests().youngGeneration;
    fill(0);
    assert.ok(scanSequenceForTests().youngGeneration > first, 'the fill turned a generation over');
    scanDocument(text, 'python', opts);
    const second = scanSequenceForTests().youngGeneration;
    fill(100_000);
    assert.ok(scanSequenceForTests().youngGeneration > second, 'and again');
    const rescan = scanDocument(text, 'python', opts);
    assert.equal(rescan.occurrences.length, 40);
    assert.ok(
      scanSequenceForTests().items.every((item) => item.generation === scanSequenceForTests().youngGeneration),
      "each URN of the rescan is of the young generation: looked up again, not the last scan's",
    );
    for (const o of rescan.occurrences)
      assert.equal(o.parsed, parseUrnCached(o.urn), `${o.urn} shares the table's parse`);
  });
});
