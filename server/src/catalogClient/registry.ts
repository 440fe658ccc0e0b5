/**
 * One catalog client per endpoint (multi-root workspaces may point folders at different
 * catalogs), the connection status the client shows, and recovery: after a connection error a
 * probe asks the catalog again with back-off, and when it answers, open documents are re-checked.
 * Also where the catalog and its token come from, and where the token may go.
 */
import { isLoopbackHost, originOf, sameOrigin } from '../../../model/src/origin';
import type { CatalogStatus, ConnectionState, Settings } from '../../../model/src/protocol';
import { CatalogClient } from './client';
import { hintFor, displayUrl, type CatalogClientError } from './errors';
import type { Fetch } from './http';
import { datahubSource, type DatahubSource, type ReadText } from './datahubEnv';

export interface CatalogClientsOptions {
  /** CATALOG_LENS_TOKEN (or the token given at initialize): the token of the configured `url`. */
  token: string | undefined;
  fetch?: Fetch;
  onStatus: (status: CatalogStatus) => void;
  onRecovered: () => void;
  log: (message: string) => void;
  /**
   * Asks the user (through the client) before the token is first sent to `origin`; `why` says what is
   * at stake. `kind` 'otherOrigin' is asked only of the Catalog Lens extension, which knows what it
   * means; other editors withhold it unless the settings allow the origin.
   */
  confirmToken?: (origin: string, why: string, kind: 'otherOrigin' | 'plainHttp') => Promise<boolean>;
  /** Origins the user already allowed (confirmed by the editor before it started the server). */
  allowedOrigins?: () => readonly string[];
  /** Where DataHub's CLI configuration is read from when `url` is empty; not read when untrusted. */
  environment?: { env: NodeJS.ProcessEnv; home: string | undefined; readText: ReadText; trusted: () => boolean };
  /**
   * What the status tells the user to do, per error kind, where the editor's words do not fit (the
   * CLI has flags, not "Catalog Lens: Set Access Token"); a hint the error carries itself still wins.
   */
  hints?: Partial<Record<CatalogClientError['kind'], string>>;
}

/** The catalog a client talks to, with the token that belongs to it and where both came from. */
export interface Endpoint {
  url: string;
  graphqlUrl: string;
  token: string | undefined;
  /** `settings`, or the DataHub source the URL came from. */
  from: 'settings' | DatahubSource['from'];
  /** The token came from DataHub's CLI configuration: it may go to `url`'s origin and nowhere else. */
  tokenBound: boolean;
}

/** `graphqlUrl` when it is on the DataHub server's own origin, else that server's own GraphQL endpoint. */
function ownGraphql(s: Settings, dh: DatahubSource): string {
  return s.graphqlUrl && sameOrigin(s.graphqlUrl, dh.url) ? s.graphqlUrl : '';
}

const PROBE_FIRST_MS = 1000;
const PROBE_MAX_MS = 30000;

export class CatalogClients {
  private readonly clients = new Map<string, CatalogClient>();
  private status: CatalogStatus = { state: 'checking', message: 'not asked yet' };
  private probeTimer: NodeJS.Timeout | undefined;
  private probeDelay = PROBE_FIRST_MS;
  private readonly answers = new Map<string, Promise<boolean>>();
  private readonly notices = new Map<CatalogClient, string>();
  private source: DatahubSource | undefined | null = null;

  constructor(private readonly opts: CatalogClientsOptions) {}

  /** The token given at `initialize` (editors that cannot set the environment). */
  useToken(token: string | undefined): void {
    this.opts.token = token;
    this.reset();
  }

