/**
 * Completion in the form the editor declared (server/src/features/completionShape.ts), through
 * the real server process against the real local catalog (sample data), in both catalog modes:
 * an editor that resolves documentation (VS Code) gets items without it and
 * completionItem/resolve puts it back, with no second request to the catalog; one that takes a
 * list's default edit range gets it once; an editor that declares neither gets every item whole
 * and is offered no resolve; an editor that shows only plain text gets plain-text documentation,
 * resolved or whole.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CompletionItem, CompletionList, Range } from 'vscode-languageserver-protocol';
import { applyEdits } from '../support/textEdits';
import { caret, type LspSession } from '../support/lspClient';
import { COMPAT_MODES, S, sampleCatalog, serverFor, useSampleServer, type Catalog } from '../support/fixture';
import { KeptCompletions, resolveCompletion, shapeCompletions } from '../../server/src/features/completionShape';

const VSCODE = {
  completionItem: { resolveSupport: { properties: ['documentation', 'detail', 'additionalTextEdits'] } },
  completionList: { itemDefaults: ['commitCharacters', 'editRange', 'insertTextFormat', 'insertTextMode', 'data'] },
};
const USERS_DOC = `One row per registered user of the product.\n\n\`${S.users}\``;
const USERS_PREFIX = 'x = "urn:li:dataset:(urn:li:dataPlatform:hive,us|"\n';
const MARKED_DESCRIPTION =
  'Users *v2* — see [the runbook](https://wiki.example.com/users_v2) & <b>HTML</b>, `code`, a_b_c.\n# Not a heading';
/** Its plain text: the description as written (whitespace folded), then the URN, with nothing escaped. */
const PLAIN_USERS_DOC = `Users *v2* — see [the runbook](https://wiki.example.com/users_v2) & <b>HTML</b>, \`code\`, a_b_c. # Not a heading\n\n${S.users}`;

let n = 0;
async function complete(lsp: LspSession, marked: string): Promise<{ text: string; list: CompletionList }> {
  const { text, position } = caret(marked);
  const uri = `file:///w/resolve-${n++}.py`;
  await lsp.open(uri, 'python', text);
  const r = await lsp.connection.sendRequest<CompletionList | CompletionItem[] | null>('textDocument/completion', {
    textDocument: { uri },
    position,
  });
  return { text, list: Array.isArray(r) ? { isIncomplete: false, items: r } : r! };
}

/** The edit an item makes, with the list's default range when it has none of its own (as VS Code reads it). */
function editOf(list: CompletionList, item: CompletionItem): { range: Range; newText: string } {
  if (item.textEdit && 'range' in item.textEdit) return item.textEdit;
  const range = list.itemDefaults?.editRange;
  assert.ok(range && 'start' in range, `no edit range for ${item.label}`);
  return { range, newText: item.textEditText ?? item.label };
}

/** The GraphQL requests the catalog has answered (its /_catalog-lens/stats). */
const graphqlRequests = async (catalogUrl: string): Promise<number> => {
  const r = await fetch(`${catalogUrl}/_catalog-lens/stats`);
  return ((await r.json()) as { graphql: number }).graphql;
};

