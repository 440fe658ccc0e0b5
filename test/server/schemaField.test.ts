/**
 * schemaField URNs name a column: through the real server process against the real local catalog,
 * the hover, diagnostics, fixes and links are the column's, in Python and in YAML.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { hoverText, positionOf } from '../support/lspClient';
import { COMPAT_MODES, S, useSampleServer } from '../support/fixture';
import { UrnAtRequest } from '../../model/src/protocol';

const field = (dataset: string, path: string): string => `urn:li:schemaField:(${dataset},${path})`;
const hasCode =
  (code: string) =>
  (ds: Diagnostic[]): boolean =>
    ds.some((d) => d.code === code);

for (const compat of COMPAT_MODES)
  describe(`schemaField URNs (${compat} catalog)`, () => {
    const env = useSampleServer({ initializationOptions: { clientCommands: true } }, compat);

    test('hover anywhere on a schemaField in Python shows the column: dataset, description, type, a link to the Columns tab', async () => {
      const text = `LINEAGE = ["${field(S.users, 'user_id')}"]\n`;
      const uri = 'file:///w/sf.py';
      await env.lsp.open(uri, 'python', text);
      for (const [needle, at] of [
        ['user_id', 2],
        ['db.users', 3],
        ['hive', 1],
        ['schemaField', 2],
      ] as const) {
        const hover = await env.lsp.hover(uri, positionOf(text, needle, at));
        const h = hoverText(hover);
        assert.match(h, /^\*\*Column\*\* `user_id` · dataset `db\.users` · hive · PROD/, `on ${needle}`);
        assert.match(h, /Primary key of the user\./);
        assert.match(h, /type `bigint`/);
        assert.match(
          h,
          /\[Open in catalog\]\(http:\/\/127\.0\.0\.1:\d+\/dataset\/urn:li:dataset:\(urn:li:dataPlatform:hive,db\.users,PROD\)\/Columns\?highlightedPath=user_id\)/,
        );
        assert.deepEqual(
          hover?.range?.start,
          positionOf(text, 'urn:li:schemaField'),
          'the range is the whole schemaField URN',
        );
      }
    });

    test('YAML: an undocumented column is Information with the column fix; the hover is the column, not the platform', async () => {
      const yaml = `lineage:\n  - upstream: ${field(S.users, 'age')}\n    downstream: ${field(S.orders, 'amount')}\n`;
      const uri = 'file:///w/sf.yml';
      await env.lsp.open(uri, 'yaml', yaml);
      const ds = await env.lsp.diagnostics(
        uri,
        (x) => x.filter((d) => d.code === 'missing-column-description').length === 2,
      );
      const age = ds.find((d) => String(d.message).includes("'age'"))!;
      assert.equal(age.message, "Column 'age' of db.users has no description");
      assert.equal(age.severity, 3);
      assert.deepEqual(age.range, { start: positionOf(yaml, 'age)'), end: positionOf(yaml, 'age)', 3) });
      assert.deepEqual(age.data, {
        code: 'missing-column-description',
        urn: S.users,
        kind: 'dataset',
        fieldPath: 'age',
      });
      const fix = (await env.lsp.codeActions(uri, age.range, [age])).find(
        (a) => a.title === 'Write column description…',
      );
      assert.ok(fix, 'the column fix is offered');
      assert.deepEqual(fix.command?.arguments, [{ urn: S.users, fieldPath: 'age' }]);
      const onPlatform = hoverText(await env.lsp.hover(uri, positionOf(yaml, 'hive', 1)));
      assert.match(onPlatform, /^\*\*Column\*\* `age` · dataset `db\.users`/);
      assert.match(onPlatform, /_No description\._/);
      assert.match(onPlatform, /type `int`/);
    });

    test('an unknown column is a Warning on the field path with near names; an unknown dataset is a Warning on the parent', async () => {
      const text = [
        `a = "${field(S.users, 'emial')}"`,
        `b = "${field(S.ghost, 'id')}"`,
        `c = "${field(S.users, 'email')}"`,
        '',
      ].join('\n');
      const uri = 'file:///w/sf2.py';
      await env.lsp.open(uri, 'python', text);
      const ds = await env.lsp.diagnostics(uri, (x) => hasCode('unknown-column')(x) && hasCode('unknown-urn')(x));
      assert.deepEqual(
        ds.map((d) => String(d.code)).sort(),
        ['unknown-column', 'unknown-urn'],
        'a documented column says nothing',
      );
      const column = ds.find((d) => d.code === 'unknown-column')!;
      assert.equal(column.message, "Column 'emial' is not in the catalog's schema of db.users (did you mean email?)");
      assert.equal(column.severity, 2);
      assert.deepEqual(column.range, { start: positionOf(text, 'emial'), end: positionOf(text, 'emial', 5) });
      const ghost = ds.find((d) => d.code === 'unknown-urn')!;
      assert.equal(ghost.message, 'Dataset db.ghost is not in the catalog');
      assert.deepEqual(ghost.range, {
        start: positionOf(text, S.ghost),
        end: positionOf(text, S.ghost, S.ghost.length),
      });
      // Each diagnostic's message is in the same hover box (VS Code): the hover says only what they do not.
      const hover = hoverText(await env.lsp.hover(uri, positionOf(text, 'emial', 1)));
      assert.match(hover, /^\*\*Column\*\* `emial` · dataset `db\.users`/);
      assert.doesNotMatch(hover, /not in the catalog's schema/);
      const ghostHover = hoverText(await env.lsp.hover(uri, positionOf(text, 'db.ghost', 1)));
      assert.match(ghostHover, /^\*\*Column\*\* `id` · dataset `db\.ghost`/);
      assert.doesNotMatch(ghostHover, /not in the catalog/);
    });

    test("an env typo inside a schemaField's dataset is flagged on the env", async () => {
      const text = `x = "${field(S.users.replace(',PROD)', ',PRDO)'), 'age')}"\n`;
      const uri = 'file:///w/sf3.py';
      await env.lsp.open(uri, 'python', text);
      const ds = await env.lsp.diagnostics(uri, hasCode('unknown-env'));
      const d = ds.find((x) => x.code === 'unknown-env')!;
      assert.equal(d.message, "env 'PRDO' is not one of DataHub's environments (did you mean PROD?)");
      assert.deepEqual(d.range, { start: positionOf(text, 'PRDO'), end: positionOf(text, 'PRDO', 4) });
    });

    test('the URN under the cursor of a schemaField is its dataset and column (palette commands act on the column)', async () => {
      const text = `x = "${field(S.users, 'country')}"\n`;
      const uri = 'file:///w/sf4.py';
      await env.lsp.open(uri, 'python', text);
      const at = await env.lsp.connection.sendRequest(UrnAtRequest.method, {
        textDocument: { uri },
        position: positionOf(text, 'country', 1),
      });
      assert.deepEqual(at, { urn: S.users, kind: 'dataset', column: 'country' });
      const refactors = (
        await env.lsp.codeActions(uri, { start: positionOf(text, 'country'), end: positionOf(text, 'country') }, [])
      ).map((a) => a.title);
      assert.ok(refactors.includes('Write column description…'), refactors.join(', '));
    });
  });