  /**
   * The catalog of these settings: `url`, else (trusted workspaces only) DataHub's CLI
   * configuration. A token found in that configuration is bound to the server found with it: it
   * goes to that origin only — its own GraphQL endpoint, never `graphqlUrl` or another origin
   * the settings allow — also when `url` names that server.
   */
  endpointFor(s: Settings): Endpoint {
    const trusted = this.opts.environment?.trusted() ?? false;
    const dh = trusted ? this.datahub() : undefined;
    if (s.url) {
      if (this.opts.token !== undefined || !dh?.token || !sameOrigin(dh.url, s.url)) {
        return { url: s.url, graphqlUrl: s.graphqlUrl, token: this.opts.token, from: 'settings', tokenBound: false };
      }
      return { url: s.url, graphqlUrl: ownGraphql(s, dh), token: dh.token, from: 'settings', tokenBound: true };
    }
    if (dh) return { url: dh.url, graphqlUrl: '', token: dh.token, from: dh.from, tokenBound: true };
    return { url: '', graphqlUrl: s.graphqlUrl, token: undefined, from: 'settings', tokenBound: false };
  }

  private datahub(): DatahubSource | undefined {
    if (this.source === null) {
      const e = this.opts.environment;
      const found = e ? datahubSource(e.env, e.home, e.readText) : undefined;
      if (found && 'problem' in found) this.opts.log(`DataHub configuration: ${found.problem}`);
      this.source = found && !('problem' in found) ? found : undefined;
      if (this.source)
        this.opts.log(
          `DataHub configuration found in ${this.source.from}: ${displayUrl(this.source.url)}${this.source.token ? ' with a token' : ''}`,
        );
    }
    return this.source;
  }

  clientFor(s: Settings): CatalogClient {
    const e = this.endpointFor(s);
    const key = JSON.stringify([
      e.url,
      e.graphqlUrl,
      e.from,
      e.tokenBound,
      s.requestTimeoutMs,
      s.batchSize,
      s.graphqlComplexityBudget,
      s.allowTokenOrigins,
    ]);
    let c = this.clients.get(key);
    if (!c) {
      c = new CatalogClient({
        url: e.url,
        graphqlUrl: e.graphqlUrl,
        token: e.token,
        timeoutMs: s.requestTimeoutMs,
        batchSize: s.batchSize,
        complexityBudget: s.graphqlComplexityBudget,
        cacheEntries: s.cache.maxEntries,
        cacheTtlMs: s.cache.ttlSeconds * 1000,
        ...(this.opts.fetch ? { fetch: this.opts.fetch } : {}),
        ...(e.token ? { allowToken: (url: string) => this.mayReceiveToken(e, url, s.allowTokenOrigins) } : {}),
      });
      const client = c;
      client.onConnection((error) => this.report(client, error));
      client.onNotice((notice) => {
        this.notices.set(client, notice);
        this.opts.log(notice);
        if (this.status.state === 'connected') this.report(client, undefined);
      });
      this.clients.set(key, c);
      if (!client.configured)
        this.report(client, { kind: 'notConfigured', message: 'no catalog is configured (catalogLens.url is empty)' });
      else if (e.from !== 'settings')
        this.opts.log(`catalogLens.url is empty: using ${displayUrl(e.url)} from ${e.from}`);
      if (e.tokenBound && s.graphqlUrl && !e.graphqlUrl) {
        this.opts.log(
          `catalogLens.graphqlUrl ${displayUrl(s.graphqlUrl)} is not used: the token of DataHub's configuration goes to ${displayUrl(e.url)} only, so its own /api/graphql is asked`,
        );
      }
      this.sources.set(client, e.from);
    } else {
      c.configure(s.cache.maxEntries, s.cache.ttlSeconds * 1000);
    }
    return c;
  }

  private readonly sources = new Map<CatalogClient, Endpoint['from']>();

  /** Each client's cache keeps its answers in their compact form (CatalogClient.compactCache). */
  compactCaches(): void {
    for (const c of this.clients.values()) c.compactCache();
  }

  all(): CatalogClient[] {
    return [...this.clients.values()];
  }

  current(): CatalogStatus {
    return this.status;
  }

  /** Forget every client (settings changed): the next request builds them anew. */
  reset(): void {
    this.clients.clear();
    this.notices.clear();
    this.sources.clear();
    this.source = null;
    this.stopProbe();
  }

  dispose(): void {
    this.stopProbe();
  }

