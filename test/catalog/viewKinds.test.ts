/**
 * The local catalog serves the looked-up-only kinds (model/src/kinds.ts `view`) through GraphQL
 * in both modes, from the aspects DataHub stores them in: each kind's root field with the fields
 * the server asks (its resolve document), `entity(urn:)` and `entities(urns:)`, a never-written URN
 * answered as DataHub answers it (spec: null; DataHub mode: `exists` false, or properties null for
 * a type without `exists`), and `searchAcrossEntities` filtered to their types.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { COMPAT_MODES } from '../../catalog/src/compat';
import { SAMPLE } from '../../catalog/src/sample';
import { VIEW_KINDS, viewOf, type ViewKind } from '../../model/src/kinds';
import { batchQuery } from '../../server/src/catalogClient/queries';
import { gqlData, testCatalog } from './helpers';

const SAMPLES: Record<ViewKind, string> = {
  corpuser: SAMPLE.people.alice,
  corpGroup: SAMPLE.people.group,
  tag: SAMPLE.tags.gdpr,
  glossaryTerm: SAMPLE.glossary.sensitive,
  glossaryNode: SAMPLE.glossary.node,
  domain: SAMPLE.domain,
  container: SAMPLE.container,
  dataFlow: SAMPLE.flow,
  dataJob: SAMPLE.jobs.load,
  chart: SAMPLE.chart,
  dashboard: SAMPLE.dashboard,
  dataProduct: SAMPLE.dataProduct,
  dataPlatform: SAMPLE.platforms.looker,
  mlPrimaryKey: SAMPLE.primaryKey,
  query: SAMPLE.query,
};

/** The name DataHub's UI shows for each sample entity. */
const NAMES: Record<ViewKind, string> = {
  corpuser: 'Alice Smith',
  corpGroup: 'Data Platform',
  tag: 'GDPR',
  glossaryTerm: 'Sensitive Data',
  glossaryNode: 'Classification',
  domain: 'Marketing',
  container: 'analytics',
  dataFlow: 'Daily revenue',
  dataJob: 'Load revenue',
  chart: 'Revenue by day',
  dashboard: 'Revenue overview',
  dataProduct: 'Revenue reporting',
  dataPlatform: 'Looker',
  mlPrimaryKey: 'user_id',
  query: 'Revenue by day',
};

const GHOSTS: Record<ViewKind, string> = {
  corpuser: 'urn:li:corpuser:nobody',
  corpGroup: 'urn:li:corpGroup:nobody',
  tag: 'urn:li:tag:nothing',
  glossaryTerm: 'urn:li:glossaryTerm:Nope',
  glossaryNode: 'urn:li:glossaryNode:Nope',
  domain: 'urn:li:domain:nope',
  container: 'urn:li:container:ffffffffffffffffffffffffffffffff',
  dataFlow: 'urn:li:dataFlow:(airflow,nope,PROD)',
  dataJob: 'urn:li:dataJob:(urn:li:dataFlow:(airflow,nope,PROD),nope)',
  chart: 'urn:li:chart:(looker,nope)',
  dashboard: 'urn:li:dashboard:(looker,nope)',
  dataProduct: 'urn:li:dataProduct:nope',
  dataPlatform: 'urn:li:dataPlatform:nope',
  mlPrimaryKey: 'urn:li:mlPrimaryKey:(users_table,nope)',
  query: 'urn:li:query:nope',
};

