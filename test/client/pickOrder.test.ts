/**
 * The order of the pickers' targets (client/src/pickOrder.ts): the first is what Enter takes. The
 * issue's case: a feature of users_table, with orders_table first in the alphabet, must not
 * offer orders_table first.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  IN_DOCUMENT,
  OWN_GROUP,
  OWN_TABLE,
  OWN_TABLE_UNSEEN,
  rankFeatureTables,
  rankModelGroups,
  rankModels,
} from '../../client/src/pickOrder';

const table = (name: string, platform = 'feast', ns = 'li'): string =>
  `urn:${ns}:mlFeatureTable:(urn:${ns}:dataPlatform:${platform},${name})`;
const group = (name: string, platform = 'mlflow'): string =>
  `urn:li:mlModelGroup:(urn:li:dataPlatform:${platform},${name},PROD)`;
const model = (name: string, platform = 'mlflow'): string =>
  `urn:li:mlModel:(urn:li:dataPlatform:${platform},${name},PROD)`;

describe('Add Feature to Feature Table', () => {
  test("the feature's own table comes first, though another is first in the alphabet", () => {
    const known = [table('orders_table'), table('users_table'), table('zeta')];
    const r = rankFeatureTables('urn:li:mlFeature:(users_table,country)', known, []);
    assert.deepEqual(
      r.map((x) => x.urn),
      [table('users_table'), table('orders_table'), table('zeta')],
    );
    assert.equal(r[0]!.why, OWN_TABLE);
    assert.equal(r[1]!.why, undefined);
  });

  test('then the tables of the document, then the rest, each alphabetical, each once', () => {
    const known = [table('a_table'), table('b_table'), table('orders_table'), table('users_table')];
    const inDocument = [table('orders_table'), table('b_table'), table('users_table')];
    const r = rankFeatureTables('urn:li:mlFeature:(users_table,country)', known, inDocument);
    assert.deepEqual(
      r.map((x) => [x.urn, x.why]),
      [
        [table('users_table'), OWN_TABLE],
        [table('b_table'), IN_DOCUMENT],
        [table('orders_table'), IN_DOCUMENT],
        [table('a_table'), undefined],
      ],
    );
  });

  test('a feature in another namespace word finds its table in either spelling, offered once', () => {
    const known = [table('users_table', 'feast', 'svc'), table('users_table')];
    const r = rankFeatureTables('urn:svc:mlFeature:(users_table,age)', known, [table('users_table')]);
    assert.equal(r.length, 1);
    assert.equal(r[0]!.why, OWN_TABLE);
  });

  test("an own table not seen is made from the feature's namespace and the document's platform", () => {
    const r = rankFeatureTables(
      'urn:svc:mlFeature:(users_table,age)',
      [table('x', 'sagemaker', 'svc'), table('y', 'tecton', 'svc')],
      [table('y', 'tecton', 'svc')],
    );
    assert.deepEqual(r[0], { urn: table('users_table', 'tecton', 'svc'), why: OWN_TABLE_UNSEEN });
    assert.deepEqual(
      r.slice(1).map((x) => x.urn),
      [table('y', 'tecton', 'svc'), table('x', 'sagemaker', 'svc')],
    );
    // Nothing seen at all: the platform of DataHub's Feast source.
    assert.deepEqual(rankFeatureTables('urn:li:mlFeature:(users_table,age)', [], []), [
      { urn: table('users_table'), why: OWN_TABLE_UNSEEN },
    ]);
  });

  test('a feature that does not parse gets the plain order', () => {
    const r = rankFeatureTables('users_table.age', [table('b'), table('a')], []);
    assert.deepEqual(
      r.map((x) => x.urn),
      [table('a'), table('b')],
    );
  });
});

describe('Add Model Group and Add Feature to Model', () => {
  test("the model's group by name (MLflow's <group><separator><version>) comes first, the longest name first", () => {
    const known = [group('churn'), group('churn-model'), group('alpha'), group('churn-model', 'sagemaker')];
    const r = rankModelGroups(model('churn-model-v3'), known, []);
    assert.deepEqual(
      r.map((x) => [x.urn, x.why]),
      [
        [group('churn-model'), OWN_GROUP],
        [group('churn'), OWN_GROUP],
        [group('alpha'), undefined],
        [group('churn-model', 'sagemaker'), undefined],
      ],
    );
  });

  test("a group whose name is only a prefix of a word is not taken for the model's", () => {
    const r = rankModelGroups(model('churnmodel_1'), [group('churn'), group('churnmodel')], []);
    assert.deepEqual(
      r.map((x) => x.why),
      [OWN_GROUP, undefined],
    );
    assert.equal(r[0]!.urn, group('churnmodel'));
  });

  test('models: those of the document first, then the rest', () => {
    const r = rankModels([model('a'), model('b'), model('c')], [model('c')]);
    assert.deepEqual(
      r.map((x) => [x.urn, x.why]),
      [
        [model('c'), IN_DOCUMENT],
        [model('a'), undefined],
        [model('b'), undefined],
      ],
    );
  });
});
