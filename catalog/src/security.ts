/**
 * What a web page must not do to the local catalog: write through a
 * form or a `text/plain` fetch, which browsers send cross-origin without a CORS preflight, or read
 * after a DNS rebind, which makes the page's own origin (`http://evil.example:PORT`) reach
 * 127.0.0.1. Every request is checked, in this order, before auth and routing:
 *
 * 1. `Host` must be one of the catalog's own names with its port: the `--host` value, and
 *    `127.0.0.1:PORT`, `localhost:PORT`, `[::1]:PORT` when it listens on loopback (or on every
 *    address), and the names given with `--allowed-hosts`. A rebound page sends
 *    its own name, so it is refused — its reads as well as its writes. A missing Host is refused.
 * 2. `Origin`, when sent, must be the origin of one of those names. Programs (the language server,
 *    curl) send none; a page of another origin sends its own, and so does a sandboxed frame
 *    (`null`), which is refused too.
 * 3. `POST` must say `Content-Type: application/json` (parameters such as charset allowed): a
 *    form (`application/x-www-form-urlencoded`, `multipart/form-data`, `text/plain`) or a
 *    "simple" fetch cannot, and a page that sets it triggers a preflight.
 * 4. `OPTIONS` is a 405, and no answer ever carries `Access-Control-*`: no preflight succeeds.
 *
 * Pages are plain GETs: the browser that opens one on the catalog's own Host sends that Host and,
 * if any, its own Origin, so they stay reachable; reached through any other name they are refused
 * like every other request — with one exception, for an editor's port proxy (code-server rewrites
 * `http://127.0.0.1:9410/…` to `http://127.0.0.1:EDITOR/proxy/9410/…`, and the request then carries
 * the editor's Host): a catalog started with a pages secret (CATALOG_LENS_PAGES_SECRET) also serves its
 * pages under `/_pages/SECRET/…`, and there a GET or HEAD whose Host is a loopback name on any
 * port (and whose Origin, if sent, is that Host's own) passes. A rebound page sends its own name as
 * Host and does not know the secret; the prefix reaches pages only, never an API.
 */
import { isLoopbackHost } from '../../model/src/origin';
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

export interface Refusal {
  status: number;
  message: string;
}

export interface HostRuleOptions {
  /** The address the server is bound to (`--host`). */
  bindHost: string;
  port: number;
  /** Extra names from `--allowed-hosts`: `name` (this port is added) or `name:port`. */
  allowedHosts?: readonly string[];
  /** The secret of the pages' proxy prefix `/_pages/SECRET/` (CATALOG_LENS_PAGES_SECRET); none: no prefix. */
  pagesSecret?: string | undefined;
}

/** The first path segment of the pages' proxy prefix: `/_pages/SECRET/…`. */
export const PAGES_PREFIX_ROOT = '_pages';

/** What a pages secret may hold: URL-safe characters only, long enough not to be guessed. */
export const PAGES_SECRET_RE = /^[A-Za-z0-9_-]{16,128}$/;

/**
 * A request path under the pages' proxy prefix: `rest` is the path after it (`/` at least), and
 * `valid` says whether the secret in it is this catalog's. Undefined when the path does not start
 * with `/_pages/`.
 */
export function pagesPrefix(path: string, secret: string | undefined): { valid: boolean; rest: string } | undefined {
  const head = `/${PAGES_PREFIX_ROOT}/`;
  if (!path.startsWith(head)) return undefined;
  const end = path.indexOf('/', head.length);
  const given = end < 0 ? path.slice(head.length) : path.slice(head.length, end);
  const rest = end < 0 ? '/' : path.slice(end);
  return { valid: secret !== undefined && sameSecret(given, secret), rest };
}

function sameSecret(given: string, secret: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** `name:port` with a loopback name (`127.0.0.1`, `localhost`, `[::1]`) and any port. */
function isLoopbackHostHeader(host: string): boolean {
  const m = /^(\[[^\]]*\]|[^:]+)(?::\d{1,5})?$/.exec(host);
  return m !== null && LOOPBACK_NAMES.includes(m[1]!.toLowerCase());
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** Whether binding this address listens on every interface (loopback included). */
export function isWildcard(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '');
  return h === '0.0.0.0' || h === '::';
}

