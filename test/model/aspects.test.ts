/**
 * The aspects the catalog knows: checkAspect accepts each shape (and what real DataHub payloads add)
 * and rejects wrong types with the JSON path of the offending value; which entity has which
 * aspects; DataHub's record names; textOf.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ASPECT_FQCN,
  ASPECT_NAMES,
  ASPECTS_BY_ENTITY,
  checkAspect,
  EXISTENCE_ASPECTS,
  isAspectName,
  ML_FEATURE_DATA_TYPES,
  textOf,
  type AspectName,
  type AspectTypes,
} from '../../model/src/aspects';
import { CATALOG_KINDS, isCatalogKind } from '../../model/src/kinds';

const STAMP = { time: 1700000000000, actor: 'urn:li:corpuser:jdoe' };
const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
const FEATURE = 'urn:li:mlFeature:(driver_stats,conv_rate)';
const GROUP = 'urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,churn,PROD)';

/** One full value per aspect, typed by the model so the types and the check agree. */
const VALID: { [A in AspectName]: AspectTypes[A] } = {
  mlFeatureProperties: {
    description: 'Conv rate',
    sources: [DATASET],
    dataType: 'CONTINUOUS',
    version: { versionTag: '1' },
  },
  mlFeatureTableProperties: { description: 'Driver stats', mlFeatures: [FEATURE] },
  mlModelProperties: {
    description: 'Churn model, run 7',
    groups: [GROUP],
    mlFeatures: [FEATURE],
    trainingMetrics: [{ name: 'auc', description: 'area under ROC', value: '0.91' }],
    hyperParams: [{ name: 'lr', description: 'learning rate', value: '0.1' }],
    version: null,
    type: 'xgboost',
  },
  mlModelGroupProperties: { description: 'All runs of the churn model' },
  datasetProperties: { description: 'Users', customProperties: { owner_team: 'core' } },
  editableDatasetProperties: { description: '**Users**, edited', created: STAMP },
  institutionalMemory: { elements: [{ url: 'https://wiki/users', description: 'Runbook', createStamp: STAMP }] },
  schemaMetadata: {
    fields: [{ fieldPath: 'id', description: 'key' }, { fieldPath: '[version=2.0].[type=string].email' }],
  },
  editableSchemaMetadata: { editableSchemaFieldInfo: [{ fieldPath: 'id', description: 'The key' }], created: STAMP },
  editableMlFeatureProperties: { description: 'Conv rate, edited' },
  editableMlFeatureTableProperties: { description: 'Driver stats, edited' },
  editableMlModelProperties: { description: 'Churn model, edited' },
  editableMlModelGroupProperties: { description: 'All runs, edited' },
  ownership: {
    owners: [
      { owner: 'urn:li:corpuser:jdoe', type: 'TECHNICAL_OWNER', source: { type: 'MANUAL' } },
      { owner: 'urn:li:corpGroup:data-eng', type: 'CUSTOM', typeUrn: 'urn:li:ownershipType:steward' },
    ],
    lastModified: STAMP,
  },
  globalTags: { tags: [{ tag: 'urn:li:tag:pii' }, { tag: 'urn:li:tag:gold', context: 'promoted' }] },
  glossaryTerms: { terms: [{ urn: 'urn:li:glossaryTerm:Customer.Email', actor: STAMP.actor }], auditStamp: STAMP },
  domains: { domains: ['urn:li:domain:marketing'] },
  deprecation: {
    deprecated: true,
    decommissionTime: 1767225600000,
    note: 'Use db.users_v2',
    actor: STAMP.actor,
    replacement: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users_v2,PROD)',
  },
  siblings: { siblings: ['urn:li:dataset:(urn:li:dataPlatform:dbt,analytics.users,PROD)'], primary: false },
  upstreamLineage: {
    upstreams: [
      {
        dataset: 'urn:li:dataset:(urn:li:dataPlatform:kafka,events.signups,PROD)',
        type: 'TRANSFORMED',
        auditStamp: STAMP,
      },
    ],
  },
};

