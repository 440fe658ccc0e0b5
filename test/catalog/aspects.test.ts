/**
 * The Rest.li aspect paths: every aspect the catalog knows (model/src/aspects.ts) written
 * and read back for all five entity types, DataHub's read shapes, versions, conditional writes,
 * batches, and that values are kept whole.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ASPECT_FQCN, type AspectName } from '../../model/src/aspects';
import { encodeUrnForPath } from '../../model/src/urn';
import {
  aspectValue,
  assertRestLiError,
  getAspect,
  getEntity,
  ingest,
  ingestRaw,
  proposal,
  request,
  testCatalog,
  versionOf,
  write,
  type Json,
} from './helpers';

const stamp = { time: 1700000000000, actor: 'urn:li:corpuser:jdoe' };
const dataset = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.all_aspects,PROD)';
const feature = 'urn:li:mlFeature:(all_table,all_feature)';
const table = 'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,all_table)';
const model = 'urn:li:mlModel:(urn:li:dataPlatform:mlflow,all-model,PROD)';
const group = 'urn:li:mlModelGroup:(urn:li:dataPlatform:mlflow,all-group,PROD)';

/** Every (entity, aspect) pair the catalog knows, in an order where each entity exists before its other aspects. */
const ALL: Array<[string, string, AspectName, Json]> = [
  ['dataset', dataset, 'datasetProperties', { description: 'All aspects.', customProperties: { owner: 'data-eng' } }],
  [
    'dataset',
    dataset,
    'schemaMetadata',
    {
      schemaName: 'db.all_aspects',
      platform: 'urn:li:dataPlatform:hive',
      version: 0,
      hash: '',
      platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
      fields: [
        {
          fieldPath: 'id',
          description: 'Id.',
          nativeDataType: 'bigint',
          type: { type: { 'com.linkedin.schema.NumberType': {} } },
        },
      ],
    },
  ],
  ['dataset', dataset, 'editableDatasetProperties', { created: stamp, description: 'Edited **Markdown**.' }],
  [
    'dataset',
    dataset,
    'institutionalMemory',
    { elements: [{ url: 'https://wiki.example.com/x', description: 'Wiki', createStamp: stamp }] },
  ],
  [
    'dataset',
    dataset,
    'editableSchemaMetadata',
    { created: stamp, editableSchemaFieldInfo: [{ fieldPath: 'id', description: 'Edited id.' }] },
  ],
  [
    'mlFeature',
    feature,
    'mlFeatureProperties',
    { description: 'F.', sources: [dataset], dataType: 'TEXT', version: { versionTag: '1' } },
  ],
  ['mlFeatureTable', table, 'mlFeatureTableProperties', { description: 'T.', mlFeatures: [feature] }],
  ['mlModelGroup', group, 'mlModelGroupProperties', { description: 'G.' }],
  [
    'mlModel',
    model,
    'mlModelProperties',
    {
      description: 'M.',
      groups: [group],
      mlFeatures: [feature],
      type: 'xgboost',
      version: { versionTag: '7' },
      trainingMetrics: [{ name: 'auc', description: 'AUC', value: '0.8' }],
      hyperParams: [{ name: 'eta', description: 'Learning rate', value: '0.1' }],
    },
  ],
  [
    'mlModel',
    model,
    'institutionalMemory',
    { elements: [{ url: 'https://models.example.com/m', description: 'Card', createStamp: stamp }] },
  ],
];

