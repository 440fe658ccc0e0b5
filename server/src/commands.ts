/** `workspace/executeCommand`: one handler per command id, each answering a result object. */
import { ResponseError, ErrorCodes, type CancellationToken } from 'vscode-languageserver';
import type { ServerState } from './server';
import { writeCommands } from './writes/commands';

export type CommandHandler = (args: unknown, token: CancellationToken) => Promise<unknown>;

export function registerCommands(state: ServerState, handlers: Record<string, CommandHandler>): void {
  const all: Record<string, CommandHandler> = { ...writeCommands(state), ...handlers };
  state.connection.onExecuteCommand(async (params, token) => {
    const handler = all[params.command];
    if (!handler)
      throw new ResponseError(
        ErrorCodes.InvalidParams,
        `unknown command ${params.command}; this server offers ${Object.keys(all).join(', ')}`,
      );
    try {
      return await handler(params.arguments?.[0], token);
    } catch (e) {
      if (e instanceof ResponseError) throw e;
      state.log(`${params.command} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      throw new ResponseError(
        ErrorCodes.InternalError,
        `${params.command} failed: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
  });
}
