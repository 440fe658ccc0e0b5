/**
 * Did-you-mean: the ranking of what a search found (pure), and, through the real
 * server against the real local catalog's search, the diagnostic that names the nearest entities
 * and the quick fixes that replace the URN in a literal, a builder call's argument and YAML; and
 * the warning kept when the searches take longer than the syntax-first delay.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CodeAction, Diagnostic } from 'vscode-languageserver-protocol';
import { nearMatch, rankSuggestions, suggestionNames } from '../../server/src/resolution/didYouMean';
import { startProxy, type TestProxy } from '../support/proxy';
import { applyEdits } from '../support/textEdits';
import { COMPAT_MODES, S, sampleCatalog, serverFor, useSampleServer, type Catalog } from '../support/fixture';

const textOf = (m: string | { value: string }): string => (typeof m === 'string' ? m : m.value);
const ds = (name: string, platform = 'hive', env = 'PROD', ns = 'li'): string =>
  `urn:${ns}:dataset:(urn:${ns}:dataPlatform:${platform},${name},${env})`;

describe('did-you-mean ranking', () => {
  test('a typo first, then names that hold the typed one; another platform ranks below; the entity itself and other kinds never', () => {
    const found = [
      { urn: ds('db.orders') },
      { urn: ds('db.users', 'snowflake') },
      { urn: ds('db.user_events') },
      { urn: ds('db.users') },
      { urn: 'urn:li:mlFeature:(users_table,db.users)' },
      { urn: ds('db.usres') },
      { urn: ds('db.usres', 'hive', 'PROD', 'svc') },
    ];
    assert.deepEqual(rankSuggestions(ds('db.usres'), found), [ds('db.users'), ds('db.users', 'snowflake')]);
    // `users` is in db.users's name: kept though far by edits; db.usres holds no `users`.
    assert.deepEqual(rankSuggestions(ds('users'), found), [ds('db.users'), ds('db.users', 'snowflake')]);
    assert.deepEqual(rankSuggestions(ds('zzz_nothing_like_it'), found), []);
  });

  test('features: the same table ranks first', () => {
    const f = (table: string, name: string): string => `urn:li:mlFeature:(${table},${name})`;
    assert.deepEqual(
      rankSuggestions(f('users_table', 'aeg'), [{ urn: f('orders_table', 'age') }, { urn: f('users_table', 'age') }]),
      [f('users_table', 'age'), f('orders_table', 'age')],
    );
  });

  test('a near match is named by what differs; with nothing of name, platform, env or table differing, by its URN', () => {
    assert.deepEqual(nearMatch(ds('db.users', 'hive', 'PORD'), ds('db.users')), {
      mention: 'env PROD',
      title: 'Replace env PORD with PROD',
    });
    assert.deepEqual(nearMatch(ds('db.users', 'Hive'), ds('db.users')), {
      mention: 'platform hive',
      title: 'Replace platform Hive with hive',
    });
    assert.deepEqual(nearMatch(ds('DB.USERS'), ds('db.users')), {
      mention: 'db.users',
      title: 'Replace with db.users',
    });
    assert.deepEqual(nearMatch(ds('db.users', 'hiv', 'DEV'), ds('db.users')), {
      mention: 'platform hive in env PROD',
      title: 'Replace with platform hive in env PROD',
    });
    const svc = ds('db.users', 'hive', 'PROD', 'svc');
    assert.deepEqual(nearMatch(ds('db.users'), svc), { mention: svc, title: `Replace with ${svc}` });
  });

  test('names in a message: one, two, three; the platform where two share a name', () => {
    assert.equal(suggestionNames([ds('db.users')]), 'db.users');
    assert.equal(suggestionNames([ds('db.users'), ds('db.user')]), 'db.users or db.user');
    assert.equal(
      suggestionNames([ds('db.users'), ds('db.users', 'snowflake'), ds('db.usr')]),
      'db.users (hive), db.users (snowflake) or db.usr',
    );
  });
});

for (const compat of COMPAT_MODES)
  describe(`did-you-mean through the server (${compat} catalog)`, () => {
    const env = useSampleServer({}, compat);
    const unknownAt = async (
      uri: string,
      lang: string,
      text: string,
    ): Promise<{ d: Diagnostic; fixes: CodeAction[] }> => {
      await env.lsp.open(uri, lang, text);
      // The diagnostics come first; the suggestions in a second publication.
      const ds = await env.lsp.diagnostics(uri, (all) =>
        all.some((d) => d.code === 'unknown-urn' && /Did you mean/.test(textOf(d.message))),
      );
      const d = ds.find((x) => x.code === 'unknown-urn')!;
      const fixes = (await env.lsp.codeActions(uri, d.range, [d])).filter((a) => a.title.startsWith('Replace with'));
      return { d, fixes };
    };
    const forms: Array<[string, string, string, string]> = [
      ['a URN literal', 'python', `x = "${ds('db.usres')}"\n`, `x = "${ds('db.users')}"\n`],
      [
        "a builder call's arguments",
        'python',
        'x = make_dataset_urn("hive", "db.usres", "PROD")\n',
        'x = make_dataset_urn("hive", "db.users", "PROD")\n',
      ],
      ['a YAML value', 'yaml', `datasets:\n  - urn: ${ds('db.usres')}\n`, `datasets:\n  - urn: ${ds('db.users')}\n`],
    ];
    // DataHub knows only `li`; the spec's catalog both words as one entity.
    if (compat === 'spec')
      forms.push([
        'the other namespace word, which the fix keeps',
        'python',
        `x = "${ds('db.usres', 'hive', 'PROD', 'svc')}"\n`,
        `x = "${ds('db.users', 'hive', 'PROD', 'svc')}"\n`,
      ]);
    forms.forEach(([name, lang, text, fixed], i) => {
      test(`in ${name}: "Did you mean db.users?" and a fix that writes it`, async () => {
        const uri = `file:///w/dym-${i}.${lang === 'yaml' ? 'yml' : 'py'}`;
        const { d, fixes } = await unknownAt(uri, lang, text);
        assert.match(textOf(d.message), /is not in the catalog\. Did you mean db\.users\?$/);
        assert.equal(fixes[0]?.title, 'Replace with db.users');
        assert.equal(applyEdits(text, fixes[0].edit!.changes![uri]!), fixed);
        await env.lsp.change(uri, fixed);
        await env.lsp.diagnostics(uri, (all) => !all.some((x) => x.code === 'unknown-urn'));
      });
    });

    // What differs is named: the env, the platform, the name; never the unknown URN's own name alone.
    const near: Array<[string, string, string, string]> = [
      [
        ds('db.users', 'hive', 'PORD'),
        'Did you mean env PROD or db.users_legacy in env PROD?',
        'Replace env PORD with PROD',
        ds('db.users'),
      ],
      [
        ds('db.users', 'hive', 'PRD'),
        'Did you mean env PROD or db.users_legacy in env PROD?',
        'Replace env PRD with PROD',
        ds('db.users'),
      ],
      [
        ds('db.users', 'hiv'),
        'Did you mean platform hive or db.users_legacy on platform hive?',
        'Replace platform hiv with hive',
        ds('db.users'),
      ],
      [ds('db.usres'), 'Did you mean db.users?', 'Replace with db.users', ds('db.users')],
    ];
    near.forEach(([unknown, question, title, fixed], i) => {
      test(`${unknown}: "${question}" and "${title}"`, async () => {
        const uri = `file:///w/dym-near-${i}.py`;
        const text = `x = "${unknown}"\n`;
        await env.lsp.open(uri, 'python', text);
        const all = await env.lsp.diagnostics(uri, (ds) =>
          ds.some((d) => d.code === 'unknown-urn' && /Did you mean/.test(textOf(d.message))),
        );
        const d = all.find((x) => x.code === 'unknown-urn')!;
        assert.ok(textOf(d.message).endsWith(`is not in the catalog. ${question}`), textOf(d.message));
        const fixes = (await env.lsp.codeActions(uri, d.range, [d])).filter((a) => a.title.startsWith('Replace'));
        assert.equal(fixes[0]?.title, title);
        assert.ok(!fixes.some((a) => a.title === 'Replace with db.users' && title !== a.title), JSON.stringify(fixes));
        assert.equal(applyEdits(text, fixes[0].edit!.changes![uri]!), `x = "${fixed}"\n`);
      });
    });

    test('a feature: the one of the same table first', async () => {
      const uri = 'file:///w/dym-feature.py';
      const { d, fixes } = await unknownAt(uri, 'python', 'f = "urn:li:mlFeature:(users_table,aeg)"\n');
      assert.match(textOf(d.message), /Did you mean age\?/);
      assert.equal(
        applyEdits('f = "urn:li:mlFeature:(users_table,aeg)"\n', fixes[0]!.edit!.changes![uri]!),
        'f = "urn:li:mlFeature:(users_table,age)"\n',
      );
    });

    test('nothing near: the plain message, without a question', async () => {
      const uri = 'file:///w/dym-far.py';
      await env.lsp.open(uri, 'python', `x = "${ds('zzzz_qqqq')}"\n`);
      const all = await env.lsp.diagnostics(uri, (x) => x.some((d) => d.code === 'unknown-urn'));
      assert.match(textOf(all.find((d) => d.code === 'unknown-urn')!.message), /is not in the catalog$/);
    });
  });

describe('did-you-mean slower than the first diagnostics', () => {
  let catalog: Catalog;
  let proxy: TestProxy;
  const isSearch = (r: { body: string }): boolean => r.body.includes('searchEntities');
  before(async () => {
    catalog = await sampleCatalog();
    // A proxy that answers the catalog's searches 800 ms late and everything else at once: the
    // searches outlast the syntax-first delay (300 ms), the timing under test.
    proxy = await startProxy({ target: catalog.url });
    proxy.delay(800, isSearch);
  });
  after(async () => {
    await proxy?.stop();
    await catalog?.close();
  });

  test('the unknown-URN warning stays when the searches outlast the syntax-first delay', async () => {
    const lsp = await serverFor(proxy.url);
    try {
      const uri = 'file:///w/slow_suggest.py';
      await lsp.open(uri, 'python', `x = "${S.ghost}"\n`);
      await lsp.diagnostics(uri, (all) => all.some((d) => d.code === 'unknown-urn'));
      // Past the searches (800 ms) and so past the syntax-first delay (300 ms): the searches were
      // answered, and then a request to the server was; the server writes in order, so a
      // publication that took the warning away would have come before that answer.
      await proxy.waitFor((all) => all.some((e) => isSearch(e) && e.answer !== undefined), 'the searches answered');
      await lsp.connection.sendRequest('catalogLens/knownUrns', { uri });
      assert.deepEqual(
        lsp.latestDiagnostics(uri)?.map((d) => d.code),
        ['unknown-urn'],
      );
    } finally {
      await lsp.stop();
    }
  });
});
