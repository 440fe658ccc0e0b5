/**
 * A write's result told to an editor without the Catalog Lens extension: the server shows it
 * itself (window/showMessage), with "Open in catalog" (window/showDocument, external) where the
 * editor declares message actions and showDocument; the extension is never told (it shows results
 * its own way).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MessageType } from 'vscode-languageserver';
import { ServerCommands } from '../../model/src/commandIds';
import { DEFAULT_SETTINGS, type WriteResult } from '../../model/src/protocol';
import { OPEN_IN_CATALOG, writeNotice } from '../../server/src/handlers/writeNotice';
import { S, useSampleServer } from '../support/fixture';

const USERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
const LINKS = { ...DEFAULT_SETTINGS, url: 'http://localhost:8080' };
const WRITTEN: WriteResult = {
  status: 'written',
  aspects: ['editableDatasetProperties'],
  message: 'Wrote the description of dataset db.users',
};
const BOTH = { messageActions: true, showDocument: true };

describe('writeNotice', () => {
  test('a written entity: the message, and Open in catalog with its page where the editor can open it', () => {
    const n = writeNotice(WRITTEN, { urn: USERS, description: 'd' }, LINKS, BOTH);
    assert.equal(n.type, MessageType.Info);
    assert.equal(n.message, 'Catalog Lens: Wrote the description of dataset db.users');
    assert.deepEqual(n.actions, [OPEN_IN_CATALOG]);
    assert.match(n.page!, /^http:\/\/localhost:\d+\/dataset\/urn:li:dataset:/);
  });

  test('no showDocument, no message actions, or no web UI: the message alone', () => {
    for (const support of [
      { messageActions: true, showDocument: false },
      { messageActions: false, showDocument: true },
    ])
      assert.deepEqual(writeNotice(WRITTEN, { urn: USERS }, LINKS, support).actions, []);
    assert.deepEqual(writeNotice(WRITTEN, { urn: USERS }, { ...DEFAULT_SETTINGS, url: '' }, BOTH).actions, []);
  });

  test('a failed write: an error message, nothing to open', () => {
    const n = writeNotice(
      { status: 'failed', kind: 'notFound', message: 'dataset db.nope is not in the catalog' },
      { urn: USERS },
      LINKS,
      BOTH,
    );
    assert.equal(n.type, MessageType.Error);
    assert.match(n.message, /the write failed: dataset db\.nope is not in the catalog/);
    assert.deepEqual(n.actions, []);
  });

  test('the member commands name their target as table or model', () => {
    const table = 'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users_table)';
    const n = writeNotice({ ...WRITTEN, message: 'Added 1 feature' }, { table, features: [] }, LINKS, BOTH);
    assert.match(n.page!, /\/featureTables\/urn:li:mlFeatureTable:/);
  });
});

describe('a generic LSP client runs a write command', () => {
  const env = useSampleServer({ genericClient: true });

  test('the server shows what came of it (the client ignores the command’s answer)', async () => {
    const r = await env.lsp.command<WriteResult>(ServerCommands.setDatasetDescription, {
      urn: S.users,
      description: 'Every user, as Neovim wrote it.',
    });
    assert.equal(r.status, 'written');
    await env.lsp.waitUntil(
      () => env.lsp.logs.some((l) => l.startsWith('showMessage: Catalog Lens: Wrote the description of dataset')),
      'the write’s message',
    );
  });
});

describe('the Catalog Lens extension runs a write command', () => {
  const env = useSampleServer({ initializationOptions: { clientCommands: true } });

  test('the server leaves the message to the extension', async () => {
    const r = await env.lsp.command<WriteResult>(ServerCommands.setDatasetDescription, {
      urn: S.users,
      description: 'Every user, as VS Code wrote it.',
    });
    assert.equal(r.status, 'written');
    // The command's own log line comes after any message the server would have sent.
    await env.lsp.waitUntil(
      () => env.lsp.logs.some((l) => l.includes('write catalogLens.setDatasetDescription')),
      'the log line',
    );
    assert.ok(!env.lsp.logs.some((l) => l.startsWith('showMessage')), env.lsp.logs.join('\n'));
  });
});
