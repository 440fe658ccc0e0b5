/**
 * The HTTP transport under CatalogHttp: one request, one answer, on Node's own `http`/`https` with
 * a keep-alive agent per protocol, so that a cold hover's request reuses the connection the last
 * one opened. The request goes out in one write (headers and body together, its length known);
 * the answer is read whole, at most `size` bytes, decompressed when the catalog compressed it.
 * Nothing here follows a redirect: a 3xx is an answer like any other (CatalogHttp refuses it).
 */
import type * as Http from 'node:http';
import type * as Https from 'node:https';
import type { Readable } from 'node:stream';
import type * as Zlib from 'node:zlib';

/** What CatalogHttp asks the transport to send. */
export interface FetchInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** Redirects are answers, never followed (a redirect could carry the token to another host). */
  redirect: 'manual';
  /** Most bytes of the answer's body: more fails the request ("over limit"). */
  size: number;
  signal: AbortSignal;
}

/** What the transport answers: the status, the headers, and the body as text. */
export interface FetchResponse {
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}

export type Fetch = (url: string, init: FetchInit) => Promise<FetchResponse>;

/**
 * Node's http and https, and an agent for each that keeps connections open between requests (Node
 * closes an idle one after a few seconds). Loaded with the first request: the server answers
 * `initialize` without them.
 */
let client: { http: typeof Http; https: typeof Https; agents: { http: Http.Agent; https: Https.Agent } } | undefined;
function httpClient(): NonNullable<typeof client> {
  if (!client) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded with the first request, as said above
    const http = require('node:http') as typeof Http;
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded with the first request, as said above
    const https = require('node:https') as typeof Https;
    client = {
      http,
      https,
      agents: { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) },
    };
  }
  return client;
}

/** Node's zlib, loaded with the first compressed answer. */
let zlibModule: typeof Zlib | undefined;
function zlib(): typeof Zlib {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded when first needed, as said above
  return (zlibModule ??= require('node:zlib') as typeof Zlib);
}

/**
 * A URL with a user and password (`http://alice:pw@host`) is sent as Basic authentication, as
 * node-fetch 2 did (Node's `auth` option): WHATWG fetch, and node-fetch 3 after it, refuse such URLs.
 * An Authorization header already set (the access token) wins, as it did with Node's `auth`.
 */
export function credentialsAsHeader(url: string, init: FetchInit): { url: string; init: FetchInit } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { url, init };
  }
  const moved = credentialsOf(parsed, init.headers);
  return moved ? { url: parsed.href, init: { ...init, headers: moved } } : { url, init };
}

/**
 * The headers with the URL's user and password as Basic authentication (removed from `parsed`),
 * or undefined when the URL has none.
 */
function credentialsOf(parsed: URL, headers: Record<string, string>): Record<string, string> | undefined {
  if (parsed.username === '' && parsed.password === '') return undefined;
  const user = decodeURIComponent(parsed.username);
  const password = decodeURIComponent(parsed.password);
  parsed.username = '';
  parsed.password = '';
  const out = { ...headers };
  if (!Object.keys(out).some((k) => k.toLowerCase() === 'authorization'))
    out['Authorization'] = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  return out;
}

/** Sends one request with Node's http/https and answers its status, headers and body. */
export const nodeFetch: Fetch = (url, init) =>
  new Promise<FetchResponse>((resolve, reject) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch (e) {
      reject(e instanceof Error ? e : new Error(String(e)));
      return;
    }
    const secure = target.protocol === 'https:';
    if (!secure && target.protocol !== 'http:') {
      reject(new Error(`unsupported protocol ${target.protocol} in ${target.origin}`));
      return;
    }
    const body = init.body === undefined ? undefined : Buffer.from(init.body);
    const headers: Record<string, string> = {
      'Accept-Encoding': 'gzip, deflate, br',
      ...(credentialsOf(target, init.headers) ?? init.headers),
    };
    if (body) headers['Content-Length'] = String(body.length);
    const { http, https, agents } = httpClient();
    const signal = init.signal;
    if (signal.aborted) {
      reject(abortError(signal));
      return;
    }
    const request = (secure ? https : http).request(target, {
      method: init.method,
      headers,
      agent: secure ? agents.https : agents.http,
    });
    // The signal destroys the request until it closes (its answer read or failed), as Node's own
    // `signal` option does; one listener, taken off at the close, instead of that option's stream
    // watchers per request.
    const onAbort = (): void => {
      request.destroy(abortError(signal));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    request.once('close', () => signal.removeEventListener('abort', onAbort));
    request.once('error', reject);
    request.once('response', (res) => {
      const text = readBody(res, init.size);
      // Read at once, so that an error of the stream is caught whether or not `text()` is called.
      text.catch(() => undefined);
      resolve({
        status: res.statusCode ?? 0,
        headers: { get: (name) => headerOf(res, name) },
        text: () => text,
      });
    });
    request.end(body);
  });

/** The error Node's http gives a request its signal aborted: an AbortError with the reason as its cause. */
function abortError(signal: AbortSignal): Error {
  return Object.assign(new Error('The operation was aborted', { cause: signal.reason }), {
    name: 'AbortError',
    code: 'ABORT_ERR',
  });
}

function headerOf(res: Http.IncomingMessage, name: string): string | null {
  const v = res.headers[name.toLowerCase()];
  return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
}

/** The body as text: decompressed as its Content-Encoding says, at most `limit` bytes. */
function readBody(res: Http.IncomingMessage, limit: number): Promise<string> {
  const encoding = (res.headers['content-encoding'] ?? '').trim().toLowerCase();
  let stream: Readable = res;
  if (['gzip', 'x-gzip', 'deflate', 'br'].includes(encoding)) {
    const z = zlib();
    // Flushes a compressed body that ends without its trailer, as browsers do.
    const lenient = { flush: z.constants.Z_SYNC_FLUSH, finishFlush: z.constants.Z_SYNC_FLUSH };
    stream = res.pipe(
      encoding === 'br'
        ? z.createBrotliDecompress()
        : encoding === 'deflate'
          ? z.createInflate(lenient)
          : z.createGunzip(lenient),
    );
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    let done = false;
    const fail = (e: Error): void => {
      if (done) return;
      done = true;
      res.destroy();
      if (stream !== res) stream.destroy();
      reject(e);
    };
    // The connection closed before the whole body came: node-fetch's word for it.
    res.once('aborted', () => fail(new Error('premature close')));
    res.once('error', (e) => fail(e));
    if (stream !== res) stream.once('error', (e) => fail(e));
    stream.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > limit) fail(new Error(`content size over limit: ${limit}`));
      else chunks.push(chunk);
    });
    stream.once('end', () => {
      if (done) return;
      done = true;
      if (!res.complete) reject(new Error('premature close'));
      else resolve(Buffer.concat(chunks, bytes).toString('utf8'));
    });
  });
}
