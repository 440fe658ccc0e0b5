/**
 * A generic LSP client (Neovim's `K`, Emacs' eldoc, Helix): it sends none of the Catalog Lens
 * extension's flags, so the hover says what the diagnostics at the place say (its box shows no
 * diagnostics), has no `command:` links, and code actions and code lenses name no client command.
 * The same places with the extension's flags say each thing once, as in VS Code. Through the real
 * server process against the real local catalog, both modes.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type {
  CodeAction,
  CodeLens,
  CompletionItem,
  CompletionList,
  Diagnostic,
  Hover,
  MarkupContent,
} from 'vscode-languageserver-protocol';
import { startCatalog } from '../../catalog/src/server';
import { ClientCommands } from '../../model/src/commandIds';
import { caret, hoverText, positionOf, type LspSession } from '../support/lspClient';
import { COMPAT_MODES, S, sampleCatalog, serverFor, useSampleServer } from '../support/fixture';

const LEGACY = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users_legacy,PROD)';
const CLIENT_COMMAND_IDS = new Set<string>(Object.values(ClientCommands));

/** The hover at the caret once the document's diagnostics are in (`until` holds for them). */
async function hoverWhen(
  lsp: LspSession,
  uri: string,
  languageId: string,
  marked: string,
  until: (ds: Diagnostic[]) => boolean,
): Promise<string> {
  const { text, position } = caret(marked);
  await lsp.open(uri, languageId, text);
  await lsp.diagnostics(uri, until);
  return hoverText(await lsp.hover(uri, position));
}

const has =
  (code: string) =>
  (ds: Diagnostic[]): boolean =>
    ds.some((d) => d.code === code);