for (const compat of COMPAT_MODES) {
  describe(`completion for an editor that resolves documentation and takes a default edit range (VS Code, ${compat} catalog)`, () => {
    const env = useSampleServer({ completionCapabilities: VSCODE }, compat);

    test('the server offers completionItem/resolve', () => {
      assert.equal(env.lsp.init.capabilities.completionProvider?.resolveProvider, true);
    });

    test('items come without documentation, the range once; resolve gives the documentation back without asking the catalog', async () => {
      const { text, list } = await complete(env.lsp, 'x = "urn:li:dataset:(urn:li:dataPlatform:hive,us|"\n');
      assert.deepEqual(
        list.items.map((i) => i.label),
        ['db.users', 'db.users_legacy'],
      );
      const users = list.items[0]!;
      assert.equal(users.documentation, undefined);
      assert.equal(users.textEdit, undefined);
      assert.equal(users.detail, 'hive dataset');
      assert.ok(list.itemDefaults?.editRange, JSON.stringify(list));
      assert.equal(applyEdits(text, [editOf(list, users)]), `x = "${S.users}"\n`);

      const before = await graphqlRequests(env.catalog.url);
      const resolved = await env.lsp.connection.sendRequest<CompletionItem>('completionItem/resolve', users);
      assert.deepEqual(resolved.documentation, { kind: 'markdown', value: USERS_DOC });
      assert.equal(resolved.label, 'db.users');
      assert.deepEqual(resolved.data, users.data);
      assert.equal(await graphqlRequests(env.catalog.url), before, 'no request to the catalog');
    });

    test('an item the server no longer keeps, or one it never made, resolves to itself', async () => {
      const { list } = await complete(env.lsp, 'x = "urn:li:dataset:(urn:li:dataPlatform:hive,us|"\n');
      const users = list.items[0]!;
      for (let i = 0; i < 9; i++)
        await complete(env.lsp, `x = "urn:li:dataset:(urn:li:dataPlatform:hive,db.or${'d'.repeat(i % 2)}|"\n`);
      const old = await env.lsp.connection.sendRequest<CompletionItem>('completionItem/resolve', users);
      assert.equal(old.documentation, undefined);
      const strange = { label: 'x', data: { list: 'nope' } };
      assert.deepEqual(await env.lsp.connection.sendRequest('completionItem/resolve', strange), strange);
    });
  });

  describe(`completion for an editor that declares neither (a generic client, ${compat} catalog)`, () => {
    const env = useSampleServer({ genericClient: true }, compat);

    test('no resolve is offered, and every item is whole: documentation, its own edit, no data', async () => {
      assert.notEqual(env.lsp.init.capabilities.completionProvider?.resolveProvider, true);
      const { text, list } = await complete(env.lsp, 'x = "urn:li:dataset:(urn:li:dataPlatform:hive,us|"\n');
      const users = list.items[0]!;
      assert.equal(list.itemDefaults, undefined);
      assert.equal(users.data, undefined);
      assert.deepEqual(users.documentation, { kind: 'markdown', value: USERS_DOC });
      assert.equal(applyEdits(text, [users.textEdit as { range: Range; newText: string }]), `x = "${S.users}"\n`);
    });
  });

  describe(`completion for an editor that shows documentation only as plain text (${compat} catalog)`, () => {
    // Two editors on one catalog: one that resolves documentation (VS Code's completion
    // capabilities, plain text only), one that declares completion in plain text without resolve.
    const env = {} as { catalog: Catalog; resolving: LspSession; whole: LspSession };
    before(async () => {
      env.catalog = await sampleCatalog({ compat });
      env.resolving = await serverFor(env.catalog.url, {
        completionCapabilities: VSCODE,
        documentationFormat: ['plaintext'],
      });
      env.whole = await serverFor(env.catalog.url, {
        completionCapabilities: { completionList: VSCODE.completionList },
        documentationFormat: ['plaintext'],
      });
      // A description with what Markdown would render (emphasis, a link, HTML, code, a heading
      // mark): the documentation escapes all of it, and the plain text must give it back as written.
      const written = await env.resolving.command<{ status: string }>('catalogLens.setDatasetDescription', {
        urn: S.users,
        description: MARKED_DESCRIPTION,
      });
      assert.equal(written.status, 'written');
    });
    after(async () => {
      await env.resolving?.stop();
      await env.whole?.stop();
      await env.catalog?.close();
    });

    test('resolve is offered; the resolved documentation is plain text, the description as written', async () => {
      assert.equal(env.resolving.init.capabilities.completionProvider?.resolveProvider, true);
      const { list } = await complete(env.resolving, USERS_PREFIX);
      const users = list.items.find((i) => i.label === 'db.users');
      assert.ok(users, JSON.stringify(list));
      assert.equal(users.documentation, undefined, 'left for resolve');
      assert.ok(users.data !== undefined);
      const resolved = await env.resolving.connection.sendRequest<CompletionItem>('completionItem/resolve', users);
      assert.deepEqual(resolved.documentation, { kind: 'plaintext', value: PLAIN_USERS_DOC });
      assert.doesNotMatch(resolved.documentation.value, /\\/, 'no Markdown escape');
    });

    test('without resolveSupport: no resolve offered, every item whole with plain-text documentation', async () => {
      assert.notEqual(env.whole.init.capabilities.completionProvider?.resolveProvider, true);
      const { text, list } = await complete(env.whole, USERS_PREFIX);
      const users = list.items.find((i) => i.label === 'db.users');
      assert.ok(users, JSON.stringify(list));
      assert.equal(users.data, undefined);
      assert.deepEqual(users.documentation, { kind: 'plaintext', value: PLAIN_USERS_DOC });
      // The list's default range is still taken: it does not depend on resolve.
      assert.equal(applyEdits(text, [editOf(list, users)]), `x = "${S.users}"\n`);
    });
  });
}

