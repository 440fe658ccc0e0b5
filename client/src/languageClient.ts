/**
 * The language server's lifecycle: the bundled dist/server.js over IPC, restarted when what it
 * was started with changes (the token or its origin, workspace trust, the languages). The token
 * reaches the server only as the CATALOG_LENS_TOKEN of its process, never in a message.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  CloseAction,
  ErrorAction,
  ExecuteCommandRequest,
  LanguageClient,
  RevealOutputChannelOn,
  State,
  TransportKind,
  type CloseHandlerResult,
  type ErrorHandler,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node';
import { inertText, MESSAGE_LIMIT } from '../../model/src/inertText';
import {
  SkippedNotification,
  StatusNotification,
  WRITE_COMMANDS,
  type CommandArgs,
  type CommandId,
  type CommandResult,
  type ConnectionTestResult,
  type CustomRequest,
  type ParamsOf,
  type SkippedFile,
  type WriteCommandId,
} from '../../model/src/protocol';
import { ClientCommands, ServerCommands } from '../../model/src/commandIds';
import { CRASH_WINDOW_MS, CrashRestarts } from './crashRestarts';
import { originOf } from '../../model/src/origin';
import {
  SERVER_LANGUAGES,
  sameLaunch,
  serverDocumentSelector,
  serverInitializationOptions,
  serverNodeArgs,
  serverProcessEnv,
  type LaunchInputs,
} from './launch';
import { SERVER_LOG_NAME, describeError, type Log } from './log';
import type { ClientStatus } from './statusView';
import type { TokenStore } from './token';

export interface ServerEvents {
  onStatus(status: ClientStatus): void;
  onSkipped(file: SkippedFile): void;
}

export const CLIENT_ID = 'catalogLens';

function isWriteCommand(command: string): command is WriteCommandId {
  return (WRITE_COMMANDS as readonly string[]).includes(command);
}

/** Where one client is in crash handling; 'stopped' means the crash handler already told the user. */
interface CrashState {
  phase: 'running' | 'restarting' | 'stopped';
}

