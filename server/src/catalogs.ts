/**
 * One catalog client per endpoint (multi-root workspaces may point folders at different
 * catalogs), the connection status the client shows, and recovery: after a connection error a
 * probe asks the catalog again with back-off, and when it answers, open documents are re-checked.
 */
import type { CatalogStatus, ConnectionState, Settings } from '../../model/src/protocol';
import { CatalogClient } from './catalog/client';
import { ERROR_HINTS, displayUrl, type CatalogError } from './catalog/errors';
import type { Fetch } from './catalog/http';

export interface CatalogsOptions {
  token: string | undefined;
  fetch?: Fetch;
  onStatus: (status: CatalogStatus) => void;
  onRecovered: () => void;
  /**
   * Asked once per host before the token is first sent there over plain HTTP to a host that is
   * not this machine; `false` (or no answer) withholds the token from that host.
   */
  confirmInsecure?: (host: string) => Promise<boolean>;
  /** Hosts the user already allowed (e.g. confirmed by the editor before it started the server). */
  insecureAllowed?: readonly string[];
}

const PROBE_FIRST_MS = 1000;
const PROBE_MAX_MS = 30000;

export class Catalogs {
  private readonly clients = new Map<string, CatalogClient>();
  private status: CatalogStatus = { state: 'checking', message: 'not asked yet' };
  private probeTimer: NodeJS.Timeout | undefined;
  private probeDelay = PROBE_FIRST_MS;
  private readonly insecureAnswers = new Map<string, Promise<boolean>>();

  constructor(private readonly opts: CatalogsOptions) {}

  /** The token given at `initialize` (editors that cannot set the environment). */
  useToken(token: string | undefined): void {
    this.opts.token = token;
    this.reset();
  }

  clientFor(s: Settings): CatalogClient {
    const key = JSON.stringify([s.url, s.graphqlUrl, s.requestTimeoutMs, s.batchSize]);
    let c = this.clients.get(key);
    if (!c) {
      const gate = this.insecureGate(s);
      c = new CatalogClient({
        url: s.url, graphqlUrl: s.graphqlUrl, token: this.opts.token, timeoutMs: s.requestTimeoutMs, batchSize: s.batchSize,
        cacheEntries: s.cache.maxEntries, cacheTtlMs: s.cache.ttlSeconds * 1000,
        ...(this.opts.fetch ? { fetch: this.opts.fetch } : {}),
        ...(gate ? { allowToken: gate } : {}),
      });
      const client = c;
      client.onConnection((error) => this.report(client, error));
      this.clients.set(key, c);
      if (!client.configured) this.report(client, { kind: 'notConfigured', message: 'no catalog is configured (catalogLens.url is empty)' });
    } else {
      c.configure(s.cache.maxEntries, s.cache.ttlSeconds * 1000);
    }
    return c;
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
    this.stopProbe();
  }

  dispose(): void {
    this.stopProbe();
  }

  report(client: CatalogClient, error: CatalogError | undefined): void {
    const endpoint = client.graphqlEndpoint ? displayUrl(client.graphqlEndpoint) : undefined;
    let next: CatalogStatus;
    if (!error) {
      next = { state: 'connected', message: `connected to ${endpoint}`, ...(endpoint ? { endpoint } : {}) };
    } else {
      const state: ConnectionState = error.kind === 'notConfigured' ? 'notConfigured'
        : error.kind === 'unauthorized' || error.kind === 'forbidden' ? 'unauthorized'
          : error.kind === 'unreachable' || error.kind === 'timeout' ? 'unreachable' : 'error';
      next = { state, message: `${error.message}. ${ERROR_HINTS[error.kind]}`, ...(endpoint ? { endpoint } : {}) };
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

  /** For endpoints that would carry the token in clear text off this machine: ask before sending it. */
  private insecureGate(s: Settings): (() => Promise<boolean>) | undefined {
    if (!this.opts.token) return undefined;
    const hosts = new Set<string>();
    for (const u of [s.url, s.graphqlUrl]) {
      let url: URL;
      try { url = new URL(u); } catch { continue; }
      if (url.protocol === 'http:' && !isLoopback(url.hostname)) hosts.add(url.host);
    }
    if (hosts.size === 0) return undefined;
    return async () => {
      for (const host of hosts) {
        if (this.opts.insecureAllowed?.includes(host)) continue;
        let answer = this.insecureAnswers.get(host);
        if (!answer) {
          answer = this.opts.confirmInsecure ? this.opts.confirmInsecure(host) : Promise.resolve(false);
          this.insecureAnswers.set(host, answer);
        }
        if (!(await answer)) return false;
      }
      return true;
    };
  }
}

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '[::1]' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
