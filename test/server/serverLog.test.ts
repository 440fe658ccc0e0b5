/**
 * The language server's log (window/logMessage: vscode-languageserver sends console.error there,
 * and Node writes its warnings with console.error) opened with two `[error]` lines with node-fetch 2: Node's deprecation warnings for `punycode` (DEP0040)
 * and `url.parse` (DEP0169). `--pending-deprecation` makes Node 20 emit both (Node 22 and 24 emit
 * them without it), so this check fails on the old bundle on any Node this project runs on.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { positionOf, type LspSession } from '../support/lspClient';
import { S, sampleCatalog, serverFor, type Catalog } from '../support/fixture';

describe('the server log stays quiet', () => {
  let catalog: Catalog;
  let lsp: LspSession;
  before(async () => {
    catalog = await sampleCatalog();
    lsp = await serverFor(catalog.url, { execArgv: ['--pending-deprecation'] });
  });
  after(async () => {
    await lsp?.stop();
    await catalog?.close();
  });

  test('reads, a hover and a write through the catalog leave no deprecation warning in the log or on stderr', async () => {
    const text = `USERS = "${S.users}"\nGHOST = "${S.ghost}"\n`;
    await lsp.open('file:///w/quiet.py', 'python', text);
    const diagnostics = await lsp.diagnostics('file:///w/quiet.py', (d) => d.some((x) => x.code === 'unknown-urn'));
    assert.ok(diagnostics.length > 0, 'the catalog was asked (an unknown URN was reported)');
    const hover = await lsp.hover('file:///w/quiet.py', positionOf(text, 'db.users'));
    assert.ok(hover, 'a hover came back from the catalog');
    const written = await lsp.command<{ status: string }>('catalogLens.setDatasetDescription', {
      urn: S.orders,
      description: 'One row per order.',
    });
    assert.equal(written.status, 'written');
    await lsp.stop();
    const warnings = [...lsp.logs, lsp.stderr()].filter((line) => /DeprecationWarning|\[DEP\d+\]/.test(line));
    assert.deepEqual(warnings, []);
  });
});
