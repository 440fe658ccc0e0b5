/**
 * addTags, removeTag, addTerms, removeTerm, addOwners and removeOwner in both modes, over real
 * HTTP, as DataHub's resolvers do them (LabelUtils, OwnerUtils): appended only when missing,
 * everything else kept; a column's into editableSchemaMetadata; the resource, the label and the
 * owner checked with DataHub's messages; removal of exactly one; and reads (a dataset's tags,
 * terms and owners) show the change.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { COMPAT_MODES } from '../../catalog/src/compat';
import { SAMPLE } from '../../catalog/src/sample';
import type { RunningCatalog } from '../../catalog/src/server';
import { aspectValue, gql, gqlData, onlyError, testCatalog, type Json } from './helpers';

const USERS = SAMPLE.datasets.users;
const ORDERS = SAMPLE.datasets.orders;
const ADD_TAGS = 'mutation($input: AddTagsInput!) { addTags(input: $input) }';
const REMOVE_TAG = 'mutation($input: TagAssociationInput!) { removeTag(input: $input) }';
const ADD_TERMS = 'mutation($input: AddTermsInput!) { addTerms(input: $input) }';
const REMOVE_TERM = 'mutation($input: TermAssociationInput!) { removeTerm(input: $input) }';
const ADD_OWNERS = 'mutation($input: AddOwnersInput!) { addOwners(input: $input) }';
const REMOVE_OWNER = 'mutation($input: RemoveOwnerInput!) { removeOwner(input: $input) }';

const READ = `query($urn: String!) { dataset(urn: $urn) {
  tags { tags { tag { urn } } }
  glossaryTerms { terms { term { urn } } }
  ownership { owners { owner { ... on CorpUser { urn } ... on CorpGroup { urn } } type } }
} }`;

async function labelsOf(
  catalog: RunningCatalog,
  urn: string,
): Promise<{ tags: string[]; terms: string[]; owners: string[] }> {
  const d = (await gqlData(catalog, READ, { urn }))['dataset'] as Json;
  const list = (v: unknown, key: string): Json[] => ((v as Json | null)?.[key] as Json[] | undefined) ?? [];
  return {
    tags: list(d['tags'], 'tags').map((t) => (t['tag'] as Json)['urn'] as string),
    terms: list(d['glossaryTerms'], 'terms').map((t) => (t['term'] as Json)['urn'] as string),
    owners: list(d['ownership'], 'owners').map(
      (o) => `${(o['owner'] as Json)['urn'] as string} ${o['type'] as string}`,
    ),
  };
}

for (const compat of COMPAT_MODES) {
  describe(`tags, glossary terms and owners through DataHub's mutations (${compat} mode)`, () => {
    test('addTags appends what the dataset lacks and keeps the rest; again, nothing twice; removeTag takes out one', async (t) => {
      const catalog = await testCatalog(t, { sample: true, compat });
      const input = { tagUrns: [SAMPLE.tags.gold, SAMPLE.tags.gdpr], resourceUrn: USERS };
      assert.equal((await gqlData(catalog, ADD_TAGS, { input }))['addTags'], true);
      assert.deepEqual((await labelsOf(catalog, USERS)).tags, ['urn:li:tag:pii', SAMPLE.tags.gold, SAMPLE.tags.gdpr]);
      await gqlData(catalog, ADD_TAGS, { input });
      assert.deepEqual(
        await aspectValue(catalog, USERS, 'globalTags', 'com.linkedin.common.GlobalTags'),
        { tags: [{ tag: 'urn:li:tag:pii' }, { tag: SAMPLE.tags.gold }, { tag: SAMPLE.tags.gdpr }] },
        'DataHub keeps one association per tag',
      );
      assert.equal(
        (await gqlData(catalog, REMOVE_TAG, { input: { tagUrn: SAMPLE.tags.gold, resourceUrn: USERS } }))['removeTag'],
        true,
      );
      assert.deepEqual((await labelsOf(catalog, USERS)).tags, ['urn:li:tag:pii', SAMPLE.tags.gdpr]);
    });

    test('addTerms sets the auditStamp; a column gets its terms and tags in editableSchemaMetadata', async (t) => {
      const catalog = await testCatalog(t, { sample: true, compat });
      const before = Date.now();
      await gqlData(catalog, ADD_TERMS, { input: { termUrns: [SAMPLE.glossary.sensitive], resourceUrn: USERS } });
      const terms = (await aspectValue(catalog, USERS, 'glossaryTerms', 'com.linkedin.common.GlossaryTerms'))!;
      assert.deepEqual(terms['terms'], [
        { urn: 'urn:li:glossaryTerm:Customer.Profile' },
        { urn: SAMPLE.glossary.sensitive },
      ]);
      const stamp = terms['auditStamp'] as { time: number; actor: string };
      assert.ok(stamp.time >= before, 'the auditStamp is now');
      assert.deepEqual((await labelsOf(catalog, USERS)).terms, [
        'urn:li:glossaryTerm:Customer.Profile',
        SAMPLE.glossary.sensitive,
      ]);

      const column = { resourceUrn: USERS, subResource: 'email', subResourceType: 'DATASET_FIELD' };
      await gqlData(catalog, ADD_TERMS, { input: { termUrns: [SAMPLE.glossary.sensitive], ...column } });
      await gqlData(catalog, ADD_TAGS, { input: { tagUrns: [SAMPLE.tags.gdpr], ...column } });
      const editable = (await aspectValue(
        catalog,
        USERS,
        'editableSchemaMetadata',
        'com.linkedin.schema.EditableSchemaMetadata',
      ))!;
      const email = (editable['editableSchemaFieldInfo'] as Json[]).find((f) => f['fieldPath'] === 'email')!;
      assert.deepEqual(email['globalTags'], { tags: [{ tag: SAMPLE.tags.gdpr }] });
      assert.deepEqual((email['glossaryTerms'] as Json)['terms'], [{ urn: SAMPLE.glossary.sensitive }]);
      await gqlData(catalog, REMOVE_TERM, { input: { termUrn: SAMPLE.glossary.sensitive, ...column } });
      const after = (await aspectValue(
        catalog,
        USERS,
        'editableSchemaMetadata',
        'com.linkedin.schema.EditableSchemaMetadata',
      ))!;
      const again = (after['editableSchemaFieldInfo'] as Json[]).find((f) => f['fieldPath'] === 'email')!;
      assert.deepEqual((again['glossaryTerms'] as Json)['terms'], []);
      assert.deepEqual(again['globalTags'], { tags: [{ tag: SAMPLE.tags.gdpr }] }, 'the tag stays');
    });

    test("a missing resource, label, field or a label of another type: DataHub's messages, nothing stored", async (t) => {
      const catalog = await testCatalog(t, { sample: true, compat });
      const ghost = SAMPLE.missing.dataset;
      const refused = async (query: string, input: Json): Promise<string> => {
        const e = onlyError(await gql(catalog, query, { input }));
        assert.deepEqual([e.code, e.type], [400, 'BAD_REQUEST'], e.message);
        return e.message;
      };
      assert.equal(
        await refused(ADD_TAGS, { tagUrns: [SAMPLE.tags.gold], resourceUrn: ghost }),
        `Failed to update resource with urn ${ghost}. Entity does not exist.`,
      );
      assert.equal(
        await refused(ADD_TAGS, { tagUrns: ['urn:li:tag:nope'], resourceUrn: USERS }),
        'Failed to validate label with urn urn:li:tag:nope. Urn does not exist.',
      );
      assert.equal(
        await refused(ADD_TERMS, { termUrns: [SAMPLE.tags.gold], resourceUrn: USERS }),
        `Failed to validate label with urn ${SAMPLE.tags.gold}. Urn type does not match entity type glossaryTerm..`,
      );
      assert.equal(
        await refused(ADD_TAGS, {
          tagUrns: [SAMPLE.tags.gold],
          resourceUrn: USERS,
          subResource: 'nope',
          subResourceType: 'DATASET_FIELD',
        }),
        `Failed to update ${USERS} & field nope. Field nope does not exist in the datasets schema.`,
      );
      assert.equal(
        await refused(ADD_TAGS, { tagUrns: [SAMPLE.tags.gold], resourceUrn: USERS, subResource: 'email' }),
        `Failed to updates resource with urn ${USERS}. SubResource (email) provided without a subResourceType.`,
      );
      assert.equal(
        await refused(ADD_OWNERS, {
          owners: [{ ownerUrn: SAMPLE.people.alice, ownerEntityType: 'CORP_USER', type: 'TECHNICAL_OWNER' }],
          resourceUrn: ghost,
        }),
        `Failed to change ownership for resource ${ghost}. Resource does not exist.`,
      );
      assert.equal(
        await refused(ADD_OWNERS, {
          owners: [{ ownerUrn: 'urn:li:corpuser:nobody', ownerEntityType: 'CORP_USER', type: 'TECHNICAL_OWNER' }],
          resourceUrn: USERS,
        }),
        'Failed to change ownership for resource(s). Owner with urn urn:li:corpuser:nobody does not exist.',
      );
      assert.equal(
        await refused(ADD_OWNERS, {
          owners: [{ ownerUrn: SAMPLE.people.alice, ownerEntityType: 'CORP_GROUP', type: 'TECHNICAL_OWNER' }],
          resourceUrn: USERS,
        }),
        `Failed to change ownership for resource(s). Expected a corp group urn, found ${SAMPLE.people.alice}`,
      );
      assert.equal(
        await refused(ADD_OWNERS, {
          owners: [
            {
              ownerUrn: SAMPLE.people.alice,
              ownerEntityType: 'CORP_USER',
              ownershipTypeUrn: 'urn:li:ownershipType:nope',
            },
          ],
          resourceUrn: USERS,
        }),
        'Failed to change ownership for resource(s). Custom Ownership type with urn urn:li:ownershipType:nope does not exist.',
      );
      assert.equal(
        await refused(ADD_OWNERS, {
          owners: [{ ownerUrn: SAMPLE.people.alice, ownerEntityType: 'CORP_USER' }],
          resourceUrn: USERS,
        }),
        'Failed to change ownership for resource(s). Expected either type or ownershipTypeUrn to be specified.',
      );
      assert.deepEqual(await labelsOf(catalog, USERS), {
        tags: ['urn:li:tag:pii'],
        terms: ['urn:li:glossaryTerm:Customer.Profile'],
        owners: ['urn:li:corpuser:jdoe TECHNICAL_OWNER', 'urn:li:corpGroup:growth-analytics BUSINESS_OWNER'],
      });
    });

    test('addOwners: one owner per owner and type, typeUrn as DataHub maps it; removeOwner of one type keeps the other', async (t) => {
      const catalog = await testCatalog(t, { sample: true, compat });
      const alice = SAMPLE.people.alice;
      const add = (type: Json): Promise<Json> =>
        gqlData(catalog, ADD_OWNERS, {
          input: { owners: [{ ownerUrn: alice, ownerEntityType: 'CORP_USER', ...type }], resourceUrn: ORDERS },
        });
      await add({ type: 'TECHNICAL_OWNER' });
      await add({ type: 'TECHNICAL_OWNER' });
      await add({ type: 'CUSTOM', ownershipTypeUrn: SAMPLE.ownershipType });
      const ownership = (await aspectValue(catalog, ORDERS, 'ownership', 'com.linkedin.common.Ownership'))!;
      assert.deepEqual(ownership['owners'], [
        { owner: SAMPLE.user, type: 'TECHNICAL_OWNER' },
        {
          owner: alice,
          type: 'TECHNICAL_OWNER',
          typeUrn: 'urn:li:ownershipType:__system__technical_owner',
          source: { type: 'MANUAL' },
        },
        { owner: alice, type: 'CUSTOM', typeUrn: SAMPLE.ownershipType, source: { type: 'MANUAL' } },
      ]);
      assert.equal((ownership['lastModified'] as Json)['actor'], 'urn:li:corpuser:datahub');
      await gqlData(catalog, REMOVE_OWNER, {
        input: { ownerUrn: alice, ownershipTypeUrn: SAMPLE.ownershipType, resourceUrn: ORDERS },
      });
      assert.deepEqual((await labelsOf(catalog, ORDERS)).owners, [
        `${SAMPLE.user} TECHNICAL_OWNER`,
        `${alice} TECHNICAL_OWNER`,
      ]);
      // Without a type, removeOwner takes the owner out whatever its type (OwnerServiceUtils.isOwnerEqual).
      await gqlData(catalog, REMOVE_OWNER, { input: { ownerUrn: alice, resourceUrn: ORDERS } });
      assert.deepEqual((await labelsOf(catalog, ORDERS)).owners, [`${SAMPLE.user} TECHNICAL_OWNER`]);
    });
  });
}
