/**
 * The local catalog takes everything DataHub ingests, in both modes: every aspect DataHub's entity
 * registry gives an entity type (model/src/entityAspects.ts), through `ingestProposal`, MCEs
 * (`/entities?action=ingest`) and `--load` of DataHub's files; read back by `/aspects` and
 * `/entitiesV2`. An aspect the registry does not give the type is refused as DataHub refuses it.
 * Also what DataHub's Python SDK sends: the key-aspect read it checks existence with.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { COMPAT_MODES } from '../../catalog/src/compat';
import { loadFiles, reportLines, type LoadReport } from '../../catalog/src/load';
import { NamespacePolicy } from '../../catalog/src/namespaces';
import { AspectStore } from '../../catalog/src/store';
import { keyFormOf } from '../../catalog/src/compat';
import {
  aspectOfRecord,
  aspectsOfEntity,
  ENTITY_ASPECTS,
  isRegisteredAspect,
  recordOfAspect,
} from '../../model/src/entityAspects';
import { encodeUrnForPath } from '../../model/src/urn';
import { startCatalogProcess } from '../support/catalogProcess';
import { needsShared, REPO_ROOT, SHARED_DIR } from '../support/shared';
import { gql, gqlData, ingest, onlyError, proposal, request, testCatalog, type Json } from './helpers';
import { skipWithoutShared, validateDocument } from '../support/datahubSchema';

const GOLDEN = path.join(REPO_ROOT, 'test', 'fixtures', 'datahub-golden');
const FEAST = path.join(GOLDEN, 'feast_repository_mces_golden.json');
const KINDS = path.join(GOLDEN, 'catalog-lens-kinds.json');
const MAIN = path.resolve(__dirname, '..', '..', 'catalog', 'src', 'main.js');

const DS = 'urn:li:dataset:(urn:li:dataPlatform:postgres,shop.public.orders,PROD)';
const CONTAINER = 'urn:li:container:25384e01fcde1063114925e9661766e7';
const USER = 'urn:li:corpuser:jdoe';
const TABLE = 'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,feature_store.driver_hourly_stats)';

function files(...paths: string[]): Array<{ file: string; text: string }> {
  return paths.map((p) => ({ file: path.basename(p), text: readFileSync(p, 'utf8') }));
}

function counts(report: LoadReport): Record<string, [loaded: number, refused: number]> {
  return Object.fromEntries([...report.byAspect].map(([a, c]) => [a, [c.loaded, c.refused]]));
}

/** entitiesV2 as DataHub's clients send it (Rest.li 2.0, so that `List(a,b)` is a list in the DataHub mode too). */
async function getEntity(catalog: { url: string }, urn: string, aspects?: string[]) {
  const q = aspects ? `?aspects=List(${aspects.join(',')})` : '';
  return request(`${catalog.url}/entitiesV2/${encodeUrnForPath(urn)}${q}`, {
    headers: { 'X-RestLi-Protocol-Version': '2.0.0' },
  });
}

async function aspectOf(catalog: { url: string }, urn: string, aspect: string) {
  return request(`${catalog.url}/aspects/${encodeUrnForPath(urn)}?aspect=${aspect}&version=0`, {
    headers: { 'X-RestLi-Protocol-Version': '2.0.0' },
  });
}

