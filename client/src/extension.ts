/**
 * Catalog Lens for VS Code: starts the language server, keeps the token, shows the connection,
 * and registers the palette and client commands.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { inertText, MESSAGE_LIMIT } from '../../model/src/inertText';
import { registerPaletteCommands } from './paletteCommands';
import type { SkippedFile } from '../../model/src/protocol';
import { CatalogLanguageServer } from './languageClient';
import { LocalCatalog } from './localCatalog';
import { readHandOff } from './localCatalogHandOff';
import { createLog, type Log } from './log';
import { CatalogStatusBar } from './status';
import { TokenStore } from './token';
import { registerWriteCommands } from './clientCommands';
import { registerYamlSync } from './yamlSync';
import { registerLineageView } from './lineageView';
import { registerSearch } from './searchPick';
import { registerLanguageModelTools } from './languageModelTools';
import { writeRunner } from './writes';
import { registerMcpServers } from './mcpServers';

let active: { server: CatalogLanguageServer; localCatalog: LocalCatalog } | undefined;

export function activate(context: vscode.ExtensionContext): void {
  const log = createLog(context);
  log.info(
    `Catalog Lens ${String((context.extension.packageJSON as { version?: unknown }).version)} activating (workspace ${vscode.workspace.isTrusted ? 'trusted' : 'restricted'})`,
  );
  const tokens = new TokenStore(context.secrets, context.globalState, log);
  const status = new CatalogStatusBar();
  const noticeShown = new Set<string>();
  const server = new CatalogLanguageServer(context, log, tokens, {
    onStatus: (s) => status.show(s),
    onSkipped: (file) => showSkippedNotice(file, noticeShown, log),
  });
  const localCatalog = new LocalCatalog(context, log, server, tokens);
  context.subscriptions.push(status);

  const deps = { context, server, tokens, localCatalog, log };
  registerPaletteCommands(deps);
  registerWriteCommands(deps);
  registerLineageView(context, server, log);
  registerSearch(context, server, log);
  registerYamlSync(context, server, log, writeRunner(server, log));
  registerLanguageModelTools(context, server, log, writeRunner(server, log));
  registerMcpServers(context, tokens, log);

  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      // Other settings reach the running server through workspace/didChangeConfiguration.
      if (['url', 'graphqlUrl', 'languages'].some((k) => e.affectsConfiguration(`catalogLens.${k}`))) {
        void server.reconcile('catalog settings changed');
      }
    }),
    tokens.onDidChange((origin) => void server.reconcile(`access token for ${origin} changed`)),
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      status.show(status.current);
      void server.reconcile('workspace trusted');
    }),
  );
  active = { server, localCatalog };
  // The token npm start handed over goes to SecretStorage first, so the server starts with it.
  void storeHandedOffToken(tokens, log).finally(() => void server.reconcile('activation'));
}

/** The local catalog's token from `npm start` (localCatalogHandOff.ts), stored for its origin. */
async function storeHandedOffToken(tokens: TokenStore, log: Log): Promise<void> {
  const handOff = readHandOff(process.env);
  if (handOff.kind === 'none') return;
  if (handOff.kind === 'error') {
    log.warn(`the local catalog's token was not taken over: ${handOff.message}`);
    void vscode.window.showWarningMessage(
      `Catalog Lens: the local catalog's token was not taken over: ${handOff.message}`,
    );
    return;
  }
  try {
    if ((await tokens.get(handOff.origin)) === handOff.token) return;
    await tokens.set(handOff.origin, handOff.token);
    log.info(`took over the token of the local catalog at ${handOff.origin} that npm start started`);
  } catch (e) {
    log.error(`the local catalog's token could not be stored for ${handOff.origin}`, e);
  }
}

export async function deactivate(): Promise<void> {
  const current = active;
  active = undefined;
  if (!current) return;
  await Promise.all([current.server.stop(), current.localCatalog.stop()]);
}

/** One notice per file and session: the server skips files over catalogLens.maxFileSize. */
function showSkippedNotice(file: SkippedFile, shown: Set<string>, log: Log): void {
  log.info(`skipped ${file.uri}: ${file.size} is over catalogLens.maxFileSize (${file.limit})`);
  if (shown.has(file.uri)) return;
  shown.add(file.uri);
  // A file's name is the repository's text: `[x](command:…).py` is a valid name.
  const name = path.posix.basename(vscode.Uri.parse(file.uri).path);
  void vscode.window
    .showInformationMessage(
      inertText(
        `Catalog Lens skipped ${name}: it is ${characters(file.size)}, over catalogLens.maxFileSize (${characters(file.limit)}).`,
        'notification',
        MESSAGE_LIMIT,
      ),
      'Open Setting',
    )
    .then((pick) => {
      if (pick) void vscode.commands.executeCommand('workbench.action.openSettings', 'catalogLens.maxFileSize');
    });
}

/** The server measures documents in characters (text.length), not bytes. */
function characters(n: number): string {
  return `${n.toLocaleString('en-US')} characters`;
}
