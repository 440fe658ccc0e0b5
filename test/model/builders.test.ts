/**
 * DataHub's Python URN builders (metadata-ingestion/src/datahub/emitter/mce_builder.py): the server reads
 * `make_dataset_urn("hive", "db.users")` in a user's code as the URN Python would build, so each
 * builder must do exactly what Python does, no more (no validation) and no less (the encoding).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  makeDataPlatformUrn,
  makeDatasetUrn,
  makeMlFeatureTableUrn,
  makeMlFeatureUrn,
  makeMlModelGroupUrn,
  makeMlModelUrn,
  makeUserUrn,
  PYTHON_BUILDERS,
} from '../../model/src/builders';
import { decodePart, parseUrn } from '../../model/src/urn';
import { RUNS } from './urnArbitraries';

describe('make_data_platform_urn', () => {
  test('prefixes a short name, keeps its case', () => {
    assert.equal(makeDataPlatformUrn('li', 'hive'), 'urn:li:dataPlatform:hive');
    assert.equal(makeDataPlatformUrn('li', 'MySQL'), 'urn:li:dataPlatform:MySQL');
  });
  test('returns a platform URN of the namespace unchanged', () => {
    assert.equal(makeDataPlatformUrn('li', 'urn:li:dataPlatform:hive'), 'urn:li:dataPlatform:hive');
    assert.equal(makeDataPlatformUrn('svc', 'urn:svc:dataPlatform:hive'), 'urn:svc:dataPlatform:hive');
  });
});

describe('make_dataset_urn', () => {
  test('env defaults to PROD', () => {
    assert.equal(makeDatasetUrn('li', 'hive', 'db.users'), 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)');
  });
  test('env is upper-cased and not validated', () => {
    assert.equal(
      makeDatasetUrn('li', 'hive', 'db.users', 'dev'),
      'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,DEV)',
    );
    assert.equal(
      makeDatasetUrn('li', 'hive', 'db.users', 'Prod'),
      'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)',
    );
    assert.equal(
      makeDatasetUrn('li', 'hive', 'db.users', 'weird'),
      'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,WEIRD)',
    );
  });
  test("the name's reserved characters are encoded as UrnEncoder.encode_string does (the Tableau fixture's name)", () => {
    assert.equal(
      makeDatasetUrn('li', 'external', 'sample - superstore, (new).xls.people'),
      'urn:li:dataset:(urn:li:dataPlatform:external,sample - superstore%2C %28new%29.xls.people,PROD)',
    );
    assert.equal(
      makeDatasetUrn('li', 'hive', 'a\u241Fb'),
      'urn:li:dataset:(urn:li:dataPlatform:hive,a%E2%90%9Fb,PROD)',
    );
  });
  test('% and every other character pass through (DataHub does not escape %)', () => {
    assert.equal(
      makeDatasetUrn('li', 's3', 'bucket/a b/50%.csv:x'),
      'urn:li:dataset:(urn:li:dataPlatform:s3,bucket/a b/50%.csv:x,PROD)',
    );
    assert.equal(makeDatasetUrn('li', 'hive', 'a%2Cb'), 'urn:li:dataset:(urn:li:dataPlatform:hive,a%2Cb,PROD)');
  });
  test('the platform may be short or a full platform URN; it is not lower-cased', () => {
    assert.equal(makeDatasetUrn('li', 'urn:li:dataPlatform:hive', 't'), makeDatasetUrn('li', 'hive', 't'));
    assert.equal(makeDatasetUrn('li', 'Hive', 't'), 'urn:li:dataset:(urn:li:dataPlatform:Hive,t,PROD)');
  });
  test('in the spec namespace svc', () => {
    assert.equal(
      makeDatasetUrn('svc', 'hive', 'db.users', 'prod'),
      'urn:svc:dataset:(urn:svc:dataPlatform:hive,db.users,PROD)',
    );
  });
  test('property: any name builds a URN that parses, and decodePart gives the name back', () => {
    const name = fc
      .string({
        unit: fc.oneof(
          fc.constantFrom(',', '(', ')', '\u241F', ' ', '.', '/', ':'),
          fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
        ),
        minLength: 1,
        maxLength: 30,
      })
      .filter((s) => !s.includes('%') && s.trim() === s && s.length > 0 && !/[\u0000-\u001F\u007F-\u009F]/.test(s));
    fc.assert(
      fc.property(name, (n) => {
        const r = parseUrn(makeDatasetUrn('li', 'hive', n));
        assert.ok(r.ok, r.ok ? '' : r.error.message);
        assert.equal(r.urn.kind === 'dataset' && decodePart(r.urn.name), n);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('the ML builders are plain f-strings: no encoding, env as given', () => {
  test('make_ml_feature_urn(feature_table_name, feature_name)', () => {
    assert.equal(
      makeMlFeatureUrn('li', 'feature_store.driver_hourly_stats', 'conv_rate'),
      'urn:li:mlFeature:(feature_store.driver_hourly_stats,conv_rate)',
    );
    // Python does not encode: a comma yields a URN of three parts, which the parser then refuses.
    assert.equal(makeMlFeatureUrn('li', 't,x', 'f'), 'urn:li:mlFeature:(t,x,f)');
    const r = parseUrn(makeMlFeatureUrn('li', 't,x', 'f'));
    assert.equal(!r.ok && r.error.message, 'expected 2 parts (feature table, feature), found 3');
  });
  test('make_ml_feature_table_urn(platform, feature_table_name)', () => {
    assert.equal(
      makeMlFeatureTableUrn('li', 'feast', 'driver_hourly_stats'),
      'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,driver_hourly_stats)',
    );
    assert.equal(
      makeMlFeatureTableUrn('li', 'urn:li:dataPlatform:feast', 't'),
      'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,t)',
    );
  });
  test('make_ml_model_urn(platform, model_name, env): env is not upper-cased', () => {
    assert.equal(
      makeMlModelUrn('li', 'mlflow', 'test-model_1', 'PROD'),
      'urn:li:mlModel:(urn:li:dataPlatform:mlflow,test-model_1,PROD)',
    );
    assert.equal(makeMlModelUrn('li', 'mlflow', 'm', 'prod'), 'urn:li:mlModel:(urn:li:dataPlatform:mlflow,m,prod)');
  });
  test('make_ml_model_group_urn(platform, group_name, env)', () => {
    assert.equal(
      makeMlModelGroupUrn('svc', 'sagemaker', 'g', 'dev'),
      'urn:svc:mlModelGroup:(urn:svc:dataPlatform:sagemaker,g,dev)',
    );
    assert.equal(
      makeMlModelGroupUrn('li', 'urn:li:dataPlatform:mlflow', 'g', 'PROD'),
      'urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,g,PROD)',
    );
  });
});

describe('make_user_urn', () => {
  test('prefixes a user name', () => {
    assert.equal(makeUserUrn('li', 'jdoe'), 'urn:li:corpuser:jdoe');
    assert.equal(makeUserUrn('svc', 'jdoe@example.com'), 'urn:svc:corpuser:jdoe@example.com');
  });
  test('returns corpuser and corpGroup URNs of the namespace unchanged', () => {
    assert.equal(makeUserUrn('li', 'urn:li:corpuser:jdoe'), 'urn:li:corpuser:jdoe');
    assert.equal(makeUserUrn('li', 'urn:li:corpGroup:data-eng'), 'urn:li:corpGroup:data-eng');
    assert.equal(makeUserUrn('svc', 'urn:svc:corpuser:jdoe'), 'urn:svc:corpuser:jdoe');
  });
  test("prefixes anything else, even another namespace's URN, as Python's startswith test does", () => {
    assert.equal(makeUserUrn('li', 'urn:svc:corpuser:jdoe'), 'urn:li:corpuser:urn:svc:corpuser:jdoe');
  });
});

describe('PYTHON_BUILDERS: the Python signatures the server reads calls against', () => {
  test("parameter names, required counts and defaults are Python's", () => {
    const signatures = Object.fromEntries(
      Object.entries(PYTHON_BUILDERS).map(([name, b]) => [
        name,
        {
          params: [...b.params],
          required: b.required,
          defaults: b.defaults ?? {},
        },
      ]),
    );
    assert.deepEqual(signatures, {
      make_data_platform_urn: { params: ['platform'], required: 1, defaults: {} },
      make_dataset_urn: { params: ['platform', 'name', 'env'], required: 2, defaults: { env: 'PROD' } },
      make_ml_feature_urn: { params: ['feature_table_name', 'feature_name'], required: 2, defaults: {} },
      make_ml_feature_table_urn: { params: ['platform', 'feature_table_name'], required: 2, defaults: {} },
      make_ml_model_urn: { params: ['platform', 'model_name', 'env'], required: 3, defaults: {} },
      make_ml_model_group_urn: { params: ['platform', 'group_name', 'env'], required: 3, defaults: {} },
      make_user_urn: { params: ['username'], required: 1, defaults: {} },
    });
  });

  test('build() gives the same URN as the builder function, the default env included', () => {
    const b = PYTHON_BUILDERS;
    assert.equal(
      b['make_dataset_urn']!.build('li', ['hive', 'db.users']),
      'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)',
    );
    assert.equal(
      b['make_dataset_urn']!.build('li', ['hive', 'a,b', 'dev']),
      'urn:li:dataset:(urn:li:dataPlatform:hive,a%2Cb,DEV)',
    );
    assert.equal(b['make_data_platform_urn']!.build('svc', ['hive']), 'urn:svc:dataPlatform:hive');
    assert.equal(b['make_ml_feature_urn']!.build('li', ['t', 'f']), 'urn:li:mlFeature:(t,f)');
    assert.equal(
      b['make_ml_feature_table_urn']!.build('li', ['feast', 't']),
      'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,t)',
    );
    assert.equal(
      b['make_ml_model_urn']!.build('li', ['mlflow', 'm', 'PROD']),
      'urn:li:mlModel:(urn:li:dataPlatform:mlflow,m,PROD)',
    );
    assert.equal(
      b['make_ml_model_group_urn']!.build('li', ['mlflow', 'g', 'PROD']),
      'urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,g,PROD)',
    );
    assert.equal(b['make_user_urn']!.build('li', ['urn:li:corpGroup:x']), 'urn:li:corpGroup:x');
  });

  test('each builder, given ordinary arguments, yields a URN of its kind', () => {
    const kinds = Object.entries(PYTHON_BUILDERS).map(([name, b]) => {
      const r = parseUrn(
        b.build(
          'li',
          b.params.map((p) => (p === 'env' ? 'PROD' : `x_${p}`)),
        ),
      );
      assert.ok(r.ok, `${name}: ${r.ok ? '' : r.error.message}`);
      return [name, r.urn.kind];
    });
    assert.deepEqual(Object.fromEntries(kinds), {
      make_data_platform_urn: 'dataPlatform',
      make_dataset_urn: 'dataset',
      make_ml_feature_urn: 'mlFeature',
      make_ml_feature_table_urn: 'mlFeatureTable',
      make_ml_model_urn: 'mlModel',
      make_ml_model_group_urn: 'mlModelGroup',
      make_user_urn: 'corpuser',
    });
  });
});