describe('the entity → aspects table', () => {
  test("every entity type of DataHub's registry has its key aspect; the five spec kinds keep every aspect the catalog reads", () => {
    assert.ok(ENTITY_ASPECTS.size >= 60);
    assert.ok(isRegisteredAspect('dataset', 'datasetKey'));
    assert.ok(isRegisteredAspect('container', 'containerProperties'));
    assert.ok(isRegisteredAspect('dataset', 'datasetProfile'));
    assert.ok(!isRegisteredAspect('dataset', 'tagProperties'));
    assert.ok(!isRegisteredAspect('mlModel', 'upstreamLineage'));
    assert.equal(aspectsOfEntity('notAType'), undefined);
    // Record names and aspect names map both ways; every key aspect has its record.
    for (const [type, aspects] of ENTITY_ASPECTS) {
      const key = [...aspects][0]!;
      assert.match(recordOfAspect(key) ?? '', /^com\.linkedin\.[a-z.]+\.[A-Z][A-Za-z]*Key$/, `${type}'s ${key}`);
      for (const a of aspects) {
        const record = recordOfAspect(a);
        if (record !== undefined) assert.equal(aspectOfRecord(record), a, record);
      }
    }
    assert.equal(aspectOfRecord('com.linkedin.pegasus2avro.ml.metadata.Metrics'), 'mlModelMetrics');
    assert.equal(recordOfAspect('mlFeatureKey'), 'com.linkedin.metadata.key.MLFeatureKey');
    assert.equal(recordOfAspect('dataProductKey'), 'com.linkedin.dataproduct.DataProductKey');
  });
});

