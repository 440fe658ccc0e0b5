/** The parse cache (server/src/scan/parseCache.ts): shared parses across scans, and what it keeps after a close. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  clearParseCache,
  parseCacheSize,
  parseUrnAt,
  parseUrnCached,
  retainParseCache,
} from '../../server/src/scan/parseCache';

const urn = (i: number): string => `urn:li:dataset:(urn:li:dataPlatform:hive,db.t_${i},PROD)`;

describe('parse cache', () => {
  test('the same URN text anywhere gives one shared string and parse', () => {
    clearParseCache();
    const text = `a = "${urn(1)}"; b = "${urn(1)}"`;
    const first = parseUrnAt(text, 5, 5 + urn(1).length);
    const start = text.lastIndexOf('urn:li:dataset');
    const second = parseUrnAt(text, start, start + urn(1).length);
    assert.equal(second, first);
    assert.equal(parseUrnCached(urn(1)), first.parsed);
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
});
