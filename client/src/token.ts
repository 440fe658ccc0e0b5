/**
 * The access token: kept in SecretStorage, one per catalog origin, so a token is only ever
 * given to the host it was stored for. Before a token first leaves this machine over plain HTTP
 * (or goes to a GraphQL host other than its own) the user confirms, once per destination.
 */
import * as vscode from 'vscode';
import { originOf } from '../../model/src/origin';
import { tokenRisks, tokenSecretKey } from './endpoints';
import type { Log } from './log';

const ACCEPTED_RISKS_KEY = 'catalogLens.acceptedTokenRisks';
const SEND_ANYWAY = 'Send Token Anyway';

/** What the server is started with: the token, and the destinations the user accepted for it. */
export interface TokenLaunch {
  token: string | undefined;
  allowInsecureHosts: string[];
  allowTokenOrigins: string[];
}

export class TokenStore {
  /** Risks the user said no to in this session: not asked again on every restart, until a token is set. */
  private readonly declined = new Set<string>();

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly memento: vscode.Memento,
    private readonly log: Log,
  ) {}

  async get(origin: string): Promise<string | undefined> {
    return (await this.secrets.get(tokenSecretKey(origin))) || undefined;
  }

  async set(origin: string, token: string): Promise<void> {
    this.declined.clear();
    await this.secrets.store(tokenSecretKey(origin), token);
    this.log.info(`access token stored for ${origin}`);
  }

  async clear(origin: string): Promise<boolean> {
    const had = (await this.get(origin)) !== undefined;
    await this.secrets.delete(tokenSecretKey(origin));
    this.log.info(had ? `access token for ${origin} removed` : `no access token was stored for ${origin}`);
    return had;
  }

  /** Fires with the origin whose token changed (also when another VS Code window changed it). */
  onDidChange(listener: (origin: string) => void): vscode.Disposable {
    const prefix = tokenSecretKey('');
    return this.secrets.onDidChange((e) => {
      if (e.key.startsWith(prefix)) listener(e.key.slice(prefix.length));
    });
  }

  /**
   * The token to start the server with for these endpoints: the one stored for the catalog's
   * origin, once the user has accepted every risk of sending it there; otherwise none. With it,
   * the plain-HTTP hosts and the other origins so accepted, for the server's own check.
   */
  async tokenForLaunch(url: string, graphqlUrl: string, allowedOrigins: readonly string[] = []): Promise<TokenLaunch> {
    const none: TokenLaunch = { token: undefined, allowInsecureHosts: [], allowTokenOrigins: [] };
    const origin = originOf(url);
    if (!origin) return none;
    const token = await this.get(origin);
    if (!token) return none;
    const risks = tokenRisks(url, graphqlUrl, allowedOrigins);
    const accepted = this.memento.get<string[]>(ACCEPTED_RISKS_KEY, []);
    const open = risks.filter((r) => !accepted.includes(r.key));
    const granted: TokenLaunch = {
      token,
      allowInsecureHosts: risks.flatMap((r) => (r.insecureHost ? [r.insecureHost] : [])),
      allowTokenOrigins: risks.flatMap((r) => (r.otherOrigin ? [r.otherOrigin] : [])),
    };
    if (open.length === 0) return granted;
    if (open.every((r) => this.declined.has(r.key))) {
      this.log.warn(`starting without the access token for ${origin}: sending it was declined earlier in this session`);
      return none;
    }
    const answer = await vscode.window.showWarningMessage(
      'Catalog Lens: send the access token?',
      {
        modal: true,
        detail: `${open.map((r) => r.message).join('\n\n')}\n\nUse https:// for catalogs that are not on this machine. Cancel starts the language server without the token.`,
      },
      SEND_ANYWAY,
    );
    if (answer !== SEND_ANYWAY) {
      for (const r of open) this.declined.add(r.key);
      this.log.warn(
        `starting without the access token for ${origin}: the user did not accept sending it (${open.map((r) => r.key).join(', ')})`,
      );
      return none;
    }
    await this.memento.update(ACCEPTED_RISKS_KEY, [...accepted, ...open.map((r) => r.key)]);
    this.log.info(`the user accepted sending the access token: ${open.map((r) => r.key).join(', ')}`);
    return granted;
  }
}
