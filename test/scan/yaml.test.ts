import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { findUrnsInYaml } from '../../server/src/scan/yaml';
import type { UrnOccurrence } from '../../server/src/scan/types';
import { covered, marked, OPTS, rangesOf, topLevel } from './markers';

/** The marked (top-level) URNs are found with exactly these source ranges; returns them. */
function assertYamlFinds(source: string): { text: string; found: UrnOccurrence[] } {
  const { text, urns } = marked(source);
  const result = findUrnsInYaml(text, OPTS);
  assert.deepEqual(result.problems, [], 'no syntax error');
  const found = topLevel(result);
  assert.deepEqual(
    found.map((o) => covered(text, o)),
    urns.map((r) => covered(text, r)),
  );
  assert.deepEqual(rangesOf(found), urns);
  return { text, found };
}

const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';

describe('YAML: URNs in every scalar style, mapped back to the source characters', () => {
  test('plain, single-quoted and double-quoted values; the URN is the scalar itself', () => {
    const { found } = assertYamlFinds(`a: ⟦${DS}⟧\nb: '⟦${DS}⟧'\nc: "⟦${DS}⟧"\n`);
    for (const o of found) {
      assert.equal(o.urn, DS);
      assert.equal(o.source, 'yaml');
      assert.equal(o.parsed?.ok, true);
    }
  });

  test("single quotes: '' before the URN shifts nothing", () => {
    const { found } = assertYamlFinds("note: 'it''s owned by ⟦urn:li:corpuser:jdoe⟧, isn''t it'\n");
    assert.equal(found[0]?.urn, 'urn:li:corpuser:jdoe');
  });

  test('double quotes: escapes before and inside the URN (\\" and \\u0041) map to the source', () => {
    const { found } = assertYamlFinds(
      'note: "say \\"hi\\" to ⟦urn:li:corpuser:\\u0041nn⟧ and ⟦urn:li:corpuser:b\\x6Fb⟧"\n',
    );
    assert.deepEqual(
      found.map((o) => o.urn),
      ['urn:li:corpuser:Ann', 'urn:li:corpuser:bob'],
    );
    assert.ok(found.every((o) => o.parsed?.ok));
  });

  test('double quotes: an escaped line break inside the URN joins the lines without a space', () => {
    const { found } = assertYamlFinds('urn: "⟦urn:li:dataset:(urn:li:dataPlatform:hive,\\\n   db.users,PROD)⟧"\n');
    assert.equal(found[0]?.urn, DS);
    assert.equal(found[0]?.parsed?.ok, true);
  });

  test('block literal |: each line keeps its place', () => {
    const { found } = assertYamlFinds(
      `description: |\n  First line.\n  Derived from ⟦${DS}⟧\n    and ⟦urn:li:corpuser:jdoe⟧.\n`,
    );
    assert.equal(found[0]?.urn, DS);
  });

  test('folded >: a URN on a folded line; a URN split by folding holds the folded space', () => {
    const { found } = assertYamlFinds(
      `description: >\n  Rows come from\n  ⟦${DS}⟧ daily\n  and ⟦urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,\n  PROD)⟧ too.\n`,
    );
    assert.equal(found[0]?.urn, DS);
    assert.equal(found[1]?.urn, 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders, PROD)');
    assert.equal(found[1]?.parsed?.ok, false, 'the folded line break is a space inside the env');
  });

  test('a multi-line plain scalar: the error of a URN split across lines points at the source', () => {
    const { text, urns, errors } = marked(
      'desc: see ⟦urn:li:dataset:(urn:li:dataPlatform:hive,db.users,⟪\n  PROD⟫)⟧ here\n',
    );
    const [o] = topLevel(findUrnsInYaml(text, OPTS));
    assert.deepEqual({ start: o?.start, end: o?.end }, urns[0]);
    assert.match(o?.errorRange?.error.message ?? '', /env must be a word/);
    assert.deepEqual({ start: o?.errorRange?.start, end: o?.errorRange?.end }, errors[0]);
  });

  test('keys, flow mappings and flow sequences', () => {
    assertYamlFinds(
      `⟦urn:li:corpuser:owner⟧: admin\nflow: {⟦urn:li:corpuser:k⟧: v, k2: ⟦urn:li:corpuser:v⟧}\nlist: [⟦urn:li:corpuser:a⟧, '⟦urn:li:corpuser:b⟧', "⟦${DS}⟧"]\n`,
    );
  });

  test('in flow context commas split plain scalars as YAML does: an unquoted tuple URN is cut (and malformed)', () => {
    const { text } = marked('groups: [urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,churn-model,PROD)]\n');
    const [o] = topLevel(findUrnsInYaml(text, OPTS));
    assert.equal(o?.urn, 'urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow');
    assert.match(o?.errorRange?.error.message ?? '', /unbalanced parenthesis/);
    // In block context the same plain scalar holds its commas.
    const [block] = topLevel(
      findUrnsInYaml('group: urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,churn-model,PROD)\n', OPTS),
    );
    assert.equal(block?.parsed?.ok, true);
    assert.equal(block?.cutInFlow, undefined);
  });

  test('a URN cut by a flow comma knows the whole URN the source holds, in sequences and mappings, in any namespace', () => {
    const group = 'urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,churn-model,PROD)';
    const svc = 'urn:svc:dataset:(urn:svc:dataPlatform:hive,db.users,PROD)';
    const text = `groups: [${group}, x]\nmap: {ds: ${svc}}\nnested: [[a, ${DS}]]\nkey: {${DS}: d}\nspaced: [${svc} , ${group} # c\n  ]\n`;
    const cut = topLevel(findUrnsInYaml(text, OPTS)).filter((o) => o.cutInFlow);
    assert.deepEqual(
      cut.map((o) => text.slice(o.start, o.cutInFlow!.end)),
      [group, svc, DS, DS, svc, group],
    );
    assert.deepEqual(
      cut.map((o) => o.cutInFlow!.urn),
      [group, svc, DS, DS, svc, group],
    );
  });

  test('no cut URN where the source does not hold one: quoted, not the whole value, unbalanced, across lines, or not a URN', () => {
    for (const text of [
      `a: ["${DS}"]\n`, // quoted: not cut at all
      `a: [see ${DS}]\n`, // the URN is not the whole value: quoting it would not make one value
      'a: [urn:li:dataset:(urn:li:dataPlatform:hive, db]\n', // the collection ends before the URN does
      'a: [urn:li:dataset:(urn:li:dataPlatform:hive,\n  db.users,PROD)]\n', // across lines
      'a: [urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)x]\n', // more text after the closing parenthesis
      `a: [${DS} ${DS}]\n`, // a missing comma: the value goes on after a space, quoting the first would break the file
      `a: {${DS}:x}\n`, // ':' with no space after it does not end a key
      'a: [urn:li:dataset:(urn:li:dataPlatform:hive,db.users)]\n', // two parts: still malformed when whole
    ]) {
      const found = topLevel(findUrnsInYaml(text, OPTS));
      assert.ok(
        found.every((o) => o.cutInFlow === undefined),
        text,
      );
    }
  });

  test('nested platform occurrences point at their dataset, mapped through the quotes', () => {
    const text = `a: "${DS}"\n`;
    const result = findUrnsInYaml(text, OPTS);
    const platform = result.occurrences[1];
    assert.equal(platform?.parent, 0);
    assert.equal(covered(text, platform), 'urn:li:dataPlatform:hive');
    assert.equal(platform?.source, 'yaml');
  });

  test('URNs in comments are found by the text extractor', () => {
    const { text } = marked('# owner urn:li:corpuser:jdoe\nkey: value # see urn:li:corpuser:ann\n');
    const found = findUrnsInYaml(text, OPTS).occurrences;
    assert.deepEqual(
      found.map((o) => [o.urn, o.source]),
      [
        ['urn:li:corpuser:jdoe', 'text'],
        ['urn:li:corpuser:ann', 'text'],
      ],
    );
  });

  test('templates in YAML values stay templates', () => {
    const [o] = findUrnsInYaml(
      'urn: "urn:li:dataset:(urn:li:dataPlatform:{{ platform }},{{ name }},PROD)"\n',
      OPTS,
    ).occurrences;
    assert.equal(o?.template, true);
    assert.equal(o?.errorRange, undefined);
  });
});

