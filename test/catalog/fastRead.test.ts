/**
 * Reads answered without graphql-js's executor (catalog/src/graphql/fastRead.ts) answer exactly
 * what `execute` answers: every document the language server sends (everyDocument, in both
 * namespace words), the catalog tests' own read documents, documents with aliases, fragments,
 * `__typename`, directives, a field asked twice, missing and malformed URNs, and bad variables, on
 * the sample data, in both modes. The server's lookups must take the fast way; documents it gives
 * up on must still be answered (by `execute`).
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { everyDocument } from '../../server/src/catalogClient/queries';
import { keyFormOf } from '../../catalog/src/compat';
import { runGraphQL, type GraphQLLimits } from '../../catalog/src/graphql/endpoint';
import { contextFields } from '../../catalog/src/graphql/contextShapes';
import { ReadContext } from '../../catalog/src/graphql/readShapes';
import { DEFAULT_QUERY_LIMITS } from '../../catalog/src/graphql/limits';
import { DATAHUB_QUERY_LIMITS } from '../../model/src/queryCost';
import { DEFAULT_NAMESPACES, NamespacePolicy } from '../../catalog/src/namespaces';
import { loadSample, SAMPLE } from '../../catalog/src/sample';
import { AspectStore } from '../../catalog/src/store';
import {
  DATASET_DESCRIPTIONS,
  DATASET_QUERY,
  ENTITY_EXISTS,
  ENTITY_QUERY,
  MLFEATURE_QUERY,
  MLFEATURE_TABLE_QUERY,
  MLMODEL_GROUP_QUERY,
  MLMODEL_QUERY,
} from './documents';

type Json = Record<string, unknown>;

const USERS = SAMPLE.datasets.users;

/** Documents beyond the server's: the shapes the walk must copy exactly, or leave to `execute`. */
const EXTRA: Array<{ name: string; query: string; variables: Json; walks: boolean }> = [
  ...[
    ['dataset', DATASET_QUERY, USERS],
    ['dataset descriptions', DATASET_DESCRIPTIONS, SAMPLE.datasets.clicks],
    ['deprecated dataset', DATASET_QUERY, SAMPLE.datasets.usersLegacy],
    ['missing dataset', DATASET_QUERY, SAMPLE.missing.dataset],
    ['feature', MLFEATURE_QUERY, SAMPLE.features.age],
    ['missing feature', MLFEATURE_QUERY, SAMPLE.missing.feature],
    ['feature table', MLFEATURE_TABLE_QUERY, SAMPLE.featureTables.users],
    ['model', MLMODEL_QUERY, SAMPLE.models.churnV3],
    ['model group', MLMODEL_GROUP_QUERY, SAMPLE.modelGroups.churn],
    ['entity', ENTITY_QUERY, SAMPLE.features.country],
    ['entityExists', ENTITY_EXISTS, USERS],
    ['svc namespace', DATASET_QUERY, USERS.replace(/urn:li:/g, 'urn:svc:')],
  ].map(([name, query, urn]) => ({ name: name!, query: query!, variables: { urn: urn! }, walks: true })),
  {
    name: 'aliases, __typename, inline and named fragments, entities(urns)',
    query: `query ($u: String!, $f: String!) {
      __typename
      a: dataset(urn: $u) { __typename t: urn ... on Dataset { name } ...D }
      b: entities(urns: [$u, $f, "urn:li:dataset:(urn:li:dataPlatform:hive,db.nothing,PROD)"]) {
        __typename urn ... on Dataset { name platform { name } } ... on MLFeature { featureNamespace }
      }
    }
    fragment D on Dataset { properties { name } schemaMetadata { fields { fieldPath type nullable } } }`,
    variables: { u: USERS, f: SAMPLE.features.age },
    walks: true,
  },
  {
    name: 'a literal URN argument',
    query: `{ dataset(urn: "${USERS.replace(/"/g, '\\"')}") { urn exists } }`,
    variables: {},
    walks: true,
  },
  {
    name: 'an argument below the root, literal and from a variable',
    query:
      'query ($u: String!, $v: Long) { dataset(urn: $u) { a: schemaMetadata(version: 0) { name } b: schemaMetadata(version: $v) { name } } }',
    variables: { u: USERS, v: 0 },
    walks: true,
  },
  {
    name: 'a variable the document does not declare',
    query: 'query ($u: String!) { dataset(urn: $u) { urn } }',
    variables: { u: USERS, extra: 1 },
    walks: true,
  },
  {
    name: 'a directive (left to execute)',
    query: 'query ($u: String!, $s: Boolean!) { dataset(urn: $u) { urn name @skip(if: $s) } }',
    variables: { u: USERS, s: true },
    walks: false,
  },
  {
    name: 'a field asked twice under one key (left to execute)',
    query: 'query ($u: String!) { dataset(urn: $u) { urn properties { name } properties { description } } }',
    variables: { u: USERS },
    walks: false,
  },
  {
    name: 'a malformed URN (a resolver error, left to execute)',
    query: 'query ($u: String!) { dataset(urn: $u) { urn } }',
    variables: { u: 'urn:li:dataset:not-one' },
    walks: false,
  },
  {
    name: 'a URN of another kind (left to execute)',
    query: 'query ($u: String!) { dataset(urn: $u) { urn } }',
    variables: { u: SAMPLE.features.age },
    walks: false,
  },
  {
    name: 'a variable of the wrong type (left to execute)',
    query: 'query ($u: String!) { dataset(urn: $u) { urn } }',
    variables: { u: 7 },
    walks: false,
  },
  {
    name: 'a missing variable (left to execute)',
    query: 'query ($u: String!) { dataset(urn: $u) { urn } }',
    variables: {},
    walks: false,
  },
  {
    name: 'a search (left to execute)',
    query: 'query { searchAcrossEntities(input: { query: "users", start: 0, count: 3 }) { total } }',
    variables: {},
    walks: false,
  },
];

