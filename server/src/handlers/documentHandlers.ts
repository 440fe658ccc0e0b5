/**
 * The LSP requests on documents and the workspace: each routed through the guard to the language
 * service, one line per request.
 */
import type { CompletionItem, CompletionList, Connection, InlayHint } from 'vscode-languageserver';
import type { guardWith } from '../lsp';
import type { CatalogLanguageService } from '../service/languageService';

export function registerDocumentHandlers(
  connection: Connection,
  service: CatalogLanguageService,
  guard: ReturnType<typeof guardWith>,
): void {
  connection.onHover(guard('hover', null, (p, token) => service.doHover(p.textDocument.uri, p.position, token)));
  connection.onCompletion(
    guard('completion', [] as CompletionItem[] | CompletionList, (p, token) =>
      service.doComplete(p.textDocument.uri, p.position, token),
    ),
  );
  connection.onDocumentLinks(guard('documentLinks', [], (p) => service.doLinks(p.textDocument.uri)));
  connection.onCodeAction(guard('codeAction', [], (p) => service.doCodeActions(p)));
  connection.onReferences(guard('references', null, (p) => service.references(p.textDocument.uri, p.position)));
  connection.onDocumentHighlight(
    guard('documentHighlight', null, (p) => service.highlights(p.textDocument.uri, p.position)),
  );
  connection.onDefinition(guard('definition', null, (p) => service.definition(p.textDocument.uri, p.position)));
  connection.onWorkspaceSymbol(guard('workspaceSymbol', [], (p) => service.symbols(p.query)));
  connection.onCodeLens(guard('codeLens', [], (p) => service.codeLenses(p.textDocument.uri)));
  connection.languages.inlayHint.on(
    guard('inlayHint', [] as InlayHint[], (p) => service.inlayHints(p.textDocument.uri, p.range)),
  );
  connection.onPrepareRename(
    guard('prepareRename', null, (p) => service.prepareRename(p.textDocument.uri, p.position)),
  );
  connection.onRenameRequest(
    guard('rename', null, async (p) => {
      const { edit, message } = await service.doRename(p.textDocument.uri, p.position, p.newName);
      // Said whether or not the editor previews the edit (VS Code: Ctrl+Enter in the rename box).
      void connection.window.showInformationMessage(message);
      return edit;
    }),
  );
}
