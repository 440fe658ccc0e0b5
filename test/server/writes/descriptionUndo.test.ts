/**
 * Description edits start from what the catalog shows and can be undone: `catalogLens/description`
 * answers the text the input box starts from, "Write dataset description…" carries it, and a
 * written description's result carries the text it replaced (`previous`), which written back
 * (an empty text where there was none, as the client's Undo does) restores what the catalog
 * showed, and says "Restored the earlier description" — on both write paths, in both catalog modes.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ClientCommands } from '../../../model/src/commandIds';
import type { DescriptionResult, WriteResult } from '../../../model/src/protocol';
import { COMPAT_MODES, S, useSampleServerPerTest } from '../../support/fixture';

for (const compat of COMPAT_MODES)
  for (const writePath of ['aspects', 'graphql'] as const)
    describe(`description edits: prefilled and undoable (${writePath} path, ${compat} catalog)`, () => {
      const env = useSampleServerPerTest(
        { settings: { actor: 'urn:li:corpuser:alice', writePath }, initializationOptions: { clientCommands: true } },
        compat,
      );
      const run = (command: string, arg: unknown): Promise<WriteResult> => env.lsp.command<WriteResult>(command, arg);
      const shown = async (urn: string, fieldPath?: string): Promise<string | null> => {
        const r = await env.lsp.connection.sendRequest<DescriptionResult>('catalogLens/description', {
          urn,
          ...(fieldPath !== undefined ? { fieldPath } : {}),
        });
        assert.equal(r.error, undefined, `description of ${urn} ${fieldPath ?? ''}: ${r.error}`);
        return r.description!;
      };
      /** Writes `text`, checks the result, then undoes it as the client does and answers what was shown before. */
      async function writeThenUndo(command: string, arg: Record<string, unknown>, text: string): Promise<void> {
        const urn = arg['urn'] as string;
        const fieldPath = arg['fieldPath'] as string | undefined;
        const before = await shown(urn, fieldPath);
        const r = await run(command, { ...arg, description: text });
        assert.equal(r.status, 'written', r.message);
        assert.ok(r.previous === null || typeof r.previous === 'string', `previous: ${JSON.stringify(r.previous)}`);
        assert.equal(await shown(urn, fieldPath), text, 'the new text is shown');
        const undo = await run(command, { ...arg, description: r.previous ?? '', restoring: true });
        assert.equal(undo.status, 'written', undo.message);
        // The undo says what it did, not "Wrote the description" again.
        assert.match(undo.message, /^Restored the earlier description of /);
        assert.equal(await shown(urn, fieldPath), before, 'Undo restores what the catalog showed');
      }

      test("catalogLens/description answers what the catalog shows: a dataset's, a column's, none", async () => {
        assert.match((await shown(S.users)) ?? '', /One row per registered user/);
        assert.equal(await shown(S.orders), null);
        assert.equal(typeof (await shown(S.users, 'user_id')), 'string');
        const ghost = await env.lsp.connection.sendRequest<DescriptionResult>('catalogLens/description', {
          urn: S.ghost,
        });
        assert.match(ghost.error ?? '', /not in the catalog/);
      });

      test('a dataset description with one: Undo writes the previous text back', async () => {
        await writeThenUndo('catalogLens.setDatasetDescription', { urn: S.users }, 'Users, rewritten.');
      });

      test('a dataset description where there was none: previous is null, Undo restores none', async () => {
        const r = await run('catalogLens.setDatasetDescription', { urn: S.orders, description: 'Orders.' });
        assert.equal(r.status, 'written');
        assert.equal(r.previous, null);
        await run('catalogLens.setDatasetDescription', { urn: S.orders, description: '' });
        assert.equal(await shown(S.orders), null);
        await writeThenUndo('catalogLens.setDatasetDescription', { urn: S.orders }, 'Orders, once more.');
      });

      test('a column description: Undo restores it', async () => {
        await writeThenUndo('catalogLens.setColumnDescription', { urn: S.users, fieldPath: 'age' }, 'Age in years.');
        await writeThenUndo(
          'catalogLens.setColumnDescription',
          { urn: S.users, fieldPath: 'user_id' },
          'The user, by id.',
        );
      });

      test('an ML feature description: Undo restores it', async () => {
        await writeThenUndo('catalogLens.setMlDescription', { urn: S.age }, 'Age, rewritten.');
      });

      test('"Write dataset description…" carries the text the catalog shows', async () => {
        const uri = 'file:///w/prefill.py';
        const text = `x = "${S.users}"\n`;
        await env.lsp.open(uri, 'python', text);
        await env.lsp.diagnostics(uri);
        const at = text.indexOf('db.users');
        const range = { start: { line: 0, character: at }, end: { line: 0, character: at } };
        const actions = await env.lsp.codeActions(uri, range, []);
        const write = actions.find((a) => a.title === 'Write dataset description…');
        assert.ok(write, actions.map((a) => a.title).join(', '));
        assert.equal(write.command?.command, ClientCommands.writeDatasetDescription);
        const [arg] = (write.command?.arguments ?? []) as Array<{ urn: string; current?: string }>;
        assert.equal(arg?.urn, S.users);
        assert.equal(arg?.current, await shown(S.users));
      });
    });
