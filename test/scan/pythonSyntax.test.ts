import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readConcatenatedLiteral } from '../../server/src/scan/pythonSyntax';
import { findBuilderCalls } from '../../server/src/scan/python';
import { findPythonClassCalls } from '../../server/src/scan/pythonClasses';

/** The literal read at the first quote's prefix or quote (the text's first non-space). */
function read(text: string, limit?: number) {
  const at = text.search(/\S/);
  return readConcatenatedLiteral(text, at, limit);
}

describe('readConcatenatedLiteral: Python joins adjacent string literals', () => {
  test('one literal is itself', () => {
    assert.deepEqual(read('"db.users", x'), { value: 'db.users', start: 0, end: 10, computed: false });
  });

  test('adjacent literals are one string, from the first start to the last end', () => {
    const text = `"db." 'us' """ers"""`;
    assert.deepEqual(read(text), { value: 'db.users', start: 0, end: text.length, computed: false });
  });

  test('across line breaks, comments and line continuations, with prefixes and escapes', () => {
    const text = ['r"db\\." # the schema', "  u'us' \\", '  "e\\x72s")'].join('\n');
    const literal = read(text);
    assert.equal(literal?.value, 'db\\.users');
    assert.equal(literal?.end, text.length - 1);
  });

  test('an f-string or bytes part makes the whole computed', () => {
    assert.equal(read('"db." f"{name}"')?.computed, true);
    assert.equal(read('b"db." "users"')?.computed, true);
    assert.equal(read('"db." "users"')?.computed, false);
  });

  test('`+`, a name or a call after a literal ends the join', () => {
    assert.equal(read('"db." + "users"')?.value, 'db.');
    assert.equal(read('"db." name')?.value, 'db.');
    assert.equal(read('"db."("users")')?.value, 'db.');
  });

  test('no literal at the offset, or a literal not closed before the limit: undefined', () => {
    assert.equal(read('name "db."'), undefined);
    assert.equal(read('"db.users"', 5), undefined);
    assert.equal(read('"db.'), undefined);
  });

  test('a second literal not closed before the limit leaves the first as it is', () => {
    assert.deepEqual(read('"db." "users"', 9), { value: 'db.', start: 0, end: 5, computed: false });
  });
});

describe('the builder and the URN class extractors join literals alike', () => {
  const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';

  test('adjacent literals across lines in a builder call and in a class call', () => {
    const joined = '"db."  # schema\n    "users"';
    assert.deepEqual(
      findBuilderCalls(`make_dataset_urn("hive", ${joined})`).occurrences.map((o) => o.urn),
      [DATASET],
    );
    assert.deepEqual(
      findPythonClassCalls(`DatasetUrn("hive", ${joined})`).occurrences.map((o) => o.urn),
      [DATASET],
    );
  });

  test('a computed part leaves the call unread by both', () => {
    assert.deepEqual(findBuilderCalls('make_dataset_urn("hive", "db." f"{t}")').occurrences, []);
    assert.deepEqual(findPythonClassCalls('DatasetUrn("hive", "db." f"{t}")').occurrences, []);
  });
});