for (const compat of COMPAT_MODES)
  describe(`a generic LSP client, without the extension's flags (${compat} catalog)`, () => {
    const env = useSampleServer({ genericClient: true }, compat);

    test('a malformed URN: the hover says it is malformed, and why', async () => {
      const h = await hoverWhen(
        env.lsp,
        'file:///w/bad.py',
        'python',
        `"urn:li:dataset:(urn:li:dataPlatform:hive,db.us|ers)"`,
        has('malformed-urn'),
      );
      assert.match(h, /^\*\*Error\*\*: Malformed URN: expected 3 parts \(platform, name, env\), found 2$/);
    });

    test('an unknown URN: the hover says it is not in the catalog, above its title and parts', async () => {
      const h = await hoverWhen(
        env.lsp,
        'file:///w/ghost.py',
        'python',
        `"${S.ghost.replace('db.ghost', 'db.gh|ost')}"`,
        has('unknown-urn'),
      );
      assert.match(h, /^\*\*Warning\*\*: Dataset db\\?\.ghost is not in the catalog/);
      assert.match(h, /\n\n---\n\n\*\*Dataset\*\* `db\.ghost` · hive · PROD\n\nplatform: `hive`/);
      // Said once: by the diagnostic's message, not again by the hover's own line.
      assert.doesNotMatch(h, /_Not in the catalog\._/);
    });

    test('a deprecated dataset: the hover says deprecated, with the note, the date and the replacement', async () => {
      const h = await hoverWhen(
        env.lsp,
        'file:///w/legacy.py',
        'python',
        `x = "${LEGACY.replace('users_legacy', 'users_le|gacy')}"\n`,
        has('deprecated-urn'),
      );
      const plain = h.replace(/\\(?=[.!()_*`[\]-])/g, '');
      assert.match(
        plain,
        /^\*\*Warning\*\*: Dataset db\.users_legacy is deprecated \(decommission 2026-12-31\): Replaced by db\.users, which has every user since 2019\. Use db\.users instead\./,
      );
      assert.equal(h.match(/deprecated|Deprecated/g)?.length, 1, h);
    });

    test('a dataset without a description: the hover says so once', async () => {
      const h = await hoverWhen(
        env.lsp,
        'file:///w/orders.py',
        'python',
        `"${S.orders.replace('db.orders', 'db.or|ders')}"`,
        has('missing-description'),
      );
      assert.match(h, /^\*\*Info\*\*: Dataset db\\?\.orders has no description/);
      assert.doesNotMatch(h, /_No description\._/);
    });

    test('a diagnostic off any URN (a YAML syntax error) is a hover of its own', async () => {
      const yaml = 'datasets: bad: nesting\n';
      await env.lsp.open('file:///w/broken.yml', 'yaml', yaml);
      const ds = await env.lsp.diagnostics('file:///w/broken.yml', has('yaml-syntax'));
      const d = ds.find((x) => x.code === 'yaml-syntax')!;
      const h = await env.lsp.hover('file:///w/broken.yml', d.range.start);
      assert.equal(hoverText(h), '**Warning**: Nested mappings are not allowed in compact mappings');
      assert.deepEqual(h?.range, d.range);
      // At the end of the text, an error's empty range is hovered where it is.
      const unclosed = 'datasets:\n  - urn: [unclosed\n';
      await env.lsp.open('file:///w/unclosed.yml', 'yaml', unclosed);
      const [u] = await env.lsp.diagnostics('file:///w/unclosed.yml', has('yaml-syntax'));
      assert.match(
        hoverText(await env.lsp.hover('file:///w/unclosed.yml', u!.range.start)),
        /^\*\*Warning\*\*: Flow sequence/,
      );
    });

    test('no command links: the lineage counts are plain text', async () => {
      const { text, position } = caret(`USERS = "${S.users.replace('db.users', 'db.us|ers')}"\n`);
      await env.lsp.open('file:///w/users.py', 'python', text);
      const h = hoverText(await env.lsp.hover('file:///w/users.py', position));
      assert.match(h, /Lineage ↑0 ↓2/);
      assert.doesNotMatch(h, /command:/);
      // No link tooltip shown in this client's hover: the hover keeps its page link.
      assert.match(h, /\[Open in catalog\]\(http/);
    });

    test('code actions and code lenses name no client command', async () => {
      const yaml = `datasets:\n  - urn: ${S.orders}\n    description: Orders.\nfeatures:\n  - ${S.age}\n`;
      await env.lsp.open('file:///w/entries.yml', 'yaml', yaml);
      const ds = await env.lsp.diagnostics('file:///w/entries.yml', has('description-mismatch'));
      const actions: CodeAction[] = [];
      for (const d of ds) actions.push(...(await env.lsp.codeActions('file:///w/entries.yml', d.range, [d])));
      for (const needle of [S.orders, S.age]) {
        const at = positionOf(yaml, needle, 5);
        actions.push(...(await env.lsp.codeActions('file:///w/entries.yml', { start: at, end: at }, [])));
      }
      assert.ok(actions.length > 0, 'the server offers its own commands');
      const named = actions.map((a) => a.command?.command).filter((c): c is string => c !== undefined);
      assert.deepEqual(
        named.filter((c) => CLIENT_COMMAND_IDS.has(c)),
        [],
      );
      const lenses = await env.lsp.connection.sendRequest<CodeLens[]>('textDocument/codeLens', {
        textDocument: { uri: 'file:///w/entries.yml' },
      });
      assert.ok(lenses.length > 0);
      for (const l of lenses) assert.ok(!CLIENT_COMMAND_IDS.has(l.command?.command ?? ''), JSON.stringify(l));
    });
  });

for (const compat of COMPAT_MODES)
  describe(`a client that shows hovers and documentation only as plain text (${compat} catalog)`, () => {
    const env = useSampleServer(
      { genericClient: true, hoverContentFormat: ['plaintext'], documentationFormat: ['plaintext'] },
      compat,
    );
    /** The hover's contents, which must be plain text. */
    const plainHover = (h: Hover | null): string => {
      const c = h?.contents as MarkupContent | undefined;
      assert.equal(c?.kind, 'plaintext', JSON.stringify(h));
      return c.value;
    };
    const NO_MARKDOWN = /\*\*|`|\\[.!()_*[\]-]|\]\(|^\s*\|/m;

    test('the unknown, deprecated and documented URNs say so in words, with no Markdown syntax', async () => {
      const ghost = caret(`"${S.ghost.replace('db.ghost', 'db.gh|ost')}"`);
      await env.lsp.open('file:///w/plain-ghost.py', 'python', ghost.text);
      await env.lsp.diagnostics('file:///w/plain-ghost.py', has('unknown-urn'));
      const g = plainHover(await env.lsp.hover('file:///w/plain-ghost.py', ghost.position));
      assert.match(g, /^Warning: Dataset db\.ghost is not in the catalog/);
      assert.match(g, /\n\nDataset db\.ghost · hive · PROD\n\nplatform: hive · name: db\.ghost · env: PROD/);
      assert.doesNotMatch(g, NO_MARKDOWN);

      const legacy = caret(`x = "${LEGACY.replace('users_legacy', 'users_le|gacy')}"\n`);
      await env.lsp.open('file:///w/plain-legacy.py', 'python', legacy.text);
      await env.lsp.diagnostics('file:///w/plain-legacy.py', has('deprecated-urn'));
      const l = plainHover(await env.lsp.hover('file:///w/plain-legacy.py', legacy.position));
      assert.match(
        l,
        /^Warning: Dataset db\.users_legacy is deprecated \(decommission 2026-12-31\): Replaced by db\.users/,
      );
      assert.doesNotMatch(l, NO_MARKDOWN);

      const users = caret(`USERS = "${S.users.replace('db.users', 'db.us|ers')}"\n`);
      await env.lsp.open('file:///w/plain-users.py', 'python', users.text);
      const u = plainHover(await env.lsp.hover('file:///w/plain-users.py', users.position));
      assert.match(u, /One row per registered user of the product\./);
      // The columns keep their names and types, and the page its address: plain text has no link.
      assert.match(u, /\bemail\b/);
      assert.match(u, /\n\nOpen in catalog: http:\/\/127\.0\.0\.1:\d+\/dataset\/urn:li:dataset:/);
      assert.doesNotMatch(u, NO_MARKDOWN);
    });

    test("a completion item's documentation is plain text", async () => {
      const { text, position } = caret('x = "urn:li:dataset:(urn:li:dataPlatform:hive,us|"\n');
      await env.lsp.open('file:///w/plain-complete.py', 'python', text);
      const r = await env.lsp.connection.sendRequest<CompletionList | CompletionItem[] | null>(
        'textDocument/completion',
        { textDocument: { uri: 'file:///w/plain-complete.py' }, position },
      );
      const items = Array.isArray(r) ? r : (r?.items ?? []);
      const users = items.find((i) => i.label === 'db.users');
      const doc = users?.documentation as MarkupContent | undefined;
      assert.equal(doc?.kind, 'plaintext', JSON.stringify(users));
      assert.equal(doc.value, `One row per registered user of the product.\n\n${S.users}`);
    });
  });

describe('a generic client hears of the catalog by window/showMessage, not by catalogLens/status', () => {
  test('down: one warning however many requests fail; back: one line; no custom notification', async () => {
    const first = await sampleCatalog();
    const port = Number(new URL(first.url).port);
    const lsp = await serverFor(first.url, { genericClient: true });
    try {
      const shown = (): string[] => lsp.logs.filter((l) => l.startsWith('showMessage: Catalog Lens'));
      await lsp.open('file:///w/up.py', 'python', `x = "${S.users}"\n`);
      await lsp.diagnostics('file:///w/up.py', (ds) => !ds.some((d) => d.code === 'unknown-urn'));
      await first.close();
      for (const n of [1, 2, 3]) await lsp.open(`file:///w/down-${n}.py`, 'python', `x = "${S.orders}" # ${n}\n`);
      await lsp.waitUntil(
        () => shown().some((l) => /unreachable|refused|ECONNREFUSED|not answer/i.test(l)),
        'a warning',
      );
      // The other two documents fail the same way: still one warning.
      await lsp.open('file:///w/down-4.py', 'python', `x = "${S.clicks}"\n`);
      await lsp.diagnostics('file:///w/down-4.py');
      assert.equal(shown().length, 1, shown().join('\n'));
      const again = await startCatalog({ port, db: ':memory:', sample: true, log: () => undefined });
      try {
        await lsp.open('file:///w/back.py', 'python', `x = "${S.age}"\n`);
        await lsp.waitUntil(() => shown().some((l) => /answers again/.test(l)), 'the catalog answering again');
      } finally {
        await again.close();
      }
      assert.equal(shown().length, 2, shown().join('\n'));
      assert.deepEqual(lsp.statuses, [], 'no catalogLens/status for a client that did not ask');
    } finally {
      await lsp.stop();
    }
  });
});

describe("the Catalog Lens extension's flags (VS Code): each thing said once", () => {
  const env = useSampleServer({ initializationOptions: { clientCommands: true }, documentLinkTooltips: true });

  test('the hover leaves the diagnostics and the page link to the box; the lineage counts run the lineage view', async () => {
    const bad = await hoverWhen(
      env.lsp,
      'file:///w/bad.py',
      'python',
      `"urn:li:dataset:(urn:li:dataPlatform:hive,db.us|ers)"`,
      has('malformed-urn'),
    );
    assert.equal(bad, '');
    const ghost = await hoverWhen(
      env.lsp,
      'file:///w/ghost.py',
      'python',
      `"${S.ghost.replace('db.ghost', 'db.gh|ost')}"`,
      has('unknown-urn'),
    );
    assert.equal(ghost, '**Dataset** `db.ghost` · hive · PROD\n\nplatform: `hive` · name: `db.ghost` · env: `PROD`');
    const { text, position } = caret(`USERS = "${S.users.replace('db.users', 'db.us|ers')}"\n`);
    await env.lsp.open('file:///w/users.py', 'python', text);
    const users = hoverText(await env.lsp.hover('file:///w/users.py', position));
    assert.match(users, /\[Lineage ↑0 ↓2\]\(command:catalogLens\.showLineage\?/);
    assert.doesNotMatch(users, /Open in catalog/);
  });

  test('off a URN, a diagnostic has no hover: VS Code shows it on its own', async () => {
    const yaml = 'datasets: bad: nesting\n';
    await env.lsp.open('file:///w/broken.yml', 'yaml', yaml);
    const ds = await env.lsp.diagnostics('file:///w/broken.yml', has('yaml-syntax'));
    assert.equal(
      await env.lsp.hover('file:///w/broken.yml', ds.find((x) => x.code === 'yaml-syntax')!.range.start),
      null,
    );
  });
});
