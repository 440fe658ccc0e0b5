/**
 * The agent bridge in VS Code: the server's read-only tools (server/src/tools, through
 * `catalogLens/tool`) registered as language model tools, so Copilot's agent mode and chat
 * participants can call them. package.json's `contributes.languageModelTools` declares them (the
 * same schemas: test/client/languageModelTools.test.ts compares them). A VS Code without
 * `vscode.lm.registerTool` registers nothing and activates as before.
 */
import * as vscode from 'vscode';
import { AGENT_TOOLS, ToolRequest, type AgentToolName } from '../../model/src/protocol';
import type { CatalogLanguageServer } from './languageClient';
import type { Log } from './log';

/** The tool's name in VS Code: the server's, under the extension's prefix. */
export const lmToolName = (name: AgentToolName): string => `catalogLens_${name}`;

/** The part of the language model API used here (newer than the VS Code version the extension requires). */
interface LmApi {
  registerTool(
    name: string,
    tool: {
      invoke(options: { input: unknown }, token: vscode.CancellationToken): Promise<unknown>;
    },
  ): vscode.Disposable;
}
interface LmResultApi {
  LanguageModelToolResult: new (parts: unknown[]) => unknown;
  LanguageModelTextPart: new (text: string) => unknown;
}

export function registerLanguageModelTools(
  context: vscode.ExtensionContext,
  server: CatalogLanguageServer,
  log: Log,
): void {
  const api = vscode as unknown as { lm?: Partial<LmApi> } & Partial<LmResultApi>;
  const lm = api.lm;
  if (typeof lm?.registerTool !== 'function' || !api.LanguageModelToolResult || !api.LanguageModelTextPart) {
    log.info('language model tools not registered: this VS Code has no vscode.lm.registerTool');
    return;
  }
  const { LanguageModelToolResult, LanguageModelTextPart } = api as LmResultApi;
  for (const name of AGENT_TOOLS) {
    context.subscriptions.push(
      lm.registerTool.call(lm, lmToolName(name), {
        invoke: async (options, token) => {
          const r = await server.request(ToolRequest, { name, input: options.input ?? {} }, token);
          // A tool error is thrown: VS Code gives its message to the model.
          if (r.error !== undefined) throw new Error(r.error);
          return new LanguageModelToolResult([new LanguageModelTextPart(r.text)]);
        },
      }),
    );
  }
}
