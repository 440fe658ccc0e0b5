/**
 * Palette commands of the client (category "Catalog"). Server commands are registered by
 * vscode-languageclient itself; these call them through `workspace/executeCommand`.
 */
import * as vscode from 'vscode';
import { inertText, MESSAGE_LIMIT } from '../../model/src/inertText';
import { isRecord } from '../../model/src/json';
import { originOf } from '../../model/src/origin';
import { EntityPageRequest, UrnAtRequest, type UrnAt } from '../../model/src/protocol';
import { ClientCommands, ServerCommands } from '../../model/src/commandIds';
import type { CatalogLanguageServer } from './languageClient';
import type { LocalCatalog } from './localCatalog';
import { describeError, type Log } from './log';
import { askAccessToken, askCatalogUrl } from './pickers';
import { connectionFixes } from './statusView';
import type { TokenStore } from './token';

export interface CommandDeps {
  context: vscode.ExtensionContext;
  server: CatalogLanguageServer;
  tokens: TokenStore;
  localCatalog: LocalCatalog;
  log: Log;
}

export function registerPaletteCommands(deps: CommandDeps): void {
  const { context, server, tokens, localCatalog, log } = deps;
  const register = (id: string, run: (arg?: unknown) => Promise<unknown>): void => {
    context.subscriptions.push(
      vscode.commands.registerCommand(id, (arg?: unknown) => run(arg).catch((e: unknown) => reportFailure(log, id, e))),
    );
  };

  register(ClientCommands.setAccessToken, async () => {
    const origin = originOf(catalogSettings().get<string>('url', ''));
    if (!origin) {
      const pick = await vscode.window.showWarningMessage(
        'Catalog Lens: configure the catalog URL first; the token is stored for that catalog only.',
        'Configure Catalog',
      );
      if (pick) await vscode.commands.executeCommand(ClientCommands.configure);
      return;
    }
    const token = await askAccessToken(origin);
    if (!token) return false;
    await tokens.set(origin, token);
    await server.reconcile(`access token set for ${origin}`);
    void vscode.window.showInformationMessage(`Catalog Lens: access token stored for ${origin}.`);
    // True: a token was stored (a failed write that offered this command runs again).
    return true;
  });

  register(ClientCommands.clearAccessToken, async () => {
    const origin = originOf(catalogSettings().get<string>('url', ''));
    if (!origin) {
      void vscode.window.showInformationMessage(
        'Catalog Lens: no catalog is configured, so no access token is in use.',
      );
      return;
    }
    const had = await tokens.clear(origin);
    await server.reconcile(`access token cleared for ${origin}`);
    void vscode.window.showInformationMessage(
      had
        ? `Catalog Lens: access token for ${origin} removed.`
        : `Catalog Lens: no access token was stored for ${origin}.`,
    );
  });

  register(ClientCommands.configure, async () => {
    const cfg = catalogSettings();
    const url = await askCatalogUrl('catalog', cfg.get<string>('url', ''), 1);
    if (url === undefined) return false;
    const graphqlUrl = await askCatalogUrl('graphql', cfg.get<string>('graphqlUrl', ''), 2);
    if (graphqlUrl === undefined) return false;
    // Endpoint settings are machine-scoped: user settings, never a workspace's, so a cloned project
    // cannot send the token to a host of its choosing.
    await cfg.update('url', url, vscode.ConfigurationTarget.Global);
    await cfg.update('graphqlUrl', graphqlUrl, vscode.ConfigurationTarget.Global);
    log.info(`catalog configured: url ${url}${graphqlUrl ? `, graphqlUrl ${graphqlUrl}` : ''}`);
    await server.reconcile('catalog configured');
    await testConnection(server, url);
    // True: the catalog was configured (a failed write that offered this command runs again).
    return true;
  });

  register(ClientCommands.startLocalCatalog, () => localCatalog.start());

  register(ClientCommands.runCheckWorkspace, async () => {
    if (!vscode.workspace.workspaceFolders?.length) {
      void vscode.window.showInformationMessage('Catalog Lens: open a folder to check its files.');
      return;
    }
    const r = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: 'Catalog Lens: checking the workspace…',
        cancellable: true,
      },
      (_progress, token) => server.executeServerCommand(ServerCommands.checkWorkspace, {}, token),
    );
    const skipped = r.skipped
      ? `, ${r.skipped} file${r.skipped === 1 ? '' : 's'} skipped (over catalogLens.maxFileSize)`
      : '';
    const text = `${r.cancelled ? 'Check cancelled after' : 'Checked'} ${r.files} file${r.files === 1 ? '' : 's'}: ${r.urns} distinct URN${r.urns === 1 ? '' : 's'} looked up, ${r.diagnostics} problem${r.diagnostics === 1 ? '' : 's'}${skipped}.`;
    log.info(`check workspace: ${text}`);
    const pick = await vscode.window.showInformationMessage(
      `Catalog Lens: ${text}`,
      ...(r.diagnostics > 0 ? ['Show Problems'] : []),
    );
    if (pick) await vscode.commands.executeCommand('workbench.actions.view.problems');
  });

  register(ClientCommands.runRefresh, async () => {
    const r = await server.executeServerCommand(ServerCommands.refresh, {});
    const n = r.refreshed ?? 0;
    vscode.window.setStatusBarMessage(
      `$(refresh) Catalog Lens: cache dropped, re-checking ${n} open document${n === 1 ? '' : 's'}`,
      4000,
    );
  });

  register(ClientCommands.openInCatalog, async () => {
    const at = await urnUnderCursor(server);
    const editor = vscode.window.activeTextEditor;
    if (!at || !editor) {
      void vscode.window.showInformationMessage('Catalog Lens: put the cursor on a URN to open it in the catalog.');
      return;
    }
    await openEntityPage(server, at.urn, editor.document.uri, log);
  });

  register(ClientCommands.restartServer, async () => {
    await server.reconcile('restart requested', true);
    vscode.window.setStatusBarMessage('Catalog Lens: language server restarted', 4000);
  });

  register(ClientCommands.showOutput, async () => log.show());

  register(ClientCommands.retryConnection, async () => {
    const url = catalogSettings().get<string>('url', '');
    log.info('connection retry requested');
    await testConnection(server, url || 'the catalog');
  });

  // The "used in N files" code lens: VS Code's references peek at the URN, from the server's references.
  register(ClientCommands.showReferences, async (arg) => {
    const a = isRecord(arg) ? arg : {};
    const at = isRecord(a['position']) ? a['position'] : {};
    const line = at['line'];
    const character = at['character'];
    if (typeof a['uri'] !== 'string' || typeof line !== 'number' || typeof character !== 'number') return;
    const uri = await server.codeUri(a['uri']);
    const position = new vscode.Position(line, character);
    const locations = await vscode.commands.executeCommand<vscode.Location[]>(
      'vscode.executeReferenceProvider',
      uri,
      position,
    );
    await vscode.commands.executeCommand('editor.action.showReferences', uri, position, locations ?? []);
  });

  // VS Code's own Workspace Trust editor: Catalog Lens writes nothing until the user trusts the folder there.
  register(ClientCommands.manageTrust, async () => {
    await vscode.commands.executeCommand('workbench.trust.manage');
  });
}

