import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { findUrnsInText } from '../../server/src/scan/text';
import { covered, marked, OPTS, rangesOf, topLevel } from './markers';

/** Every marked range is an occurrence, and nothing else is (nested ones included). */
function assertFinds(source: string, opts: { namespaces: readonly string[] } = OPTS): void {
  const { text, urns } = marked(source);
  const found = findUrnsInText(text, opts);
  assert.deepEqual(
    found.map((o) => covered(text, o)),
    urns.map((r) => covered(text, r)),
    `in ${JSON.stringify(text)}`,
  );
  assert.deepEqual(rangesOf(found), urns);
  for (const o of found) assert.equal(o.urn, covered(text, o), 'a text occurrence is the source text itself');
}

const DS = 'urn:li:dataset:(⟦urn:li:dataPlatform:hive⟧,db.users,PROD)';

describe('text extractor: URN literals in every language, in strings and comments', () => {
  const samples: Record<string, string> = {
    python: `USERS = "⟦${DS}⟧"  # also ⟦urn:li:corpuser:jdoe⟧\nowner = '⟦urn:li:corpuser:x⟧'`,
    typescript: `const users: string = '⟦${DS}⟧'; // owner ⟦urn:li:corpuser:jdoe⟧\nconst t = \`⟦urn:li:mlFeature:(users_table,age)⟧\`;`,
    javascript: `/* see ⟦urn:li:corpuser:jdoe⟧ */ module.exports = ["⟦${DS}⟧"];`,
    java: `String urn = "⟦${DS}⟧"; // ⟦urn:li:corpuser:jdoe⟧`,
    scala: `val model = "⟦urn:li:mlModel:(⟦urn:li:dataPlatform:mlflow⟧,churn-model-v3,PROD)⟧" // run 3`,
    go: 'const group = `⟦urn:li:mlModelGroup:(⟦urn:li:dataPlatform:mlflow⟧,churn-model,PROD)⟧`',
    sql: `-- owner: ⟦urn:li:corpuser:jdoe⟧\nSELECT * FROM t WHERE urn = '⟦${DS}⟧';`,
    json: `{"urn": "⟦${DS}⟧", "owners": ["⟦urn:li:corpuser:jdoe⟧"]}`,
    markdown: `The table \`⟦${DS}⟧\` is owned by [jdoe](⟦urn:li:corpuser:jdoe⟧) and <⟦urn:li:corpuser:ann⟧>.`,
    shell: `datahub get --urn "⟦${DS}⟧" # then ⟦urn:li:corpuser:jdoe⟧\necho ⟦urn:li:corpuser:x⟧;`,
    plaintext: `Features ⟦urn:li:mlFeature:(users_table,age)⟧ and ⟦urn:li:mlFeatureTable:(⟦urn:li:dataPlatform:feast⟧,users_table)⟧ exist.`,
  };
  for (const [language, source] of Object.entries(samples)) {
    test(`${language}: finds exactly the marked URNs with exact ranges`, () => assertFinds(source));
  }

  test('every occurrence of a well-formed URN is parsed', () => {
    const { text } = marked(samples['python']!);
    for (const o of findUrnsInText(text, OPTS)) assert.equal(o.parsed?.ok, true, o.urn);
  });
});

describe('text extractor: nested URNs', () => {
  test('the dataPlatform inside a dataset is its own occurrence whose parent is the dataset', () => {
    const { text } = marked(`x = "${DS}"`);
    const [outer, platform, ...rest] = findUrnsInText(text, OPTS);
    assert.equal(rest.length, 0);
    assert.equal(outer?.parent, undefined);
    assert.equal(platform?.parent, 0);
    assert.equal(platform?.urn, 'urn:li:dataPlatform:hive');
    assert.ok(outer?.parsed?.ok && outer.parsed.platformUrn);
    assert.equal(outer.start + outer.parsed.platformUrn.start, platform.start, 'same place as the parser says');
  });

  test('a dataset inside a schemaField tuple is an occurrence too, and its platform a grandchild', () => {
    const source = `⟦urn:li:schemaField:(⟦${DS}⟧,user_id)⟧`;
    assertFinds(source);
    const found = findUrnsInText(marked(source).text, OPTS);
    assert.deepEqual(
      found.map((o) => o.parent),
      [undefined, 0, 1],
    );
  });
});

