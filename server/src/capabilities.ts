/**
 * What the server answers to `initialize`: its capabilities, from what the editor declared. The
 * server's start (server.ts) writes it before the rest of the server is loaded, so this module
 * imports nothing but the protocol's vocabulary and model's command ids and product version.
 */
import { CodeActionKind, TextDocumentSyncKind, type InitializeResult } from 'vscode-languageserver';
import { ServerCommands } from '../../model/src/commandIds';
import { PRODUCT_VERSION } from '../../model/src/version';
import type { ClientSession } from './clientSession';

/** The kind of the refactorings the server offers (rewrite a URN, add what it names …). */
export const REFACTOR_KIND = `${CodeActionKind.Refactor}.catalogLens`;

/** The `initialize` result for an editor that declared `session`. */
export function initializeResult(session: ClientSession): InitializeResult {
  return {
    capabilities: {
      textDocumentSync: TextDocumentSyncKind.Incremental,
      hoverProvider: true,
      completionProvider: {
        triggerCharacters: [':', '(', ','],
        // Items leave their documentation for completionItem/resolve only for an editor that says
        // it resolves it (VS Code); any other gets them whole, and no resolve.
        ...(session.completionResolveDocumentation ? { resolveProvider: true } : {}),
      },
      documentLinkProvider: { resolveProvider: false },
      codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, REFACTOR_KIND] },
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
