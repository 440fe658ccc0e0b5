import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { findUrnsInText } from '../../server/src/scan/text';
import { covered, marked, OPTS, topLevel } from './markers';

/** The marked URN is found, whole, as a template: never parsed, never malformed. */
function assertTemplate(source: string): void {
  const { text, urns } = marked(source);
  const [o, ...others] = topLevel(findUrnsInText(text, OPTS));
  assert.equal(others.length, 0, `one URN in ${JSON.stringify(text)}`);
  assert.ok(o, `a URN in ${JSON.stringify(text)}`);
  assert.equal(covered(text, o), covered(text, urns[0]!));
  assert.equal(o.template, true, `${o.urn} is a template`);
  assert.equal(o.parsed, undefined, 'a template is not parsed');
  assert.equal(o.errorRange, undefined, 'a template is never malformed');
}

describe('templated URNs are templates, never malformed', () => {
  test('Python f-string and str.format fields: {name}, {}', () => {
    assertTemplate('f"⟦urn:li:dataset:(urn:li:dataPlatform:{platform},{name},PROD)⟧"');
    assertTemplate('"⟦urn:li:corpuser:{}⟧".format(user)');
    assertTemplate('f"⟦urn:li:corpuser:{user.name!r}⟧"');
  });

  test('JavaScript, shell and Scala interpolation: ${…}', () => {
    assertTemplate('`⟦urn:li:mlFeature:(${table},${feature})⟧`');
    assertTemplate('URN="⟦urn:li:corpuser:${USER}⟧"');
  });

  test('printf-style: %s, %d, %(name)s', () => {
    assertTemplate('"⟦urn:li:corpuser:%s⟧" % user');
    assertTemplate('"⟦urn:li:mlModel:(urn:li:dataPlatform:mlflow,model-%d,PROD)⟧" % run');
    assertTemplate('"⟦urn:li:dataset:(urn:li:dataPlatform:%(platform)s,%(name)s,PROD)⟧" % row');
  });

  test('Jinja and Go templates: {{ … }}', () => {
    assertTemplate('urn: ⟦urn:li:dataset:(urn:li:dataPlatform:{{ platform }},{{ name }},PROD)⟧');
    assertTemplate('owner: ⟦urn:li:corpuser:{{ .User }}⟧');
  });

  test('a string cut by concatenation: Python/JS/Java/Go `+`, SQL `||`', () => {
    assertTemplate('urn = "⟦urn:li:dataset:(⟧" + platform + "," + name + ",PROD)"');
    assertTemplate("'⟦urn:li:dataset:(urn:li:dataPlatform:hive,⟧' + name + ',PROD)'");
    assertTemplate('"⟦urn:li:corpuser:⟧" + user');
    assertTemplate("SELECT '⟦urn:li:corpuser:⟧' || login FROM users");
  });

  test('a nested URN cut by a concatenation after a space is a template, as its tuple is', () => {
    // Hovered on db.t this said "unbalanced parenthesis" when the space came before the cut.
    for (const space of [' ', '\t', '']) {
      const text = `f = "urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,db.t${space}" + x`;
      const found = findUrnsInText(text, OPTS);
      const dataset = found.find((o) => o.urn.startsWith('urn:li:dataset:'));
      assert.equal(found[0]?.template, true, JSON.stringify(text));
      assert.equal(dataset?.template, true, `${JSON.stringify(text)}: the nested dataset`);
      assert.equal(dataset?.errorRange, undefined, 'never malformed');
    }
  });

  test('documentation placeholders in a tuple: <name>', () => {
    assertTemplate('⟦urn:svc:mlFeature:(<feature_table_name>,<feature_name>)⟧');
  });

  test('the concrete platform inside a templated dataset is still a (non-template) nested occurrence', () => {
    const { text } = marked('f"urn:li:dataset:(urn:li:dataPlatform:hive,{name},PROD)"');
    const [outer, platform] = findUrnsInText(text, OPTS);
    assert.equal(outer?.template, true);
    assert.equal(platform?.parent, 0);
    assert.equal(platform?.template, false);
    assert.equal(platform?.parsed?.ok, true);
  });

  test('percent-encoded characters are not templates (%2C, a %d0 byte)', () => {
    for (const urn of ['urn:li:dataset:(urn:li:dataPlatform:hive,a%2Cb,PROD)', 'urn:li:corpuser:caf%d0%b5']) {
      const [o] = findUrnsInText(`"${urn}"`, OPTS);
      assert.equal(o?.template, false, urn);
      assert.equal(o?.parsed?.ok, true, urn);
    }
  });

  test('a quote without concatenation is a cut, not a template: the URN is malformed', () => {
    const [o] = findUrnsInText('"urn:li:dataset:(urn:li:dataPlatform:hive,db.users"', OPTS);
    assert.equal(o?.template, false);
    assert.equal(o?.parsed?.ok, false);
  });
});

describe('what the real-repository survey found (docs/real-repos.md)', () => {
  test('a shell command substitution $(…) is a template', () => {
    assertTemplate('"deterministic_urn": "⟦urn:li:tag:$(echo⟧ -n tag:pii | md5sum)"');
  });

  test('an upper-case entity type with an underscore is a placeholder: urn:li:ENTITY_TYPE:id', () => {
    assertTemplate('# ⟦urn:li:ENTITY_TYPE:identifier⟧');
    const [wrongCase] = topLevel(findUrnsInText('x = "urn:li:DATASET:(urn:li:dataPlatform:hive,t,PROD)"', OPTS));
    assert.equal(wrongCase?.template, false, 'a registry type in the wrong case is still checked (did you mean)');
    assert.equal(wrongCase?.parsed?.ok, false);
  });

  test('a literal that stops right after the tuple\'s "(" is a prefix in code, not a URN', () => {
    for (const code of [
      'if urn.startswith("urn:li:dataFlow:("):',
      'rest = urn[len("urn:li:dataset:("):]',
      "String p = 'urn:li:dataset:(';",
    ]) {
      assert.deepEqual(findUrnsInText(code, OPTS), [], code);
    }
    const [user] = topLevel(findUrnsInText('u = "urn:li:corpuser:("', OPTS));
    assert.equal(user?.parsed?.ok, false, "a user's key is one part: '(' there is an error, not a tuple's prefix");
    const [cut] = topLevel(findUrnsInText('see urn:li:dataset:(\nnext line', OPTS));
    assert.equal(cut?.parsed?.ok, false, 'in prose, a URN cut by a line break is still reported');
    const [joined] = topLevel(findUrnsInText('u = "urn:li:dataset:(" + name + ",PROD)"', OPTS));
    assert.equal(joined?.template, true, 'cut by a concatenation with a name: a template, as before');
  });
});