describe('text extractor: where a URN ends', () => {
  test('a simple id ends at whitespace, quotes, backticks and closing punctuation', () => {
    assertFinds('⟦urn:li:corpuser:a⟧,⟦urn:li:corpuser:b⟧;⟦urn:li:corpuser:c⟧)⟦urn:li:corpuser:d⟧]⟦urn:li:corpuser:e⟧}');
    assertFinds(
      '<⟦urn:li:corpuser:f⟧> "⟦urn:li:corpuser:g⟧" \'⟦urn:li:corpuser:h⟧\' `⟦urn:li:corpuser:i⟧` ⟦urn:li:corpuser:j⟧\\n',
    );
  });

  test('prose: a trailing full stop or colon is not part of the URN', () => {
    assertFinds('Ask ⟦urn:li:corpuser:jdoe⟧. Then ⟦urn:li:corpuser:ann⟧: done. Also ⟦urn:li:corpuser:j.doe⟧...');
  });

  test('a tuple id runs to its matching parenthesis, commas and spaces included', () => {
    assertFinds('(⟦urn:li:dataset:(⟦urn:li:dataPlatform:hive⟧,my table,PROD)⟧)');
  });

  test('URNs at the very end of the text', () => {
    assertFinds('owner ⟦urn:li:corpuser:jdoe⟧');
    assertFinds(`⟦${DS}⟧`);
  });

  test('offsets are UTF-16 offsets (characters outside the BMP before the URN count twice)', () => {
    const source = '😀 émoji ⟦urn:li:corpuser:jdoe⟧';
    assertFinds(source);
    assert.equal(findUrnsInText(marked(source).text, OPTS)[0]?.start, 9);
  });
});

describe('text extractor: what is not a URN of the catalog', () => {
  test('urn:isbn:… and other namespace words are ignored', () => {
    assertFinds('urn:isbn:0451450523 urn:uuid:6e8bc430 urn:lix:dataset:(a,b,c) ⟦urn:li:corpuser:x⟧');
  });

  test("'urn:' preceded by a letter, digit, '_', '-' or ':' does not start a URN", () => {
    assertFinds(
      'xurn:li:corpuser:a 9urn:li:corpuser:b _urn:li:corpuser:c -urn:li:corpuser:d urn:urn:li:corpuser:e .⟦urn:li:corpuser:f⟧',
    );
  });

  test('the svc namespace is recognised, and only the configured words are', () => {
    assertFinds('⟦urn:svc:mlFeature:(users_table,age)⟧ ⟦urn:li:corpuser:x⟧');
    assertFinds('urn:svc:mlFeature:(users_table,age) ⟦urn:li:corpuser:x⟧', { namespaces: ['li'] });
  });

  test('a bare prefix in code (no id) is not reported', () => {
    assertFinds('if urn.startswith("urn:li:dataset:") or kind == "urn:li:corpuser" or p == "urn:li:":');
  });
});

describe('text extractor: malformed URNs carry the parser error at its document range', () => {
  function assertError(source: string, message: RegExp): void {
    const { text, urns, errors } = marked(source);
    const found = topLevel(findUrnsInText(text, OPTS));
    assert.deepEqual(rangesOf(found), urns);
    const [o] = found;
    assert.ok(o?.parsed && !o.parsed.ok, 'the occurrence is malformed');
    assert.match(o.parsed.error.message, message);
    assert.deepEqual({ start: o.errorRange?.start, end: o.errorRange?.end }, errors[0]);
    assert.equal(o.errorRange?.error, o.parsed.error);
  }

  test('missing env: the whole tuple', () => {
    assertError('x = "⟦urn:li:dataset:⟪(urn:li:dataPlatform:hive,db.users)⟫⟧"', /expected 3 parts/);
  });

  test('an unbalanced parenthesis cut by a line break: the opening parenthesis', () => {
    assertError('x = ⟦urn:li:dataset:⟪(⟫urn:li:dataPlatform:hive,db.users⟧\n  ,PROD)', /unbalanced parenthesis/);
  });

  test('an unbalanced parenthesis cut by a quote', () => {
    assertError('x = "⟦urn:li:mlFeature:⟪(⟫users_table,age⟧"', /unbalanced parenthesis/);
  });

  test('an unknown entity type: the type, with a suggestion', () => {
    assertError(
      '⟦urn:li:⟪datset⟫:(urn:li:dataPlatform:hive,db.users,PROD)⟧',
      /unknown entity type 'datset' \(did you mean dataset\?\)/,
    );
  });

  test('an error in the nested platform is reported at the same place on the outer URN', () => {
    const { text } = marked('urn:li:dataset:(urn:li:dataPlatfrm:hive,db.users,PROD)');
    const [outer, inner] = findUrnsInText(text, OPTS);
    assert.equal(outer?.errorRange?.start, text.indexOf('dataPlatfrm'));
    assert.equal(inner?.parent, 0);
    assert.equal(inner?.errorRange?.start, text.indexOf('dataPlatfrm'));
  });
});
