/**
 * Sync of a whole DataHub dataset file (or one entry) with the catalog, through the real server
 * process against the real local catalog in both of its modes: `catalogLens/dataHubYaml` answers
 * the file as the catalog would have it (only the differing descriptions replaced, a missing one
 * inserted, comments and formatting kept), the edits of a pull and the writes of a push;
 * `catalogLens.pushDataHubYaml` lists those writes with window/showMessageRequest and writes only
 * once the user picks Push.
 */
import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import type { CodeLens, TextEdit } from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { ServerCommands } from '../../model/src/commandIds';
import {
  DataHubYamlRequest,
  DescriptionRequest,
  YamlFormatRequest,
  type DataHubYamlResult,
  type DescriptionResult,
  type PushDataHubYamlResult,
} from '../../model/src/protocol';
import { COMPAT_MODES, S, useSampleServer, useSampleServerPerTest } from '../support/fixture';
import type { LspSession } from '../support/lspClient';

const BRAND_NEW = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.brand_new,PROD)';

export const FILE = [
  '# datahub dataset upsert -f users.yaml',
  '- id: db.users   # the users table',
  '  platform: hive',
  '  description: "Users, as we see them."  # ours',
  '  schema:',
  '    fields:',
  '      - id: user_id',
  '        description: >-',
  '          The key.',
  '        type: string',
  '      - id: email    # no description here',
  '      - id: age',
  '        description: Age in years.',
  '      - id: emial',
  '- id: db.orders',
  '  platform: hive',
  '  owners: [jdoe]',
  '- id: db.brand_new',
  '  platform: hive',
  '  description: Not yet in the catalog.',
  '',
].join('\n');

/** FILE as the sample catalog has it: the differing values replaced, the missing one inserted, nothing else. */
export const AS_CATALOG = FILE.replace('"Users, as we see them."', '"One row per registered user of the product."')
  .replace('          The key.', '          Primary key of the user.')
  .replace('# no description here\n', '# no description here\n        description: Login e-mail address, unique.\n');

const WRITES = [
  'db.users: description "One row per registered user of the product." → "Users, as we see them."',
  'db.users, field user_id: description "Primary key of the user." → "The key."',
  'db.users, field age: description (none) → "Age in years."',
];

const NOTES = [
  "db.users: field emial is not in the catalog's schema",
  'db.brand_new: not in the catalog (datahub dataset upsert creates it)',
];

const apply = (text: string, edits: TextEdit[]): string =>
  TextDocument.applyEdits(TextDocument.create('file:///x', 'yaml', 1, text), edits);

function compare(lsp: LspSession, uri: string, entry?: string): Promise<DataHubYamlResult> {
  return lsp.connection.sendRequest(DataHubYamlRequest.method, { uri, ...(entry ? { entry } : {}) });
}

async function description(lsp: LspSession, urn: string, fieldPath?: string): Promise<string | null | undefined> {
  const r: DescriptionResult = await lsp.connection.sendRequest(DescriptionRequest.method, {
    urn,
    ...(fieldPath ? { fieldPath } : {}),
  });
  return r.description;
}