export class CatalogLanguageServer implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private launched: LaunchInputs | undefined;
  private queue: Promise<void> = Promise.resolve();
  private disposed = false;
  private readonly serverChannel: vscode.LogOutputChannel;
  private writes: ((command: WriteCommandId, arg: unknown) => Promise<unknown>) | undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: Log,
    private readonly tokens: TokenStore,
    private readonly events: ServerEvents,
  ) {
    this.serverChannel = vscode.window.createOutputChannel(SERVER_LOG_NAME, { log: true });
    context.subscriptions.push(this.serverChannel);
  }

  /**
   * Start the server, or restart it when its launch inputs changed (or `force`). Calls run one
   * after another, so a burst of setting and secret events restarts it at most once.
   */
  reconcile(reason: string, force = false): Promise<void> {
    const next = this.queue.then(() => this.reconcileNow(reason, force));
    this.queue = next.catch((e: unknown) => {
      this.log.error('the language server did not start', e);
      this.events.onStatus({ state: 'error', message: `The language server did not start: ${describeError(e)}` });
      void vscode.window
        .showErrorMessage(
          inertText(
            `Catalog Lens: the language server did not start: ${describeError(e)}`,
            'notification',
            MESSAGE_LIMIT,
          ),
          'Show Output',
        )
        .then((pick) => {
          if (pick) this.serverChannel.show(true);
        });
    });
    return this.queue;
  }

  /** The running client, once pending (re)starts are done. */
  async running(): Promise<LanguageClient> {
    await this.queue;
    const client = this.client;
    if (!client || !client.isRunning())
      throw new Error(
        'the Catalog Lens language server is not running (see the "Catalog Lens Language Server" output)',
      );
    return client;
  }

  /** Who runs the write commands VS Code executes (code actions, command links): see client/src/writes.ts. */
  runWritesWith(run: (command: WriteCommandId, arg: unknown) => Promise<unknown>): void {
    this.writes = run;
  }

  /** A custom request (model/src/protocol.ts), typed by its declaration. */
  async request<P, R>(type: CustomRequest<P, R>, params: P, token?: vscode.CancellationToken): Promise<R> {
    const client = await this.running();
    return client.sendRequest<R>(type.method, params, token);
  }

  /** A server command (`workspace/executeCommand`) with its one object argument. */
  async executeServerCommand<C extends CommandId>(
    command: C,
    arg: CommandArgs<C>,
    token?: vscode.CancellationToken,
  ): Promise<CommandResult<C>> {
    const client = await this.running();
    return (await client.sendRequest(
      ExecuteCommandRequest.type,
      { command, arguments: [arg] },
      token,
    )) as CommandResult<C>;
  }

  /** A document URI as the server knows it. */
  async protocolUri(uri: vscode.Uri): Promise<string> {
    const client = await this.running();
    return client.code2ProtocolConverter.asUri(uri);
  }

  /** A URI the server sent, as VS Code knows it. */
  async codeUri(uri: string): Promise<vscode.Uri> {
    const client = await this.running();
    return client.protocol2CodeConverter.asUri(uri);
  }

  showServerOutput(): void {
    this.serverChannel.show(true);
  }

  async stop(): Promise<void> {
    this.disposed = true;
    await this.stopClient();
  }

  dispose(): void {
    void this.stop();
  }

  private async reconcileNow(reason: string, force: boolean): Promise<void> {
    if (this.disposed) return;
    const cfg = vscode.workspace.getConfiguration('catalogLens');
    const url = cfg.get<string>('url', '');
    const graphqlUrl = cfg.get<string>('graphqlUrl', '');
    const { token, allowInsecureHosts, allowTokenOrigins } = await this.tokens.tokenForLaunch(
      url,
      graphqlUrl,
      cfg.get<string[]>('allowTokenOrigins', []),
    );
    const inputs: LaunchInputs = {
      origin: originOf(url),
      token,
      allowInsecureHosts,
      allowTokenOrigins,
      trusted: vscode.workspace.isTrusted,
      languages: cfg.get<string[]>('languages', [...SERVER_LANGUAGES]),
    };
    if (!force && this.client && this.launched && sameLaunch(this.launched, inputs)) return;
    const restarting = this.client !== undefined;
    await this.stopClient();
    if (this.disposed) return;
    this.log.info(
      `${restarting ? 'restarting' : 'starting'} the language server (${reason}): catalog ${inputs.origin ?? 'not configured'}, ${inputs.token ? 'with' : 'without'} an access token, workspace ${inputs.trusted ? 'trusted' : 'restricted'}`,
    );
    this.events.onStatus({ state: 'checking', message: 'starting the language server' });
    const client = this.createClient(inputs);
    this.client = client;
    this.launched = inputs;
    try {
      await client.start();
    } catch (e) {
      // Forget the inputs, so the next settings or token event tries again instead of seeing "same launch".
      this.launched = undefined;
      throw e;
    }
    // With no document open the server would not ask the catalog, and the item would spin on.
    void this.showFirstStatus(client);
  }

  private async showFirstStatus(client: LanguageClient): Promise<void> {
    try {
      const r = (await client.sendRequest(ExecuteCommandRequest.type, {
        command: ServerCommands.testConnection,
        arguments: [{}],
      })) as ConnectionTestResult | null;
      if (this.client !== client || !r) return;
      const state = r.state !== 'checking' ? r.state : r.ok ? 'connected' : 'error';
      this.events.onStatus({ state, message: r.message, ...(r.endpoint ? { endpoint: r.endpoint } : {}) });
    } catch (e) {
      this.log.warn(`the first connection check failed: ${describeError(e)}`);
    }
  }

  private createClient(inputs: LaunchInputs): LanguageClient {
    const module = this.context.asAbsolutePath(path.join('dist', 'server.js'));
    const env = serverProcessEnv(process.env, inputs.token);
    const execArgv = serverNodeArgs(process.env);
    const serverOptions: ServerOptions = {
      run: { module, transport: TransportKind.ipc, options: { env, execArgv } },
      debug: {
        module,
        transport: TransportKind.ipc,
        options: { env, execArgv: [...execArgv, '--nolazy', '--inspect=6019'] },
      },
    };
    const crash: CrashState = { phase: 'running' };
    const clientOptions: LanguageClientOptions = {
      documentSelector: serverDocumentSelector(inputs.languages),
      synchronize: { configurationSection: 'catalogLens' },
      initializationOptions: serverInitializationOptions(
        inputs.trusted,
        inputs.allowInsecureHosts,
        inputs.allowTokenOrigins,
      ),
      outputChannel: this.serverChannel,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      errorHandler: this.crashHandler(() => client, crash),
      // Hovers carry text from the catalog: no command links, no HTML.
      // Hovers are untrusted Markdown, but for one command: the lineage counts open the lineage view
      // (server/src/features/hover.ts lineageLink). A crafted link could run only that, with a URN.
      markdown: { isTrusted: { enabledCommands: [ClientCommands.showLineage] }, supportHtml: false },
      middleware: {
        // A write command run through VS Code (a code action, a command link) speaks: progress,
        // the result, Retry (client/src/writes.ts). Other server commands go straight through.
        executeCommand: (command, args: unknown[], next) => {
          const writes = this.writes;
          return writes && isWriteCommand(command) ? writes(command, args[0]) : next(command, args);
        },
      },
    };
    const client = new LanguageClient(CLIENT_ID, SERVER_LOG_NAME, serverOptions, clientOptions);
    client.onNotification(StatusNotification.method, (status: ParamsOf<typeof StatusNotification>) => {
      if (this.client === client) this.events.onStatus(status);
    });
    client.onNotification(SkippedNotification.method, (file: ParamsOf<typeof SkippedNotification>) =>
      this.events.onSkipped(file),
    );
    client.onDidChangeState((e) => {
      if (this.client !== client) return;
      if (crash.phase === 'restarting' && e.newState === State.Running) {
        crash.phase = 'running';
        this.log.info('the language server was restarted after it stopped unexpectedly');
        void vscode.window
          .showInformationMessage('Catalog Lens language server stopped unexpectedly and was restarted.', 'Show Output')
          .then((pick) => {
            if (pick) this.serverChannel.show(true);
          });
        void this.showFirstStatus(client);
      } else if (crash.phase === 'restarting' && e.newState === State.StartFailed) {
        // vscode-languageclient has already shown "Restarting server failed" with the reason.
        crash.phase = 'stopped';
        this.events.onStatus({
          state: 'error',
          message:
            'The language server stopped unexpectedly and could not be started again; run "Catalog Lens: Restart Server" or see the "Catalog Lens Language Server" output.',
        });
      } else if (crash.phase === 'running' && e.newState === State.Stopped) {
        this.log.warn('the language server stopped');
        this.events.onStatus({
          state: 'error',
          message:
            'The language server stopped; run "Catalog Lens: Restart Server" or see the "Catalog Lens Language Server" output.',
        });
      }
    });
    return client;
  }

  /**
   * What happens when the server process goes away without being asked to (a crash, a kill):
   * the status item says "restarting", the server is started again after a growing pause, and
   * the user is told once it runs; after too many stops in a short time it stays stopped and
   * the user is told how to start it. Read and write errors on the connection are tolerated
   * three times in a row, as vscode-languageclient's default does.
   */
  private crashHandler(client: () => LanguageClient, crash: CrashState): ErrorHandler {
    const restarts = new CrashRestarts();
    const stayStopped: CloseHandlerResult = { action: CloseAction.DoNotRestart, handled: true };
    return {
      error: (_error, _message, count) => ({
        action: count !== undefined && count <= 3 ? ErrorAction.Continue : ErrorAction.Shutdown,
      }),
      closed: async () => {
        // A client this class has already replaced or disposed is not brought back.
        if (this.client !== client()) return stayStopped;
        const decision = restarts.next(Date.now());
        if (!decision.restart) {
          crash.phase = 'stopped';
          const message = `The language server stopped unexpectedly ${decision.crashes} times in ${decision.windowMs / 60_000} minutes and was not restarted.`;
          this.log.error(message);
          this.events.onStatus({
            state: 'error',
            message: `${message} Run "Catalog Lens: Restart Server" or see the "Catalog Lens Language Server" output.`,
          });
          void vscode.window
            .showErrorMessage(`Catalog Lens: ${message}`, 'Restart Server', 'Show Output')
            .then((pick) => {
              if (pick === 'Restart Server') void vscode.commands.executeCommand(ClientCommands.restartServer);
              else if (pick === 'Show Output') this.serverChannel.show(true);
            });
          return { ...stayStopped, message };
        }
        crash.phase = 'restarting';
        this.log.warn(
          `the language server stopped unexpectedly; restarting it in ${decision.delayMs} ms (restart ${decision.attempt} of at most ${decision.max} in ${CRASH_WINDOW_MS / 60_000} minutes)`,
        );
        this.events.onStatus({
          state: 'restarting',
          message: `Restart ${decision.attempt} of at most ${decision.max}; see the "Catalog Lens Language Server" output.`,
        });
        await new Promise((resolve) => setTimeout(resolve, decision.delayMs));
        if (this.client !== client()) {
          crash.phase = 'stopped';
          return stayStopped;
        }
        return {
          action: CloseAction.Restart,
          handled: true,
          message: 'The language server stopped unexpectedly; starting it again.',
        };
      },
    };
  }

  private async stopClient(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.launched = undefined;
    if (!client) return;
    try {
      // dispose() stops the server (shutdown, exit) and leaves our output channel open for the next one.
      await client.dispose(5000);
    } catch (e) {
      this.log.warn(`the language server did not stop cleanly: ${describeError(e)}`);
    }
  }
}
