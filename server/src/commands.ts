/** `workspace/executeCommand`: the table of server commands (server.ts builds it), each answering a result object. */
import { ResponseError, ErrorCodes, type Connection } from 'vscode-languageserver';
import type { CommandId, CommandResult } from '../../model/src/protocol';
import type { CommandHandler, Log } from './lsp';

/** One handler per server command, each answering its command's result (model/src/protocol.ts). */
export type CommandTable = { [C in CommandId]: CommandHandler<CommandResult<C>> };

export function registerCommands(connection: Connection, table: CommandTable, log: Log): void {
  const all: Record<string, CommandHandler> = table;
  connection.onExecuteCommand(async (params, token) => {
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
      log(`${params.command} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      throw new ResponseError(
        ErrorCodes.InternalError,
        `${params.command} failed: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
  });
}
