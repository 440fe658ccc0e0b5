/**
 * The LSP requests on documents and the workspace: each routed through the guard to the language
 * service, one line per request.
 */
import type {
  CompletionItem,
  CompletionList,
  Connection,
  InlayHint,
  TextDocuments,
  TextEdit,
  WorkspaceEdit,
} from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { guardWith } from '../lsp';
import type { CatalogLanguageService } from '../service/languageService';

export function registerDocumentHandlers(
  connection: Connection,
  service: CatalogLanguageService,
  guard: ReturnType<typeof guardWith>,
  documents?: TextDocuments<TextDocument>,
): void {
  // A rename's message waits for its edit to be applied: VS Code may show the edit in its Refactor
  // Preview first, where it can be discarded. The first edit in the renamed document, found there
  // with its new text, says it was applied; a later rename replaces the wait.
  let pending: { uri: string; offset: number; text: string; message: string } | undefined;
  documents?.onDidChangeContent(({ document }) => {
    if (!pending || document.uri !== pending.uri) return;
    if (document.getText().slice(pending.offset, pending.offset + pending.text.length) !== pending.text) return;
    const { message } = pending;
    pending = undefined;
    void connection.window.showInformationMessage(message);
  });
  connection.onHover(guard('hover', null, (p, token) => service.doHover(p.textDocument.uri, p.position, token)));
  connection.onCompletion(
    guard('completion', [] as CompletionItem[] | CompletionList, (p, token) =>
      service.doComplete(p.textDocument.uri, p.position, token),
    ),
  );
  // A resolve that fails answers the item as it came.
  connection.onCompletionResolve((item, token) =>
    guard('completionResolve', item, async (p: CompletionItem) => service.resolveCompletion(p))(item, token),
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
      const doc = documents?.get(p.textDocument.uri);
      const first = doc ? firstEditIn(edit, p.textDocument.uri) : undefined;
      if (doc && first) {
        pending = { uri: doc.uri, offset: doc.offsetAt(first.range.start), text: first.newText, message };
      } else {
        pending = undefined;
        void connection.window.showInformationMessage(message);
      }
      return edit;
    }),
  );
}

/** The edit of `edit` that starts first in document `uri`. */
function firstEditIn(edit: WorkspaceEdit, uri: string): TextEdit | undefined {
  const edits: TextEdit[] = [
    ...(edit.changes?.[uri] ?? []),
    ...(edit.documentChanges ?? []).flatMap((c) =>
      'textDocument' in c && c.textDocument.uri === uri ? c.edits.filter((e): e is TextEdit => 'newText' in e) : [],
    ),
  ];
  const before = (a: TextEdit, b: TextEdit): boolean =>
    a.range.start.line < b.range.start.line ||
    (a.range.start.line === b.range.start.line && a.range.start.character < b.range.start.character);
  return edits.reduce<TextEdit | undefined>((best, e) => (!best || before(e, best) ? e : best), undefined);
}