for (const compat of COMPAT_MODES) {
  describe(`DataHub dataset YAML, the whole file against the catalog (${compat} catalog)`, () => {
    const env = useSampleServer({}, compat);

    test('the file as the catalog would have it, the edits of a pull and the writes of a push', async () => {
      const uri = 'file:///w/users.yaml';
      await env.lsp.open(uri, 'yaml', FILE);
      const format: { format: string | null } = await env.lsp.connection.sendRequest(YamlFormatRequest.method, { uri });
      assert.equal(format.format, 'datahub-dataset');
      const r = await compare(env.lsp, uri);
      assert.equal(r.error, undefined, r.error);
      assert.equal(r.catalogText, AS_CATALOG);
      assert.equal(apply(FILE, r.edits), AS_CATALOG, 'the edits of a pull make the same text');
      assert.deepEqual(
        r.writes.map((w) => w.line),
        WRITES,
      );
      assert.deepEqual(r.writes[1], {
        command: ServerCommands.setColumnDescription,
        arg: { urn: S.users, fieldPath: 'user_id', description: 'The key.', uri },
        line: WRITES[1],
      });
      assert.deepEqual(r.notes, NOTES);
      assert.deepEqual(r.entries, [S.users, S.orders, BRAND_NEW]);
    });

    test('one entry: only what it says; an entry the catalog agrees with has nothing to pull or push', async () => {
      const uri = 'file:///w/users-entry.yaml';
      await env.lsp.open(uri, 'yaml', FILE);
      const users = await compare(env.lsp, uri, S.users);
      assert.equal(users.catalogText, AS_CATALOG);
      assert.deepEqual(users.notes, NOTES.slice(0, 1));
      const orders = await compare(env.lsp, uri, S.orders);
      assert.deepEqual([orders.catalogText, orders.edits, orders.writes], [FILE, [], []]);
      assert.match((await compare(env.lsp, uri, S.clicks)).error ?? '', /no such entry/);
    });

    test('a file in none of the formats is not compared', async () => {
      const uri = 'file:///w/plain.yaml';
      await env.lsp.open(uri, 'yaml', `datasets:\n  - urn: ${S.users}\n    description: x\n`);
      assert.match((await compare(env.lsp, uri)).error ?? '', /not a DataHub dataset file/);
      const format: { format: string | null } = await env.lsp.connection.sendRequest(YamlFormatRequest.method, { uri });
      assert.equal(format.format, null);
    });
  });

  describe(`DataHub dataset YAML, push of the whole file (${compat} catalog)`, () => {
    let answer: string | null = 'Push';
    const asked: string[] = [];
    const env = useSampleServerPerTest(
      {
        answerMessageRequest: (p) => {
          asked.push(p.message);
          return answer;
        },
      },
      compat,
    );
    beforeEach(() => {
      asked.length = 0;
    });

    test('the writes are listed once, then written; read back, the catalog says what the file says', async () => {
      answer = 'Push';
      const uri = 'file:///w/push.yaml';
      await env.lsp.open(uri, 'yaml', FILE);
      const r = await env.lsp.command<PushDataHubYamlResult>(ServerCommands.pushDataHubYaml, { uri });
      assert.equal(r.status, 'pushed', r.message);
      assert.equal(asked.length, 1);
      assert.equal(
        asked[0],
        ['Catalog Lens: push 3 writes to the catalog?', ...WRITES.map((l) => `• ${l}`)].join('\n'),
      );
      assert.deepEqual(
        r.results.map((x) => x.result.status),
        ['written', 'written', 'written'],
      );
      assert.equal(r.message, '3 writes run: 3 written, 0 unchanged, 0 failed.');
      assert.equal(await description(env.lsp, S.users), 'Users, as we see them.');
      assert.equal(await description(env.lsp, S.users, 'user_id'), 'The key.');
      assert.equal(await description(env.lsp, S.users, 'age'), 'Age in years.');
      // Nothing the file does not say was taken out: the email column keeps its description.
      assert.equal(await description(env.lsp, S.users, 'email'), 'Login e-mail address, unique.');
      const after = await compare(env.lsp, uri);
      assert.deepEqual(after.writes, []);
      assert.equal(
        after.catalogText,
        AS_CATALOG.replace(/One row per registered user of the product\./, 'Users, as we see them.').replace(
          'Primary key of the user.',
          'The key.',
        ),
      );
    });

    test('Cancel, or the message dismissed: nothing is written', async () => {
      for (const a of ['Cancel', null]) {
        answer = a;
        const uri = `file:///w/cancel-${a}.yaml`;
        await env.lsp.open(uri, 'yaml', FILE);
        const r = await env.lsp.command<PushDataHubYamlResult>(ServerCommands.pushDataHubYaml, { uri, entry: S.users });
        assert.equal(r.status, 'cancelled');
        assert.deepEqual(r.results, []);
        assert.equal(await description(env.lsp, S.users), 'One row per registered user of the product.');
      }
    });

    test('nothing to push: no question asked', async () => {
      const uri = 'file:///w/orders.yaml';
      await env.lsp.open(uri, 'yaml', FILE);
      const r = await env.lsp.command<PushDataHubYamlResult>(ServerCommands.pushDataHubYaml, { uri, entry: S.orders });
      assert.equal(r.status, 'nothing');
      assert.deepEqual(asked, []);
    });

    test('a pull applied: the file then says what the catalog says', async () => {
      const uri = 'file:///w/pull.yaml';
      await env.lsp.open(uri, 'yaml', FILE);
      const r = await compare(env.lsp, uri);
      await env.lsp.change(uri, apply(FILE, r.edits!));
      const again = await compare(env.lsp, uri);
      assert.deepEqual(again.edits, []);
      assert.equal(again.catalogText, AS_CATALOG);
      assert.deepEqual(
        again.writes.map((w) => w.line),
        WRITES.slice(2),
      );
    });
  });
}

describe('DataHub dataset YAML in the extension: Compare, Pull and Push above each entry', () => {
  const env = useSampleServer({ initializationOptions: { clientCommands: true } });

  test('three code lenses per entry, naming the client commands with the file and the entry', async () => {
    const uri = 'file:///w/lenses.yaml';
    await env.lsp.open(uri, 'yaml', FILE);
    const lenses: CodeLens[] = await env.lsp.connection.sendRequest('textDocument/codeLens', { textDocument: { uri } });
    const sync = lenses.filter((l) => / catalog$/.test(l.command?.title ?? ''));
    assert.deepEqual(
      sync.map((l) => `${l.range.start.line} ${l.command!.title} ${l.command!.command}`),
      [1, 14, 17].flatMap((line) => [
        `${line} Compare with catalog catalogLens.compareYamlWithCatalog`,
        `${line} Pull from catalog catalogLens.pullYamlFromCatalog`,
        `${line} Push to catalog catalogLens.pushYamlToCatalog`,
      ]),
    );
    assert.deepEqual(sync[3]!.command!.arguments, [{ uri, entry: S.orders }]);
  });
});

describe('DataHub dataset YAML push where the user cannot be asked, or writes are off', () => {
  const plain = useSampleServer({ genericClient: true });
  const restricted = useSampleServer({
    initializationOptions: { trusted: false },
    answerMessageRequest: () => 'Push',
  });

  test('an editor without message actions: nothing is asked, nothing written', async () => {
    const uri = 'file:///w/no-actions.yaml';
    await plain.lsp.open(uri, 'yaml', FILE);
    const r = await plain.lsp.command<PushDataHubYamlResult>(ServerCommands.pushDataHubYaml, { uri });
    assert.equal(r.status, 'failed');
    assert.match(r.message, /cannot show the writes to confirm them/);
    assert.equal(await description(plain.lsp, S.users), 'One row per registered user of the product.');
  });

  test('Restricted Mode: refused before anything is asked', async () => {
    const uri = 'file:///w/restricted.yaml';
    await restricted.lsp.open(uri, 'yaml', FILE);
    const r = await restricted.lsp.command<PushDataHubYamlResult>(ServerCommands.pushDataHubYaml, { uri });
    assert.equal(r.status, 'failed');
    assert.match(r.message, /Restricted Mode/);
    assert.ok(!restricted.lsp.logs.some((l) => l.startsWith('showMessageRequest')), restricted.lsp.logs.join('\n'));
  });
});