describe('shapeCompletions (pure)', () => {
  const range = { start: { line: 0, character: 1 }, end: { line: 0, character: 3 } };
  const other = { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } };
  const items = (): CompletionItem[] => [
    { label: 'a', documentation: 'doc a', textEdit: { range, newText: 'a' } },
    { label: 'b', textEdit: { range, newText: 'urn:b' } },
    { label: 'c', documentation: { kind: 'markdown', value: '*c*' }, textEdit: { range: other, newText: 'c' } },
  ];

  test('documentation kept for resolve, only where an item has some; the common range given once', () => {
    const kept = new KeptCompletions(8, 1);
    const list = shapeCompletions(
      { isIncomplete: false, items: items() },
      { resolveDocumentation: true, editRange: true },
      kept,
    ) as CompletionList;
    assert.deepEqual(list.itemDefaults, { editRange: range });
    const [a, b, c] = JSON.parse(JSON.stringify(list.items)) as CompletionItem[];
    assert.deepEqual(a, { label: 'a', data: [1, 0] });
    assert.deepEqual(b, { label: 'b', textEditText: 'urn:b' });
    assert.deepEqual(c, { label: 'c', textEdit: { range: other, newText: 'c' }, data: [1, 2] });
    assert.equal(resolveCompletion(a, kept).documentation, 'doc a');
    assert.deepEqual(resolveCompletion(c, kept).documentation, { kind: 'markdown', value: '*c*' });
    assert.equal(resolveCompletion(b, kept), b, 'nothing left: the item itself');
  });

  test('declaring neither: the same items, documentation made, no data and no defaults', () => {
    const list = shapeCompletions(
      { isIncomplete: false, items: items() },
      { resolveDocumentation: false, editRange: false },
      new KeptCompletions(),
    ) as CompletionList;
    assert.deepEqual(JSON.parse(JSON.stringify(list)), { isIncomplete: false, items: items() });
  });

  test("a restarted server's numbers are not the crashed one's: an old item resolves to itself", () => {
    // Two processes in turn: each numbers its lists from where its own random start puts it.
    const before = new KeptCompletions();
    const old = shapeCompletions(items(), { resolveDocumentation: true, editRange: false }, before) as CompletionItem[];
    const after = new KeptCompletions();
    shapeCompletions(
      [{ label: 'x', documentation: 'another entity', textEdit: { range, newText: 'x' } }],
      { resolveDocumentation: true, editRange: false },
      after,
    );
    const item = JSON.parse(JSON.stringify(old[0])) as CompletionItem;
    assert.notEqual(resolveCompletion(item, after).documentation, 'another entity');
  });

  test('the lists kept are the last eight', () => {
    const kept = new KeptCompletions();
    const first = shapeCompletions(items(), { resolveDocumentation: true, editRange: false }, kept) as CompletionItem[];
    for (let i = 0; i < 7; i++) shapeCompletions(items(), { resolveDocumentation: true, editRange: false }, kept);
    assert.equal(resolveCompletion(first[0]!, kept).documentation, 'doc a');
    shapeCompletions(items(), { resolveDocumentation: true, editRange: false }, kept);
    assert.equal(resolveCompletion(first[0]!, kept).documentation, undefined);
  });
});