/** The URN at the cursor of the active editor, as the server finds it; undefined when there is none. */
export async function urnUnderCursor(server: CatalogLanguageServer): Promise<UrnAt | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return undefined;
  const position = editor.selection.active;
  const at = await server.request(UrnAtRequest, {
    textDocument: { uri: await server.protocolUri(editor.document.uri) },
    position: { line: position.line, character: position.character },
  });
  return at ?? undefined;
}

export function catalogSettings(scope?: vscode.Uri): vscode.WorkspaceConfiguration {
  return vscode.workspace.getConfiguration('catalogLens', scope);
}

async function testConnection(server: CatalogLanguageServer, url: string): Promise<void> {
  const r = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: inertText(`Catalog Lens: testing the connection to ${url}…`, 'notification', MESSAGE_LIMIT),
    },
    () => server.executeServerCommand(ServerCommands.testConnection, {}),
  );
  if (r.ok) {
    void vscode.window.showInformationMessage(
      inertText(`Catalog Lens: connected${r.endpoint ? ` to ${r.endpoint}` : ''}.`, 'notification', MESSAGE_LIMIT),
    );
    return;
  }
  // A catalog that is down or not answering is retried, not reconfigured: the address is usually right.
  const fixes = connectionFixes(r.state);
  const pick = await vscode.window.showWarningMessage(
    inertText(`Catalog Lens: the connection test failed: ${r.message}`, 'notification', MESSAGE_LIMIT),
    ...fixes,
  );
  if (pick === 'Set Access Token') await vscode.commands.executeCommand(ClientCommands.setAccessToken);
  else if (pick === 'Configure Catalog') await vscode.commands.executeCommand(ClientCommands.configure);
  else if (pick === 'Retry') await vscode.commands.executeCommand(ClientCommands.retryConnection);
  else if (pick === 'Show Log' || pick === 'Show Output') server.showServerOutput();
}

export function reportFailure(log: Log, command: string, e: unknown): void {
  if (isCancellation(e)) {
    log.info(`${command} cancelled`);
    return;
  }
  log.error(`${command} failed`, e);
  void vscode.window
    .showErrorMessage(inertText(`Catalog Lens: ${describeError(e)}`, 'notification', MESSAGE_LIMIT), 'Show Output')
    .then((pick) => {
      if (pick) log.show();
    });
}

/** The user cancelled (a progress notification's Cancel): nothing to report. */
export function isCancellation(e: unknown): boolean {
  return (
    e instanceof vscode.CancellationError ||
    (typeof e === 'object' && e !== null && (e as { code?: unknown }).code === LSP_REQUEST_CANCELLED)
  );
}

const LSP_REQUEST_CANCELLED = -32800;

/**
 * Opens the entity's page in the catalog's web UI: the page the server's hover and document links
 * open (`catalogLens/entityPage`: the same settings and the same fallback to DataHub's CLI
 * configuration), or a warning saying why there is none.
 */
export async function openEntityPage(
  server: CatalogLanguageServer,
  urn: string,
  scope: vscode.Uri | undefined,
  log: Log,
): Promise<void> {
  const page = await server.request(EntityPageRequest, {
    urn,
    ...(scope ? { uri: await server.protocolUri(scope) } : {}),
  });
  if ('error' in page) {
    // The error may quote the page URL, made from the URN in the file.
    void vscode.window.showWarningMessage(inertText(`Catalog Lens: ${page.error}`, 'notification', MESSAGE_LIMIT));
    return;
  }
  log.info(`opening ${page.url}`);
  await vscode.env.openExternal(vscode.Uri.parse(page.url, true));
}
