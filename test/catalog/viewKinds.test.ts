/**
 * The local catalog serves the looked-up-only kinds (model/src/kinds.ts `view`) through GraphQL
 * in both modes, from the aspects DataHub stores them in: each kind's root field with the fields
 * the server asks (its resolve document), `entity(urn:)` and `entities(urns:)`, a never-written URN
 * answered as DataHub answers it (spec: null; DataHub mode: `exists` false, or properties null for
 * a type without `exists`, or an error where DataHub's loader fails), `searchAcrossEntities`
 * filtered to their types, and the relationships, parents and inputs/outputs the hovers list.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { COMPAT_MODES } from '../../catalog/src/compat';
import { SAMPLE } from '../../catalog/src/sample';
import { VIEW_KINDS, viewOf, type ViewKind } from '../../model/src/kinds';
import { batchQuery, existsQuery } from '../../server/src/catalogClient/queries';
import { MORE, writeMoreKinds } from '../support/moreKinds';
import { gql, gqlData, testCatalog, type Json } from './helpers';

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
  dataPlatformInstance: MORE.platformInstance,
  dataProcessInstance: MORE.run,
  structuredProperty: SAMPLE.structuredProperty,
  assertion: SAMPLE.assertion,
  incident: MORE.incident,
  notebook: MORE.notebook,
  ownershipType: SAMPLE.ownershipType,
  application: MORE.application,
  form: MORE.form,
  businessAttribute: MORE.businessAttribute,
  dataContract: MORE.dataContract,
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
  dataPlatformInstance: 'Snowflake EU',
  dataProcessInstance: 'load_revenue 2025-01-01',
  structuredProperty: 'Retention time',
  assertion: 'Revenue is never negative',
  incident: 'Revenue is a day late',
  notebook: 'Revenue deep dive',
  ownershipType: 'Data Steward',
  application: 'Revenue app',
  form: 'Quarterly certification',
  businessAttribute: 'Customer email',
  // A data contract has no name: the dataset it is about.
  dataContract: SAMPLE.datasets.revenue,
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
  dataPlatformInstance: 'urn:li:dataPlatformInstance:(urn:li:dataPlatform:snowflake,nope)',
  dataProcessInstance: 'urn:li:dataProcessInstance:nope',
  structuredProperty: 'urn:li:structuredProperty:nope',
  assertion: 'urn:li:assertion:nope',
  incident: 'urn:li:incident:nope',
  notebook: 'urn:li:notebook:(querybook,nope)',
  ownershipType: 'urn:li:ownershipType:nope',
  application: 'urn:li:application:nope',
  form: 'urn:li:form:nope',
  businessAttribute: 'urn:li:businessAttribute:nope',
  dataContract: 'urn:li:dataContract:nope',
};

/**
 * The kinds whose DataHub loader fails for a URN nobody wrote (a non-null field without its
 * aspect: IncidentMapper, FormMapper): their alias is null with an error, in the DataHub mode.
 */
const FAILS_WHEN_NEVER_WRITTEN: ReadonlySet<ViewKind> = new Set(['incident', 'form']);

for (const compat of COMPAT_MODES)
  describe(`the looked-up-only kinds over GraphQL (${compat} mode)`, () => {
    test("the server's resolve document of every kind at once: each sample entity with its name and exists", async (t) => {
      const catalog = await testCatalog(t, { sample: true, compat });
      await writeMoreKinds(catalog.url);
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
      const items = VIEW_KINDS.filter((k) => compat === 'spec' || !FAILS_WHEN_NEVER_WRITTEN.has(k)).map((kind) => ({
        urn: GHOSTS[kind],
        kind,
      }));
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
      // The kinds added since: by id and by the name their aspects give.
      await writeMoreKinds(catalog.url);
      assert.deepEqual(await search('Retention time', ['STRUCTURED_PROPERTY']), [SAMPLE.structuredProperty]);
      assert.deepEqual(await search('steward', ['CUSTOM_OWNERSHIP_TYPE']), [SAMPLE.ownershipType]);
      assert.deepEqual(await search('day late', ['INCIDENT']), [MORE.incident]);
      assert.deepEqual(await search('Customer email', ['BUSINESS_ATTRIBUTE']), [MORE.businessAttribute]);
      assert.deepEqual(await search('quarterly-certificaton', ['FORM']), [MORE.form]);
    });

    test('a never-written incident or form: its alias null with an error in the DataHub mode (null in the spec mode), entityExists false', async (t) => {
      const catalog = await testCatalog(t, { sample: true, compat });
      const items = [...FAILS_WHEN_NEVER_WRITTEN].map((kind) => ({ urn: GHOSTS[kind], kind }));
      const b = batchQuery(items);
      const r = await gql(catalog, b.query, b.variables);
      assert.equal(r.status, 200);
      const data = r.body['data'] as Record<string, unknown>;
      items.forEach((_, i) => assert.equal(data[`e${i}`], null));
      const errors = (r.body['errors'] ?? []) as Array<{ path: unknown[] }>;
      assert.deepEqual(errors.map((e) => e.path[0]).sort(), compat === 'spec' ? [] : items.map((_, i) => `e${i}`));
      const exist = existsQuery(items.map((x) => x.urn));
      const answer = await gqlData(catalog, exist.query, exist.variables);
      assert.deepEqual(answer, { e0: false, e1: false });
    });

    test("what else the hover lists: a group's member count, a domain's parents, a chart's datasets, a dashboard's charts, a job's inputs and outputs", async (t) => {
      const catalog = await testCatalog(t, { sample: true, compat });
      const items = (['corpGroup', 'domain', 'chart', 'dashboard', 'dataJob'] as const).map((kind) => ({
        urn: SAMPLES[kind],
        kind,
      }));
      const b = batchQuery(items);
      const data = await gqlData(catalog, b.query, b.variables);
      assert.deepEqual(data['e0'] && (data['e0'] as Json)['members'], { total: 2 });
      assert.deepEqual((data['e1'] as Json)['parentDomains'], {
        domains: [{ urn: SAMPLE.parentDomain, properties: { name: 'Business' } }],
      });
      assert.deepEqual((data['e2'] as Json)['inputs'], {
        total: 1,
        relationships: [{ entity: { urn: SAMPLE.datasets.revenue, name: 'analytics.public.revenue' } }],
      });
      assert.deepEqual((data['e3'] as Json)['charts'], {
        total: 1,
        relationships: [{ entity: { urn: SAMPLE.chart, properties: { name: 'Revenue by day' } } }],
      });
      assert.deepEqual((data['e4'] as Json)['inputOutput'], {
        inputDatasets: [{ name: 'db.orders' }],
        outputDatasets: [{ name: 'analytics.public.revenue' }],
      });
    });
  });
