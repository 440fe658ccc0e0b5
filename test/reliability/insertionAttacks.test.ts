/**
 * Catalog text never becomes code: attacks on completion and on the "Replace with …" quick fixes —
 * a hostile name or replacement URN written into the real local catalog through its ingest path,
 * then the real server process asked over LSP. Before the insertion rule (model/src/insertion.ts)
 * completion wrote `"); __import__("os").system("id"); ("` into a Python builder call and a tagged
 * `fetch` into a TypeScript URN literal, and the preferred quick fix wrote `'; DROP TABLE …; --`
 * into SQL.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CodeAction, CompletionItem, CompletionList, TextEdit } from 'vscode-languageserver-protocol';
import { ingest } from '../support/catalogHttp';
import { applyEdits } from '../support/textEdits';
import { caret } from '../support/lspClient';
import { COMPAT_MODES, S, useSampleServerPerTest } from '../support/fixture';

const hive = (name: string): string => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`;
const PADDING = ' '.repeat(150);
const PYTHON_PAYLOAD = `db.users_v2${PADDING}"%29; __import__%28"os"%29.system%28"id"%29; %28"`;
const TS_PAYLOAD = `db.orders_v9${' '.repeat(100)}" + fetch\`http://127.0.0.1:9/exfil\` + "`;
const SQL_REPLACEMENT = hive(`db.users_v2'; DROP TABLE audit_log; --`);
const TS_REPLACEMENT = hive('db.users_v3" + fetch`http://127.0.0.1:9/x` + "');

for (const compat of COMPAT_MODES)
  describe(`catalog text offered for insertion (real catalog in ${compat} mode, real server)`, () => {
    const env = useSampleServerPerTest({}, compat);
    let n = 0;

    const dataset = async (urn: string): Promise<void> => {
      const status = await ingest(env.catalog.url, 'dataset', urn, 'datasetProperties', {
        description: 'Planted by the probe.',
        customProperties: {},
      });
      assert.equal(status, 200, `the catalog took ${urn.slice(0, 80)}`);
    };
    const complete = async (
      marked: string,
      lang: string,
      ext: string,
    ): Promise<{ text: string; items: CompletionItem[] }> => {
      const { text, position } = caret(marked);
      const uri = `file:///w/attack-${n++}.${ext}`;
      await env.lsp.open(uri, lang, text);
      const r = await env.lsp.connection.sendRequest<CompletionList | CompletionItem[] | null>(
        'textDocument/completion',
        {
          textDocument: { uri },
          position,
        },
      );
      return { text, items: Array.isArray(r) ? r : (r?.items ?? []) };
    };
    const replaceFixes = async (urn: string, lang: string, ext: string, text: string): Promise<CodeAction[]> => {
      const uri = `file:///w/attack-${n++}.${ext}`;
      await env.lsp.open(uri, lang, text);
      const ds = await env.lsp.diagnostics(uri, (all) => all.some((d) => d.code === 'deprecated-urn'));
      const d = ds.find((x) => x.code === 'deprecated-urn')!;
      assert.ok(d, `the deprecation of ${urn} is reported`);
      return (await env.lsp.codeActions(uri, d.range, [d])).filter((a) => a.title.startsWith('Replace with'));
    };
    const deprecate = async (urn: string, replacement: string): Promise<void> => {
      const status = await ingest(env.catalog.url, 'dataset', urn, 'deprecation', {
        deprecated: true,
        note: 'Moved, please migrate.',
        actor: 'urn:li:corpuser:datahub',
        replacement,
      });
      assert.equal(status, 200);
    };

    test('a padded name holding Python code is not offered in a builder argument; a %28 name is inserted as spelled', async () => {
      await dataset(hive(PYTHON_PAYLOAD));
      await dataset(hive('db.users_v3%28old%29'));
      const { text, items } = await complete(
        'from datahub.emitter.mce_builder import make_dataset_urn\nUSERS = make_dataset_urn("hive", "db.users_v|")\n',
        'python',
        'py',
      );
      assert.ok(
        items.every((i) => !(i.textEdit as TextEdit).newText.includes('__import__')),
        'no item writes the payload',
      );
      assert.deepEqual(
        items.map((i) => i.label),
        ['db.users_v3%28old%29'],
      );
      assert.equal(
        applyEdits(text, [items[0]!.textEdit as TextEdit]).split('\n')[1],
        'USERS = make_dataset_urn("hive", "db.users_v3%28old%29")',
        'the name as the URN spells it: the builder makes the same URN of it',
      );
    });

    test('a name closing a TypeScript string is not offered in a URN literal; the others are', async () => {
      await dataset(hive(TS_PAYLOAD));
      await dataset(hive('db.orders" + fetch`http://127.0.0.1:9/y` + "'));
      const { text, items } = await complete(
        'export const ORDERS = "urn:li:dataset:(urn:li:dataPlatform:hive,db.or|";\n',
        'typescript',
        'ts',
      );
      assert.ok(
        items.every((i) => !/fetch/.test((i.textEdit as TextEdit).newText)),
        'no item writes a fetch',
      );
      assert.deepEqual(
        items.map((i) => applyEdits(text, [i.textEdit as TextEdit])),
        [`export const ORDERS = "${S.orders}";\n`],
      );
    });

    test("a tag's id holding Python code is not offered, nor its padded display name shown as it is sent", async () => {
      const planted: Array<[string, Record<string, unknown>]> = [
        [`urn:li:tag:pii_x${PADDING}"); __import__("os").system("id"); ("`, { name: 'PII x' }],
        ['urn:li:tag:pii_y', { name: `PII y${PADDING}[click](command:workbench.action.terminal.new)` }],
      ];
      for (const [urn, value] of planted) {
        const status = await ingest(env.catalog.url, 'tag', urn, 'tagProperties', value);
        assert.ok(status === 200 || status === 400, `the catalog answered ${status} for ${urn.slice(0, 40)}`);
      }
      for (const marked of ['x = make_tag_urn("pii_|")\n', 'x = TagUrn("pii_|")\n', 'x = "urn:li:tag:pii_|"\n']) {
        const { items } = await complete(marked, 'python', 'py');
        assert.ok(
          items.every((i) => !(i.textEdit as TextEdit).newText.includes('__import__')),
          `no item writes the payload: ${marked}`,
        );
        for (const i of items) assert.ok(!/\s{2}/.test(i.label) && i.label.length <= 80, i.label);
        assert.ok(
          items.some((i) => /pii_y/.test((i.textEdit as TextEdit).newText) && i.label.startsWith('PII y [click]')),
          `the tag with the padded name is offered, its label folded: ${JSON.stringify(items.map((i) => i.label))}`,
        );
      }
    });

    test('every label is the inserted name itself: no item hides text behind padding', async () => {
      await dataset(hive(`db.users_pad${PADDING}tail`));
      const { items } = await complete('x = make_dataset_urn("hive", "db.users_p|")\n', 'python', 'py');
      for (const i of items) assert.equal(i.label, (i.textEdit as TextEdit).newText);
      assert.deepEqual(items, [], 'a name with a run of spaces is not offered at all');
    });

    test('a deprecation replacement that would end a SQL string is written with its quote doubled: no statement follows', async () => {
      await dataset(SQL_REPLACEMENT);
      await deprecate(S.users, SQL_REPLACEMENT);
      const text = `SELECT * FROM lineage WHERE urn = '${S.users}';\n`;
      const fixes = await replaceFixes(S.users, 'sql', 'sql', text);
      assert.equal(fixes.length, 1);
      const edits = Object.values(fixes[0]!.edit!.changes!)[0]!;
      assert.equal(
        applyEdits(text, edits),
        "SELECT * FROM lineage WHERE urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users_v2''; DROP TABLE audit_log; --,PROD)';\n",
      );
    });

    test("a replacement with an apostrophe is written into SQL with it doubled: the string's value is the URN", async () => {
      const obrien = hive("db.o'brien");
      await dataset(obrien);
      await deprecate(S.users, obrien);
      const text = `SELECT * FROM lineage WHERE urn = '${S.users}';\n`;
      const [fix] = await replaceFixes(S.users, 'sql', 'sql', text);
      assert.ok(fix, 'the fix is offered');
      const edits = Object.values(fix.edit!.changes!)[0]!;
      assert.equal(applyEdits(text, edits), `SELECT * FROM lineage WHERE urn = '${obrien.replace("'", "''")}';\n`);
    });

    test('a deprecation replacement that would end a TypeScript string gets no fix, in a literal or a builder call', async () => {
      await dataset(TS_REPLACEMENT);
      await deprecate(S.orders, TS_REPLACEMENT);
      const ts = await replaceFixes(S.orders, 'typescript', 'ts', `export const ORDERS = "${S.orders}";\n`);
      assert.deepEqual(
        ts.map((f) => f.title),
        [],
      );
      const py = await replaceFixes(
        S.orders,
        'python',
        'py',
        'from datahub.emitter.mce_builder import make_dataset_urn\nx = make_dataset_urn("hive", "db.orders", "PROD")\n',
      );
      assert.deepEqual(
        py.map((f) => f.title),
        [],
      );
    });

    test('a replacement that is not a URN of the same kind is never offered', async () => {
      await deprecate(S.users, S.age);
      const fixes = await replaceFixes(S.users, 'python', 'py', `x = "${S.users}"\n`);
      assert.deepEqual(
        fixes.map((f) => f.title),
        [],
      );
    });
  });
