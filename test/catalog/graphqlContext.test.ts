/**
 * What else DataHub knows of an entity, over GraphQL: ownership, tags, glossary terms,
 * domain, deprecation, siblings and one-hop lineage, written through the aspect path and read in
 * DataHub's shapes (every document is checked against DataHub's schema by `gql`), in both modes.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { gql, gqlData, onlyError, testCatalog, write, type Json } from './helpers';

const stamp = { time: 1700000000000, actor: 'urn:li:corpuser:jdoe' };
const ds = (ns: string, platform: string, name: string): string =>
  `urn:${ns}:dataset:(urn:${ns}:dataPlatform:${platform},${name},PROD)`;
const SIGNUPS = ds('li', 'kafka', 'raw.signups');
const USERS = ds('li', 'hive', 'db.users');
const USERS_V2 = ds('li', 'hive', 'db.users_v2');
const DBT_USERS = ds('li', 'dbt', 'analytics.users');
const AGE = 'urn:li:mlFeature:(users_table,age)';
const MODEL = 'urn:li:mlModel:(urn:li:dataPlatform:mlflow,churn,PROD)';

const ENTITY = `urn type ... on Dataset { name } ... on MLFeature { name } ... on MLModel { name }`;
const CONTEXT_QUERY = `query ($urn: String!) {
  dataset(urn: $urn) {
    ownership {
      owners { owner { ... on CorpUser { urn username } ... on CorpGroup { urn name } } type associatedUrn }
      lastModified { time actor }
    }
    tags { tags { tag { urn name } context associatedUrn } }
    glossaryTerms { terms { term { urn name hierarchicalName } actor { urn } } }
    domain { domain { urn id } associatedUrn }
    deprecation { deprecated note decommissionTime actor replacement { ${ENTITY} } }
    siblings { isPrimary siblings { ${ENTITY} } }
    up: lineage(input: { direction: UPSTREAM }) { start count total relationships { type degree entity { ${ENTITY} } } }
    down: lineage(input: { direction: DOWNSTREAM }) { total relationships { type degree entity { ${ENTITY} } } }
  }
}`;

const props = (name: string): Json => ({ name, description: `${name}.` });

for (const compat of ['spec', 'datahub'] as const)
  describe(`GraphQL: owners, tags, terms, domain, deprecation, siblings and lineage (${compat} mode)`, () => {
    test('each field in DataHub shape from its aspect; absent aspects are null; lineage one hop each way', async (t) => {
      const catalog = await testCatalog(t, { compat });
      // In the spec mode both namespace words are one entity: the lineage names raw.signups as svc.
      const signupsAsWritten = compat === 'spec' ? ds('svc', 'kafka', 'raw.signups') : SIGNUPS;
      await write(catalog, 'dataset', SIGNUPS, 'datasetProperties', props('signups'));
      await write(catalog, 'dataset', USERS, 'datasetProperties', props('users'));
      await write(catalog, 'dataset', USERS_V2, 'datasetProperties', props('users_v2'));
      await write(catalog, 'dataset', USERS, 'ownership', {
        owners: [
          { owner: 'urn:li:corpuser:jdoe', type: 'TECHNICAL_OWNER' },
          { owner: 'urn:li:corpGroup:data-eng', type: 'BUSINESS_OWNER' },
        ],
        lastModified: stamp,
      });
      await write(catalog, 'dataset', USERS, 'globalTags', { tags: [{ tag: 'urn:li:tag:pii', context: 'audit' }] });
      await write(catalog, 'dataset', USERS, 'glossaryTerms', {
        terms: [{ urn: 'urn:li:glossaryTerm:Customer.Email', actor: stamp.actor }],
        auditStamp: stamp,
      });
      await write(catalog, 'dataset', USERS, 'domains', {
        domains: ['urn:li:domain:marketing', 'urn:li:domain:growth'],
      });
      await write(catalog, 'dataset', USERS, 'deprecation', {
        deprecated: true,
        note: 'Use db.users_v2.',
        actor: stamp.actor,
        decommissionTime: 1767225600000,
        replacement: USERS_V2,
      });
      await write(catalog, 'dataset', USERS, 'siblings', { siblings: [DBT_USERS], primary: false });
      await write(catalog, 'dataset', USERS, 'upstreamLineage', {
        upstreams: [{ dataset: signupsAsWritten, type: 'TRANSFORMED', auditStamp: stamp }],
      });
      await write(catalog, 'dataset', USERS_V2, 'upstreamLineage', { upstreams: [{ dataset: USERS, type: 'COPY' }] });
      await write(catalog, 'mlFeature', AGE, 'mlFeatureProperties', { description: 'Age.', sources: [USERS] });
      await write(catalog, 'mlModel', MODEL, 'mlModelProperties', { description: 'Churn.', mlFeatures: [AGE] });

      const users = (await gqlData(catalog, CONTEXT_QUERY, { urn: USERS }))['dataset'] as Json;
      assert.deepEqual(users['ownership'], {
        owners: [
          { owner: { urn: 'urn:li:corpuser:jdoe', username: 'jdoe' }, type: 'TECHNICAL_OWNER', associatedUrn: USERS },
          {
            owner: { urn: 'urn:li:corpGroup:data-eng', name: 'data-eng' },
            type: 'BUSINESS_OWNER',
            associatedUrn: USERS,
          },
        ],
        lastModified: stamp,
      });
      assert.deepEqual(users['tags'], {
        tags: [{ tag: { urn: 'urn:li:tag:pii', name: 'pii' }, context: 'audit', associatedUrn: USERS }],
      });
      assert.deepEqual(users['glossaryTerms'], {
        terms: [
          {
            term: { urn: 'urn:li:glossaryTerm:Customer.Email', name: 'Email', hierarchicalName: 'Customer.Email' },
            actor: { urn: stamp.actor },
          },
        ],
      });
      assert.deepEqual(users['domain'], {
        domain: { urn: 'urn:li:domain:marketing', id: 'marketing' },
        associatedUrn: USERS,
      });
      assert.deepEqual(users['deprecation'], {
        deprecated: true,
        note: 'Use db.users_v2.',
        decommissionTime: 1767225600000,
        actor: stamp.actor,
        replacement: { urn: USERS_V2, type: 'DATASET', name: 'db.users_v2' },
      });
      assert.deepEqual(users['siblings'], {
        isPrimary: false,
        siblings: [{ urn: DBT_USERS, type: 'DATASET', name: 'analytics.users' }],
      });
      assert.deepEqual(users['up'], {
        start: 0,
        count: 1,
        total: 1,
        relationships: [
          {
            type: 'DownstreamOf',
            degree: 1,
            entity: { urn: signupsAsWritten, type: 'DATASET', name: 'raw.signups' },
          },
        ],
      });
      assert.deepEqual(users['down'], {
        total: 2,
        relationships: [
          { type: 'DownstreamOf', degree: 1, entity: { urn: USERS_V2, type: 'DATASET', name: 'db.users_v2' } },
          { type: 'DerivedFrom', degree: 1, entity: { urn: AGE, type: 'MLFEATURE', name: 'age' } },
        ],
      });

      // Downstream of raw.signups asked as li: found through the svc spelling in the spec mode only
      // (the DataHub mode keeps each URN as written, as DataHub does).
      const signups = (await gqlData(catalog, CONTEXT_QUERY, { urn: SIGNUPS }))['dataset'] as Json;
      assert.deepEqual((signups['down'] as Json)['relationships'], [
        { type: 'DownstreamOf', degree: 1, entity: { urn: USERS, type: 'DATASET', name: 'db.users' } },
      ]);
      for (const field of ['ownership', 'tags', 'glossaryTerms', 'domain', 'deprecation', 'siblings'])
        assert.equal(signups[field], null, `${field} of a dataset without that aspect`);
      assert.deepEqual(signups['up'], { start: 0, count: 0, total: 0, relationships: [] });

      // An ML feature: upstream its sources, downstream the models that consume it.
      const feature = await gqlData(
        catalog,
        `query ($urn: String!) { mlFeature(urn: $urn) {
          up: lineage(input: { direction: UPSTREAM }) { total relationships { type entity { urn } } }
          down: lineage(input: { direction: DOWNSTREAM }) { total relationships { type entity { urn } } }
          ownership { owners { type } } deprecation { deprecated }
        } }`,
        { urn: AGE },
      );
      assert.deepEqual(feature['mlFeature'], {
        up: { total: 1, relationships: [{ type: 'DerivedFrom', entity: { urn: USERS } }] },
        down: { total: 1, relationships: [{ type: 'Consumes', entity: { urn: MODEL } }] },
        ownership: null,
        deprecation: null,
      });
    });

    test('lineage pages with start and count, and refuses a count it would not serve, naming the field', async (t) => {
      const catalog = await testCatalog(t, { compat });
      await write(catalog, 'dataset', USERS, 'datasetProperties', props('users'));
      for (let i = 0; i < 5; i++) {
        const d = ds('li', 'hive', `db.derived_${i}`);
        await write(catalog, 'dataset', d, 'datasetProperties', props(`derived_${i}`));
        await write(catalog, 'dataset', d, 'upstreamLineage', { upstreams: [{ dataset: USERS, type: 'VIEW' }] });
      }
      const page = await gqlData(
        catalog,
        `query ($urn: String!) { dataset(urn: $urn) {
          lineage(input: { direction: DOWNSTREAM, start: 1, count: 2 }) { start count total relationships { entity { urn } } }
        } }`,
        { urn: USERS },
      );
      assert.deepEqual((page['dataset'] as Json)['lineage'], {
        start: 1,
        count: 2,
        total: 5,
        relationships: [
          { entity: { urn: ds('li', 'hive', 'db.derived_1') } },
          { entity: { urn: ds('li', 'hive', 'db.derived_2') } },
        ],
      });
      const tooMany = await gql(
        catalog,
        `query ($urn: String!) { dataset(urn: $urn) { lineage(input: { direction: UPSTREAM, count: 5000 }) { total } } }`,
        { urn: USERS },
      );
      assert.match(onlyError(tooMany).message, /lineage\(input\.count\): must be between 0 and 1000, found 5000/);
    });
  });
