/**
 * The agent bridge's MCP server offered to VS Code's own MCP support (its MCP server definition
 * API, `vscode.lm.registerMcpServerDefinitionProvider`, with package.json's
 * `contributes.mcpServerDefinitionProviders`): one `catalog-lens mcp <folder>` per workspace folder
 * on disk, run by VS Code's Node (the extension's bin), read-only (no --allow-writes), with the
 * folder's catalog settings. The token is added only when VS Code starts the server
 * (resolveMcpServerDefinition), for the catalog's origin, from SecretStorage. A VS Code without the
 * API offers nothing and activates as before.
 */
import * as vscode from 'vscode';
import { originOf } from '../../model/src/origin';
import { PRODUCT_VERSION } from '../../model/src/version';
import type { Log } from './log';
import type { TokenStore } from './token';

/** The provider's id: package.json `contributes.mcpServerDefinitionProviders[0].id`. */
export const MCP_PROVIDER_ID = 'catalogLens.mcpServers';

interface StdioDefinition {
  label: string;
  command: string;
  args: string[];
  env: Record<string, string | number | null>;
  cwd?: vscode.Uri;
}
interface McpApi {
  registerMcpServerDefinitionProvider(
    id: string,
    provider: {
      onDidChangeMcpServerDefinitions?: vscode.Event<void>;
      provideMcpServerDefinitions(token: vscode.CancellationToken): StdioDefinition[];
      resolveMcpServerDefinition?(server: StdioDefinition, token: vscode.CancellationToken): Promise<StdioDefinition>;
    },
  ): vscode.Disposable;
}
type StdioConstructor = new (
  label: string,
  command: string,
  args?: string[],
  env?: Record<string, string | number | null>,
  version?: string,
) => StdioDefinition;

export function registerMcpServers(context: vscode.ExtensionContext, tokens: TokenStore, log: Log): void {
  const api = vscode as unknown as { lm?: Partial<McpApi>; McpStdioServerDefinition?: StdioConstructor };
  const lm = api.lm;
  const Definition = api.McpStdioServerDefinition;
  if (typeof lm?.registerMcpServerDefinitionProvider !== 'function' || !Definition) {
    log.info('MCP server not offered to VS Code: this VS Code has no MCP server definition API');
    return;
  }
  const changed = new vscode.EventEmitter<void>();
  const bin = context.asAbsolutePath('bin/catalog-lens.js');
  context.subscriptions.push(
    changed,
    vscode.workspace.onDidChangeWorkspaceFolders(() => changed.fire()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('catalogLens.url') || e.affectsConfiguration('catalogLens.graphqlUrl')) changed.fire();
    }),
    lm.registerMcpServerDefinitionProvider.call(lm, MCP_PROVIDER_ID, {
      onDidChangeMcpServerDefinitions: changed.event,
      provideMcpServerDefinitions: () =>
        (vscode.workspace.workspaceFolders ?? [])
          .filter((f) => f.uri.scheme === 'file')
          .map((folder) => {
            const settings = vscode.workspace.getConfiguration('catalogLens', folder.uri);
            const url = settings.get<string>('url', '').trim();
            const graphqlUrl = settings.get<string>('graphqlUrl', '').trim();
            const definition = new Definition(
              `Catalog Lens: ${folder.name}`,
              process.execPath,
              [bin, 'mcp', folder.uri.fsPath],
              {
                // VS Code's own executable runs the bin as Node.
                ELECTRON_RUN_AS_NODE: '1',
                ...(url ? { CATALOG_LENS_URL: url } : {}),
                ...(graphqlUrl ? { CATALOG_LENS_GRAPHQL_URL: graphqlUrl } : {}),
              },
              PRODUCT_VERSION,
            );
            definition.cwd = folder.uri;
            return definition;
          }),
      resolveMcpServerDefinition: async (server) => {
        const url = typeof server.env['CATALOG_LENS_URL'] === 'string' ? server.env['CATALOG_LENS_URL'] : undefined;
        const origin = url ? originOf(url) : undefined;
        const token = origin ? await tokens.get(origin) : undefined;
        if (token) server.env = { ...server.env, CATALOG_LENS_TOKEN: token };
        return server;
      },
    }),
  );
  log.info('MCP server offered to VS Code for each workspace folder (read-only)');
}