describe('checkAspect accepts every shape of spec §2.2', () => {
  for (const name of ASPECT_NAMES) {
    test(name, () => assert.deepEqual(checkAspect(name, VALID[name]), []));
  }

  test('values that are nullable on read may be null', () => {
    assert.deepEqual(checkAspect('mlFeatureProperties', { description: null, version: null }), []);
    assert.deepEqual(checkAspect('mlFeatureProperties', { version: { versionTag: null } }), []);
    assert.deepEqual(checkAspect('mlFeatureTableProperties', { description: null }), []);
    assert.deepEqual(checkAspect('mlModelProperties', { mlFeatures: null }), []);
    assert.deepEqual(checkAspect('schemaMetadata', { fields: [{ fieldPath: 'a', description: null }] }), []);
  });

  test('optional fields may be left out; unknown fields (customProperties, platformSchema …) are ignored', () => {
    for (const name of [
      'mlFeatureProperties',
      'mlFeatureTableProperties',
      'mlModelProperties',
      'mlModelGroupProperties',
      'datasetProperties',
      'editableDatasetProperties',
    ] as const) {
      assert.deepEqual(checkAspect(name, {}), [], name);
    }
    assert.deepEqual(
      checkAspect('schemaMetadata', {
        schemaName: 'x',
        platform: 'urn:li:dataPlatform:kafka',
        version: 0,
        hash: '',
        platformSchema: { 'com.linkedin.schema.KafkaSchema': { documentSchema: '{}' } },
        fields: [
          { fieldPath: 'a', nativeDataType: 'string', type: { type: { 'com.linkedin.schema.StringType': {} } } },
        ],
      }),
      [],
    );
  });

  test("a schema field's description may be in Avro's union form {string: …}", () => {
    assert.deepEqual(checkAspect('schemaMetadata', { fields: [{ fieldPath: 'a', description: { string: 'x' } }] }), []);
  });

  test('every MLFeatureDataType is accepted as dataType', () => {
    for (const t of ML_FEATURE_DATA_TYPES) assert.deepEqual(checkAspect('mlFeatureProperties', { dataType: t }), [], t);
  });
});

describe('checkAspect rejects wrong types, naming the JSON path', () => {
  const CASES: Array<[AspectName, unknown, string[]]> = [
    ['datasetProperties', [], ['aspect: expected an object, found an array']],
    ['mlModelGroupProperties', null, ['aspect: expected an object, found null']],
    ['mlFeatureProperties', { description: 5 }, ['description: expected a string, found number 5']],
    [
      'mlFeatureProperties',
      { sources: 'urn:li:dataset:x' },
      ['sources: expected an array, found the string "urn:li:dataset:x"'],
    ],
    [
      'mlFeatureProperties',
      { sources: [DATASET, 'nope'] },
      ["sources[1]: 'nope' is not a valid URN: a URN starts with 'urn:'"],
    ],
    [
      'mlFeatureProperties',
      { sources: [FEATURE] },
      [`sources[0]: expected a dataset URN, found a mlFeature URN '${FEATURE}'`],
    ],
    ['mlFeatureProperties', { sources: [42] }, ['sources[0]: expected a dataset URN string, found number 42']],
    [
      'mlFeatureProperties',
      { dataType: 'FLOAT' },
      [`dataType: expected one of ${ML_FEATURE_DATA_TYPES.join(', ')}, found the string "FLOAT"`],
    ],
    ['mlFeatureProperties', { version: { versionTag: 1 } }, ['version.versionTag: expected a string, found number 1']],
    ['mlFeatureProperties', { version: '1' }, ['version: expected an object, found the string "1"']],
    [
      'mlFeatureTableProperties',
      { mlFeatures: [DATASET] },
      [`mlFeatures[0]: expected a mlFeature URN, found a dataset URN '${DATASET}'`],
    ],
    ['mlModelProperties', { description: null }, ['description: expected a string, found null']],
    [
      'mlModelProperties',
      { groups: ['urn:li:tag:x'] },
      ["groups[0]: expected a mlModelGroup URN, found a tag URN 'urn:li:tag:x'"],
    ],
    [
      'mlModelProperties',
      { mlFeatures: [FEATURE, { urn: FEATURE }] },
      ['mlFeatures[1]: expected a mlFeature URN string, found an object'],
    ],
    ['mlModelProperties', { trainingMetrics: [{ value: '1' }] }, ['trainingMetrics[0].name: required']],
    [
      'mlModelProperties',
      { hyperParams: [{ name: 'lr', value: 0.1 }] },
      ['hyperParams[0].value: expected a string, found number 0.1'],
    ],
    ['mlModelProperties', { type: true }, ['type: expected a string, found boolean true']],
    [
      'datasetProperties',
      { customProperties: { rows: 10 } },
      ['customProperties.rows: expected a string, found number 10'],
    ],
    ['datasetProperties', { customProperties: ['a'] }, ['customProperties: expected an object, found an array']],
    [
      'editableDatasetProperties',
      { created: { time: 1.5, actor: 'jdoe' } },
      [
        'created.time: expected milliseconds since epoch (an integer), found number 1.5',
        "created.actor: 'jdoe' is not a valid URN: a URN starts with 'urn:'",
      ],
    ],
    ['editableDatasetProperties', { created: {} }, ['created.time: required', 'created.actor: required']],
    ['institutionalMemory', {}, ['elements: required']],
    [
      'institutionalMemory',
      { elements: [{ url: 'https://x' }] },
      ['elements[0].description: required', 'elements[0].createStamp: required'],
    ],
    [
      'institutionalMemory',
      { elements: [{ url: 'https://x', description: 'd', createStamp: { time: '1', actor: 'urn:li:corpuser:a' } }] },
      ['elements[0].createStamp.time: expected milliseconds since epoch (an integer), found the string "1"'],
    ],
    ['schemaMetadata', { fields: [{ description: 'x' }] }, ['fields[0].fieldPath: required']],
    [
      'schemaMetadata',
      { fields: [{ fieldPath: 'a', description: { string: 1 } }] },
      ['fields[0].description: expected a string, found an object'],
    ],
    ['schemaMetadata', { fields: {} }, ['fields: expected an array, found an object']],
    [
      'editableSchemaMetadata',
      { editableSchemaFieldInfo: [{ fieldPath: 'a', description: 7 }] },
      ['editableSchemaFieldInfo[0].description: expected a string, found number 7'],
    ],
    ['editableSchemaMetadata', { created: STAMP }, ['editableSchemaFieldInfo: required']],
    ['datasetProperties', { description: 'x'.repeat(50) }, []],
    ['mlModelGroupProperties', { description: ['y'.repeat(50)] }, ['description: expected a string, found an array']],
    [
      'mlFeatureProperties',
      { dataType: 'z'.repeat(50) },
      [`dataType: expected one of ${ML_FEATURE_DATA_TYPES.join(', ')}, found the string "${'z'.repeat(40)}…"`],
    ],
  ];
  for (const [name, value, expected] of CASES) {
    test(`${name} ${JSON.stringify(value).slice(0, 80)}`, () => assert.deepEqual(checkAspect(name, value), expected));
  }

  test('every problem is reported, not only the first', () => {
    assert.deepEqual(checkAspect('mlModelProperties', { description: 1, groups: [1, DATASET] }), [
      'description: expected a string, found number 1',
      'groups[0]: expected a mlModelGroup URN string, found number 1',
      `groups[1]: expected a mlModelGroup URN, found a dataset URN '${DATASET}'`,
    ]);
  });
});