describe('everything DataHub ingests', () => {
  for (const compat of COMPAT_MODES) {
    test(`--load of DataHub's file shapes (MCEs and MCPs, every kind): per aspect what was loaded, only the unregistered aspect refused (${compat} mode)`, async (t) => {
      const catalog = await testCatalog(t, { compat, load: files(FEAST, KINDS) });
      const report = catalog.loadReport!;
      const c = counts(report);
      // Feast: 9 MCEs → a Status each, their ML properties, the tables' BrowsePaths; 2 browsePathsV2 MCPs.
      assert.deepEqual(c['mlFeatureProperties'], [6, 0]);
      assert.deepEqual(c['mlPrimaryKeyProperties'], [1, 0]);
      assert.deepEqual(c['mlFeatureTableProperties'], [2, 0]);
      assert.deepEqual(c['browsePaths'], [2, 0]);
      // status: the 9 feast snapshots, the dataset's snapshot, a container and a user.
      assert.deepEqual(c['status'], [12, 0]);
      assert.deepEqual(c['browsePathsV2'], [4, 0]);
      // The other kinds, all accepted.
      for (const aspect of [
        'containerProperties',
        'container',
        'subTypes',
        'dataPlatformInstance',
        'ownership',
        'datasetProperties',
        'schemaMetadata',
        'globalTags',
        'glossaryTerms',
        'domains',
        'datasetProfile',
        'operation',
        'datasetUsageStatistics',
        'corpUserInfo',
        'groupMembership',
        'corpGroupInfo',
        'tagProperties',
        'glossaryNodeInfo',
        'glossaryTermInfo',
        'domainProperties',
        'dataPlatformInstanceProperties',
        'chartInfo',
        'chartUsageStatistics',
        'dashboardInfo',
        'dataFlowInfo',
        'dataJobInfo',
        'dataJobInputOutput',
        'dataProductProperties',
        'queryProperties',
      ])
        assert.ok((c[aspect]?.[0] ?? 0) > 0, `${aspect} loaded: ${JSON.stringify(c[aspect])}`);
      assert.deepEqual(c['datasetProfile'], [2, 0], 'a timeseries aspect twice: both loaded, the latest kept');
      // The one deliberate refusal: tagProperties on a dataset.
      assert.deepEqual(c['tagProperties'], [1, 1]);
      assert.equal(report.refusals.length, 1, report.refusals.join('\n'));
      assert.match(
        report.refusals[0]!,
        /^catalog-lens-kinds\.json\[40\] dataset tagProperties urn:li:dataset:.*Unknown aspect tagProperties for entity dataset/,
      );
      assert.match(report.refusals[0]!, compat === 'datahub' ? /: 500 java\.lang\.RuntimeException: / : /: 400 /);
      const lines = reportLines(report);
      assert.match(lines[0]!, /^\d+ aspects loaded, 1 refused$/);
      assert.ok(lines.some((l) => /^ {2}containerProperties +2 +0$/.test(l)));

      // Read back through /aspects (under its record name) and /entitiesV2.
      const props = await aspectOf(catalog, CONTAINER, 'containerProperties');
      assert.equal(props.status, 200);
      assert.deepEqual(props.body, {
        aspect: {
          'com.linkedin.container.ContainerProperties': {
            customProperties: { schema: 'public' },
            name: 'public',
            qualifiedName: 'shop.public',
          },
        },
        version: 0,
      });
      const profile = (await aspectOf(catalog, DS, 'datasetProfile')).body;
      assert.equal(
        ((profile['aspect'] as Json)['com.linkedin.dataset.DatasetProfile'] as Json)['rowCount'],
        1250,
        'the latest value',
      );
      const entity = (await getEntity(catalog, DS)).body as { aspects: Record<string, Json> };
      for (const a of [
        'status',
        'datasetProperties',
        'schemaMetadata',
        'ownership',
        'container',
        'subTypes',
        'operation',
      ])
        assert.ok(entity.aspects[a], `${a} in entitiesV2`);
      assert.equal(entity.aspects['datasetProfile']!['type'], 'TIMESERIES');
      // The MCE's union members came through in DataHub's Rest.li form (pegasus2avro dropped, nulls left out).
      const schema = entity.aspects['schemaMetadata']!['value'] as Json;
      assert.deepEqual(schema['platformSchema'], { 'com.linkedin.schema.MySqlDDL': { tableSchema: '' } });
      assert.ok(!('description' in (schema['fields'] as Json[])[0]!));
      const user = (await getEntity(catalog, USER, ['corpUserInfo'])).body as { aspects: Record<string, Json> };
      assert.equal((user.aspects['corpUserInfo']!['value'] as Json)['displayName'], 'Jane Doe');
      const table = (await getEntity(catalog, TABLE)).body as { aspects: Record<string, Json> };
      assert.ok(table.aspects['browsePaths'] && table.aspects['browsePathsV2'] && table.aspects['status']);
    });

    test(`the shared DataHub proposals load with no refusal DataHub would not make (${compat} mode)`, (t) => {
      const missing = needsShared('fixtures/datahub-mcps');
      if (missing) return t.skip(missing);
      const dir = path.join(SHARED_DIR, 'fixtures', 'datahub-mcps');
      const shared = readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .sort()
        .map((f) => path.join(dir, f));
      const namespaces = new NamespacePolicy(['li', 'svc'], keyFormOf(compat));
      const store = new AspectStore(':memory:', 'normal', 'li', keyFormOf(compat));
      t.after(() => store.close());
      const report = loadFiles(store, files(...shared), namespaces, 'urn:li:corpuser:datahub', compat);
      const c = counts(report);
      // The README's totals per aspect (229 proposals).
      const total = (a: string): number => (c[a]?.[0] ?? 0) + (c[a]?.[1] ?? 0);
      assert.equal(total('datasetProperties'), 72);
      assert.equal(total('schemaMetadata'), 72);
      assert.equal(total('institutionalMemory'), 16);
      assert.equal(total('mlFeatureProperties'), 34);
      assert.equal(total('mlFeatureTableProperties'), 11);
      assert.equal(total('mlModelProperties'), 10);
      assert.equal(total('mlModelGroupProperties'), 8);
      // DataHub takes all; the spec mode refuses only the edit of a dataset no file creates (its existence rule).
      assert.deepEqual(
        report.refusals.map((r) => r.replace(/:.*/s, '')),
        compat === 'datahub' ? [] : ['cli-editable.json[0] dataset editableDatasetProperties urn'],
      );
    });

    test(`MCEs: POST /entities?action=ingest splits a snapshot into its aspects (${compat} mode)`, async (t) => {
      const catalog = await testCatalog(t, { compat });
      const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,mce.table,PROD)';
      const post = (body: unknown, action = 'ingest') =>
        request(`${catalog.url}/entities?action=${action}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-RestLi-Protocol-Version': '2.0.0' },
          body: JSON.stringify(body),
        });
      const snapshot = (aspects: Json[], u = urn): Json => ({
        'com.linkedin.metadata.snapshot.DatasetSnapshot': { urn: u, aspects },
      });
      const r = await post({
        entity: {
          value: snapshot([
            { 'com.linkedin.common.Status': { removed: false } },
            { 'com.linkedin.dataset.DatasetProperties': { description: 'From an MCE.', customProperties: {} } },
          ]),
        },
        systemMetadata: { runId: 'mce-test', lastObserved: 1 },
      });
      assert.equal(r.status, 200);
      assert.equal(r.body, '', 'a Rest.li action with no return value: no body');
      const e = (await getEntity(catalog, urn)).body as { aspects: Record<string, Json> };
      assert.deepEqual(e.aspects['status']!['value'], { removed: false });
      assert.equal((e.aspects['datasetProperties']!['value'] as Json)['description'], 'From an MCE.');
      assert.equal((e.aspects['status']!['systemMetadata'] as Json)['runId'], 'mce-test');
      // batchIngest: several snapshots.
      const other = 'urn:li:dataset:(urn:li:dataPlatform:hive,mce.other,PROD)';
      const batch = await post(
        { entities: [{ value: snapshot([{ 'com.linkedin.schema.SchemaMetadata': { fields: [] } }], other) }] },
        'batchIngest',
      );
      assert.equal(batch.status, 200);
      assert.equal((await aspectOf(catalog, other, 'schemaMetadata')).status, 200);
      // An aspect DataHub's registry does not give datasets: refused as a proposal of it is, nothing stored.
      const wrong = await post({
        entity: {
          value: snapshot(
            [{ 'com.linkedin.common.Status': { removed: true } }, { 'com.linkedin.tag.TagProperties': { name: 'x' } }],
            other,
          ),
        },
      });
      assert.equal(wrong.status, compat === 'datahub' ? 500 : 400);
      assert.match(JSON.stringify(wrong.body), /Unknown aspect tagProperties for entity dataset/);
      assert.equal((await aspectOf(catalog, other, 'status')).status, 404, 'nothing of it stored');
      // A record the catalog does not know, and a body that is not a snapshot.
      const unknown = await post({ entity: { value: snapshot([{ 'com.example.Nope': {} }]) } });
      assert.equal(unknown.status, 400);
      assert.match(JSON.stringify(unknown.body), /'com\.example\.Nope' is not an aspect record/);
      assert.equal((await post({ entity: {} })).status, 400);
    });

    test(`an aspect DataHub's registry does not give the entity type is refused as DataHub refuses it; every registered one is taken (${compat} mode)`, async (t) => {
      const catalog = await testCatalog(t, { compat });
      const refused = await ingest(catalog, proposal('dataset', DS, 'tagProperties', { name: 'x' }));
      if (compat === 'datahub') {
        assert.equal(refused.status, 500);
        assert.equal(
          refused.body['message'],
          'java.lang.RuntimeException: Unknown aspect tagProperties for entity dataset',
        );
      } else {
        assert.equal(refused.status, 400);
        assert.match(String(refused.body['message']), /Unknown aspect tagProperties for entity dataset/);
      }
      // Kinds beyond the spec's five are created by any aspect, in both modes; shapes of aspects the catalog does not read are not checked.
      for (const [type, urn, aspect, value] of [
        ['container', CONTAINER, 'containerProperties', { name: 'public', anything: [1, { deep: true }] }],
        ['tag', 'urn:li:tag:pii', 'tagProperties', { name: 'PII' }],
        ['corpuser', USER, 'corpUserEditableInfo', { aboutMe: 'hi' }],
        ['dataJob', 'urn:li:dataJob:(urn:li:dataFlow:(airflow,f,prod),j)', 'dataJobInfo', { name: 'j' }],
        ['schemaField', `urn:li:schemaField:(${DS},id)`, 'schemafieldInfo', { name: 'id' }],
      ] as const) {
        const r = await ingest(catalog, proposal(type, urn, aspect, value));
        assert.equal(r.status, 200, `${type} ${aspect}: ${JSON.stringify(r.body)}`);
        const back = await getEntity(catalog, urn, [aspect]);
        assert.deepEqual(((back.body as { aspects: Record<string, Json> }).aspects[aspect] as Json)['value'], value);
      }
    });

    test(`the key-aspect read DataHub's Python SDK checks existence with (GET /aspects/U?aspect=datasetKey&version=0) (${compat} mode)`, async (t) => {
      const catalog = await testCatalog(t, { compat, sample: true });
      const users = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
      const key = await aspectOf(catalog, users, 'datasetKey');
      assert.equal(key.status, 200);
      assert.deepEqual(key.body, {
        aspect: {
          'com.linkedin.metadata.key.DatasetKey': {
            platform: 'urn:li:dataPlatform:hive',
            name: 'db.users',
            origin: 'PROD',
          },
        },
        version: 0,
      });
      // An entity never written: 404, so the SDK's exists() says false.
      const ghost = await aspectOf(catalog, 'urn:li:dataset:(urn:li:dataPlatform:hive,db.ghost,PROD)', 'datasetKey');
      assert.equal(ghost.status, 404);
      // Other kinds' keys: by their key fields.
      await ingest(catalog, proposal('chart', 'urn:li:chart:(looker,c1)', 'chartInfo', { title: 'C1' }));
      const chartKey = await aspectOf(catalog, 'urn:li:chart:(looker,c1)', 'chartKey');
      assert.deepEqual(chartKey.body, {
        aspect: { 'com.linkedin.metadata.key.ChartKey': { dashboardTool: 'looker', chartId: 'c1' } },
        version: 0,
      });
    });
  }

  test('--load FILE… on the command line: the report on stderr, then it serves what was loaded', async (t) => {
    const p = await startCatalogProcess({ args: ['--load', FEAST, KINDS] });
    t.after(() => p.stop());
    const out = p.output();
    assert.match(out, /catalog-lens-catalog: \d+ aspects loaded, 1 refused/);
    assert.match(out, /catalog-lens-catalog: {3}mlFeatureProperties +6 +0/);
    assert.match(
      out,
      /catalog-lens-kinds\.json\[40\] dataset tagProperties .*Unknown aspect tagProperties for entity dataset/,
    );
    assert.equal((await aspectOf(p, CONTAINER, 'containerProperties')).status, 200);
  });

  test('--load … --into URL posts the items to a running catalog through its ingest paths', async (t) => {
    const catalog = await testCatalog(t);
    // Not spawnSync: the catalog answering runs in this process.
    const r = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [MAIN, '--load', KINDS, FEAST, '--into', catalog.url], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      child.on('close', (status) => resolve({ status, stderr }));
    });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /catalog-lens-catalog: \d+ aspects loaded, 1 refused/);
    assert.match(r.stderr, /catalog-lens-kinds\.json\[40\] tagProperties: 400 .*Unknown aspect tagProperties/);
    assert.equal((await aspectOf(catalog, CONTAINER, 'containerProperties')).status, 200);
    assert.equal((await aspectOf(catalog, TABLE, 'browsePaths')).status, 200);
  });

  test('--load errors name the file (and the item)', (t) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'catalog-load-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const notJson = path.join(dir, 'broken.json');
    writeFileSync(notJson, '[{"entityType": ');
    const a = spawnSync(process.execPath, [MAIN, '--port', '0', '--db', ':memory:', '--load', notJson], {
      encoding: 'utf8',
    });
    assert.equal(a.status, 1);
    assert.match(a.stderr, /broken\.json: not JSON/);
    const missing = spawnSync(process.execPath, [MAIN, '--db', ':memory:', '--load', path.join(dir, 'nope.json')], {
      encoding: 'utf8',
    });
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /--load: cannot read .*nope\.json/);
    const usage = spawnSync(process.execPath, [MAIN, '--load'], { encoding: 'utf8' });
    assert.equal(usage.status, 2);
    assert.match(usage.stderr, /--load needs one or more files/);
    const intoAlone = spawnSync(process.execPath, [MAIN, '--into', 'http://127.0.0.1:1'], { encoding: 'utf8' });
    assert.equal(intoAlone.status, 2);
    assert.match(intoAlone.stderr, /--into needs --load/);
    // An item that is neither an MCP nor an MCE is reported with its file and index; the others load.
    const odd = path.join(dir, 'odd.json');
    writeFileSync(odd, JSON.stringify([{ hello: 'world' }, 3]));
    const namespaces = new NamespacePolicy(['li'], 'canonical');
    const store = new AspectStore(':memory:', 'normal', 'li');
    t.after(() => store.close());
    const report = loadFiles(store, files(odd), namespaces, 'urn:li:corpuser:datahub', 'spec');
    assert.deepEqual(report.refusals, [
      'odd.json[0]: 400 neither an MCP (entityType, entityUrn, changeType, aspectName, aspect) nor an MCE (proposedSnapshot)',
      'odd.json[1]: 400 expected an MCP or an MCE object',
    ]);
  });
});