describe('aspect write and read', () => {
  test('every aspect of §2.2 on all five entity types is written and read back as {aspect: {FQCN: value}, version: 0}', async (t) => {
    const catalog = await testCatalog(t);
    for (const [type, urn, aspect, value] of ALL) {
      assert.equal((await getAspect(catalog, urn, aspect)).status, 404, `${aspect} absent before the write`);
      await write(catalog, type, urn, aspect, value);
      const r = await getAspect(catalog, urn, aspect);
      assert.equal(r.status, 200);
      assert.deepEqual(r.body, { aspect: { [ASPECT_FQCN[aspect]]: value }, version: 0 });
    }
  });

  for (const compat of ['spec', 'datahub'] as const)
    test(`what else DataHub knows (ownership, tags, terms, domains, deprecation, siblings, lineage) is written and read back on datasets and ML kinds, and checked (${compat} mode)`, async (t) => {
      const catalog = await testCatalog(t, { compat });
      const context: Array<[AspectName, Json]> = [
        ['ownership', { owners: [{ owner: 'urn:li:corpuser:jdoe', type: 'TECHNICAL_OWNER' }], lastModified: stamp }],
        ['globalTags', { tags: [{ tag: 'urn:li:tag:pii' }] }],
        ['glossaryTerms', { terms: [{ urn: 'urn:li:glossaryTerm:Customer.Id' }], auditStamp: stamp }],
        ['domains', { domains: ['urn:li:domain:growth'] }],
        ['deprecation', { deprecated: true, note: 'Use v2.', actor: stamp.actor, decommissionTime: 1767225600000 }],
      ];
      const datasetOnly: Array<[AspectName, Json]> = [
        [
          'siblings',
          { siblings: ['urn:li:dataset:(urn:li:dataPlatform:dbt,analytics.all_aspects,PROD)'], primary: false },
        ],
        [
          'upstreamLineage',
          { upstreams: [{ dataset: 'urn:li:dataset:(urn:li:dataPlatform:kafka,raw.all,PROD)', type: 'COPY' }] },
        ],
      ];
      for (const [type, urn, aspect, value] of ALL.filter(
        ([, , a]) => a.endsWith('Properties') && !a.startsWith('editable'),
      ))
        await write(catalog, type, urn, aspect, value);
      const pairs: Array<[string, string, AspectName, Json]> = [
        ...[...context, ...datasetOnly].map(
          ([a, v]) => ['dataset', dataset, a, v] as [string, string, AspectName, Json],
        ),
        ...(
          [
            ['mlFeature', feature],
            ['mlFeatureTable', table],
            ['mlModel', model],
            ['mlModelGroup', group],
          ] as const
        ).flatMap(([type, urn]) => context.map(([a, v]) => [type, urn, a, v] as [string, string, AspectName, Json])),
      ];
      for (const [type, urn, aspect, value] of pairs) {
        await write(catalog, type, urn, aspect, value);
        const r = await getAspect(catalog, urn, aspect);
        assert.equal(r.status, 200, `${type} ${aspect}`);
        assert.deepEqual(r.body, { aspect: { [ASPECT_FQCN[aspect]]: value }, version: 0 }, `${type} ${aspect}`);
      }
      // DataHub's registry gives lineage and siblings to datasets only: refused on an ML kind, nothing stored.
      const refused = await ingest(
        catalog,
        proposal('mlModel', model, 'upstreamLineage', { upstreams: [{ dataset, type: 'COPY' }] }),
      );
      // Refused as DataHub refuses it (AspectUtils.validateAspect's RuntimeException, a 500 at DataHub); the spec mode's 400 says the same.
      assert.equal(refused.status, compat === 'datahub' ? 500 : 400);
      assert.match(JSON.stringify(refused.body), /Unknown aspect upstreamLineage for entity mlModel/);
      if (compat === 'spec')
        assert.match(JSON.stringify(refused.body), /'upstreamLineage' is not an aspect of entity type 'mlModel'/);
      // A read of it: refused in the spec mode; absent (404) in the DataHub mode, as DataHub answers.
      assert.equal((await getAspect(catalog, model, 'upstreamLineage')).status, compat === 'datahub' ? 404 : 400);
      // A mistake is named with its JSON path, and nothing is stored.
      const bad = await ingest(
        catalog,
        proposal('dataset', dataset, 'ownership', { owners: [{ owner: 'urn:li:tag:pii', type: 'TECHNICAL_OWNER' }] }),
      );
      assert.equal(bad.status, 422, 'a value that breaks its schema is unprocessable, as in DataHub');
      assert.match(
        JSON.stringify(bad.body),
        /owners\[0\]\.owner: expected a corpuser or corpGroup URN, found a tag URN/,
      );
      assert.deepEqual(
        await aspectValue(catalog, dataset, 'ownership', ASPECT_FQCN.ownership),
        context[0]![1],
        'the valid ownership is kept',
      );
    });

  test('an absent aspect or entity is 404 with a Rest.li body naming it', async (t) => {
    const catalog = await testCatalog(t);
    const r = await getAspect(catalog, feature, 'mlFeatureProperties');
    assertRestLiError(r, 404, /aspect mlFeatureProperties of urn:li:mlFeature:\(all_table,all_feature\) not found/);
    assertRestLiError(
      await getAspect(catalog, feature, 'datasetProperties'),
      400,
      /'datasetProperties' is not an aspect of entity type 'mlFeature'/,
    );
    assertRestLiError(await getAspect(catalog, feature, 'nosuchAspect'), 400, /unknown aspect 'nosuchAspect'/);
    assertRestLiError(
      await request(`${catalog.url}/aspects/${encodeUrnForPath(feature)}`),
      400,
      /aspect: required query parameter/,
    );
    assertRestLiError(
      await request(`${catalog.url}/aspects/${encodeUrnForPath(feature)}?aspect=mlFeatureProperties&version=2`),
      400,
      /only version=0/,
    );
    assertRestLiError(
      await request(`${catalog.url}/aspects/urn%3Ali%3AmlFeature%3A(a%2Cb`),
      400,
      /not a valid URN: unbalanced parenthesis: .* \(at offset 17\)/,
    );
    assertRestLiError(await request(`${catalog.url}/nowhere`), 404, /No root resource defined for path '\/nowhere'/);
  });

  test('entitiesV2 returns the listed aspects with name, VERSIONED, value, created and systemMetadata; absent ones are left out', async (t) => {
    const catalog = await testCatalog(t);
    const before = Date.now();
    for (const [type, urn, aspect, value] of ALL.slice(0, 3)) {
      await write(catalog, type, urn, aspect, value, {
        systemMetadata: { runId: 'test-run', lastObserved: 1690000000000, pipelineName: 'p1' },
      });
    }
    const r = await getEntity(catalog, dataset, [
      'datasetProperties',
      'editableDatasetProperties',
      'institutionalMemory',
    ]);
    assert.equal(r.status, 200);
    assert.equal(r.body['entityName'], 'dataset');
    assert.equal(r.body['urn'], dataset);
    const aspects = r.body['aspects'] as Record<string, Json>;
    assert.deepEqual(
      Object.keys(aspects).sort(),
      ['datasetProperties', 'editableDatasetProperties'],
      'institutionalMemory is absent',
    );
    const env = aspects['editableDatasetProperties']!;
    assert.deepEqual(
      { ...env, created: undefined },
      {
        name: 'editableDatasetProperties',
        type: 'VERSIONED',
        version: 0,
        value: ALL[2]![3],
        created: undefined,
        systemMetadata: { runId: 'test-run', lastObserved: 1690000000000, pipelineName: 'p1', version: '1' },
      },
    );
    const created = env['created'] as { time: number; actor: string };
    assert.equal(created.actor, 'urn:li:corpuser:datahub');
    assert.ok(created.time >= before && created.time <= Date.now());

    const all = await getEntity(catalog, dataset);
    assert.deepEqual(Object.keys(all.body['aspects'] as Json).sort(), [
      'datasetProperties',
      'editableDatasetProperties',
      'schemaMetadata',
    ]);
    const oneOld = await request(
      `${catalog.url}/entitiesV2/${encodeUrnForPath(dataset)}?aspects=datasetProperties&aspects=institutionalMemory`,
    );
    assert.deepEqual(Object.keys(oneOld.body['aspects'] as Json), ['datasetProperties']);
    const none = await getEntity(catalog, 'urn:li:dataset:(urn:li:dataPlatform:hive,db.none,PROD)', [
      'datasetProperties',
    ]);
    assert.deepEqual(none.body, {
      entityName: 'dataset',
      urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.none,PROD)',
      aspects: {},
    });
    assertRestLiError(await getEntity(catalog, dataset, ['bogus']), 400, /aspects: unknown aspect 'bogus'/);
  });

  test('versions: 1 on the first write, +1 per change, none for an identical value (key order aside)', async (t) => {
    const catalog = await testCatalog(t);
    assert.equal(await versionOf(catalog, group, 'mlModelGroupProperties'), '-1');
    await write(catalog, 'mlModelGroup', group, 'mlModelGroupProperties', {
      description: 'v1',
      customProperties: { a: '1', b: '2' },
    });
    assert.equal(await versionOf(catalog, group, 'mlModelGroupProperties'), '1');
    await write(catalog, 'mlModelGroup', group, 'mlModelGroupProperties', {
      customProperties: { b: '2', a: '1' },
      description: 'v1',
    });
    assert.equal(await versionOf(catalog, group, 'mlModelGroupProperties'), '1');
    await write(catalog, 'mlModelGroup', group, 'mlModelGroupProperties', { description: 'v2' });
    await write(catalog, 'mlModelGroup', group, 'mlModelGroupProperties', { description: 'v3' });
    assert.equal(await versionOf(catalog, group, 'mlModelGroupProperties'), '3');
  });

  test("conditional write: a stale If-Version-Match is 422 with DataHub's message and stores nothing; a matching one writes", async (t) => {
    const catalog = await testCatalog(t);
    await write(catalog, 'mlFeature', feature, 'mlFeatureProperties', { description: 'one' });
    await write(catalog, 'mlFeature', feature, 'mlFeatureProperties', { description: 'two' });
    const stale = await ingest(
      catalog,
      proposal(
        'mlFeature',
        feature,
        'mlFeatureProperties',
        { description: 'three' },
        { headers: { 'If-Version-Match': '1' } },
      ),
    );
    assertRestLiError(
      stale,
      422,
      /^ValidationExceptionCollection\{EntityAspect:\(urn:li:mlFeature:\(all_table,all_feature\),mlFeatureProperties\) Exceptions: \[Expected version 1, actual version 2\]\}$/,
    );
    assert.deepEqual(await aspectValue(catalog, feature, 'mlFeatureProperties', ASPECT_FQCN.mlFeatureProperties), {
      description: 'two',
    });
    const absentOnly = await ingest(
      catalog,
      proposal(
        'mlFeature',
        feature,
        'mlFeatureProperties',
        { description: 'x' },
        { headers: { 'If-Version-Match': '-1' } },
      ),
    );
    assertRestLiError(absentOnly, 422, /Expected version -1, actual version 2/);
    await write(
      catalog,
      'mlFeature',
      feature,
      'mlFeatureProperties',
      { description: 'three' },
      { headers: { 'If-Version-Match': '2' } },
    );
    assert.equal(await versionOf(catalog, feature, 'mlFeatureProperties'), '3');
    const bad = await ingest(
      catalog,
      proposal(
        'mlFeature',
        feature,
        'mlFeatureProperties',
        { description: 'x' },
        { headers: { 'If-Version-Match': 'latest' } },
      ),
    );
    assertRestLiError(bad, 400, /proposal\.headers\.If-Version-Match: expected a version number as a string/);
  });

  test('ingestProposalBatch writes all proposals in one transaction, or none', async (t) => {
    const catalog = await testCatalog(t);
    const ok = await ingestRaw(
      catalog,
      JSON.stringify({
        proposals: [
          proposal('dataset', dataset, 'datasetProperties', { description: 'Batch.' }),
          proposal('dataset', dataset, 'institutionalMemory', { elements: [] }),
        ],
        async: 'false',
      }),
      'ingestProposalBatch',
    );
    assert.equal(ok.status, 200);
    assert.equal(await versionOf(catalog, dataset, 'institutionalMemory'), '1');
    const failing = await ingestRaw(
      catalog,
      JSON.stringify({
        proposals: [
          proposal('dataset', dataset, 'datasetProperties', { description: 'Changed.' }),
          proposal('dataset', 'urn:li:dataset:(urn:li:dataPlatform:hive,db.other,PROD)', 'editableDatasetProperties', {
            description: 'x',
          }),
        ],
      }),
      'ingestProposalBatch',
    );
    assertRestLiError(failing, 404, /^proposals\[1\]: Writing editableDatasetProperties failed/);
    assert.deepEqual(
      await aspectValue(catalog, dataset, 'datasetProperties', ASPECT_FQCN.datasetProperties),
      { description: 'Batch.' },
      'rolled back',
    );
    const invalid = await ingestRaw(
      catalog,
      JSON.stringify({
        proposals: [
          proposal('dataset', dataset, 'datasetProperties', { description: 'Changed.' }),
          proposal('dataset', dataset, 'datasetProperties', { description: 7 }),
        ],
      }),
      'ingestProposalBatch',
    );
    assertRestLiError(invalid, 422, /proposals\[1\]\.aspect\.value\.description: expected a string, found number 7/);
    assert.deepEqual(await aspectValue(catalog, dataset, 'datasetProperties', ASPECT_FQCN.datasetProperties), {
      description: 'Batch.',
    });
  });

  test('values are kept whole: unknown fields, Pegasus unions, and non-ASCII both raw and as \\u escapes', async (t) => {
    const catalog = await testCatalog(t);
    const value = {
      description: 'Größe – 大小 – emoji 🚀',
      customProperties: { clé: 'valeur' },
      futureField: { nested: [1, null, true] },
      created: { time: 1, actor: 'urn:li:corpuser:x', impersonator: 'urn:li:corpuser:y' },
    };
    await write(catalog, 'dataset', dataset, 'datasetProperties', value);
    assert.deepEqual(await aspectValue(catalog, dataset, 'datasetProperties', ASPECT_FQCN.datasetProperties), value);
    const escaped = JSON.stringify({ ...value, description: 'ASCII only: \u00e9' }).replace(
      /[\u007f-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
    assert.ok(/^[\x00-\x7f]*$/.test(escaped));
    await write(catalog, 'dataset', dataset, 'datasetProperties', escaped);
    const back = await aspectValue(catalog, dataset, 'datasetProperties', ASPECT_FQCN.datasetProperties);
    assert.equal(back?.['description'], 'ASCII only: é');
    assert.deepEqual(back?.['customProperties'], { clé: 'valeur' });
  });
});
