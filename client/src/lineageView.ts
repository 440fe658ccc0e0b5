/**
 * The lineage view: a tree in the Explorer, rooted at one entity, with its upstream and
 * downstream one hop at a time (each row opens onto the next hop the same way), kind, platform and
 * relationship in each row. Rows can be opened in the catalog, inserted at the cursor, copied, or
 * made the root. Opened by **Catalog: Show Lineage** (the URN under the cursor) and by the lineage
 * line of a hover. The server reads the catalog (`catalogLens/lineage`), so any catalog the server
 * reaches works, DataHub included.
 */
import * as vscode from 'vscode';
import { entityName } from '../../model/src/entityNames';
import { inertText, MESSAGE_LIMIT } from '../../model/src/inertText';
import { acceptCatalogUrn } from '../../model/src/insertion';
import { parseUrn } from '../../model/src/urn';
import { LineageRequest, UsagesRequest, type LineageItem } from '../../model/src/protocol';
import { ClientCommands } from '../../model/src/commandIds';
import type { CatalogLanguageServer } from './languageClient';
import { kindLabel, lineageRows, type Direction, type LineageRow } from './lineageRows';
import { insertCatalogUrn } from './insertUrn';
import type { Log } from './log';
import { openEntityPage, reportFailure, urnUnderCursor } from './paletteCommands';

export const LINEAGE_VIEW = 'catalogLens.lineage';
/** Context key set once a lineage is shown (the view itself is always there, in the Catalog Lens view container). */
const VISIBLE = 'catalogLens.lineageVisible';

type Node =
  { kind: 'root'; item: LineageItem } | { kind: 'direction'; of: LineageItem; direction: Direction } | LineageRow;

class LineageTree implements vscode.TreeDataProvider<Node> {
  private root: LineageItem | undefined;
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly server: CatalogLanguageServer) {}

  show(item: LineageItem): void {
    this.root = item;
    this.changed.fire(undefined);
  }

  get current(): LineageItem | undefined {
    return this.root;
  }

  getTreeItem(node: Node): vscode.TreeItem {
    switch (node.kind) {
      case 'root': {
        const t = new vscode.TreeItem(
          inertText(node.item.name, 'plain', 120),
          vscode.TreeItemCollapsibleState.Expanded,
        );
        t.description = kindLabel(node.item.kind);
        t.tooltip = inertText(node.item.urn, 'plain', 1000);
        t.contextValue = 'catalogLens.lineageEntity';
        t.iconPath = new vscode.ThemeIcon('type-hierarchy');
        return t;
      }
      case 'direction': {
        const t = new vscode.TreeItem(
          node.direction === 'upstream' ? 'Upstream' : 'Downstream',
          vscode.TreeItemCollapsibleState.Expanded,
        );
        t.iconPath = new vscode.ThemeIcon(node.direction === 'upstream' ? 'arrow-up' : 'arrow-down');
        return t;
      }
      case 'entity': {
        const t = new vscode.TreeItem(
          node.label,
          node.expandable ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
        );
        t.description = node.description;
        t.tooltip = node.tooltip;
        t.contextValue = 'catalogLens.lineageEntity';
        t.iconPath = new vscode.ThemeIcon(node.item.kind === 'dataset' ? 'database' : 'symbol-class');
        return t;
      }
      case 'note':
        return Object.assign(new vscode.TreeItem(node.label), node.tooltip ? { tooltip: node.tooltip } : {});
    }
  }

  async getChildren(node?: Node): Promise<Node[]> {
    if (!node) return this.root ? [{ kind: 'root', item: this.root }] : [];
    if (node.kind === 'root')
      return [
        { kind: 'direction', of: node.item, direction: 'upstream' },
        { kind: 'direction', of: node.item, direction: 'downstream' },
      ];
    if (node.kind === 'direction') return this.hop(node.of, node.direction, 1);
    if (node.kind === 'entity' && node.expandable) return this.hop(node.item, node.direction, node.degree + 1);
    return [];
  }

  private async hop(of: LineageItem, direction: Direction, degree: number): Promise<Node[]> {
    const uri = vscode.window.activeTextEditor?.document.uri;
    const result = await this.server.request(LineageRequest, {
      urn: of.urn,
      direction,
      ...(uri ? { uri: await this.server.protocolUri(uri) } : {}),
    });
    return lineageRows(result, direction, degree);
  }
}

/** The entity a command was given: a row of the view, `{urn}` from a hover link, or the URN under the cursor. */
/**
 * The entity a command is about: from a view row or a search row (an object holding a URN), or
 * the URN under the cursor. An argument can come from a hover's command link, whose arguments are
 * whatever the link says: only a URN that parses as a well-formed URN is taken from it, and the
 * name and kind shown are rebuilt from that URN, never read from the argument.
 */
async function entityOf(arg: unknown, server: CatalogLanguageServer): Promise<LineageItem | undefined> {
  if (arg && typeof arg === 'object') {
    const a = arg as { item?: unknown; urn?: unknown };
    const urn = a.item && typeof a.item === 'object' ? (a.item as { urn?: unknown }).urn : a.urn;
    return acceptCatalogUrn(urn).ok ? itemOfUrn(urn as string) : undefined;
  }
  const at = await urnUnderCursor(server);
  return at ? itemOfUrn(at.urn, at.kind) : undefined;
}

function itemOfUrn(urn: string, kind?: string): LineageItem {
  const parsed = parseUrn(urn);
  return {
    urn,
    kind:
      kind ??
      (!parsed.ok ? 'entity' : parsed.urn.kind === 'other' ? parsed.urn.entityType.toLowerCase() : parsed.urn.kind),
    name: parsed.ok ? entityName(parsed.urn) : urn,
    relationship: '',
  };
}

