/**
 * The workspace index follows workspace folders added and removed (workspace/didChangeWorkspaceFolders),
 * through the real server process over LSP: a folder added is indexed (its files show in
 * references), a folder removed leaves the index (its files no longer do). The test waits for
 * the server's `catalogLens/indexed` notification, never for time.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { Location } from 'vscode-languageserver-protocol';
import { positionOf, startSession, type LspSession } from '../support/lspClient';

const USERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';

describe('the workspace index follows added and removed workspace folders', () => {
  let dir: string;
  let lsp: LspSession;
  const folder = (name: string): { uri: string; name: string } => ({
    uri: pathToFileURL(join(dir, name)).toString(),
    name,
  });
  const here = `USERS = "${USERS}"\n`;
  const references = async (): Promise<string[]> => {
    const locs = await lsp.connection.sendRequest<Location[] | null>('textDocument/references', {
      textDocument: { uri: pathToFileURL(join(dir, 'a', 'here.py')).toString() },
      position: positionOf(here, 'db.users'),
      context: { includeDeclaration: true },
    });
    return (locs ?? []).map((l) => l.uri.slice(pathToFileURL(dir).toString().length + 1)).sort();
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'catalog-lens-folders-'));
    for (const [rel, text] of [
      ['a/here.py', here],
      ['b/there.py', `THERE = "${USERS}"\n`],
      ['b/sql/report.sql', `-- reads ${USERS}\nSELECT 1;\n`],
    ] as const) {
      mkdirSync(dirname(join(dir, rel)), { recursive: true });
      writeFileSync(join(dir, rel), text);
    }
    lsp = await startSession({
      workspaceFolders: [folder('a')],
      initializationOptions: { indexedNotifications: true },
    });
    await lsp.open(pathToFileURL(join(dir, 'a', 'here.py')).toString(), 'python', here);
  });
  after(async () => {
    await lsp?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a folder added is indexed; removed, its files leave the index', async () => {
    assert.deepEqual(await references(), ['a/here.py']);

    const built = lsp.nextIndexed((p) => p.reason === 'build');
    await lsp.connection.sendNotification('workspace/didChangeWorkspaceFolders', {
      event: { added: [folder('b')], removed: [] },
    });
    const afterAdd = await built;
    assert.equal(afterAdd.files, 3, 'a/here.py, b/there.py, b/sql/report.sql');
    assert.deepEqual(await references(), ['a/here.py', 'b/sql/report.sql', 'b/there.py']);

    const dropped = lsp.nextIndexed((p) => p.reason === 'folders');
    await lsp.connection.sendNotification('workspace/didChangeWorkspaceFolders', {
      event: { added: [], removed: [folder('b')] },
    });
    assert.equal((await dropped).files, 1);
    assert.deepEqual(await references(), ['a/here.py']);
  });
});
