/** Diagnostics through the real server process against the real local catalog. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { hoverText, positionOf } from '../support/lspClient';
import { COMPAT_MODES, S, sampleCatalog, serverFor, useSampleServer } from '../support/fixture';

const codes = (ds: Diagnostic[]): string[] => ds.map((d) => String(d.code)).sort();
const hasCode =
  (code: string) =>
  (ds: Diagnostic[]): boolean =>
    ds.some((d) => d.code === code);

for (const compat of COMPAT_MODES)
  describe(`diagnostics (${compat} catalog)`, () => {
    const env = useSampleServer({}, compat);

    test('malformed → Error at the exact part, unknown → Warning, undocumented → Information', async () => {
      const text = [
        `bad = "urn:li:dataset:(urn:li:dataPlatform:hive,db.users)"`,
        `typo = "urn:li:mlFeatur:(users_table,age)"`,
        `ghost = "${S.ghost}"`,
        `orders = "${S.orders}"`,
        `users = "${S.users}"`,
        `tpl = f"urn:li:dataset:(urn:li:dataPlatform:{p},{name},PROD)"`,
        '',
      ].join('\n');
      await env.lsp.open('file:///w/diag.py', 'python', text);
      const ds = await env.lsp.diagnostics('file:///w/diag.py', hasCode('unknown-urn'));
      assert.deepEqual(codes(ds), ['malformed-urn', 'malformed-urn', 'missing-description', 'unknown-urn']);
      const parts = ds.find((d) => String(d.message).includes('expected 3 parts'))!;
      assert.equal(parts.severity, 1);
      assert.equal(parts.message, 'Malformed URN: expected 3 parts (platform, name, env), found 2');
      assert.deepEqual(parts.range.start, positionOf(text, '(urn:li:dataPlatform:hive,db.users)'));
      const typo = ds.find((d) => String(d.message).includes('mlFeatur'))!;
      assert.equal(typo.message, "Malformed URN: unknown entity type 'mlFeatur' (did you mean mlFeature?)");
      assert.deepEqual(typo.range.start, positionOf(text, 'mlFeatur'));
      assert.deepEqual(typo.range.end, positionOf(text, 'mlFeatur', 8));
      const ghost = ds.find((d) => d.code === 'unknown-urn')!;
      assert.equal(ghost.severity, 2);
      assert.equal(ghost.message, 'Dataset db.ghost is not in the catalog');
      const orders = ds.find((d) => d.code === 'missing-description')!;
      assert.equal(orders.severity, 3);
      assert.equal(orders.message, 'Dataset db.orders has no description');
      assert.deepEqual(orders.range.start, positionOf(text, S.orders));
      assert.deepEqual(orders.data, { code: 'missing-description', urn: S.orders, kind: 'dataset' });
    });

    test('YAML: undocumented and unknown columns, YAML/catalog disagreement, list members the catalog lacks', async () => {
      const yaml = [
        'datasets:',
        `  - urn: ${S.users}`,
        '    columns:',
        '      - name: user_id',
        '        description: Primary key of the user.',
        '      - name: age   # no description yet',
        '      - name: emial',
        `  - urn: "${S.orders}"`,
        '    description: Orders placed by users.',
        '    fields:',
        '      - fieldPath: amount',
        '        description: Order total in EUR, after discounts.',
        '---',
        'feature_tables:',
        `  - urn: ${S.usersTable}`,
        '    features:',
        `      - ${S.age}`,
        `      - ${S.signupDays}`,
        'models:',
        `  - urn: ${S.churnModel}`,
        `    groups: ["${S.churnGroup}", "${S.ltvGroup}"]`,
        '',
      ].join('\n');
      const uri = 'file:///w/catalog.yml';
      await env.lsp.open(uri, 'yaml', yaml);
      const ds = await env.lsp.diagnostics(uri, hasCode('missing-list-member'));
      const by = (code: string) => ds.filter((d) => d.code === code);
      assert.deepEqual(
        by('missing-column-description').map((d) => String(d.message)),
        ["Column 'age' of db.users has no description"],
      );
      assert.deepEqual(
        by('unknown-column').map((d) => String(d.message)),
        ["Column 'emial' is not in the catalog's schema of db.users (did you mean email?)"],
      );
      const mismatch = by('description-mismatch');
      assert.equal(mismatch.length, 1);
      assert.match(
        String(mismatch[0]!.message),
        /db\.orders has no description in the catalog; this one can be pushed/,
      );
      const colMismatch = by('column-description-mismatch');
      assert.equal(colMismatch.length, 1);
      assert.equal((colMismatch[0]!.data as { fieldPath: string }).fieldPath, 'amount');
      const members = by('missing-list-member')
        .map((d) => (d.data as { urn: string }).urn)
        .sort();
      assert.deepEqual(members, [S.signupDays, S.ltvGroup].sort());
      assert.ok(
        !ds.some((d) => d.code === 'missing-description' && (d.data as { urn: string }).urn === S.orders),
        'the YAML description stands in for the missing one',
      );
    });

    test('missing descriptions can be switched off', async () => {
      env.lsp.settings['diagnostics'] = { missingDescription: 'off' };
      await env.lsp.configurationChanged();
      const uri = 'file:///w/off.py';
      await env.lsp.open(uri, 'python', `x = "${S.orders}"\ny = "${S.ghost}"\n`);
      const ds = await env.lsp.diagnostics(uri, hasCode('unknown-urn'));
      assert.deepEqual(codes(ds), ['unknown-urn']);
      delete env.lsp.settings['diagnostics'];
      await env.lsp.configurationChanged();
    });

    test('an env DataHub does not know is a warning with a suggestion', async () => {
      const uri = 'file:///w/env.py';
      const text = `x = "urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PRDO)"\n`;
      await env.lsp.open(uri, 'python', text);
      const ds = await env.lsp.diagnostics(uri, hasCode('unknown-env'));
      const envDiagnostic = ds.find((d) => d.code === 'unknown-env')!;
      assert.equal(envDiagnostic.message, "env 'PRDO' is not one of DataHub's environments (did you mean PROD?)");
      assert.deepEqual(envDiagnostic.range.start, positionOf(text, 'PRDO'));
    });

    test('a custom entity type is Information, never looked up; registry types are silent; a near miss is an Error', async (t) => {
      // A catalog and server of its own: what the catalog counts is this test's doing alone.
      const catalog = await sampleCatalog({ compat });
      const lsp = await serverFor(catalog.url);
      t.after(async () => {
        await lsp.stop();
        await catalog.close();
      });
      const uri = 'file:///w/registry.py';
      const text = [
        'custom = "urn:li:myCompanyThing:abc"',
        'custom_tuple = "urn:svc:pipelineRun:(urn:svc:dataFlow:(airflow,nightly,prod),42)"',
        'entity_type = "urn:li:entityType:datahub.dataset"',
        'column = "urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD),user_id)"',
        'deployment = "urn:li:mlModelDeployment:(urn:li:dataPlatform:sagemaker,churn-endpoint,PROD)"',
        'typo = "urn:li:datset:(urn:li:dataPlatform:hive,db.users,PROD)"',
        '',
      ].join('\n');
      // The schemaField's parent dataset (db.users) is looked up for its column: resolved first (a
      // hover waits for the catalog's answer), so what is counted below is what the other URNs cost.
      const users = `users = "${S.users}"\n`;
      await lsp.open('file:///w/users.py', 'python', users);
      assert.match(hoverText(await lsp.hover('file:///w/users.py', positionOf(users, 'db.users'))), /db\.users/);
      catalog.stats.reset();
      await lsp.open(uri, 'python', text);
      const ds = await lsp.diagnostics(uri, hasCode('unregistered-entity-type'));
      assert.deepEqual(codes(ds), ['malformed-urn', 'unregistered-entity-type', 'unregistered-entity-type']);
      const [custom, customTuple] = ds.filter((d) => d.code === 'unregistered-entity-type');
      assert.equal(custom!.severity, 3);
      assert.equal(
        custom!.message,
        "'myCompanyThing' is not an entity type DataHub knows; a custom type's URNs are not checked",
      );
      assert.deepEqual(custom!.range, {
        start: positionOf(text, 'myCompanyThing'),
        end: positionOf(text, 'myCompanyThing', 14),
      });
      assert.deepEqual(custom!.data, {
        code: 'unregistered-entity-type',
        urn: 'urn:li:myCompanyThing:abc',
        kind: 'other',
      });
      assert.equal(
        customTuple!.message,
        "'pipelineRun' is not an entity type DataHub knows; a custom type's URNs are not checked",
      );
      const typo = ds.find((d) => d.code === 'malformed-urn')!;
      assert.equal(typo.severity, 1);
      assert.equal(typo.message, "Malformed URN: unknown entity type 'datset' (did you mean dataset?)");
      assert.equal(
        catalog.stats.graphql + catalog.stats.aspectReads,
        0,
        `no URN here is looked up in the catalog: ${JSON.stringify(catalog.stats.byPath)}`,
      );
    });

    test('the custom entity type diagnostic has its own setting', async () => {
      env.lsp.settings['diagnostics'] = { unregisteredEntityType: 'off' };
      await env.lsp.configurationChanged();
      const uri = 'file:///w/registry-off.py';
      await env.lsp.open(uri, 'python', `x = "urn:li:myCompanyThing:abc"\ny = "${S.ghost}"\n`);
      const ds = await env.lsp.diagnostics(uri, hasCode('unknown-urn'));
      assert.deepEqual(codes(ds), ['unknown-urn']);
      delete env.lsp.settings['diagnostics'];
      await env.lsp.configurationChanged();
    });

    test('through escapes and across joined pieces: the env diagnostic lands on the escape, and in the right piece', async () => {
      const json =
        '{"entityUrn": "urn:li:dataset:(urn:li:dataPlatform:hive,db.\\u0075sers,PR\\u0044O)", "note": "a \\"quoted\\" word"}\n';
      await env.lsp.open('file:///w/escaped.json', 'json', json);
      const fromJson = (await env.lsp.diagnostics('file:///w/escaped.json', hasCode('unknown-env'))).find(
        (d) => d.code === 'unknown-env',
      )!;
      assert.equal(fromJson.message, "env 'PRDO' is not one of DataHub's environments (did you mean PROD?)");
      assert.deepEqual(fromJson.range, {
        start: positionOf(json, 'PR\\u0044O'),
        end: positionOf(json, 'PR\\u0044O', 'PR\\u0044O'.length),
      });

      const py = [
        'USERS = (',
        '    "urn:li:dataset:(urn:li:dataPlatform:hive,"  # black split this',
        '    "db.users,PRDO)"',
        ')',
        `GHOST = "urn:li:dataset:(" + "urn:li:dataPlatform:hive,db.ghost,PROD)"`,
        '',
      ].join('\n');
      await env.lsp.open('file:///w/joined.py', 'python', py);
      const ds = await env.lsp.diagnostics(
        'file:///w/joined.py',
        (all) => hasCode('unknown-env')(all) && hasCode('unknown-urn')(all),
      );
      assert.equal(ds.filter((d) => d.code === 'malformed-urn').length, 0, 'no unbalanced parenthesis');
      const envDiagnostic = ds.find((d) => d.code === 'unknown-env')!;
      assert.deepEqual(envDiagnostic.range, { start: positionOf(py, 'PRDO'), end: positionOf(py, 'PRDO', 4) });
      const ghost = ds.find((d) => d.code === 'unknown-urn' && String(d.message).includes('db.ghost'))!;
      assert.deepEqual(ghost.range, { start: positionOf(py, 'urn:li:dataset:(" +'), end: positionOf(py, 'PROD)"', 5) });
    });

    test('edits are re-diagnosed (debounced) and a file over the size limit is skipped with one notice', async () => {
      const uri = 'file:///w/edit.py';
      await env.lsp.open(uri, 'python', `x = "${S.users}"\n`);
      await env.lsp.diagnostics(uri);
      await env.lsp.change(uri, `x = "${S.ghost}"\n`);
      const after = await env.lsp.diagnostics(uri, hasCode('unknown-urn'));
      assert.deepEqual(codes(after), ['unknown-urn']);

      env.lsp.settings['maxFileSize'] = 1000;
      await env.lsp.configurationChanged();
      const big = 'big.py';
      await env.lsp.open(`file:///w/${big}`, 'python', `x = "${S.ghost}"\n${'#'.repeat(2000)}\n`);
      const ds = await env.lsp.diagnostics(`file:///w/${big}`);
      assert.deepEqual(ds, []);
      assert.equal(env.lsp.logs.filter((l) => l.includes(big) && l.startsWith('skipped ')).length, 1);
      delete env.lsp.settings['maxFileSize'];
      await env.lsp.configurationChanged();
    });
    test('an unquoted URN that a YAML flow comma cuts: one diagnostic over the whole URN, a hint in the hover, and "Quote the URN" fixes it', async () => {
      const uri = 'file:///w/flow-cut.yml';
      const text = `tables: [${S.users}, ${S.orders}]\nfeatures: {age: ${S.age}}\n`;
      await env.lsp.open(uri, 'yaml', text);
      const ds = await env.lsp.diagnostics(uri, (d) => d.filter((x) => x.code === 'malformed-urn').length === 3);
      const cut = ds.filter((d) => d.code === 'malformed-urn');
      const doc = TextDocument.create(uri, 'yaml', 1, text);
      assert.deepEqual(
        cut.map((d) => doc.getText(d.range)),
        [S.users, S.orders, S.age],
      );
      assert.match(String(cut[0]!.message), /flow collection a comma ends an unquoted value.*quote it/);
      // The diagnostic over the whole URN is the hover's text (VS Code shows it there): no hover repeats it.
      assert.equal(await env.lsp.hover(uri, positionOf(text, 'urn:li:dataset')), null);

      let fixed = text;
      for (const d of cut.reverse()) {
        const [quote, ...others] = (await env.lsp.codeActions(uri, d.range, [d])).filter(
          (a) => a.title === 'Quote the URN',
        );
        assert.equal(others.length, 0);
        fixed = TextDocument.applyEdits(TextDocument.create(uri, 'yaml', 1, fixed), quote!.edit!.changes![uri]!);
      }
      assert.equal(fixed, `tables: ["${S.users}", "${S.orders}"]\nfeatures: {age: "${S.age}"}\n`);
      await env.lsp.change(uri, fixed);
      const after = await env.lsp.diagnostics(
        uri,
        (d) => !d.some((x) => x.code === 'malformed-urn') && d.some((x) => x.code === 'missing-description'),
      );
      assert.deepEqual(codes(after), ['missing-description'], 'db.orders has no description; nothing is malformed');
    });
  });