/** The document DataHub's Python SDK sends for v2 search (DataHubGraph.get_urns_by_filter → scrollAcrossEntities). */
const SCROLL = `query scrollUrnsWithFilters($types: [EntityType!], $query: String!, $orFilters: [AndFilterInput!], $batchSize: Int!, $scrollId: String, $skipCache: Boolean!) {
  scrollAcrossEntities(input: {
    query: $query, count: $batchSize, scrollId: $scrollId, types: $types, orFilters: $orFilters,
    searchFlags: { skipHighlighting: true, skipAggregates: true, skipCache: $skipCache }
  }) {
    nextScrollId
    count
    total
    searchResults { entity { urn type } }
  }
}`;

describe('scrollAcrossEntities (what SDK v2 search sends)', () => {
  test("the SDK's document is valid against DataHub's schema", (t) => {
    if (skipWithoutShared(t)) return;
    assert.deepEqual(
      validateDocument(SCROLL, { types: ['DATASET'], query: '*', batchSize: 2, scrollId: null, skipCache: false }),
      [],
    );
  });

  for (const compat of COMPAT_MODES)
    test(`pages through every match with nextScrollId, null on the last page; types and filters apply (${compat} mode)`, async (t) => {
      const catalog = await testCatalog(t, { compat, sample: true });
      const urns: string[] = [];
      let scrollId: string | null = null;
      let pages = 0;
      do {
        const data = await gqlData(catalog, SCROLL, {
          types: ['DATASET'],
          query: '*',
          batchSize: 2,
          scrollId,
          skipCache: false,
        });
        const r = data['scrollAcrossEntities'] as {
          nextScrollId: string | null;
          count: number;
          total: number;
          searchResults: Array<{ entity: { urn: string; type: string } }>;
        };
        assert.ok(r.count <= 2);
        assert.ok(r.searchResults.every((x) => x.entity.type === 'DATASET'));
        urns.push(...r.searchResults.map((x) => x.entity.urn));
        scrollId = r.nextScrollId;
        pages++;
        if (scrollId === null) assert.equal(urns.length, r.total);
      } while (scrollId !== null && pages < 10);
      assert.ok(urns.length >= 4, `the sample's datasets: ${urns.join(', ')}`);
      assert.equal(new Set(urns).size, urns.length, 'no dataset twice');
      assert.ok(urns.includes('urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)'));
      // A platform filter, as searchAcrossEntities takes it.
      const kafka = await gqlData(catalog, SCROLL, {
        types: null,
        query: '*',
        batchSize: 50,
        scrollId: null,
        skipCache: true,
        orFilters: [{ and: [{ field: 'platform', values: ['urn:li:dataPlatform:kafka'] }] }],
      });
      const hits = (kafka['scrollAcrossEntities'] as { searchResults: Array<{ entity: { urn: string } }> })
        .searchResults;
      assert.ok(hits.length > 0 && hits.every((h) => h.entity.urn.includes('dataPlatform:kafka')));
      // A scroll id the catalog did not give is refused with a message.
      const bad = await gql(catalog, SCROLL, { query: '*', batchSize: 2, scrollId: 'nope', skipCache: false });
      assert.match(onlyError(bad).message, /scrollId: 'nope' is not a scroll id this catalog gave/);
    });
});

