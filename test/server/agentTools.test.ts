/**
 * `catalogLens/tool` (the language model tools' request) through the real server process against
 * the local catalog's sample, on a copy of examples/: the tools answer what the editor shows —
 * problems are Check Workspace's diagnostics, at the same places; where_used follows an open
 * document's unsaved text; bad input and unknown tools are answered with an error.
 */
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { ToolRequest, type ToolResult } from '../../model/src/protocol';
import { S, sampleCatalog, serverFor, type Catalog } from '../support/fixture';
import type { LspSession } from '../support/lspClient';

const ROOT = join(__dirname, '..', '..', '..');
const LEGACY = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users_legacy,PROD)';

describe('catalogLens/tool (the language model tools)', () => {
  let catalog: Catalog;
  let lsp: LspSession;
  let dir: string;
  const tool = (name: string, input: unknown): Promise<ToolResult> =>
    lsp.connection.sendRequest(ToolRequest.method, { name, input });

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'catalog-lens-tools-'));
    cpSync(join(ROOT, 'examples'), dir, { recursive: true });
    catalog = await sampleCatalog();
    lsp = await serverFor(catalog.url, { workspaceFolders: [{ uri: pathToFileURL(dir).toString(), name: 'demo' }] });
  });
  after(async () => {
    await lsp?.stop();
    await catalog?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('problems are what Check Workspace publishes, at the same places', async () => {
    await lsp.command('catalogLens.checkWorkspace', {});
    const r = await tool('problems', { limit: 100 });
    assert.ok(r.structured, JSON.stringify(r));
    const rows = r.structured['problems'] as Array<{ path: string; line: number; column: number; code: string }>;
    const fromTool = rows.map((p) => `${p.path}:${p.line}:${p.column} ${p.code}`).sort();
    const paths = [...new Set(rows.map((p) => p.path))];
    const shown = paths
      .flatMap((path) =>
        (lsp.latestDiagnostics(pathToFileURL(join(dir, path)).toString()) ?? []).map(
          (d) => `${path}:${d.range.start.line + 1}:${d.range.start.character + 1} ${String(d.code)}`,
        ),
      )
      .sort();
    assert.deepEqual(fromTool, shown);
    assert.equal(rows.length, 22, 'the 22 findings of catalog-lens check examples');
    assert.match(r.text, /pipelines\/features\.py:66:\d+ warning \[deprecated-urn\]/);
  });

  test('where_used and entities_in_files read an open document’s unsaved text', async () => {
    const uri = pathToFileURL(join(dir, 'sql', 'revenue.sql')).toString();
    const text = readFileSync(join(dir, 'sql', 'revenue.sql'), 'utf8');
    await lsp.open(uri, 'sql', `-- also ${LEGACY}\n${text}`);
    try {
      // The index takes the open document's text a moment after the edit: asked until it has.
      let total = 0;
      for (let i = 0; i < 100 && total !== 2; i++) {
        if (i > 0) await new Promise((resolve) => setTimeout(resolve, 100));
        total = ((await tool('where_used', { urn: LEGACY })).structured?.['total'] as number | undefined) ?? 0;
      }
      assert.equal(total, 2, 'features.py and the open revenue.sql');
      const r = await tool('entities_in_files', { paths: ['sql/revenue.sql'] });
      const entities = r.structured?.['entities'] as Array<{ urn: string; state: string }>;
      assert.equal(entities.find((e) => e.urn === LEGACY)?.state, 'deprecated');
      assert.equal(entities.find((e) => e.urn === S.users)?.state, 'known');
    } finally {
      await lsp.close(uri);
    }
  });

  test('bad input, an unknown tool and a missing name are answered with an error', async () => {
    assert.match((await tool('describe', { urn: 7 })).error ?? '', /urn must be a string/);
    assert.match((await tool('drop_table', {})).error ?? '', /There is no tool drop_table/);
    const noName = await lsp.connection.sendRequest<ToolResult>(ToolRequest.method, { input: {} });
    assert.match(noName.error ?? '', /name must be a string/);
  });
});
