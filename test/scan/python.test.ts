import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { findBuilderCalls } from '../../server/src/scan/python';
import { covered, marked } from './markers';

/** The marked calls are read as these URNs, with the call as range. */
function assertBuilds(source: string, expected: string[]): void {
  const { text, urns } = marked(source);
  const { occurrences } = findBuilderCalls(text);
  assert.deepEqual(
    occurrences.map((o) => covered(text, o)),
    urns.map((r) => covered(text, r)),
  );
  assert.deepEqual(
    occurrences.map((o) => o.urn),
    expected,
  );
  for (const o of occurrences) {
    assert.equal(o.source, 'builder');
    assert.equal(o.template, false);
    assert.equal(o.builder, covered(text, o).match(/^\w+/)?.[0]);
    assert.equal(o.parsed?.ok, true, o.urn);
  }
}

describe('Python builder calls are read as the URNs they build', () => {
  test('each builder with positional string literals', () => {
    assertBuilds(
      [
        'ds = ⟦make_dataset_urn("hive", "db.users", "PROD")⟧',
        "f = ⟦make_ml_feature_urn('users_table', 'age')⟧",
        't = ⟦make_ml_feature_table_urn("feast", "users_table")⟧',
        'm = ⟦make_ml_model_urn("mlflow", "churn-model-v3", "PROD")⟧',
        'g = ⟦make_ml_model_group_urn("mlflow", "churn-model", "PROD")⟧',
        'u = ⟦make_user_urn("jdoe")⟧',
        'p = ⟦make_data_platform_urn("hive")⟧',
      ].join('\n'),
      [
        'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)',
        'urn:li:mlFeature:(users_table,age)',
        'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users_table)',
        'urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn-model-v3,PROD)',
        'urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,churn-model,PROD)',
        'urn:li:corpuser:jdoe',
        'urn:li:dataPlatform:hive',
      ],
    );
  });

  test('keyword arguments, in any order, and the env default (PROD) of datasets', () => {
    assertBuilds(
      'a = ⟦make_dataset_urn(name="db.users", platform="hive")⟧\nb = ⟦make_dataset_urn("hive", "db.orders", env="dev")⟧\nc = ⟦make_ml_model_urn(platform="mlflow", model_name="m", env="PROD")⟧',
      [
        'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)',
        'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,DEV)',
        'urn:li:mlModel:(urn:li:dataPlatform:mlflow,m,PROD)',
      ],
    );
  });

  test('qualified as builder.make_… or mce_builder.make_…: the range starts at the function name', () => {
    assertBuilds(
      'import datahub.emitter.mce_builder as builder\nx = builder.⟦make_user_urn("jdoe")⟧\ny = mce_builder.⟦make_ml_feature_urn("t", "f")⟧',
      ['urn:li:corpuser:jdoe', 'urn:li:mlFeature:(t,f)'],
    );
  });

  test('across line breaks, with comments between arguments, raw strings and adjacent literals', () => {
    assertBuilds(
      [
        'urn = ⟦make_dataset_urn(',
        '    platform="hive",  # the warehouse',
        "    name=r'db.' 'users',",
        '    # env defaults to PROD',
        ')⟧',
      ].join('\n'),
      ['urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)'],
    );
  });

  test("the builders' own encoding applies: reserved characters of a name, upper-cased env", () => {
    assertBuilds('⟦make_dataset_urn("hive", "db.a,b", "qa")⟧', [
      'urn:li:dataset:(urn:li:dataPlatform:hive,db.a%2Cb,QA)',
    ]);
  });

  test('escapes in ordinary strings are undone', () => {
    assertBuilds('⟦make_user_urn("j\\x64oe")⟧', ['urn:li:corpuser:jdoe']);
  });

  test('a malformed result carries an error range on the argument that caused it', () => {
    const text = 'make_ml_model_urn("mlflow", "churn", "not an env")';
    const [o] = findBuilderCalls(text).occurrences;
    assert.equal(o?.parsed?.ok, false);
    assert.equal(text.slice(o.errorRange!.start, o.errorRange!.end), '"not an env"');
  });
});

describe('Python builder calls that are not read', () => {
  test('non-literal arguments (a variable, an f-string, an expression) give no occurrence', () => {
    const text = [
      'make_dataset_urn(platform, "db.users")',
      'make_dataset_urn("hive", f"db.{table}")',
      'make_user_urn(user.name)',
      'make_dataset_urn("hive", "db." + t)',
      'make_ml_model_urn("mlflow", "m")',
      'make_dataset_urn("hive", "t", "PROD", "extra")',
      'make_dataset_urn("hive", "t", colour="red")',
      'def make_dataset_urn(platform: str, name: str, env: str = DEFAULT_ENV) -> str:',
      '# make_user_urn("in a comment")',
      'my_make_user_urn("x")',
      'from datahub.emitter.mce_builder import make_dataset_urn, make_user_urn',
    ].join('\n');
    const { occurrences, calls } = findBuilderCalls(text);
    assert.deepEqual(occurrences, []);
    assert.equal(calls.length, 8, 'skipped calls are still claimed, so their literals are not reported as text');
  });

  test('an unfinished call (still being typed) is ignored', () => {
    const { occurrences, calls } = findBuilderCalls('x = make_dataset_urn("hive", "db.us');
    assert.deepEqual([occurrences, calls], [[], []]);
  });

  test('a name that only ends with a builder name is no call; nor is a bare `make_`', () => {
    for (const text of ['ke_make_user_urn("z") mmake_user_urn("x")', 'make_']) {
      const { occurrences, calls } = findBuilderCalls(text);
      assert.deepEqual([occurrences, calls], [[], []], text);
    }
  });
});