describe('PATCH proposals (as DataHub sources emit them)', () => {
  for (const compat of COMPAT_MODES)
    test(`a JSON Patch is applied to the stored aspect (keyed array items, created objects); a bad one is refused (${compat} mode)`, async (t) => {
      const catalog = await testCatalog(t, { compat, sample: true });
      const users = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
      const patch = (aspectName: string, ops: unknown) =>
        ingest(catalog, {
          entityType: 'dataset',
          entityUrn: users,
          changeType: 'PATCH',
          aspectName,
          aspect: { value: JSON.stringify(ops), contentType: 'application/json' },
        });
      const before = (await aspectOf(catalog, users, 'datasetProperties')).body['aspect'] as Json;
      const description = (before['com.linkedin.dataset.DatasetProperties'] as Json)['description'];
      assert.equal(
        (await patch('datasetProperties', [{ op: 'add', path: '/customProperties/owner~1team', value: 'x' }])).status,
        200,
      );
      const after = ((await aspectOf(catalog, users, 'datasetProperties')).body['aspect'] as Json)[
        'com.linkedin.dataset.DatasetProperties'
      ] as Json;
      assert.equal(after['description'], description, 'the rest kept');
      assert.equal((after['customProperties'] as Json)['owner/team'], 'x');
      // globalTags: items addressed by their key, the GenericJsonPatch form too.
      assert.equal(
        (
          await patch('globalTags', {
            patch: [{ op: 'add', path: '/tags/urn:li:tag:pii', value: { tag: 'urn:li:tag:pii' } }],
          })
        ).status,
        200,
      );
      assert.equal(
        (await patch('globalTags', [{ op: 'add', path: '/tags/urn:li:tag:gold', value: { tag: 'urn:li:tag:gold' } }]))
          .status,
        200,
      );
      assert.equal((await patch('globalTags', [{ op: 'remove', path: '/tags/urn:li:tag:pii' }])).status, 200);
      const tags = (await aspectOf(catalog, users, 'globalTags')).body['aspect'] as Json;
      assert.deepEqual(tags['com.linkedin.common.GlobalTags'], { tags: [{ tag: 'urn:li:tag:gold' }] });
      // A patched value is checked like a written one.
      const bad = await patch('globalTags', [{ op: 'add', path: '/tags/x', value: { tag: 'urn:li:corpuser:x' } }]);
      assert.equal(bad.status, 422);
      assert.match(JSON.stringify(bad.body), /expected a tag URN/);
      assert.equal((await patch('globalTags', { nope: 1 })).status, 422);
    });
});

describe('existence of an entity holding only aspects the catalog does not read', () => {
  test('DataHub mode: a dataset with only `status` exists for GraphQL as for entitiesV2', async (t) => {
    const catalog = await testCatalog(t, { compat: 'datahub' });
    const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,only.status,PROD)';
    const q = 'query($urn: String!) { dataset(urn: $urn) { urn exists } }';
    assert.equal(((await gqlData(catalog, q, { urn }))['dataset'] as Json)['exists'], false);
    assert.equal((await ingest(catalog, proposal('dataset', urn, 'status', { removed: false }))).status, 200);
    assert.equal(((await gqlData(catalog, q, { urn }))['dataset'] as Json)['exists'], true);
  });
});
