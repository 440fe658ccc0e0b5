import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { findUrnsInYaml } from '../../server/src/scan/yaml';
import type { ScanResult, YamlColumn, YamlDescription } from '../../server/src/scan/types';
import { OPTS } from './markers';

/** The sample workspace layout (examples/catalog/), as the brief gives it. */
const CATALOG = `datasets:
  - urn: urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)
    description: |
      One row per registered user of the product.
    columns:
      - name: user_id
        description: Primary key of the user.
      - name: age          # no description yet
  - urn: "urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)"
    fields:
      - fieldPath: amount
        description: Order total in EUR, after discounts.
---
feature_tables:
  - urn: urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users_table)
    features:
      - urn:li:mlFeature:(users_table,age)
      - urn:li:mlFeature:(users_table,signup_days)
models:
  - urn: urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn-model-v3,PROD)
    groups: [urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,churn-model,PROD)]
    features:
      - urn:li:mlFeature:(users_table,age)
`;

function ownerUrn(result: ScanResult, index: number): string | undefined {
  return result.occurrences[index]?.urn;
}

/** Apply the insertion a pull-description edit would make, the way YamlInsertStyle documents it. */
function insertDescription(text: string, at: YamlColumn | YamlDescription, description: string): string {
  const style = at.insertStyle ?? 'line';
  const insert =
    style === 'line'
      ? `${at.needsLineBreak ? '\n' : ''}${at.indent}description: ${description}\n`
      : style === 'flow'
        ? `, description: ${description}`
        : ` ${description}`;
  return text.slice(0, at.insertAt) + insert + text.slice(at.insertAt);
}

describe('YAML docs-as-code: columns beside a dataset URN', () => {
  test('list form under columns: and fields:, by name: or fieldPath:, with their descriptions', () => {
    const result = findUrnsInYaml(CATALOG, OPTS);
    assert.deepEqual(
      result.columns.map((c) => [ownerUrn(result, c.dataset), c.nameKey, c.name.value, c.description?.value]),
      [
        ['urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)', 'name', 'user_id', 'Primary key of the user.'],
        ['urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)', 'name', 'age', undefined],
        [
          'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)',
          'fieldPath',
          'amount',
          'Order total in EUR, after discounts.',
        ],
      ],
    );
    const [userId] = result.columns;
    assert.equal(CATALOG.slice(userId!.name.start, userId!.name.end), 'user_id');
    assert.equal(CATALOG.slice(userId!.description!.start, userId!.description!.end), 'Primary key of the user.');
    assert.equal(userId!.name.style, 'PLAIN');
  });

  test('insertAt/indent put a description: line right after the name line, comment kept', () => {
    const result = findUrnsInYaml(CATALOG, OPTS);
    const age = result.columns[1]!;
    assert.equal(age.indent, '        ');
    const edited = insertDescription(CATALOG, age, 'Age in years.');
    assert.ok(
      edited.includes(
        '      - name: age          # no description yet\n        description: Age in years.\n  - urn: "urn:li:dataset',
      ),
    );
    const reparsed = findUrnsInYaml(edited, OPTS);
    assert.deepEqual(reparsed.problems, []);
    assert.equal(reparsed.columns[1]?.description?.value, 'Age in years.');
  });

  test('map form: columns: {col: "desc"} and columns: {col: {description: …}}', () => {
    const text = [
      'urn: urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)',
      'columns: {user_id: "Primary key.", age: }',
      'schema:',
      '  country:',
      '    description: ISO code.',
      '  city:',
      '    type: string',
      '',
    ].join('\n');
    const result = findUrnsInYaml(text, OPTS);
    assert.deepEqual(
      result.columns.map((c) => [c.name.value, c.nameKey, c.description?.value, c.description?.style]),
      [
        ['user_id', 'user_id', 'Primary key.', 'QUOTE_DOUBLE'],
        ['age', 'age', undefined, undefined],
        ['country', 'country', 'ISO code.', 'PLAIN'],
        ['city', 'city', undefined, undefined],
      ],
    );
    const [, age, , city] = result.columns;
    assert.equal(age?.insertStyle, 'value');
    assert.equal(findUrnsInYaml(insertDescription(text, age, 'Years.'), OPTS).columns[1]?.description?.value, 'Years.');
    assert.equal(city?.indent, '    ');
    assert.equal(
      findUrnsInYaml(insertDescription(text, city, 'City name.'), OPTS).columns[3]?.description?.value,
      'City name.',
    );
  });

  test('flow entries get a flow insertion; a document without a final line break asks for one', () => {
    const text = 'urn: urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)\ncolumns:\n  - {name: a}\n  - name: b';
    const [a, b] = findUrnsInYaml(text, OPTS).columns;
    assert.equal(a?.insertStyle, 'flow');
    assert.equal(b?.needsLineBreak, true);
    const afterA = insertDescription(text, a, 'First.');
    assert.equal(findUrnsInYaml(afterA, OPTS).columns[0]?.description?.value, 'First.');
    const afterB = insertDescription(text, b, 'Second.');
    assert.equal(findUrnsInYaml(afterB, OPTS).columns[1]?.description?.value, 'Second.');
  });

  test('no columns without a dataset URN in the mapping', () => {
    const result = findUrnsInYaml(
      'urn: urn:li:mlModel:(urn:li:dataPlatform:mlflow,m,PROD)\ncolumns:\n  - name: a\n',
      OPTS,
    );
    assert.deepEqual(result.columns, []);
  });
});

