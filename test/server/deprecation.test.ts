/**
 * Deprecated entities: a reference is a Warning with the catalog's note, date and
 * replacement (its own code and setting), the quick fix replaces it with the replacement in a
 * literal, a builder call's argument, YAML and the other namespace word, and the hover says the
 * deprecation once. Through the real server process against the real local catalog, whose sample
 * deprecates db.users_legacy in favour of db.users; both modes.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CodeAction, Diagnostic } from 'vscode-languageserver-protocol';
import { applyEdits } from '../support/textEdits';
import { caret, hoverText } from '../support/lspClient';
import { COMPAT_MODES, useSampleServerPerTest } from '../support/fixture';

const LEGACY = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users_legacy,PROD)';
const MESSAGE =
  'Dataset db.users_legacy is deprecated (decommission 2026-12-31): Replaced by db.users, which has every user since 2019. Use db.users instead.';

for (const compat of COMPAT_MODES)
  describe(`deprecated entities (${compat} catalog)`, () => {
    const env = useSampleServerPerTest({}, compat);
    const deprecatedAt = async (
      uri: string,
      lang: string,
      text: string,
    ): Promise<{ d: Diagnostic; fixes: CodeAction[] }> => {
      await env.lsp.open(uri, lang, text);
      const ds = await env.lsp.diagnostics(uri, (all) => all.some((d) => d.code === 'deprecated-urn'));
      const d = ds.find((x) => x.code === 'deprecated-urn')!;
      const fixes = (await env.lsp.codeActions(uri, d.range, [d])).filter((a) => a.title.startsWith('Replace with'));
      return { d, fixes };
    };

    const forms: Array<[string, string, string, string]> = [
      ['a URN literal', 'python', `x = "${LEGACY}"\n`, `x = "${LEGACY.replace('db.users_legacy', 'db.users')}"\n`],
      [
        "a builder call's argument (only the name changes)",
        'python',
        'from datahub.emitter.mce_builder import make_dataset_urn\nx = make_dataset_urn("hive", "db.users_legacy", "PROD")\n',
        'from datahub.emitter.mce_builder import make_dataset_urn\nx = make_dataset_urn("hive", "db.users", "PROD")\n',
      ],
      [
        'a YAML value',
        'yaml',
        `datasets:\n  - urn: ${LEGACY}\n    description: old\n`,
        `datasets:\n  - urn: ${LEGACY.replace('db.users_legacy', 'db.users')}\n    description: old\n`,
      ],
      [
        'adjacent Python strings (the name part is in one of them, verbatim)',
        'python',
        `x = ("urn:li:dataset:(urn:li:dataPlatform:hive,"\n     "db.users_legacy,PROD)")\n`,
        `x = ("urn:li:dataset:(urn:li:dataPlatform:hive,"\n     "db.users,PROD)")\n`,
      ],
    ];
    if (compat === 'spec')
      forms.push([
        'the other namespace word, which the replacement keeps',
        'python',
        `x = "${LEGACY.replaceAll('urn:li:', 'urn:svc:')}"\n`,
        `x = "urn:svc:dataset:(urn:svc:dataPlatform:hive,db.users,PROD)"\n`,
      ]);
    for (const [name, lang, text, fixed] of forms)
      test(`in ${name}: a Warning with note, date and replacement; "Replace with db.users" fixes it`, async () => {
        const uri = `file:///w/dep-${forms.findIndex((f) => f[0] === name)}.${lang === 'yaml' ? 'yml' : 'py'}`;
        const { d, fixes } = await deprecatedAt(uri, lang, text);
        assert.equal(d.severity, 2, 'a Warning');
        assert.equal(d.message, MESSAGE);
        assert.equal(fixes.length, 1, JSON.stringify(d));
        assert.equal(fixes[0]!.title, 'Replace with db.users');
        assert.equal(fixes[0]!.isPreferred, true);
        const edits = fixes[0]!.edit!.changes![uri]!;
        assert.equal(applyEdits(text, edits), fixed);
        // Applied, the warning is gone.
        await env.lsp.change(uri, fixed);
        await env.lsp.diagnostics(uri, (all) => !all.some((x) => x.code === 'deprecated-urn'));
      });

    test('a name spelled with an escape gets the warning but no fix: the edit would change more than the name', async () => {
      const uri = 'file:///w/dep-escaped.json';
      const text = `{"urn": "${LEGACY.replace('users_legacy', 'users\\u005flegacy')}"}\n`;
      const { d, fixes } = await deprecatedAt(uri, 'json', text);
      assert.equal(d.message, MESSAGE);
      assert.deepEqual(fixes, []);
    });

    test('the hover says the deprecation only when the diagnostic is off', async () => {
      const { text, position } = caret(`x = "${LEGACY.replace('users_legacy', 'users_le|gacy')}"\n`);
      await env.lsp.open('file:///w/h.py', 'python', text);
      await env.lsp.diagnostics('file:///w/h.py', (all) => all.some((d) => d.code === 'deprecated-urn'));
      assert.doesNotMatch(hoverText(await env.lsp.hover('file:///w/h.py', position)), /Deprecated/);
      env.lsp.settings['diagnostics'] = { deprecated: 'off' };
      await env.lsp.configurationChanged();
      await env.lsp.diagnostics('file:///w/h.py', (all) => !all.some((d) => d.code === 'deprecated-urn'));
      assert.match(
        hoverText(await env.lsp.hover('file:///w/h.py', position)),
        /⚠ \*\*Deprecated\*\* \(decommission 2026-12-31\): Replaced by db\.users, which has every user since 2019\. Use `db\.users` instead\./,
      );
    });
  });
