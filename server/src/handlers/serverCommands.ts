/** `workspace/executeCommand`: the server commands (model/src/protocol.ts Commands), one entry each. */
import { ServerCommands } from '../../../model/src/commandIds';
import type { Connection } from 'vscode-languageserver';
import { registerCommands, type CommandTable } from '../commands';
import { signalOf } from '../lsp';
import type { OpenDocuments } from '../pipeline/openDocuments';
import type { CatalogResolution } from '../resolution/resolution';
import type { SettingsStore } from '../settings';
import { checkWorkspace, type WorkspaceDeps } from '../workspace';
import { writeCommands, type WriteDeps } from '../writes/writeCommands';

export interface ServerCommandsDeps {
  connection: Connection;
  workspace: WorkspaceDeps;
  writing: WriteDeps;
  openDocuments: OpenDocuments;
  resolution: CatalogResolution;
  settings: SettingsStore;
  /** The editor shows work-done progress the server creates. */
  progress(): boolean;
  log: (message: string) => void;
}

export function registerServerCommands(deps: ServerCommandsDeps): void {
  const { connection, openDocuments, resolution } = deps;
  const commands: CommandTable = {
    ...writeCommands(deps.writing),
    [ServerCommands.checkWorkspace]: async (_args, token) => {
      const progress = deps.progress() ? await connection.window.createWorkDoneProgress() : undefined;
      progress?.begin('Catalog Lens: checking workspace', 0, 'listing files', true);
      try {
        return await checkWorkspace(deps.workspace, {
          report: (percentage, message) => progress?.report(percentage, message),
          cancelled: () => token.isCancellationRequested || (progress?.token.isCancellationRequested ?? false),
          signal: signalOf(token),
        });
      } finally {
        progress?.done();
      }
    },
    [ServerCommands.refresh]: async () => {
      resolution.forgetAnswers();
      openDocuments.forgetScans();
      openDocuments.revalidateAll();
      return { refreshed: openDocuments.count() };
    },
    [ServerCommands.testConnection]: async (args) => {
      const uri = (args as { uri?: unknown } | undefined)?.uri;
      return resolution.testConnection(await deps.settings.get(typeof uri === 'string' ? uri : undefined));
    },
  };
  registerCommands(connection, commands, deps.log);
}
