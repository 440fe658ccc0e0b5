/**
 * What the parse cache keeps must not keep the document it was read from: each new URN's own copy
 * in the table is a flat string (server/src/scan/parseCache.ts `lookupRegion`). A `text.slice`
 * would be a V8 sliced string pointing into the whole document, so closing a 16 MB file would
 * leave all 16 MB alive for as long as one of its URNs stays in the table. Measured in a child
 * process with `--expose-gc`: the heap after the document and its scan are dropped and collected.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { test } from 'node:test';

const SCAN = path.join(__dirname, '..', '..', 'server', 'src', 'scan', 'index.js');
const PARSE_CACHE = path.join(__dirname, '..', '..', 'server', 'src', 'scan', 'parseCache.js');

const CHILD = `
const { scanDocument } = require(${JSON.stringify(SCAN)});
const { clearParseCache, parseCacheSize } = require(${JSON.stringify(PARSE_CACHE)});
clearParseCache();
globalThis.gc(); globalThis.gc();
const base = process.memoryUsage().heapUsed;
const pieces = [];
for (let i = 0; i < 1000; i++)
  pieces.push('x'.repeat(16000), ' urn:li:dataset:(urn:li:dataPlatform:hive,db.retained_' + i + ',PROD) urn:li:corpuser:user_' + i + '\\n');
let text = pieces.join('');
pieces.length = 0;
const bytes = text.length;
let scan = scanDocument(text, 'plaintext', { namespaces: ['li'] });
const found = scan.occurrences.length;
scan = undefined;
text = undefined;
// Not the table, and let go by the scans that follow: the scans' sequences keep the last scan's
// text (a rescan compares with it in place) and their reused room keeps the one before it until
// it is written over or cut, three scans on; RegExp's legacy statics (RegExp.input, $_) hold the
// last string a regex ran on.
for (let i = 0; i < 3; i++) scanDocument('urn:li:corpuser:other', 'plaintext', { namespaces: ['li'] });
/y/.exec('y');
globalThis.gc(); globalThis.gc();
const grown = process.memoryUsage().heapUsed - base;
process.stdout.write(JSON.stringify({ bytes, found, kept: parseCacheSize(), grown }));
`;

test('the table keeps flat copies of its URNs: a dropped 16 MB document is collected while its URNs stay cached', () => {
  const r = spawnSync(process.execPath, ['--expose-gc', '-e', CHILD], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, r.stderr);
  const { bytes, found, kept, grown } = JSON.parse(r.stdout) as {
    bytes: number;
    found: number;
    kept: number;
    grown: number;
  };
  assert.ok(bytes > 16_000_000, `the document is ${bytes} characters`);
  // 1,000 datasets (each with its platform) and 1,000 users.
  assert.equal(found, 3000);
  assert.ok(kept >= 2001, `the table kept ${kept} URNs`);
  // ~2,000 URNs of ~60 characters with their parses: well under 4 MB; a slice would keep all 16 MB.
  assert.ok(
    grown < 4 * 1024 * 1024,
    `the heap grew by ${(grown / 1024 / 1024).toFixed(1)} MiB after the document was dropped`,
  );
});
