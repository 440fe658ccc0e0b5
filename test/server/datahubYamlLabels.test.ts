/**
 * Push of a DataHub dataset file's tags, glossary terms and owners, through the real server
 * process against the real local catalog in both of its modes: `catalogLens/dataHubYaml` lists one
 * write per tag, term and owner (with its ownership type) the catalog's dataset lacks,
 * `catalogLens.pushDataHubYaml` makes them through addTags / addTerms / addOwners once the user
 * picks Push, the catalog then has them (and the next compare lists nothing), and the Undo the
 * client offers (client/src/writeButtons.ts undoOf) takes out exactly what each write added.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { undoOf } from '../../client/src/writeButtons';
import { ServerCommands } from '../../model/src/commandIds';
import {
  DataHubYamlRequest,
  type DataHubYamlResult,
  type PushDataHubYamlResult,
  type WriteResult,
} from '../../model/src/protocol';
import { aspects } from '../support/catalogHttp';
import { COMPAT_MODES, S, sampleCatalog, serverFor, useSampleServerPerTest } from '../support/fixture';
import { hoverText, positionOf } from '../support/lspClient';

const FILE = [
  '- id: db.orders',
  '  platform: hive',
  '  tags: [gold]',
  '  glossary_terms: [Classification.Sensitive]',
  '  owners:',
  '    - jdoe   # a TECHNICAL_OWNER of db.orders already',
  '    - id: asmith',
  '      type: BUSINESS_OWNER',
  '  schema:',
  '    fields:',
  '      - id: amount',
  '        globalTags: [gdpr]',
  '',
].join('\n');

const LINES = [
  'db.orders: add tag gold',
  'db.orders: add glossary term Classification.Sensitive',
  'db.orders: add owner asmith (BUSINESS_OWNER)',
  'db.orders, field amount: add tag gdpr',
];

const MESSAGES = [
  'Added tag gold to db.orders.',
  'Added glossary term Classification.Sensitive to db.orders.',
  'Added owner asmith (BUSINESS_OWNER) to db.orders.',
  'Added tag gdpr to column amount of db.orders.',
];

const ASPECTS = ['globalTags', 'glossaryTerms', 'ownership', 'editableSchemaMetadata'];

for (const compat of COMPAT_MODES)
  describe(`DataHub dataset YAML: push of tags, glossary terms and owners (${compat} catalog)`, () => {
    const asked: string[] = [];
    const env = useSampleServerPerTest(
      {
        answerMessageRequest: (p) => {
          asked.push(p.message);
          return 'Push';
        },
      },
      compat,
    );
    const compare = (uri: string): Promise<DataHubYamlResult> =>
      env.lsp.connection.sendRequest(DataHubYamlRequest.method, { uri });

    test('each one the dataset lacks is listed, pushed, read back; Undo takes out exactly what each added', async () => {
      asked.length = 0;
      const uri = 'file:///w/orders-labels.yaml';
      await env.lsp.open(uri, 'yaml', FILE);
      const before = await aspects(env.catalog.url, S.orders, ASPECTS);

      const plan = await compare(uri);
      assert.equal(plan.error, undefined, plan.error);
      assert.deepEqual(
        plan.writes.map((w) => w.line),
        LINES,
      );
      assert.deepEqual(plan.writes[2], {
        command: ServerCommands.addOwners,
        arg: { urn: S.orders, owners: ['urn:li:corpuser:asmith'], ownershipType: 'BUSINESS_OWNER', uri },
        line: LINES[2],
      });
      assert.deepEqual(plan.writes[3]!.arg, { urn: S.orders, tags: ['urn:li:tag:gdpr'], fieldPath: 'amount', uri });
      assert.equal(plan.catalogText, FILE, 'a pull changes nothing: tags, terms and owners are pushed only');

      const pushed = await env.lsp.command<PushDataHubYamlResult>(ServerCommands.pushDataHubYaml, { uri });
      assert.equal(pushed.status, 'pushed', pushed.message);
      assert.equal(asked[0], ['Catalog Lens: push 4 writes to the catalog?', ...LINES.map((l) => `• ${l}`)].join('\n'));
      assert.deepEqual(
        pushed.results.map((r) => [r.result.status, r.result.message]),
        MESSAGES.map((m) => ['written', m]),
      );

      const after = await aspects(env.catalog.url, S.orders, ASPECTS);
      assert.deepEqual(
        after['globalTags'].tags.map((t: { tag: string }) => t.tag),
        ['urn:li:tag:gold'],
      );
      assert.deepEqual(
        after['glossaryTerms'].terms.map((t: { urn: string }) => t.urn),
        ['urn:li:glossaryTerm:Classification.Sensitive'],
      );
      assert.deepEqual(
        after['ownership'].owners.map((o: { owner: string; type: string }) => `${o.owner} ${o.type}`),
        ['urn:li:corpuser:jdoe TECHNICAL_OWNER', 'urn:li:corpuser:asmith BUSINESS_OWNER'],
        'nothing the file does not name was taken away',
      );
      const amount = after['editableSchemaMetadata'].editableSchemaFieldInfo.find(
        (f: { fieldPath: string }) => f.fieldPath === 'amount',
      );
      assert.deepEqual(amount.globalTags, { tags: [{ tag: 'urn:li:tag:gdpr' }] });
      assert.deepEqual((await compare(uri)).writes, [], 'the catalog now has what the file names');
      // The hover on the entry reads the catalog's answer again: the new tag and owner are in it.
      const hover = hoverText(await env.lsp.hover(uri, positionOf(FILE, 'db.orders')));
      assert.match(hover, /Gold/, hover);
      assert.match(hover, /asmith|Alice Smith/, hover);

      // The push again: each add now unchanged.
      for (const w of plan.writes) {
        const again = await env.lsp.command<WriteResult>(w.command, w.arg);
        assert.equal(again.status, 'unchanged', again.message);
      }
      assert.match(
        (await env.lsp.command<WriteResult>(plan.writes[0]!.command, plan.writes[0]!.arg)).message,
        /^Nothing written to dataset db\.orders: it already has tag gold$/,
      );

      // Undo of each write, as the client offers it from the write's result.
      pushed.results.forEach((r, i) => assert.deepEqual(r.result.added, [Object.values(plan.writes[i]!.arg)[1]![0]]));
      for (const [i, r] of pushed.results.entries()) {
        const undo = undoOf(plan.writes[i]!.command, r.result, plan.writes[i]!.arg);
        assert.ok(undo, `an Undo for ${r.line}`);
        const undone = await env.lsp.command<WriteResult>(undo.command, undo.arg);
        assert.equal(undone.status, 'written', undone.message);
        assert.deepEqual(undone.removed, r.result.added);
      }
      const undoneAll = await aspects(env.catalog.url, S.orders, ASPECTS);
      assert.deepEqual(undoneAll['globalTags']?.tags ?? [], before['globalTags']?.tags ?? []);
      assert.deepEqual(undoneAll['glossaryTerms']?.terms ?? [], before['glossaryTerms']?.terms ?? []);
      assert.deepEqual(undoneAll['ownership'].owners, before['ownership'].owners, 'jdoe stays, asmith is gone');
      const amountAfter = undoneAll['editableSchemaMetadata'].editableSchemaFieldInfo.find(
        (f: { fieldPath: string }) => f.fieldPath === 'amount',
      );
      assert.deepEqual(amountAfter.globalTags, { tags: [] });
      assert.deepEqual(
        (await compare(uri)).writes?.map((w) => w.line),
        LINES,
      );
    });

    test('the same user as an owner of another type stays when the added one is undone', async () => {
      const add = await env.lsp.command<WriteResult>(ServerCommands.addOwners, {
        urn: S.orders,
        owners: ['urn:li:corpuser:jdoe'],
        ownershipType: 'DATA_STEWARD',
      });
      assert.equal(add.status, 'written', add.message);
      assert.equal(add.message, 'Added owner jdoe (DATA_STEWARD) to db.orders.');
      const undo = undoOf(ServerCommands.addOwners, add, {
        urn: S.orders,
        owners: ['urn:li:corpuser:jdoe'],
        ownershipType: 'DATA_STEWARD',
      })!;
      assert.deepEqual(undo.arg, { urn: S.orders, owners: ['urn:li:corpuser:jdoe'], ownershipType: 'DATA_STEWARD' });
      assert.equal((await env.lsp.command<WriteResult>(undo.command, undo.arg)).status, 'written');
      const owners = (await aspects(env.catalog.url, S.orders, ['ownership']))['ownership'].owners;
      assert.deepEqual(
        owners.map((o: { owner: string; type: string }) => `${o.owner} ${o.type}`),
        ['urn:li:corpuser:jdoe TECHNICAL_OWNER'],
      );
    });

    test("a tag, term or owner the catalog does not have: the catalog's refusal, nothing written", async () => {
      const tag = await env.lsp.command<WriteResult>(ServerCommands.addTags, {
        urn: S.orders,
        tags: ['urn:li:tag:nope'],
      });
      assert.equal(tag.status, 'failed');
      assert.match(tag.message, /Failed to validate label with urn urn:li:tag:nope\. Urn does not exist\./);
      const owner = await env.lsp.command<WriteResult>(ServerCommands.addOwners, {
        urn: S.orders,
        owners: ['urn:li:corpuser:nobody'],
        ownershipType: 'TECHNICAL_OWNER',
      });
      assert.equal(owner.status, 'failed');
      assert.match(owner.message, /Owner with urn urn:li:corpuser:nobody does not exist/);
      const ghost = await env.lsp.command<WriteResult>(ServerCommands.addTags, {
        urn: S.ghost,
        tags: ['urn:li:tag:gold'],
      });
      assert.deepEqual([ghost.status, ghost.kind], ['failed', 'notFound']);
      const bad = await env.lsp.command<WriteResult>(ServerCommands.addOwners, {
        urn: S.orders,
        owners: ['urn:li:tag:gold'],
        ownershipType: 'TECHNICAL_OWNER',
      });
      assert.deepEqual([bad.status, bad.kind], ['failed', 'badInput']);
    });
  });

describe('tags, terms and owners in Restricted Mode', () => {
  const env = useSampleServerPerTest({ initializationOptions: { trusted: false } });
  test('refused before anything is read or written', async () => {
    const r = await env.lsp.command<WriteResult>(ServerCommands.addTags, { urn: S.orders, tags: ['urn:li:tag:gold'] });
    assert.equal(r.status, 'failed');
    assert.match(r.message, /Restricted Mode/);
    assert.equal((await aspects(env.catalog.url, S.orders, ['globalTags']))['globalTags'], undefined);
  });
});

describe('tags, terms and owners where only the GraphQL address is set (no catalogLens.url)', () => {
  test('the descriptions are still listed; the entry gets a note that its labels could not be read, and none is listed', async (t) => {
    const catalog = await sampleCatalog();
    t.after(() => catalog.close());
    const lsp = await serverFor(catalog.url, { settings: { url: '', graphqlUrl: `${catalog.url}/api/graphql` } });
    t.after(() => lsp.stop());
    const uri = 'file:///w/graphql-only.yaml';
    const text = FILE.replace('  platform: hive\n', '  platform: hive\n  description: Ours.\n');
    await lsp.open(uri, 'yaml', text);
    const r: DataHubYamlResult = await lsp.connection.sendRequest(DataHubYamlRequest.method, { uri });
    assert.equal(r.error, undefined, r.error);
    assert.deepEqual(
      r.writes.map((w) => w.line),
      ['db.orders: description (none) → "Ours."'],
    );
    assert.deepEqual(r.notes, [
      'db.orders: its tags, glossary terms and owners could not be read (catalogLens.url is empty: the aspect path needs the catalog (GMS) address), so none is pushed',
    ]);
  });
});
