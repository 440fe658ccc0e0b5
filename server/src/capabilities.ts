/**
 * What the server answers to `initialize`: its capabilities, from what the editor declared. The
 * server's start (server.ts) writes it before the rest of the server is loaded, and over stdio
 * dist/server.js writes it before the LSP library is even loaded (earlyInitialize.ts): so this
 * module takes only types from the library (its constants are written out here, typed by it) and
 * imports nothing but model's command ids and product version.
 */
import type { CodeActionKind, InitializeResult, TextDocumentSyncKind } from 'vscode-languageserver';
import { ServerCommands } from '../../model/src/commandIds';
import { PRODUCT_VERSION } from '../../model/src/version';
import type { ClientSession } from './clientSession';

/** The library's `TextDocumentSyncKind.Incremental`, `CodeActionKind.QuickFix` and `.Refactor` (their types check the values). */
const INCREMENTAL: typeof TextDocumentSyncKind.Incremental = 2;
const QUICK_FIX: typeof CodeActionKind.QuickFix = 'quickfix';
const REFACTOR: typeof CodeActionKind.Refactor = 'refactor';

/** The kind of the refactorings the server offers (rewrite a URN, add what it names …). */
export const REFACTOR_KIND = `${REFACTOR}.catalogLens`;

/** The `initialize` result for an editor that declared `session`. */
export function initializeResult(session: ClientSession): InitializeResult {
  return {
    capabilities: {
      textDocumentSync: INCREMENTAL,
      hoverProvider: true,
      completionProvider: {
        triggerCharacters: [':', '(', ','],
        // Items leave their documentation for completionItem/resolve only for an editor that says
        // it resolves it (VS Code); any other gets them whole, and no resolve.
        ...(session.completionResolveDocumentation ? { resolveProvider: true } : {}),
      },
      documentLinkProvider: { resolveProvider: false },
      codeActionProvider: { codeActionKinds: [QUICK_FIX, REFACTOR_KIND] },
      executeCommandProvider: { commands: Object.values(ServerCommands) },
      referencesProvider: true,
      documentHighlightProvider: true,
      definitionProvider: true,
      workspaceSymbolProvider: true,
      renameProvider: { prepareProvider: true },
      codeLensProvider: { resolveProvider: false },
      // Offered only to an editor that declares inlay hints (textDocument.inlayHint).
      ...(session.inlayHints ? { inlayHintProvider: { resolveProvider: false } } : {}),
      workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
    },
    serverInfo: { name: 'catalog-lens-server', version: PRODUCT_VERSION },
  };
}
