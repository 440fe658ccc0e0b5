/**
 * Sync of a DataHub dataset file with the catalog, entry by entry, through the real server process
 * against the real local catalog: where the file's description of an entry or of a schema field
 * differs from the catalog's, "Pull description from catalog" replaces only that value (comments
 * and formatting around it kept byte for byte) and "Push description to catalog" runs the existing
 * write command; an entry without a description can have the catalog's pulled in.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CodeAction, TextEdit } from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { positionOf } from '../support/lspClient';
import { COMPAT_MODES, S, useSampleServer } from '../support/fixture';

const TEXT = [
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
  '- id: db.orders',
  '  platform: hive',
  '  tags: [gold]',
  '',
].join('\n');

const apply = (text: string, edits: TextEdit[]): string =>
  TextDocument.applyEdits(TextDocument.create('file:///x', 'yaml', 1, text), edits);

for (const compat of COMPAT_MODES)
  describe(`DataHub dataset YAML: pull and push of descriptions (${compat} catalog)`, () => {
    const env = useSampleServer({}, compat);

    test("an entry's and a field's differing descriptions: pull replaces the value only, push writes through setDatasetDescription / setColumnDescription", async () => {
      const uri = 'file:///w/sync.yaml';
      await env.lsp.open(uri, 'yaml', TEXT);
      const ds = await env.lsp.diagnostics(uri, (d) => d.some((x) => x.code === 'column-description-mismatch'));
      const entry = ds.find((d) => d.code === 'description-mismatch')!;
      assert.ok(entry, ds.map((d) => d.message).join('\n'));
      assert.deepEqual(entry.range.start, positionOf(TEXT, '"Users, as we see them."'));
      const actions: CodeAction[] = await env.lsp.codeActions(uri, entry.range, [entry]);
      const push = actions.find((a) => a.title === 'Push description to catalog')!;
      assert.deepEqual(push.command?.command, 'catalogLens.setDatasetDescription');
      assert.deepEqual(push.command?.arguments, [{ urn: S.users, description: 'Users, as we see them.' }]);
      const pull = actions.find((a) => a.title === 'Pull description from catalog')!;
      const pulled = apply(TEXT, pull.edit!.changes![uri]!);
      assert.equal(
        pulled,
        TEXT.replace('"Users, as we see them."', '"One row per registered user of the product."'),
        'only the value changes; its quotes, the comments and the rest of the file are kept',
      );

      const field = ds.find((d) => d.code === 'column-description-mismatch')!;
      assert.match(String(field.message), /column 'user_id'/);
      const fieldActions = await env.lsp.codeActions(uri, field.range, [field]);
      const fieldPush = fieldActions.find((a) => a.title === 'Push description to catalog')!;
      assert.equal(fieldPush.command?.command, 'catalogLens.setColumnDescription');
      assert.deepEqual(fieldPush.command?.arguments, [{ urn: S.users, fieldPath: 'user_id', description: 'The key.' }]);
      const fieldPull = fieldActions.find((a) => a.title === 'Pull description from catalog')!;
      const after = apply(TEXT, fieldPull.edit!.changes![uri]!);
      assert.equal(after, TEXT.replace('          The key.', '          Primary key of the user.'));
    });

    test('an entry without a description: the catalog description is pulled in as a new line under its id', async () => {
      const uri = 'file:///w/sync-insert.yaml';
      const text = ['- id: db.users  # no description yet', '  platform: hive', '  tags: [gold]', ''].join('\n');
      await env.lsp.open(uri, 'yaml', text);
      await env.lsp.diagnostics(uri, () => true);
      const at = positionOf(text, 'db.users');
      const actions = await env.lsp.codeActions(uri, { start: at, end: at }, []);
      const pull = actions.find((a) => a.title === 'Pull description from catalog');
      assert.ok(pull, actions.map((a) => a.title).join(', '));
      assert.equal(
        apply(text, pull.edit!.changes![uri]!),
        text.replace('yet\n', 'yet\n  description: One row per registered user of the product.\n'),
      );
    });
  });
