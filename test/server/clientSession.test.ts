/** What the server reads from `initialize`: the Catalog Lens extension's flags, and what an editor that sends none gets. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ClientCapabilities, InitializeParams } from 'vscode-languageserver';
import { defaultSession, readClientSession } from '../../server/src/clientSession';

const params = (capabilities: ClientCapabilities, initializationOptions?: unknown): InitializeParams => ({
  processId: null,
  rootUri: null,
  workspaceFolders: null,
  capabilities,
  initializationOptions,
});
const TOOLTIPS: ClientCapabilities = { textDocument: { documentLink: { tooltipSupport: true } } };

describe('readClientSession: hovers and commands', () => {
  test('an editor that sends no flags: hovers say everything, no client commands', () => {
    for (const s of [defaultSession(), readClientSession(params({}), {})]) {
      assert.equal(s.hoverShowsDiagnostics, false);
      assert.equal(s.linkTooltips, false);
      assert.equal(s.clientCommands, false);
    }
  });

  test("the extension's flags: hovers leave the diagnostics and the link to VS Code's box", () => {
    const s = readClientSession(
      params(TOOLTIPS, { clientCommands: true, hoverShowsDiagnostics: true, hoverShowsLinkTooltips: true }),
      {},
    );
    assert.equal(s.hoverShowsDiagnostics, true);
    assert.equal(s.linkTooltips, true);
    assert.equal(s.clientCommands, true);
  });

  test('link tooltips need both the capability and the flag (lsp-mode declares the capability alone)', () => {
    assert.equal(readClientSession(params(TOOLTIPS), {}).linkTooltips, false);
    assert.equal(readClientSession(params({}, { hoverShowsLinkTooltips: true }), {}).linkTooltips, false);
  });

  test('a flag is on only when it is true: other values are off', () => {
    const s = readClientSession(params(TOOLTIPS, { hoverShowsDiagnostics: 'yes', hoverShowsLinkTooltips: 1 }), {});
    assert.equal(s.hoverShowsDiagnostics, false);
    assert.equal(s.linkTooltips, false);
  });
});

describe('readClientSession: formats and notifications', () => {
  test('Markdown unless the editor lists formats without it', () => {
    const at = (hover: unknown, documentation: unknown) =>
      readClientSession(
        params({
          textDocument: {
            hover: { contentFormat: hover } as never,
            completion: { completionItem: { documentationFormat: documentation } as never },
          },
        }),
        {},
      );
    assert.deepEqual([defaultSession().hoverMarkdown, defaultSession().completionMarkdown], [true, true]);
    const plain = at(['plaintext'], ['plaintext']);
    assert.deepEqual([plain.hoverMarkdown, plain.completionMarkdown], [false, false]);
    const both = at(['plaintext', 'markdown'], ['markdown']);
    assert.deepEqual([both.hoverMarkdown, both.completionMarkdown], [true, true]);
    const unsaid = at([], undefined);
    assert.deepEqual([unsaid.hoverMarkdown, unsaid.completionMarkdown], [true, true]);
  });

  test('custom status notifications only when asked for, as the extension does', () => {
    assert.equal(defaultSession().statusNotifications, false);
    assert.equal(readClientSession(params({}, { statusNotifications: true }), {}).statusNotifications, true);
    assert.equal(readClientSession(params({}, { statusNotifications: 'true' }), {}).statusNotifications, false);
  });
});