describe('YAML docs-as-code: descriptions beside dataset and ML URNs', () => {
  test('each mapping holding a dataset or ML URN gets its description or an insertion point', () => {
    const result = findUrnsInYaml(CATALOG, OPTS);
    assert.deepEqual(
      result.descriptions.map((d) => [ownerUrn(result, d.owner), d.description?.value]),
      [
        ['urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)', 'One row per registered user of the product.\n'],
        ['urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)', undefined],
        ['urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users_table)', undefined],
        ['urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn-model-v3,PROD)', undefined],
      ],
    );
  });

  test('a block literal description is reported as BLOCK_LITERAL with its node range (header included)', () => {
    const [users] = findUrnsInYaml(CATALOG, OPTS).descriptions;
    assert.equal(users?.description?.style, 'BLOCK_LITERAL');
    assert.equal(
      CATALOG.slice(users.description.start, users.description.end),
      '|\n      One row per registered user of the product.\n',
    );
  });

  test('a missing description is inserted after the URN line at the URN key indentation', () => {
    const result = findUrnsInYaml(CATALOG, OPTS);
    const orders = result.descriptions[1]!;
    assert.equal(orders.indent, '    ');
    const edited = insertDescription(CATALOG, orders, 'One row per order.');
    assert.ok(edited.includes('db.orders,PROD)"\n    description: One row per order.\n    fields:'));
    const reparsed = findUrnsInYaml(edited, OPTS);
    assert.equal(reparsed.descriptions[1]?.description?.value, 'One row per order.');
    assert.equal(reparsed.columns.length, 3, 'columns still found');
  });

  test('URN-like keys other than urn: (dataset:, feature:, model:) own a description; corpuser URNs do not', () => {
    const text =
      'items:\n  - dataset: urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)\n    description: "T."\n  - feature: urn:li:mlFeature:(t,f)\n  - owner: urn:li:corpuser:jdoe\n';
    const result = findUrnsInYaml(text, OPTS);
    assert.deepEqual(
      result.descriptions.map((d) => [ownerUrn(result, d.owner), d.description?.value, d.description?.style]),
      [
        ['urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)', 'T.', 'QUOTE_DOUBLE'],
        ['urn:li:mlFeature:(t,f)', undefined, undefined],
      ],
    );
  });

  test('an empty description: is reported (value empty), so an edit fills it instead of adding a second key', () => {
    const text = 'urn: urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,g,PROD)\ndescription:\n';
    const [d] = findUrnsInYaml(text, OPTS).descriptions;
    assert.equal(d?.description?.value, '');
    assert.equal(d?.description?.start, text.indexOf('description:') + 'description:'.length);
  });
});
