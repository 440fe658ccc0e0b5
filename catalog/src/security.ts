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
 * Pages (a later issue adds UI pages to the catalog) are plain GETs: the browser that opens one on
 * the catalog's own Host sends that Host and, if any, its own Origin, so they stay reachable;
 * reached through any other name they are refused like every other request.
 */
import { isLoopbackHost } from '../../model/src/origin';
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

  constructor(o: HostRuleOptions) {
    this.hosts = acceptedHosts(o);
    this.hostSet = new Set(this.hosts);
    // Port 80 is left out of a Host and an Origin by browsers.
    if (o.port === 80) for (const h of this.hosts) this.hostSet.add(h.replace(/:80$/, ''));
    this.origins = new Set([...this.hostSet].map((h) => `http://${h}`));
  }

  /** Why this request is refused, or undefined when it may go on to auth and routing. */
  check(req: IncomingMessage): Refusal | undefined {
    const host = req.headers.host;
    const accepted = this.hosts.join(', ');
    if (host === undefined || host === '') {
      return { status: 400, message: `the request has no Host header; this catalog answers to Host ${accepted}` };
    }
    if (!this.hostSet.has(host.toLowerCase())) {
      return {
        status: 403,
        message:
          `Host '${printable(host)}' is not this catalog's name: it answers to Host ${accepted} ` +
          '(a page reached through another name, e.g. after a DNS rebind, is refused; start the catalog with --allowed-hosts NAME to add one)',
      };
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !this.origins.has(origin.toLowerCase())) {
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
  return contentType.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

/** A header value as an error message may quote it: short, printable ASCII only. */
function printable(v: string): string {
  const shown = v.slice(0, 200).replace(/[^\x20-\x7e]/g, '?');
  return v.length > 200 ? `${shown}…` : shown;
}
