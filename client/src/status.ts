/** The connection status bar item (left): state from `catalogLens/status`, a click runs the fix. */
import * as vscode from 'vscode';
import { statusView, type ClientStatus } from './statusView';

export class CatalogStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('catalogLens.status', vscode.StatusBarAlignment.Left, 50);
  private last: ClientStatus = { state: 'checking', message: 'starting the language server' };

  constructor() {
    this.item.name = 'Catalog Lens';
    this.show(this.last);
    this.item.show();
  }

  get current(): ClientStatus {
    return this.last;
  }

  show(status: ClientStatus): void {
    this.last = status;
    const view = statusView(status, vscode.workspace.isTrusted);
    this.item.text = view.text;
    // A plain string: the message may hold text from the catalog, which must not become Markdown.
    this.item.tooltip = view.tooltip;
    this.item.command = view.command;
    this.item.backgroundColor =
      view.background === 'error'
        ? new vscode.ThemeColor('statusBarItem.errorBackground')
        : view.background === 'warning'
          ? new vscode.ThemeColor('statusBarItem.warningBackground')
          : undefined;
    this.item.accessibilityInformation = { label: `Catalog Lens: ${view.tooltip.split('\n')[0] ?? ''}` };
  }

  dispose(): void {
    this.item.dispose();
  }
}
