/**
 * Start Local Catalog: the bundled dist/catalog.js with sample data on the port of its last run
 * (a free port the first time, or when that one is taken), its database
 * in the extension's global storage, run by the user's `node` (checked first). Each start gets a
 * new random token, in the catalog's environment and in SecretStorage for its origin: any page a
 * browser on this machine loads can send requests to 127.0.0.1, so no catalog runs without one.
 * Stopped when the extension deactivates.
 */
import { existsSync, mkdirSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CatalogLanguageServer } from './languageClient';
import { originOf } from '../../model/src/origin';
import {
  catalogEnv,
  checkNodeForCatalog,
  newCatalogToken,
  portOf,
  startCatalogOnPort,
  type LocalCatalogChild,
} from './localCatalogProcess';
import { describeError, type Log } from './log';
import type { TokenStore } from './token';

const NODE_COMMAND = 'node';
/** globalState key: the port of the last local catalog, tried first next time. */
const PORT_KEY = 'catalogLens.localCatalog.port';

export class LocalCatalog implements vscode.Disposable {
  private running: LocalCatalogChild | undefined;
  private starting: Promise<void> | undefined;
  private stopping = false;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: Log,
    private readonly server: CatalogLanguageServer,
    private readonly tokens: TokenStore,
  ) {}

  async start(): Promise<void> {
    if (this.running) {
      await this.offerToUse(this.running.url, 'The local catalog is already running');
      return;
    }
    if (this.starting) return this.starting;
    this.starting = this.startNow().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  async stop(): Promise<void> {
    const running = this.running;
    if (!running) return;
    this.stopping = true;
    this.log.info(`stopping the local catalog (pid ${running.pid})`);
    await running.stop(5000);
    this.running = undefined;
  }

  dispose(): void {
    void this.stop();
  }

  private async startNow(): Promise<void> {
    const script = this.context.asAbsolutePath(path.join('dist', 'catalog.js'));
    const betterSqlite3 = this.context.asAbsolutePath(path.join('node_modules', 'better-sqlite3'));
    if (!existsSync(script)) {
      void vscode.window.showErrorMessage(`Catalog Lens: this build has no local catalog (${script} is missing).`);
      return;
    }
    const storage = this.context.globalStorageUri.fsPath;
    const db = path.join(storage, 'catalog.db');
    const token = newCatalogToken();
    const env = catalogEnv(process.env, token);
    let running: LocalCatalogChild | undefined;
    try {
      running = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Catalog Lens: starting the local catalog…' },
        async (progress) => {
          progress.report({ message: `checking '${NODE_COMMAND}' on PATH` });
          const check = await checkNodeForCatalog(NODE_COMMAND, betterSqlite3, env);
          if (!check.ok) throw new Error(check.message);
          this.log.info(`local catalog: using ${NODE_COMMAND} ${check.version} from PATH`);
          progress.report({ message: 'loading the sample catalog' });
          mkdirSync(storage, { recursive: true });
          return startCatalogOnPort(
            {
              node: NODE_COMMAND,
              script,
              cwd: storage,
              env,
              onOutput: (line) => this.log.trace(`local catalog: ${line}`),
            },
            (port) => ['--sample', '--port', String(port), '--db', db],
            this.context.globalState.get<number>(PORT_KEY),
          );
        },
      );
    } catch (e) {
      this.log.error('the local catalog did not start', e);
      // The first line says why; the catalog's whole output is in the log.
      const pick = await vscode.window.showErrorMessage(
        `Catalog Lens: the local catalog did not start: ${describeError(e).split('\n')[0] ?? ''}`,
        'Show Output',
      );
      if (pick) this.log.show();
      return;
    }
    this.running = running;
    this.stopping = false;
    await this.context.globalState.update(PORT_KEY, portOf(running.url));
    try {
      // Stored before "Use It" is offered: the server that points at the catalog starts with it.
      await this.tokens.set(originOf(running.url)!, token);
    } catch (e) {
      this.log.error("the local catalog's token could not be stored; stopping the catalog", e);
      await this.stop();
      void vscode.window.showErrorMessage(
        `Catalog Lens: the local catalog's token could not be kept in VS Code's secret storage (${describeError(e)}), so the catalog was stopped.`,
      );
      return;
    }
    this.log.info(`local catalog (pid ${running.pid}) listening on ${running.url}, database ${db}`);
    void running.exited.then(({ code, signal }) => {
      if (this.running !== running) return;
      this.running = undefined;
      this.log.warn(`the local catalog (pid ${running.pid}) exited (code ${code}, signal ${signal})`);
      if (!this.stopping)
        void vscode.window.showWarningMessage(`Catalog Lens: the local catalog stopped (exit code ${code ?? signal}).`);
    });
    await this.offerToUse(running.url, 'The local catalog is running with sample data');
  }

  private async offerToUse(url: string, what: string): Promise<void> {
    const cfg = vscode.workspace.getConfiguration('catalogLens');
    if (cfg.get<string>('url', '') === url && !cfg.get<string>('graphqlUrl', '')) {
      void vscode.window.showInformationMessage(`Catalog Lens: ${what} at ${url}; catalogLens.url points at it.`);
      return;
    }
    const USE = 'Use It';
    const gqlNote = cfg.get<string>('graphqlUrl', '') ? ' (this also clears catalogLens.graphqlUrl)' : '';
    const pick = await vscode.window.showInformationMessage(
      `Catalog Lens: ${what} at ${url}. Point catalogLens.url at it${gqlNote}?`,
      USE,
      'Copy URL',
    );
    if (pick === 'Copy URL') await vscode.env.clipboard.writeText(url);
    if (pick !== USE) return;
    await cfg.update('url', url, vscode.ConfigurationTarget.Global);
    if (gqlNote) await cfg.update('graphqlUrl', '', vscode.ConfigurationTarget.Global);
    this.log.info(`catalogLens.url set to the local catalog ${url}`);
    await this.server.reconcile('catalog URL set to the local catalog');
  }
}
