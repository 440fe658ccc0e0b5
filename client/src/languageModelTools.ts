/**
 * The agent bridge in VS Code: the server's read-only tools (server/src/tools, through
 * `catalogLens/tool`) registered as language model tools, so Copilot's agent mode and chat
 * participants can call them. package.json's `contributes.languageModelTools` declares them (the
 * same schemas: test/client/languageModelTools.test.ts compares them). A VS Code without
 * `vscode.lm.registerTool` registers nothing and activates as before.
 *
 * The write tools (set_description, add_link, append_members) write only while the user's or the
 * machine's `catalogLens.agentTools.writes` is on (a workspace's value is not read); package.json
 * hides them behind it where VS Code reads a tool's `when`. Each asks the user to confirm before it
 * runs (prepareInvocation's confirmationMessages), then runs through the extension's write path
 * (writes.ts: progress, result message, Undo); while the setting is off each refuses with why.
 */
import * as vscode from 'vscode';
import {
  AGENT_WRITE_TOOLS,
  agentWriteOf,
  agentWritePreparation,
  type AgentWriteToolName,
} from '../../model/src/agentWrites';
import { inertText, MESSAGE_LIMIT } from '../../model/src/inertText';
import { AGENT_TOOLS, ToolRequest, type AgentToolName } from '../../model/src/protocol';
import type { CatalogLanguageServer } from './languageClient';
import type { Log } from './log';
import type { WriteRunner } from './writes';

/** The tool's name in VS Code: the server's, under the extension's prefix. */
export const lmToolName = (name: AgentToolName | AgentWriteToolName): string => `catalogLens_${name}`;

/** What a write tool answers while the setting is off. */
export const WRITES_OFF =
  'Catalog Lens writes are not enabled: the user turns them on with the setting catalogLens.agentTools.writes (in their user settings). Nothing was written.';

/** The setting that offers the write tools. */
export const WRITES_SETTING = 'agentTools.writes';

/** Whether the user (or the machine) turned the write tools on; a workspace's value is never read. */
export function agentWritesEnabled(): boolean {
  const v = vscode.workspace.getConfiguration('catalogLens').inspect<boolean>(WRITES_SETTING);
  return v?.globalValue === true;
}

/** The part of the language model API used here (newer than the VS Code version the extension requires). */
interface LmApi {
  registerTool(
    name: string,
    tool: {
      invoke(options: { input: unknown }, token: vscode.CancellationToken): Promise<unknown>;
      prepareInvocation?(options: { input: unknown }, token: vscode.CancellationToken): unknown;
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
  writes: WriteRunner,
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

  const record = (input: unknown): Record<string, unknown> =>
    typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
  // Registered always (VS Code lists every declared tool, and a declared tool nobody registered fails
  // without a reason); while the setting is off each one refuses, asks nothing and writes nothing.
  for (const name of AGENT_WRITE_TOOLS)
    context.subscriptions.push(
      lm.registerTool.call(lm, lmToolName(name), {
        prepareInvocation: (options) => {
          if (!agentWritesEnabled()) return { invocationMessage: `Catalog Lens: ${name} (writes are not enabled)` };
          const p = agentWritePreparation(name, record(options.input));
          // What the confirmation quotes (URNs, the model's text) is made inert: no command links.
          return {
            invocationMessage: inertText(p.invocationMessage, 'notification', MESSAGE_LIMIT),
            ...(p.confirmationMessages
              ? {
                  confirmationMessages: {
                    title: p.confirmationMessages.title,
                    message: inertText(p.confirmationMessages.message, 'notification', 4000),
                  },
                }
              : {}),
          };
        },
        invoke: async (options) => {
          if (!agentWritesEnabled()) throw new Error(`${name}: ${WRITES_OFF}`);
          const write = agentWriteOf(name, record(options.input));
          if ('error' in write) throw new Error(write.error);
          const r = await writes.run(write.command, write.arg);
          // A failed write is thrown: VS Code gives its message to the model.
          if (r.status === 'failed') throw new Error(`${name} failed (${r.kind}): ${r.message}`);
          return new LanguageModelToolResult([
            new LanguageModelTextPart(r.status === 'written' ? `${r.message}.` : `Nothing written: ${r.message}.`),
          ]);
        },
      }),
    );
}