export function registerLineageView(context: vscode.ExtensionContext, server: CatalogLanguageServer, log: Log): void {
  const tree = new LineageTree(server);
  const view = vscode.window.createTreeView(LINEAGE_VIEW, { treeDataProvider: tree, showCollapseAll: true });
  const register = (id: string, run: (arg: unknown) => Promise<unknown>): void => {
    context.subscriptions.push(
      vscode.commands.registerCommand(id, (arg: unknown) => run(arg).catch((e: unknown) => reportFailure(log, id, e))),
    );
  };
  context.subscriptions.push(view);

  register(ClientCommands.showLineage, async (arg) => {
    const item = await entityOf(arg, server);
    if (!item) {
      void vscode.window.showInformationMessage(
        'Catalog Lens: put the cursor on a dataset or ML URN to show its lineage.',
      );
      return;
    }
    tree.show(item);
    // The header says whose lineage it is (VS Code capitalises a view's title, not its description).
    view.description = inertText(item.name, 'plain', 60);
    await vscode.commands.executeCommand('setContext', VISIBLE, true);
    await vscode.commands.executeCommand(`${LINEAGE_VIEW}.focus`);
    log.info(`lineage of ${item.urn}`);
  });

  register(ClientCommands.lineageOpenInCatalog, async (arg) => {
    const item = await entityOf(arg, server);
    if (!item) return;
    await openEntityPage(server, item.urn, vscode.window.activeTextEditor?.document.uri, log);
  });

  register(ClientCommands.lineageInsertUrn, async (arg) => {
    const item = await entityOf(arg, server);
    const editor = vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors[0];
    if (!item || !editor) {
      void vscode.window.showInformationMessage('Catalog Lens: open an editor to insert the URN into.');
      return;
    }
    await insertCatalogUrn(editor, item.urn, log);
  });

  register(ClientCommands.lineageCopyUrn, async (arg) => {
    const item = await entityOf(arg, server);
    if (!item) return;
    await vscode.env.clipboard.writeText(item.urn);
    vscode.window.setStatusBarMessage(`Catalog Lens: copied ${inertText(item.name, 'plain', 80)}`, 3000);
  });

  register(ClientCommands.lineageShowUsages, async (arg) => {
    const item = await entityOf(arg, server);
    if (!item) return;
    await showUsages(server, item);
  });

  register(ClientCommands.lineageRefresh, async () => {
    const root = tree.current;
    if (root) tree.show(root);
  });
}

/** Most places the usages pick lists (each row reads its line from the file). */
const USAGES_SHOWN = 200;

/**
 * Where the entity is named in the workspace (the server's workspace index, `catalogLens/usages`),
 * as a quick pick: file, line and the line's text in each row; the highlighted row is previewed,
 * Enter opens it at the URN.
 */
async function showUsages(server: CatalogLanguageServer, item: LineageItem): Promise<void> {
  const name = inertText(item.name, 'plain', 80);
  const result = await server.request(UsagesRequest, { urn: item.urn });
  if (result.error !== undefined) {
    void vscode.window.showWarningMessage(inertText(`Catalog Lens: ${result.error}`, 'notification', MESSAGE_LIMIT));
    return;
  }
  if (result.places.length === 0) {
    void vscode.window.showInformationMessage(`Catalog Lens: no file of the workspace names ${name}.`);
    return;
  }
  const lines = new Map<string, string[]>();
  type Row = vscode.QuickPickItem & { uri: vscode.Uri; range: vscode.Range };
  const rows: Row[] = [];
  for (const place of result.places.slice(0, USAGES_SHOWN)) {
    const uri = await server.codeUri(place.uri);
    let text = lines.get(place.uri);
    if (!text) {
      const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
      text = open
        ? open.getText().split(/\r?\n/)
        : Buffer.from(await vscode.workspace.fs.readFile(uri).then(undefined, () => new Uint8Array()))
            .toString('utf8')
            .split(/\r?\n/);
      lines.set(place.uri, text);
    }
    const { start, end } = place.range;
    rows.push({
      label: `${inertText(vscode.workspace.asRelativePath(uri), 'quickInput', 200)}:${start.line + 1}`,
      description: place.entry ? 'docs-as-code entry' : '',
      detail: inertText((text[start.line] ?? '').trim(), 'quickInput', 200),
      uri,
      range: new vscode.Range(start.line, start.character, end.line, end.character),
    });
  }
  const pick = vscode.window.createQuickPick<Row>();
  const more = result.places.length - rows.length;
  pick.title = `Catalog: ${name} is named in ${result.places.length} place${result.places.length === 1 ? '' : 's'} of ${result.files} file${result.files === 1 ? '' : 's'}${more > 0 ? ` (the first ${rows.length} listed)` : ''}`;
  pick.placeholder = 'Filter by file or line';
  pick.matchOnDetail = true;
  pick.items = rows;
  const reveal = async (row: Row, preview: boolean): Promise<void> => {
    const editor = await vscode.window.showTextDocument(row.uri, {
      preview,
      preserveFocus: preview,
      selection: row.range,
    });
    editor.revealRange(row.range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  };
  pick.onDidChangeActive((active) => {
    if (active[0]) void reveal(active[0], true).catch(() => undefined);
  });
  pick.onDidAccept(() => {
    const row = pick.selectedItems[0];
    pick.hide();
    if (row) void reveal(row, false);
  });
  pick.onDidHide(() => pick.dispose());
  pick.show();
}
