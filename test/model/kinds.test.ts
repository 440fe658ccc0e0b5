/**
 * The table of catalog kinds (model/src/kinds.ts): its lookups round-trip, its facts agree with
 * DataHub's (registry key aspects, GraphQL EntityType values, the aspects model/src/aspects.ts
 * knows), and the names derived from it are what they were.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphQLEnumType } from 'graphql';
import { ASPECT_NAMES, ASPECTS_BY_ENTITY, EDITABLE_ML_ASPECT, EXISTENCE_ASPECTS } from '../../model/src/aspects';
import { KIND_LABELS, kindWord } from '../../model/src/entityNames';
import {
  CATALOG_KINDS,
  graphqlEntityTypeOf,
  isCatalogKind,
  isMlKind,
  keyAspectOf,
  kindLabels,
  kindOfGraphqlEntityType,
  ML_KINDS,
  propertiesAspectOf,
} from '../../model/src/kinds';
import { ENTITY_REGISTRY } from '../../model/src/registry';
import { SPEC_KINDS } from '../../model/src/urn';
import { catalogSchema } from '../../catalog/src/graphql/schema';
import { datahubSchema, skipWithoutShared } from '../support/datahubSchema';

describe('the catalog kinds', () => {
  test('are the five kinds the server looks up, in this order', () => {
    assert.deepEqual(CATALOG_KINDS, ['dataset', 'mlFeature', 'mlFeatureTable', 'mlModel', 'mlModelGroup']);
    assert.deepEqual(ML_KINDS, ['mlFeature', 'mlFeatureTable', 'mlModel', 'mlModelGroup']);
    assert.deepEqual(SPEC_KINDS, [...CATALOG_KINDS, 'corpuser']);
  });

  test('isCatalogKind and isMlKind accept exactly the table’s words (no Object.prototype member)', () => {
    for (const k of CATALOG_KINDS) assert.ok(isCatalogKind(k), k);
    for (const w of ['corpuser', 'tag', 'Dataset', 'DATASET', '', 'constructor', '__proto__', 'toString'])
      assert.ok(!isCatalogKind(w) && !isMlKind(w), w);
    assert.deepEqual(
      CATALOG_KINDS.filter((k) => isMlKind(k)),
      ML_KINDS,
    );
  });

  test('kind ↔ DataHub GraphQL EntityType round-trips, one type per kind', () => {
    assert.deepEqual(
      CATALOG_KINDS.map((k) => graphqlEntityTypeOf(k)),
      ['DATASET', 'MLFEATURE', 'MLFEATURE_TABLE', 'MLMODEL', 'MLMODEL_GROUP'],
    );
    for (const k of CATALOG_KINDS) assert.equal(kindOfGraphqlEntityType(graphqlEntityTypeOf(k)), k, k);
    for (const t of ['CHART', 'DATA_JOB', 'CORP_USER', 'MLPRIMARY_KEY', 'dataset', 'Dataset', '', 'constructor'])
      assert.equal(kindOfGraphqlEntityType(t), undefined, t);
  });

  test("every GraphQL EntityType is a value of DataHub's enum and of the local catalog's", (t) => {
    const local = catalogSchema().getType('EntityType');
    assert.ok(local instanceof GraphQLEnumType);
    for (const k of CATALOG_KINDS) assert.ok(local.getValue(graphqlEntityTypeOf(k)), `local catalog: ${k}`);
    if (skipWithoutShared(t)) return;
    const datahub = datahubSchema()!.getType('EntityType');
    assert.ok(datahub instanceof GraphQLEnumType);
    for (const k of CATALOG_KINDS) assert.ok(datahub.getValue(graphqlEntityTypeOf(k)), `DataHub: ${k}`);
  });

  test("every kind's properties aspect is an aspect model/src/aspects.ts knows, held by the kind, and one that creates it", () => {
    assert.deepEqual(
      CATALOG_KINDS.map((k) => propertiesAspectOf(k)),
      [
        'datasetProperties',
        'mlFeatureProperties',
        'mlFeatureTableProperties',
        'mlModelProperties',
        'mlModelGroupProperties',
      ],
    );
    for (const k of CATALOG_KINDS) {
      const a = propertiesAspectOf(k);
      assert.ok(ASPECT_NAMES.includes(a), `${k}: ${a} is in ASPECT_NAMES`);
      assert.ok(ASPECTS_BY_ENTITY[k].includes(a), `${k}: ${a} is among its aspects`);
      assert.ok(EXISTENCE_ASPECTS[k].includes(a), `${k}: ${a} creates it`);
    }
    assert.deepEqual(Object.keys(EDITABLE_ML_ASPECT), ML_KINDS);
  });

  test("every kind's key aspect is the one DataHub's registry names", () => {
    for (const k of CATALOG_KINDS) assert.equal(keyAspectOf(k), ENTITY_REGISTRY.get(k)?.keyAspect, k);
  });

  test('labels: as a title, a list heading and a word in a sentence, as the hovers, pages and pickers say them', () => {
    assert.deepEqual(
      CATALOG_KINDS.map((k) => kindLabels(k)),
      [
        { label: 'Dataset', plural: 'Datasets', word: 'dataset' },
        { label: 'ML feature', plural: 'ML features', word: 'ML feature' },
        { label: 'Feature table', plural: 'Feature tables', word: 'feature table' },
        { label: 'ML model', plural: 'ML models', word: 'ML model' },
        { label: 'Model group', plural: 'Model groups', word: 'model group' },
      ],
    );
    for (const k of CATALOG_KINDS) {
      assert.equal(KIND_LABELS[k], kindLabels(k).label, k);
      assert.equal(kindWord(k), kindLabels(k).word, k);
    }
    // The kinds outside the table keep their own names.
    assert.equal(KIND_LABELS.corpuser, 'User');
    assert.equal(kindWord('dataPlatform'), 'platform');
    assert.equal(KIND_LABELS.other, 'Entity');
    assert.equal(kindWord('dataJob'), 'dataJob');
  });
});
