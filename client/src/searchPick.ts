/**
 * "Catalog: Search…": a quick pick that searches the catalog across entity
 * types as you type (the server's `catalogLens/search`: DataHub's searchAcrossEntities, so DataHub
 * and the local catalog alike). Each row: the name, kind and platform, and the description's words. Enter
 * inserts the URN at the cursor (or copies it when no editor is open); the row's buttons open the
 * entity's page in the catalog or copy its URN. Typing waits SEARCH_DEBOUNCE_MS for a pause, and a
 * newer query cancels the older one's request.
 */
import * as vscode from 'vscode';
import { inertText, markdownWords } from '../../model/src/inertText';
import { insertCatalogUrn } from './insertUrn';
import { SearchRequest, type SearchItem } from '../../model/src/protocol';
import { ClientCommands } from '../../model/src/commandIds';
import type { CatalogLanguageServer } from './languageClient';
import { kindLabel } from './lineageRows';
import type { Log } from './log';
import { reportFailure } from './paletteCommands';

export const SEARCH_DEBOUNCE_MS = 150;

const ICONS: Readonly<Record<string, string>> = {
  dataset: 'database',
  mlFeature: 'symbol-field',
  mlFeatureTable: 'table',
  mlModel: 'symbol-class',
  mlModelGroup: 'folder-library',
};

interface Row extends vscode.QuickPickItem {
  item?: SearchItem;
}

/** The row buttons, made once VS Code runs (the module is also loaded outside it, by the package check). */
let buttons: { open: vscode.QuickInputButton; copy: vscode.QuickInputButton } | undefined;
function rowButtons(): { open: vscode.QuickInputButton; copy: vscode.QuickInputButton } {
  return (buttons ??= {
    open: { iconPath: new vscode.ThemeIcon('link-external'), tooltip: 'Open in Catalog' },
    copy: { iconPath: new vscode.ThemeIcon('copy'), tooltip: 'Copy URN' },
  });
}

/** A row of one entity found. */
export function rowOf(item: SearchItem): Row {
  const { open, copy } = rowButtons();
  return {
    label: `$(${ICONS[item.kind] ?? 'symbol-misc'}) ${inertText(item.name, 'quickInput', 120)}`,
    description: inertText([kindLabel(item.kind), item.platform].filter(Boolean).join(' · '), 'quickInput', 120),
    // A description is Markdown: the row shows its words on one line.
    ...(item.description ? { detail: inertText(markdownWords(item.description), 'quickInput', 200) } : {}),
    // The quick pick's own filter would hide rows the catalog matched on their description.
    alwaysShow: true,
    buttons: [open, copy],
    item,
  };
}

export function registerSearch(context: vscode.ExtensionContext, server: CatalogLanguageServer, log: Log): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(ClientCommands.search, () =>
      searchPick(server, log).catch((e: unknown) => reportFailure(log, ClientCommands.search, e)),
    ),
  );
}

async function searchPick(server: CatalogLanguageServer, log: Log): Promise<void> {
  const pick = vscode.window.createQuickPick<Row>();
  pick.title = 'Catalog: Search';
  pick.placeholder = 'Search datasets, features, feature tables, models and model groups by name or description';
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  const editor = vscode.window.activeTextEditor;
  let timer: NodeJS.Timeout | undefined;
  let running: vscode.CancellationTokenSource | undefined;
  const run = async (query: string): Promise<void> => {
    running?.cancel();
    const cts = (running = new vscode.CancellationTokenSource());
    pick.busy = true;
    try {
      const uri = editor?.document.uri.toString();
      const r = await server.request(SearchRequest, { query, ...(uri ? { uri } : {}) }, cts.token);
      if (cts.token.isCancellationRequested) return;
      if (r.error !== undefined) {
        pick.items = [{ label: `$(warning) ${inertText(r.error, 'quickInput', 300)}`, alwaysShow: true }];
        return;
      }
      pick.items =
        r.items.length > 0
          ? r.items.map(rowOf)
          : [{ label: `Nothing in the catalog matches “${inertText(query, 'quickInput', 80)}”`, alwaysShow: true }];
      pick.title = `Catalog: Search — ${r.total > r.items.length ? `${r.items.length} of ${r.total}` : r.items.length} found`;
    } catch (e) {
      if (!cts.token.isCancellationRequested) throw e;
    } finally {
      if (running === cts) {
        pick.busy = false;
        running = undefined;
      }
      cts.dispose();
    }
  };
  pick.onDidChangeValue((value) => {
    clearTimeout(timer);
    // Until the answer comes, the rows are the previous query's: the title says so.
    pick.title = 'Catalog: Search — searching…';
    timer = setTimeout(() => void run(value), SEARCH_DEBOUNCE_MS);
  });
  pick.onDidTriggerItemButton(async ({ item, button }) => {
    if (!item.item) return;
    const urn = item.item.urn;
    if (button === rowButtons().open)
      await vscode.commands.executeCommand(ClientCommands.lineageOpenInCatalog, { urn });
    else await vscode.commands.executeCommand(ClientCommands.lineageCopyUrn, { urn });
  });
  const accepted = new Promise<Row | undefined>((resolve) => {
    pick.onDidAccept(() => {
      const row = pick.selectedItems[0];
      if (row?.item) resolve(row);
    });
    pick.onDidHide(() => resolve(undefined));
  });
  pick.show();
  // Before anything is typed: what the catalog has (the first page).
  await run('');
  const row = await accepted;
  clearTimeout(timer);
  running?.cancel();
  pick.dispose();
  if (!row?.item) return;
  if (editor && !editor.document.isClosed) {
    await vscode.window.showTextDocument(editor.document, editor.viewColumn);
    await insertCatalogUrn(editor, row.item.urn, log);
  } else {
    await vscode.commands.executeCommand(ClientCommands.lineageCopyUrn, { urn: row.item.urn });
  }
}