for (const compat of ['spec', 'datahub'] as const)
  describe(`reads without the executor (${compat} mode)`, () => {
    const namespaces = new NamespacePolicy(DEFAULT_NAMESPACES, keyFormOf(compat));
    const store = new AspectStore(':memory:', 'normal', namespaces.canonical, keyFormOf(compat));
    const actor = namespaces.userUrn('datahub');
    loadSample(store, namespaces, actor, compat);
    const limits: GraphQLLimits =
      compat === 'datahub'
        ? { kind: 'datahub', limits: DATAHUB_QUERY_LIMITS }
        : { kind: 'spec', limits: DEFAULT_QUERY_LIMITS };
    const run = async (query: string, variables: Json, executorOnly: boolean) => {
      const ctx = new ReadContext(store, namespaces, actor, compat, contextFields);
      let how: string | undefined;
      const answer = await runGraphQL({ query, variables }, ctx, {
        limits,
        executorOnly,
        onAnswered: (h) => (how = h),
      });
      return { answer: JSON.stringify(answer), how };
    };
    const docs = [
      ...everyDocument('li').map((d) => ({ ...d, walks: d.query.trimStart().startsWith('query') })),
      ...everyDocument('svc').map((d) => ({
        ...d,
        name: `${d.name} (svc)`,
        walks: d.query.trimStart().startsWith('query'),
      })),
      ...EXTRA,
    ];
    for (const d of docs)
      test(d.name, async () => {
        const walked = await run(d.query, d.variables, false);
        const executed = await run(d.query, d.variables, true);
        assert.equal(walked.answer, executed.answer);
        assert.equal(executed.how, 'execute');
        // A lookup answered without an error takes the walk (lineage and search are left to execute).
        if (d.walks && !/lineage\(|searchAcross|autoComplete/.test(d.query) && !/"errors"/.test(executed.answer))
          assert.equal(walked.how, 'walk', `${d.name} was answered by execute`);
        if (!d.walks) assert.equal(walked.how, 'execute');
      });
    after(() => store.close());
  });