describe('YAML: the structure around each URN', () => {
  const SAMPLE = [
    'feature_tables:',
    '  - urn: urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users_table)',
    '    description: Users.',
    '    features:',
    '      - urn:li:mlFeature:(users_table,age)',
    '      - "urn:li:mlFeature:(users_table,signup_days)"',
    'models:',
    '  - name: churn',
    '    groups: ["urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,churn-model,PROD)"]',
    '    model_urn: urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn-model-v3,PROD)',
    '',
  ].join('\n');

  test('keyPath: keys and list indexes from the root', () => {
    const found = topLevel(findUrnsInYaml(SAMPLE, OPTS));
    assert.deepEqual(
      found.map((o) => o.yaml?.keyPath),
      [
        ['feature_tables', 0, 'urn'],
        ['feature_tables', 0, 'features', 0],
        ['feature_tables', 0, 'features', 1],
        ['models', 0, 'groups', 0],
        ['models', 0, 'model_urn'],
      ],
    );
  });

  test('siblings: the scalar pairs of the mapping, with value, node range and style', () => {
    const [table] = findUrnsInYaml(SAMPLE, OPTS).occurrences;
    const siblings = table?.yaml?.siblings;
    assert.deepEqual(Object.keys(siblings ?? {}), ['urn', 'description']);
    const description = siblings?.['description'];
    assert.equal(description?.value, 'Users.');
    assert.equal(description?.style, 'PLAIN');
    assert.equal(SAMPLE.slice(description.start, description.end), 'Users.');
  });

  test('listKey and owner: a list item under a mapping that holds a URN', () => {
    const found = topLevel(findUrnsInYaml(SAMPLE, OPTS));
    const feature = found[2]!;
    assert.equal(feature.yaml?.listKey, 'features');
    const owner = feature.yaml?.owner;
    assert.equal(owner?.urn, 'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users_table)');
    assert.equal(SAMPLE.slice(owner.start, owner.end), owner.urn, 'owner range covers the owner URN');
    assert.equal(
      Object.keys(feature.yaml?.siblings ?? {}).join(),
      'urn,description',
      'siblings of the mapping that holds the list',
    );
  });

  test('owner under a URN-like key that comes after the list (model_urn), with a quoted item in a flow list', () => {
    const group = topLevel(findUrnsInYaml(SAMPLE, OPTS))[3]!;
    assert.equal(group.yaml?.listKey, 'groups');
    assert.equal(group.yaml?.owner?.urn, 'urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn-model-v3,PROD)');
    assert.equal(SAMPLE.slice(group.yaml.owner.start, group.yaml.owner.end), group.yaml.owner.urn);
  });

  test('no owner when the mapping holds no URN; a URN that is a plain value has no listKey', () => {
    const found = topLevel(findUrnsInYaml('tags:\n  - urn:li:tag:pii\nowner: urn:li:corpuser:jdoe\n', OPTS));
    assert.equal(found[0]?.yaml?.listKey, 'tags');
    assert.equal(found[0]?.yaml?.owner, undefined);
    assert.equal(found[1]?.yaml?.listKey, undefined);
  });

  test('multi-document files: documentIndex counts the documents', () => {
    const found = topLevel(
      findUrnsInYaml(
        'a: urn:li:corpuser:one\n---\nb: urn:li:corpuser:two\n---\n# none\n---\nc: urn:li:corpuser:three\n',
        OPTS,
      ),
    );
    assert.deepEqual(
      found.map((o) => [o.urn, o.yaml?.documentIndex]),
      [
        ['urn:li:corpuser:one', 0],
        ['urn:li:corpuser:two', 1],
        ['urn:li:corpuser:three', 3],
      ],
    );
  });
});

