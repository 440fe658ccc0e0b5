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
import type { DataHubYamlParams, DataHubYamlResult } from '../../../model/src/protocol';
import type { CancellationToken } from 'vscode-languageserver';
import { tellWriteResult, writeNotice, type NoticeSupport } from './writeNotice';
import { pushDataHubYaml } from './yamlPush';

export interface ServerCommandsDeps {
  connection: Connection;
  workspace: WorkspaceDeps;
  writing: WriteDeps;
  openDocuments: OpenDocuments;
  resolution: CatalogResolution;
  settings: SettingsStore;
  /** The editor shows work-done progress the server creates. */
  progress(): boolean;
  /**
   * How to tell the editor what came of a write, or undefined when its client shows results
   * itself (the Catalog Lens extension).
   */
  writeNotices(): NoticeSupport | undefined;
  /** The editor shows `window/showMessageRequest` actions. */
  messageActions(): boolean;
  /** A DataHub dataset file against the catalog (the language service's `catalogLens/dataHubYaml`). */
  dataHubYaml(params: DataHubYamlParams, token: CancellationToken): Promise<DataHubYamlResult>;
  /** Work in flight until `work` settles (the idle memory release waits for it: a Check Workspace is one burst). */
  inFlight?<T>(work: Promise<T>): Promise<T>;
  log: (message: string) => void;
}

export function registerServerCommands(deps: ServerCommandsDeps): void {
  const { connection, openDocuments, resolution } = deps;
  const writes = writeCommands(deps.writing);
  // Other editors ignore what a command answers: the server tells them what came of a write.
  for (const [id, run] of Object.entries(writes) as Array<[keyof typeof writes, (typeof writes)[keyof typeof writes]]>)
    writes[id] = async (args, token) => {
      const result = await run(args, token);
      const support = deps.writeNotices();
      if (support && result.kind !== 'cancelled') {
        const uri = (args as { uri?: unknown } | undefined)?.uri;
        const settings = await deps.settings.get(typeof uri === 'string' ? uri : undefined);
        const notice = writeNotice(result, args, resolution.linkSettings(settings), support);
        void tellWriteResult(connection, notice, deps.log);
      }
      return result;
    };
  const commands: CommandTable = {
    ...writes,
    [ServerCommands.checkWorkspace]: async (_args, token) => {
      const progress = deps.progress() ? await connection.window.createWorkDoneProgress() : undefined;
      progress?.begin('Catalog Lens: checking workspace', 0, 'listing files', true);
      try {
        const check = checkWorkspace(deps.workspace, {
          report: (percentage, message) => progress?.report(percentage, message),
          cancelled: () => token.isCancellationRequested || (progress?.token.isCancellationRequested ?? false),
          signal: signalOf(token),
        });
        return await (deps.inFlight ? deps.inFlight(check) : check);
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
    [ServerCommands.pushDataHubYaml]: (args, token) =>
      pushDataHubYaml(
        {
          connection,
          plan: (p, t) => deps.dataHubYaml(p, t),
          write: (w, t) => writes[w.command](w.arg, t),
          trusted: () => deps.writing.trusted,
          messageActions: () => deps.messageActions(),
        },
        args,
        token,
      ),
    [ServerCommands.testConnection]: async (args) => {
      const uri = (args as { uri?: unknown } | undefined)?.uri;
      return resolution.testConnection(await deps.settings.get(typeof uri === 'string' ? uri : undefined));
    },
  };
  registerCommands(connection, commands, deps.log);
}