for (const compat of COMPAT_MODES)
  describe(`the looked-up-only kinds over GraphQL (${compat} mode)`, () => {
    test("the server's resolve document of every kind at once: each sample entity with its name and exists", async (t) => {
      const catalog = await testCatalog(t, { sample: true, compat });
      const items = VIEW_KINDS.map((kind) => ({ urn: SAMPLES[kind], kind }));
      const b = batchQuery(items);
      const data = await gqlData(catalog, b.query, b.variables);
      items.forEach(({ urn, kind }, i) => {
        const e = data[`e${i}`] as Record<string, unknown>;
        assert.equal(e['urn'], urn, kind);
        if (viewOf(kind).exists) assert.equal(e['exists'], true, kind);
        const shown = JSON.stringify(e);
        assert.ok(shown.includes(`"${NAMES[kind]}"`), `${kind}: ${shown}`);
      });
    });

    test('a never-written URN of each kind: null (spec), or exists false / properties null (DataHub mode)', async (t) => {
      const catalog = await testCatalog(t, { sample: true, compat });
      const items = VIEW_KINDS.map((kind) => ({ urn: GHOSTS[kind], kind }));
      const b = batchQuery(items);
      const data = await gqlData(catalog, b.query, b.variables);
      items.forEach(({ kind }, i) => {
        const e = data[`e${i}`] as Record<string, unknown> | null;
        if (compat === 'spec') return assert.equal(e, null, kind);
        assert.ok(e, kind);
        const view = viewOf(kind);
        if (view.exists) assert.equal(e['exists'], false, kind);
        else assert.equal(e[view.writtenWhen!], null, kind);
      });
    });

    test('entity(urn:) and entities(urns:) answer these kinds with their type', async (t) => {
      const catalog = await testCatalog(t, { sample: true, compat });
      const one = await gqlData(
        catalog,
        'query one($urn: String!) { entity(urn: $urn) { urn type ... on Tag { properties { name colorHex } } } }',
        { urn: SAMPLE.tags.gdpr },
      );
      assert.deepEqual(one['entity'], {
        urn: SAMPLE.tags.gdpr,
        type: 'TAG',
        properties: { name: 'GDPR', colorHex: '#d4380d' },
      });
      const many = await gqlData(
        catalog,
        `query many($urns: [String!]!) { entities(urns: $urns) { urn type
          ... on GlossaryTerm { properties { name } parentNodes { count nodes { urn properties { name } } } }
          ... on Container { properties { name } subTypes { typeNames } } } }`,
        { urns: [SAMPLE.glossary.sensitive, SAMPLE.container, GHOSTS.tag] },
      );
      const list = many['entities'] as Array<Record<string, unknown> | null>;
      assert.deepEqual(list[0], {
        urn: SAMPLE.glossary.sensitive,
        type: 'GLOSSARY_TERM',
        properties: { name: 'Sensitive Data' },
        parentNodes: { count: 1, nodes: [{ urn: SAMPLE.glossary.node, properties: { name: 'Classification' } }] },
      });
      assert.deepEqual(list[1], {
        urn: SAMPLE.container,
        type: 'CONTAINER',
        properties: { name: 'analytics' },
        subTypes: { typeNames: ['Database'] },
      });
      assert.equal(list[2], compat === 'spec' ? null : list[2]);
    });

    test('searchAcrossEntities with their types finds them by id and by name', async (t) => {
      const catalog = await testCatalog(t, { sample: true, compat });
      const search = async (query: string, types: string[]): Promise<string[]> => {
        const data = await gqlData(
          catalog,
          'query s($input: SearchAcrossEntitiesInput!) { searchAcrossEntities(input: $input) { total searchResults { entity { urn type } } } }',
          { input: { query, types, start: 0, count: 10 } },
        );
        const r = data['searchAcrossEntities'] as { searchResults: Array<{ entity: { urn: string } }> };
        return r.searchResults.map((x) => x.entity.urn);
      };
      assert.deepEqual(await search('gdpr', ['TAG']), [SAMPLE.tags.gdpr]);
      assert.deepEqual(await search('asmith', ['CORP_USER']), [SAMPLE.people.alice]);
      assert.deepEqual(await search('Marketing', ['DOMAIN']), [SAMPLE.domain]);
      // A near spelling of a tag's id, as did-you-mean asks.
      assert.deepEqual(await search('gdrp', ['TAG']), [SAMPLE.tags.gdpr]);
      // Without types, the five catalog kinds only (as before these kinds were indexed).
      assert.deepEqual(await search('gdpr', []), []);
    });
  });