describe('YAML: a syntax error does not hide URNs elsewhere', () => {
  test('an error in one document: the other documents are read as YAML, the problem is reported with its range', () => {
    const text =
      'a: urn:li:corpuser:one\n---\nb: [urn:li:corpuser:two\nc: urn:li:corpuser:three\n---\nd: urn:li:corpuser:four\n';
    const result = findUrnsInYaml(text, OPTS);
    const urns = topLevel(result).map((o) => o.urn);
    for (const u of ['urn:li:corpuser:one', 'urn:li:corpuser:two', 'urn:li:corpuser:three', 'urn:li:corpuser:four']) {
      assert.ok(urns.includes(u), `${u} is found`);
    }
    assert.equal(result.occurrences.find((o) => o.urn === 'urn:li:corpuser:four')?.yaml?.documentIndex, 2);
    assert.ok(result.problems.length > 0, 'the syntax error is reported');
    const problem = result.problems[0]!;
    assert.ok(
      problem.start >= text.indexOf('---\nb:') && problem.end <= text.lastIndexOf('---'),
      'the problem lies in the broken document',
    );
    assert.ok(problem.end > problem.start);
  });

  test('an unclosed quote: the URNs after it are found by the text extractor, with exact ranges', () => {
    const source = 'a: "unclosed ⟦urn:li:corpuser:one⟧\nb: ⟦urn:li:corpuser:two⟧\n';
    const { text, urns } = marked(source);
    const result = findUrnsInYaml(text, OPTS);
    assert.deepEqual(rangesOf(topLevel(result)), urns);
    assert.ok(result.occurrences.every((o) => o.source === 'text'));
    assert.match(result.problems[0]?.message ?? '', /quote/);
  });
});