function hostWithPort(name: string, port: number): string {
  const n = name.toLowerCase();
  if (/^\[.*\]:\d+$/.test(n) || /^[^:]+:\d+$/.test(n)) return n;
  const bracketed = isIP(n) === 6 ? `[${n}]` : n;
  return `${bracketed}:${port}`;
}

/** The `Host` values this catalog answers to, lower case, each with its port. */
export function acceptedHosts(o: HostRuleOptions): string[] {
  const names = new Set<string>();
  const bind = o.bindHost.replace(/^\[|\]$/g, '');
  if (isLoopbackHost(bind) || isWildcard(bind)) for (const n of LOOPBACK_NAMES) names.add(hostWithPort(n, o.port));
  names.add(hostWithPort(bind, o.port));
  for (const extra of o.allowedHosts ?? []) names.add(hostWithPort(extra, o.port));
  return [...names];
}

export class RequestGuard {
  readonly hosts: readonly string[];
  private readonly hostSet: Set<string>;
  private readonly origins: Set<string>;
  private readonly pagesSecret: string | undefined;

  constructor(o: HostRuleOptions) {
    this.pagesSecret = o.pagesSecret;
    this.hosts = acceptedHosts(o);
    this.hostSet = new Set(this.hosts);
    // Port 80 is left out of a Host and an Origin by browsers.
    if (o.port === 80) for (const h of this.hosts) this.hostSet.add(h.replace(/:80$/, ''));
    this.origins = new Set([...this.hostSet].map((h) => `http://${h}`));
  }

  /**
   * A page request through an editor's port proxy: a GET or HEAD under `/_pages/SECRET/` with this
   * catalog's secret, a loopback Host on any port and, if any, that Host's own Origin.
   */
  private isProxiedPage(req: IncomingMessage, host: string): boolean {
    if (this.pagesSecret === undefined) return false;
    const method = req.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') return false;
    if (!isLoopbackHostHeader(host.toLowerCase())) return false;
    const origin = req.headers.origin;
    if (origin !== undefined && origin.toLowerCase() !== `http://${host.toLowerCase()}`) return false;
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    return pagesPrefix(q >= 0 ? url.slice(0, q) : url, this.pagesSecret)?.valid === true;
  }

  /** Why this request is refused, or undefined when it may go on to auth and routing. */
  check(req: IncomingMessage): Refusal | undefined {
    const host = req.headers.host;
    if (host === undefined || host === '') {
      return {
        status: 400,
        message: `the request has no Host header; this catalog answers to Host ${this.hosts.join(', ')}`,
      };
    }
    // Most requests send the name exactly as the catalog has it (lower case): no new string.
    if (!this.hostSet.has(host) && !this.hostSet.has(host.toLowerCase())) {
      if (this.isProxiedPage(req, host)) return undefined;
      return {
        status: 403,
        message:
          `Host '${printable(host)}' is not this catalog's name: it answers to Host ${this.hosts.join(', ')} ` +
          '(a page reached through another name, e.g. after a DNS rebind, is refused; start the catalog with --allowed-hosts NAME to add one)',
      };
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !this.origins.has(origin) && !this.origins.has(origin.toLowerCase())) {
      return {
        status: 403,
        message:
          `Origin '${printable(origin)}' is not this catalog's: requests from web pages of other origins are refused ` +
          `(its own: ${this.hosts.map((h) => `http://${h}`).join(', ')})`,
      };
    }
    const method = req.method ?? 'GET';
    if (method === 'OPTIONS') {
      return {
        status: 405,
        message:
          'OPTIONS is not supported: this catalog answers no CORS preflight, so pages of other origins cannot call it',
      };
    }
    if (method === 'POST' && !isJson(req.headers['content-type'])) {
      const found = req.headers['content-type'];
      return {
        status: 415,
        message:
          `POST needs Content-Type: application/json; found ${found === undefined ? 'none' : `'${printable(found)}'`} ` +
          '(forms and text/plain bodies are refused: a web page can send those to this machine without asking)',
      };
    }
    return undefined;
  }
}

/** `application/json`, with or without parameters (`; charset=utf-8`). */
export function isJson(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  if (contentType === 'application/json') return true;
  const semicolon = contentType.indexOf(';');
  return (semicolon < 0 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase() === 'application/json';
}

/** A header value as an error message may quote it: short, printable ASCII only. */
function printable(v: string): string {
  const shown = v.slice(0, 200).replace(/[^\x20-\x7e]/g, '?');
  return v.length > 200 ? `${shown}…` : shown;
}
