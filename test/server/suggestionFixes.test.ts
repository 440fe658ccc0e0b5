/**
 * Every suggestion the server computes is a quick fix, and a mistyped platform hovers as its
 * dataset: through the real server process against the local catalog with the sample data, in
 * both of its modes (the near column names and the platforms come from the catalog).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver';
import { applyEdits } from '../support/textEdits';
import { hoverText, positionOf } from '../support/lspClient';
import { COMPAT_MODES, S, useSampleServer } from '../support/fixture';

for (const compat of COMPAT_MODES)
  describe(`suggestions are fixes (${compat} catalog)`, () => {
    const env = useSampleServer({ initializationOptions: { clientCommands: true } }, compat);

    /** The document's diagnostics once one of `code` is there. */
    const diagnosticsOf = async (uri: string, lang: string, text: string, code: string): Promise<Diagnostic[]> => {
      await env.lsp.open(uri, lang, text);
      return env.lsp.diagnostics(uri, (all) => all.some((d) => d.code === code));
    };

    test('an unknown column: "Replace with email", and no "Write column description…" anywhere on it', async () => {
      const uri = 'file:///w/emial.py';
      const text = `c = "urn:li:schemaField:(${S.users},emial)"\n`;
      const ds = await diagnosticsOf(uri, 'python', text, 'unknown-column');
      const d = ds.find((x) => x.code === 'unknown-column')!;
      assert.match(String(d.message), /\(did you mean email\?\)$/);
      const actions = await env.lsp.codeActions(uri, d.range, [d]);
      assert.deepEqual(
        actions.map((a) => a.title),
        ['Replace with email'],
      );
      assert.equal(applyEdits(text, actions[0]!.edit!.changes![uri]!), `c = "urn:li:schemaField:(${S.users},email)"\n`);
      const at = positionOf(text, 'mial');
      const refactors = await env.lsp.codeActions(uri, { start: at, end: at }, []);
      assert.ok(!refactors.some((a) => a.title === 'Write column description…'), JSON.stringify(refactors));
    });

    test('a mistyped platform: the hover anywhere on the URN is the dataset, the message names the platform', async () => {
      const uri = 'file:///w/hiv.py';
      const urn = 'urn:li:dataset:(urn:li:dataPlatform:hiv,db.users,PROD)';
      const text = `x = "${urn}"\n`;
      await env.lsp.open(uri, 'python', text);
      // The did-you-mean search answers after the lookup: the diagnostics are published again with it.
      const ds = await env.lsp.diagnostics(uri, (all) =>
        all.some((x) => x.code === 'unknown-urn' && /Did you mean/.test(String(x.message))),
      );
      const d = ds.find((x) => x.code === 'unknown-urn')!;
      assert.equal(
        String(d.message),
        'Dataset db.users is not in the catalog. Did you mean platform hive or db.users_legacy on platform hive?',
      );
      for (const needle of ['hiv,', 'users']) {
        const h = hoverText(await env.lsp.hover(uri, positionOf(text, needle, 1)));
        assert.match(h, /^\*\*Dataset\*\* `db\.users` · hiv · PROD/, needle);
        assert.doesNotMatch(h, /Data platform/);
      }
      const fixes = await env.lsp.codeActions(uri, d.range, [d]);
      assert.equal(applyEdits(text, fixes[0]!.edit!.changes![uri]!), `x = "${S.users}"\n`);
      assert.equal(fixes[0]!.title, 'Replace platform hiv with hive');
    });

    test('an env typo: one fix to PROD, however many diagnostics suggest it', async () => {
      const uri = 'file:///w/pord.py';
      const text = `x = "urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PORD)"\n`;
      await env.lsp.open(uri, 'python', text);
      const ds = await env.lsp.diagnostics(
        uri,
        (all) => all.some((d) => d.code === 'unknown-env') && all.some((d) => d.code === 'unknown-urn'),
      );
      const at = positionOf(text, 'ORD');
      const fixes = (await env.lsp.codeActions(uri, { start: at, end: at }, ds)).filter((a) => a.kind === 'quickfix');
      const toProd = fixes.filter((a) => applyEdits(text, a.edit?.changes?.[uri] ?? []) === `x = "${S.users}"\n`);
      assert.equal(toProd.length, 1, JSON.stringify(fixes.map((a) => a.title)));
    });

    test('a mistyped entity type and a missing env: "Replace datset with dataset", "Add env PROD"', async () => {
      const cases: Array<[string, string, string]> = [
        ['datset', `x = "urn:li:datset:(urn:li:dataPlatform:hive,db.users,PROD)"\n`, 'Replace datset with dataset'],
        ['noenv', `x = "urn:li:dataset:(urn:li:dataPlatform:hive,db.users)"\n`, 'Add env PROD'],
      ];
      for (const [name, text, title] of cases) {
        const uri = `file:///w/${name}.py`;
        const ds = await diagnosticsOf(uri, 'python', text, 'malformed-urn');
        const d = ds.find((x) => x.code === 'malformed-urn')!;
        const fixes = await env.lsp.codeActions(uri, d.range, [d]);
        assert.deepEqual(
          fixes.map((a) => [a.title, a.isPreferred]),
          [[title, true]],
        );
        assert.equal(applyEdits(text, fixes[0]!.edit!.changes![uri]!), `x = "${S.users}"\n`);
      }
    });
  });