describe('which entity type has which aspects', () => {
  test('ASPECTS_BY_ENTITY: datasets hold the description aspects; each ML kind its properties and its edited properties; mlModel also links', () => {
    // DataHub's entity-registry.yml: every kind here holds ownership, tags, terms, domains and
    // deprecation; only datasets hold siblings and upstream lineage.
    const context = ['ownership', 'globalTags', 'glossaryTerms', 'domains', 'deprecation'];
    assert.deepEqual(ASPECTS_BY_ENTITY, {
      dataset: [
        'datasetProperties',
        'editableDatasetProperties',
        'institutionalMemory',
        'schemaMetadata',
        'editableSchemaMetadata',
        ...context,
        'siblings',
        'upstreamLineage',
      ],
      mlFeature: ['mlFeatureProperties', 'editableMlFeatureProperties', ...context],
      mlFeatureTable: ['mlFeatureTableProperties', 'editableMlFeatureTableProperties', ...context],
      mlModel: ['mlModelProperties', 'institutionalMemory', 'editableMlModelProperties', ...context],
      mlModelGroup: ['mlModelGroupProperties', 'editableMlModelGroupProperties', ...context],
    });
  });

  test("every aspect belongs to some entity type, and the existence aspects are among the entity's own", () => {
    const held = new Set(Object.values(ASPECTS_BY_ENTITY).flat());
    assert.deepEqual([...ASPECT_NAMES].sort(), [...held].sort());
    for (const e of CATALOG_KINDS) {
      for (const a of EXISTENCE_ASPECTS[e]) assert.ok(ASPECTS_BY_ENTITY[e].includes(a), `${e}: ${a}`);
    }
  });

  test('ASPECT_FQCN gives the Pegasus record names of notes §2', () => {
    assert.deepEqual(ASPECT_FQCN, {
      mlFeatureProperties: 'com.linkedin.ml.metadata.MLFeatureProperties',
      mlFeatureTableProperties: 'com.linkedin.ml.metadata.MLFeatureTableProperties',
      mlModelProperties: 'com.linkedin.ml.metadata.MLModelProperties',
      mlModelGroupProperties: 'com.linkedin.ml.metadata.MLModelGroupProperties',
      datasetProperties: 'com.linkedin.dataset.DatasetProperties',
      editableDatasetProperties: 'com.linkedin.dataset.EditableDatasetProperties',
      institutionalMemory: 'com.linkedin.common.InstitutionalMemory',
      schemaMetadata: 'com.linkedin.schema.SchemaMetadata',
      editableSchemaMetadata: 'com.linkedin.schema.EditableSchemaMetadata',
      // DataHub's EditableML…Properties records (metadata-models …/ml/metadata/EditableMLModelProperties.pdl …).
      editableMlFeatureProperties: 'com.linkedin.ml.metadata.EditableMLFeatureProperties',
      editableMlFeatureTableProperties: 'com.linkedin.ml.metadata.EditableMLFeatureTableProperties',
      editableMlModelProperties: 'com.linkedin.ml.metadata.EditableMLModelProperties',
      editableMlModelGroupProperties: 'com.linkedin.ml.metadata.EditableMLModelGroupProperties',
      // What else DataHub knows: com/linkedin/common/*.pdl, domain/Domains.pdl, dataset/UpstreamLineage.pdl.
      ownership: 'com.linkedin.common.Ownership',
      globalTags: 'com.linkedin.common.GlobalTags',
      glossaryTerms: 'com.linkedin.common.GlossaryTerms',
      domains: 'com.linkedin.domain.Domains',
      deprecation: 'com.linkedin.common.Deprecation',
      siblings: 'com.linkedin.common.Siblings',
      upstreamLineage: 'com.linkedin.dataset.UpstreamLineage',
    });
  });

  test('isAspectName and isCatalogKind accept exactly the known names', () => {
    assert.ok(isAspectName('schemaMetadata') && !isAspectName('status') && !isAspectName('SchemaMetadata'));
    assert.ok(isCatalogKind('mlModelGroup') && !isCatalogKind('corpuser') && !isCatalogKind('tag'));
  });
});

