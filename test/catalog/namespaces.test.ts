/**
 * Namespace words (`svc` in the catalog interface, `li` in DataHub): URNs in any accepted word name
 * the same entity, GraphQL echoes the URN as asked, other words are refused.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { SAMPLE } from '../../catalog/src/sample';
import { startCatalog } from '../../catalog/src/server';
import { DATASET_DESCRIPTIONS, MLMODEL_QUERY } from './documents';
import {
  aspectValue,
  getEntity,
  gql,
  gqlData,
  ingest,
  onlyError,
  proposal,
  testCatalog,
  write,
  assertRestLiError,
  type Json,
} from './helpers';

const svc = (urn: string): string => urn.replaceAll('urn:li:', 'urn:svc:');

describe('namespaces', () => {
  test('a svc URN reads the sample dataset loaded as li, and GraphQL echoes the svc URN', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    const data = await gqlData(catalog, DATASET_DESCRIPTIONS, { urn: svc(SAMPLE.datasets.users) });
    const d = data['dataset'] as Json;
    assert.equal(d['urn'], svc(SAMPLE.datasets.users));
    assert.deepEqual(d['properties'], { description: 'One row per registered user of the product.' });
    const model = (await gqlData(catalog, MLMODEL_QUERY, { urn: svc(SAMPLE.models.churnV3) }))['mlModel'] as Json;
    assert.equal(model['urn'], svc(SAMPLE.models.churnV3));
    assert.deepEqual(model['platform'], { urn: 'urn:svc:dataPlatform:mlflow', name: 'mlflow' });
  });

  test('a write in svc is read in li and the other way round (one entity, one version counter)', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    await write(catalog, 'mlModelGroup', svc(SAMPLE.modelGroups.ltv), 'mlModelGroupProperties', {
      description: 'Lifetime value.',
    });
    assert.deepEqual(
      await aspectValue(
        catalog,
        SAMPLE.modelGroups.ltv,
        'mlModelGroupProperties',
        'com.linkedin.ml.metadata.MLModelGroupProperties',
      ),
      { description: 'Lifetime value.' },
    );
    const env = await getEntity(catalog, svc(SAMPLE.modelGroups.ltv), ['mlModelGroupProperties']);
    assert.equal(env.body['urn'], svc(SAMPLE.modelGroups.ltv));
    assert.equal(
      (env.body['aspects'] as Record<string, { systemMetadata: Json }>)['mlModelGroupProperties']!.systemMetadata[
        'version'
      ],
      '2',
    );
    await write(catalog, 'dataset', svc(SAMPLE.datasets.orders), 'editableDatasetProperties', {
      description: 'Orders.',
    });
    const orders = (await gqlData(catalog, DATASET_DESCRIPTIONS, { urn: SAMPLE.datasets.orders }))['dataset'] as Json;
    assert.deepEqual(orders['editableProperties'], { description: 'Orders.' });
  });

  test('URNs in a namespace the catalog does not accept, or mixing words, are refused', async (t) => {
    const catalog = await testCatalog(t, { sample: true });
    const acme = SAMPLE.datasets.users.replaceAll('urn:li:', 'urn:acme:');
    assert.match(
      onlyError(await gql(catalog, DATASET_DESCRIPTIONS, { urn: acme })).message,
      /namespace 'acme', which this catalog does not accept \(accepted: li, svc/,
    );
    const mixed = 'urn:svc:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
    const r = await ingest(catalog, proposal('dataset', mixed, 'datasetProperties', { description: 'x' }));
    assertRestLiError(r, 400, /namespace 'li' differs from the enclosing URN's 'svc'/);
  });

  test('with --namespaces acme the sample is in acme and li is refused', async (t) => {
    const catalog = await testCatalog(t, { sample: true, namespaces: ['acme'] });
    const acme = SAMPLE.datasets.users.replaceAll('urn:li:', 'urn:acme:');
    const d = (await gql(catalog, DATASET_DESCRIPTIONS, { urn: acme })).body['data'] as { dataset: Json };
    assert.deepEqual(d.dataset['properties'], { description: 'One row per registered user of the product.' });
    assert.match(
      onlyError(await gql(catalog, DATASET_DESCRIPTIONS, { urn: SAMPLE.datasets.users })).message,
      /namespace 'li'/,
    );
  });

  test('a database file keeps its storage namespace: reopening it with another first word is refused', async (t) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'catalog-ns-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const db = path.join(dir, 'catalog.db');
    const first = await startCatalog({ port: 0, db, namespaces: ['li', 'svc'] });
    await first.close();
    await assert.rejects(
      startCatalog({ port: 0, db, namespaces: ['svc', 'li'] }),
      /stores URNs in namespace 'li'.*started with 'svc'/,
    );
  });
});
