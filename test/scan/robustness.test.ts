import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { scanDocument } from '../../server/src/scan';
import { OPTS } from './markers';

// Inputs that once made a scan quadratic or overflow the stack. Each finishes in a few hundred ms;
// the timeout only catches a regression (a quadratic scan of these takes minutes).
const LIMIT = { timeout: 20_000 };

describe('scans stay linear and never throw on hostile input', () => {
  test(
    'thousands of unclosed builder calls (a file being typed) are not each read to the end of the file',
    LIMIT,
    () => {
      for (const text of [
        'make_dataset_urn('.repeat(8000),
        'make_user_urn("""'.repeat(8000),
        'make_dataset_urn(\n'.repeat(8000),
      ]) {
        const result = scanDocument(text, 'python', OPTS);
        assert.deepEqual(result.occurrences, []);
      }
    },
  );

  test('builder calls on one long comment line are skipped, reading the line once', LIMIT, () => {
    const result = scanDocument('# ' + 'make_user_urn("a") '.repeat(20000), 'python', OPTS);
    assert.deepEqual(result.occurrences, []);
  });

  test('tuples nested thousands deep: no stack overflow, nesting looked into a few levels', LIMIT, () => {
    for (const language of ['python', 'yaml', 'plaintext']) {
      const result = scanDocument('urn:li:dataset:('.repeat(20000), language, OPTS);
      assert.ok(result.occurrences.length >= 1 && result.occurrences.length <= 8, language);
      assert.equal(result.occurrences[0]?.parsed?.ok, false);
    }
  });

  test('unmatched template braces do not rescan the line', LIMIT, () => {
    const [o] = scanDocument('urn:li:corpuser:' + '{'.repeat(100_000), 'plaintext', OPTS).occurrences;
    assert.equal(o?.template, false);
  });

  test(
    'string literals: joined pieces, comment lines before a piece, escapes and unclosed quotes stay linear',
    LIMIT,
    () => {
      const inputs: Array<[string, string, number]> = [
        ['python', '"urn:li:corpuser:a" '.repeat(50_000), 50_000],
        ['python', '("urn:li:dataset:(" \n'.repeat(20_000), -1],
        ['typescript', '"urn:li:dataset:(" + '.repeat(20_000), -1],
        [
          'python',
          ('# "x\n'.repeat(10) + '  "urn:li:dataset:(urn:li:dataPlatform:hive,"\n  "b,PROD)"\n').repeat(2_000),
          2_000,
        ],
        ['python', 'x'.repeat(200_000) + '\n' + '"urn:li:corpuser:q"\n"z"\n'.repeat(20_000), 20_000],
        ['json', '"urn:li:corpuser:a \\u0041 '.repeat(20_000), 20_000],
        ['sql', "'urn:li:corpuser:o''b ".repeat(20_000), 20_000],
        ['javascript', '"urn:li:dataset:(urn:li:dataPlatform:hive,db.\\u0075sers,PROD)"\n'.repeat(20_000), 20_000],
      ];
      for (const [language, text, expected] of inputs) {
        const top = scanDocument(text, language, OPTS).occurrences.filter((o) => o.parent === undefined);
        if (expected >= 0) assert.equal(top.length, expected, `${language}: ${text.slice(0, 40)}`);
      }
    },
  );

  test('YAML nested deeper than the parser can follow is read as text, with a problem', LIMIT, () => {
    const flow = '['.repeat(20000) + 'urn:li:corpuser:a' + ']'.repeat(20000);
    const block = Array.from({ length: 1500 }, (_, i) => ' '.repeat(i) + '- ').join('\n') + 'urn:li:corpuser:a\n';
    for (const text of [flow, block]) {
      const result = scanDocument(text, 'yaml', OPTS);
      assert.deepEqual(
        result.occurrences.map((o) => [o.urn, o.source]),
        [['urn:li:corpuser:a', 'text']],
      );
      assert.match(result.problems[0]?.message ?? '', /nested more than/);
    }
  });

  test('ordinary YAML with many brackets in strings is still read as YAML', () => {
    const text =
      Array.from({ length: 1200 }, (_, i) => `k${i}: "[unclosed ${i}" # urn:li:corpuser:u${i}`).join('\n') +
      '\nowner: urn:li:corpuser:x\n';
    const result = scanDocument(text, 'yaml', OPTS);
    assert.deepEqual(result.problems, []);
    assert.equal(result.occurrences.at(-1)?.source, 'yaml');
  });
});
