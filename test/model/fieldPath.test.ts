/**
 * Field paths: the simple path of a version-2 path, and finding a column by path.
 * Examples are real paths from DataHub's ingestion fixtures (Kafka, Unity Catalog, S3, Tableau).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { findField, simplePath, V2_PREFIX } from '../../model/src/fieldPath';
import { RUNS } from './urnArbitraries';

describe('simplePath (spec §2.3)', () => {
  test('a path without the [version=2.0] prefix is already simple, whatever it holds', () => {
    for (const p of [
      'user_id',
      'address.city',
      'Delivery Rate',
      'Cond (µS/cm)',
      'NH3-N \n(mg N/L)',
      'items[0].x',
      '[type=struct].a',
    ]) {
      assert.equal(simplePath(p), p);
    }
  });

  test('v2: tokens starting with [ or ending with ] are dropped (the prefix splits into "[version=2" and "0]")', () => {
    assert.equal(simplePath('[version=2.0].[type=boolean].field_foo_2'), 'field_foo_2');
    assert.equal(simplePath('[version=2.0].[type=Record].[type=long].ThirdChord'), 'ThirdChord');
    assert.equal(simplePath('[version=2.0]'), '');
  });

  test('v2 with [key=True]: the key schema of a Kafka topic', () => {
    assert.equal(simplePath('[version=2.0].[key=True].[type=UserKey].[type=long].id'), 'id');
    assert.equal(simplePath('[version=2.0].[key=True].[type=CreateUserRequest].[type=string].lastName'), 'lastName');
    // A primitive key schema has no field name at all (kafka-v2-schema.json).
    assert.equal(simplePath('[version=2.0].[key=True].[type=string]'), '');
  });

  test('v2 nested structs and arrays keep every field name, in order', () => {
    assert.equal(
      simplePath('[version=2.0].[type=struct].[type=struct].combination.[type=long].combinationref'),
      'combination.combinationref',
    );
    assert.equal(
      simplePath(
        '[version=2.0].[type=struct].[type=struct].combination.[type=array].[type=struct].outcomes.[type=array].[type=struct].eventgrouppath.[type=long].id',
      ),
      'combination.outcomes.eventgrouppath.id',
    );
    assert.equal(simplePath('[version=2.0].[type=map].[type=string].tags'), 'tags');
  });

  test('property: field names interleaved with any annotations give the names joined by dots', () => {
    const fieldName = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_ -]{0,10}$/).filter((s) => !s.endsWith(']'));
    const annotation = fc.stringMatching(/^\[(type|key)=[A-Za-z0-9_<>,: ]{1,12}\]$/);
    const segment = fc.tuple(fc.array(annotation, { maxLength: 3 }), fieldName);
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 6 }), (segments) => {
        const path = [V2_PREFIX, ...segments.flatMap(([annotations, name]) => [...annotations, name])].join('.');
        const names = segments.map(([, name]) => name);
        assert.equal(simplePath(path), names.join('.'));
        assert.equal(simplePath(simplePath(path)), simplePath(path), 'a simple path is its own simple path');
      }),
      { numRuns: RUNS },
    );
  });
});

describe('findField', () => {
  const kafka = [
    { fieldPath: '[version=2.0].[key=True].[type=UserKey].[type=long].id', description: 'key id' },
    { fieldPath: '[version=2.0].[type=User].[type=long].id', description: 'value id' },
    { fieldPath: '[version=2.0].[type=User].[type=string].email', description: null },
  ];

  test('finds a v2 field by its simple path', () => {
    assert.equal(findField(kafka, 'email'), kafka[2]);
  });

  test('an exact path wins over an earlier field with the same simple path (Kafka key vs value)', () => {
    assert.equal(findField(kafka, '[version=2.0].[type=User].[type=long].id'), kafka[1]);
    assert.equal(findField(kafka, '[version=2.0].[key=True].[type=UserKey].[type=long].id'), kafka[0]);
  });

  test('by simple path alone, the first field of that simple path is taken', () => {
    assert.equal(findField(kafka, 'id'), kafka[0]);
  });

  test('a v2 spelling that is not exactly present falls back to its simple path', () => {
    assert.equal(findField(kafka, '[version=2.0].[type=Other].[type=varchar].email'), kafka[2]);
  });

  test('v1 paths with spaces and brackets are found as they are; a missing column gives undefined', () => {
    const tableau = [{ fieldPath: 'Delivery Rate' }, { fieldPath: 'Cond (µS/cm)' }];
    assert.equal(findField(tableau, 'Cond (µS/cm)'), tableau[1]);
    assert.equal(findField(tableau, 'Delivery'), undefined);
    assert.equal(findField([], 'x'), undefined);
  });
});