  report(client: CatalogClient, error: CatalogClientError | undefined): void {
    const endpoint = client.graphqlEndpoint ? displayUrl(client.graphqlEndpoint) : undefined;
    const from = this.sources.get(client);
    const source = from && from !== 'settings' ? ` (from ${from})` : '';
    let next: CatalogStatus;
    if (!error) {
      const notice = this.notices.get(client);
      next = {
        state: 'connected',
        message: `connected to ${endpoint}${source}${notice ? `; ${notice}` : ''}`,
        ...(endpoint ? { endpoint } : {}),
      };
    } else {
      const state: ConnectionState =
        error.kind === 'notConfigured'
          ? 'notConfigured'
          : error.kind === 'unauthorized' || error.kind === 'forbidden'
            ? 'unauthorized'
            : error.kind === 'unreachable' || error.kind === 'timeout'
              ? 'unreachable'
              : 'error';
      next = {
        state,
        message: `${error.message}${source}. ${error.hint ?? this.opts.hints?.[error.kind] ?? hintFor(error)}`,
        ...(endpoint ? { endpoint } : {}),
      };
    }
    const was = this.status.state;
    if (next.state !== was || next.message !== this.status.message) {
      this.status = next;
      this.opts.onStatus(next);
    }
    if (next.state === 'connected') {
      this.stopProbe();
      if (was !== 'connected' && was !== 'checking') this.opts.onRecovered();
    } else if (next.state !== 'notConfigured') {
      this.scheduleProbe(client);
    }
  }

  private scheduleProbe(client: CatalogClient): void {
    if (this.probeTimer) return;
    this.probeTimer = setTimeout(() => {
      this.probeTimer = undefined;
      this.probeDelay = Math.min(PROBE_MAX_MS, this.probeDelay * 2);
      // The probe's outcome reaches report() through the client's listener, which probes again or stops.
      void client.ping();
    }, this.probeDelay);
    this.probeTimer.unref();
  }

  private stopProbe(): void {
    if (this.probeTimer) clearTimeout(this.probeTimer);
    this.probeTimer = undefined;
    this.probeDelay = PROBE_FIRST_MS;
  }

  /**
   * Whether the token of `e` may go to `url`. Its own origin (scheme, host and port of `e.url`)
   * may have it, but plain HTTP off this machine is confirmed first. Any other origin — a
   * `graphqlUrl` on another host or port — only when the settings or the editor allowed it, or
   * the user says yes when asked; an editor that cannot ask withholds it, so a project's settings
   * cannot send the token to a host of their choosing.
   */
  private async mayReceiveToken(e: Endpoint, url: string, allowed: readonly string[]): Promise<true | string> {
    let dest: URL;
    try {
      dest = new URL(url);
    } catch {
      return 'not a URL';
    }
    const own = sameOrigin(dest.origin, e.url);
    if (!own && e.tokenBound) return `the token of DataHub's configuration goes to ${originOf(e.url) ?? e.url} only`;
    const preapproved = [...allowed, ...(this.opts.allowedOrigins?.() ?? [])].some((o) => sameOrigin(o, dest.origin));
    if (!own && !preapproved) {
      const why = `The access token of ${originOf(e.url) ?? e.url} would be sent to ${dest.origin} (catalogLens.graphqlUrl), another origin.`;
      if (!(await this.ask(dest.origin, why, 'otherOrigin'))) {
        return `the access token of ${originOf(e.url) ?? e.url} is not sent to ${dest.origin}, another origin: allow it with catalogLens.allowTokenOrigins`;
      }
    }
    if (dest.protocol === 'http:' && !isLoopbackHost(dest.hostname) && !preapproved) {
      const why = `${dest.host} is reached over plain HTTP, where anyone on the network can read the access token.`;
      if (!(await this.ask(dest.origin, why, 'plainHttp')))
        return `the access token is not sent over plain HTTP to ${dest.host}`;
    }
    return true;
  }

  private ask(origin: string, why: string, kind: 'otherOrigin' | 'plainHttp'): Promise<boolean> {
    const key = `${kind} ${origin}`;
    let answer = this.answers.get(key);
    if (!answer) {
      answer = this.opts.confirmToken ? this.opts.confirmToken(origin, why, kind) : Promise.resolve(false);
      this.answers.set(key, answer);
    }
    return answer;
  }
}
