import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { extractorsFor, scanDocument } from '../../server/src/scan';
import { covered, marked, OPTS } from './markers';

describe('scanDocument picks the extractors by language', () => {
  test('yaml → the YAML extractor (with structure, columns and descriptions)', () => {
    const text = 'urn: urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)\ncolumns:\n  - name: a\n';
    const result = scanDocument(text, 'yaml', OPTS);
    assert.deepEqual(extractorsFor('yaml'), ['yaml']);
    assert.equal(result.occurrences[0]?.source, 'yaml');
    assert.equal(result.columns.length, 1);
    assert.equal(result.descriptions.length, 1);
  });

  test('python → the text extractor and the builder extractor, merged in document order', () => {
    const { text, urns } = marked(
      [
        'A = "⟦urn:li:dataset:(⟦urn:li:dataPlatform:hive⟧,db.a,PROD)⟧"',
        'B = ⟦make_dataset_urn("hive", "db.b")⟧',
        'C = "⟦urn:li:corpuser:jdoe⟧"  # ⟦urn:li:corpuser:ann⟧',
      ].join('\n'),
    );
    const result = scanDocument(text, 'python', OPTS);
    assert.deepEqual(
      result.occurrences.map((o) => covered(text, o)),
      urns.map((r) => covered(text, r)),
    );
    assert.deepEqual(
      result.occurrences.map((o) => o.source),
      ['text', 'text', 'builder', 'text', 'text'],
    );
    assert.equal(result.occurrences[1]?.parent, 0, 'parent indexes refer to the merged list');
  });

  test('python: URN literals inside a builder call are not reported twice; parents are renumbered after it', () => {
    const text =
      'p = make_dataset_urn("urn:li:dataPlatform:hive", "db.users")\nq = "urn:li:dataset:(urn:li:dataPlatform:kafka,t,PROD)"\n';
    const result = scanDocument(text, 'python', OPTS);
    assert.deepEqual(
      result.occurrences.map((o) => [o.source, o.urn, o.parent]),
      [
        ['builder', 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)', undefined],
        ['text', 'urn:li:dataset:(urn:li:dataPlatform:kafka,t,PROD)', undefined],
        ['text', 'urn:li:dataPlatform:kafka', 1],
      ],
    );
  });

  test('every other language → the text extractor alone', () => {
    for (const language of [
      'typescript',
      'sql',
      'markdown',
      'json',
      'plaintext',
      'shellscript',
      'go',
      'scala',
      'some-new-language',
    ]) {
      assert.deepEqual(extractorsFor(language), ['text'], language);
      const result = scanDocument('x = make_user_urn("jdoe") # urn:li:corpuser:jdoe', language, OPTS);
      assert.deepEqual(
        result.occurrences.map((o) => o.source),
        ['text'],
        language,
      );
    }
  });

  test('a language id that names an Object.prototype member is just another language', () => {
    assert.deepEqual(extractorsFor('constructor'), ['text']);
    assert.deepEqual(extractorsFor('__proto__'), ['text']);
  });
});