describe('checkAspect on what else DataHub knows: each mistake named with its path', () => {
  const cases: Array<[AspectName, unknown, string]> = [
    [
      'ownership',
      { owners: [{ owner: 'urn:li:tag:pii', type: 'TECHNICAL_OWNER' }] },
      "owners[0].owner: expected a corpuser or corpGroup URN, found a tag URN 'urn:li:tag:pii'",
    ],
    [
      'ownership',
      { owners: [{ owner: 'urn:li:corpuser:a', type: 'BOSS' }] },
      'owners[0].type: expected one of TECHNICAL_OWNER',
    ],
    ['ownership', { owners: [{ owner: 'urn:li:corpuser:a' }] }, 'owners[0].type: required'],
    ['ownership', {}, 'owners: required'],
    ['globalTags', { tags: ['urn:li:tag:pii'] }, 'tags[0]: expected an object'],
    ['globalTags', { tags: [{ tag: 'pii' }] }, "tags[0].tag: 'pii' is not a valid URN"],
    ['glossaryTerms', { terms: [{ urn: 'urn:li:glossaryTerm:x' }] }, 'auditStamp: required'],
    ['domains', { domains: ['urn:li:corpuser:a'] }, 'domains[0]: expected a domain URN, found a corpuser URN'],
    [
      'deprecation',
      { deprecated: 'yes', note: '', actor: 'urn:li:corpuser:a' },
      'deprecated: expected true or false, found the string "yes"',
    ],
    [
      'deprecation',
      { deprecated: true, note: '', actor: 'urn:li:corpuser:a', decommissionTime: '2026-01-01' },
      'decommissionTime: expected milliseconds since epoch',
    ],
    ['deprecation', { deprecated: true }, 'note: required'],
    ['siblings', { siblings: [DATASET] }, 'primary: required'],
    [
      'upstreamLineage',
      { upstreams: [{ dataset: DATASET, type: 'COPIED' }] },
      'upstreams[0].type: expected one of COPY, TRANSFORMED, VIEW',
    ],
    [
      'upstreamLineage',
      { upstreams: [{ dataset: FEATURE, type: 'COPY' }] },
      'upstreams[0].dataset: expected a dataset URN, found a mlFeature URN',
    ],
  ];
  for (const [name, value, problem] of cases)
    test(`${name}: ${problem}`, () => {
      const problems = checkAspect(name, value);
      assert.ok(
        problems.some((p) => p.startsWith(problem)),
        `expected a problem starting ${JSON.stringify(problem)}, got ${JSON.stringify(problems)}`,
      );
    });

  test('a deprecation without a decommission time or replacement, and null ones, are valid', () => {
    assert.deepEqual(checkAspect('deprecation', { deprecated: false, note: '', actor: 'urn:li:corpuser:a' }), []);
    assert.deepEqual(
      checkAspect('deprecation', {
        deprecated: true,
        note: 'gone',
        actor: 'urn:li:corpuser:a',
        decommissionTime: null,
        replacement: null,
      }),
      [],
    );
  });
});

describe('textOf reads an optional text field', () => {
  test('a plain string, or the Avro union {string: …}; anything else is null', () => {
    assert.equal(textOf('x'), 'x');
    assert.equal(textOf(''), '');
    assert.equal(textOf({ string: 'y' }), 'y');
    assert.equal(textOf({ string: 1 }), null);
    assert.equal(textOf(null), null);
    assert.equal(textOf(undefined), null);
    assert.equal(textOf(3), null);
    assert.equal(textOf(['x']), null);
  });
});
