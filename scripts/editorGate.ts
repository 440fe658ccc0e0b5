/**
 * The gate in front of code-server. code-server runs with
 * `--auth none` on a unix socket in a 0700 folder, so no other local user reaches it; this gate
 * is the only way in, on 127.0.0.1:PORT, and it:
 *   - refuses every request (HTTP and WebSocket upgrade) whose Host is not 127.0.0.1:PORT or
 *     localhost:PORT. After a DNS rebind the browser sends the attacker's name as Host (and as
 *     Origin, so code-server's own Origin == Host check passes): refusing foreign Hosts defeats it;
 *   - requires a random secret: the printed URL carries `?tkn=<secret>`; the gate checks it in
 *     constant time, sets an HttpOnly SameSite=Strict cookie and redirects to the URL without it.
 *     Anything without a valid cookie gets 403 and a short page saying which URL to open;
 *   - refuses a WebSocket upgrade or a non-GET request whose Origin is not this gate's own;
 *   - forwards everything else to code-server with Host unchanged (code-server compares Origin
 *     with Host), without its own cookie and without Forwarded / X-Forwarded-* headers (code-server
 *     would take the Host from them).
 * Shared by `npm start` (scripts/start.mjs loads the dist/editorGate.js bundle) and the e2e
 * harness, so every end-to-end test goes through it. It never logs or prints the secret.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import {
  Agent,
  createServer,
  request,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

/** The query parameter of the printed URL that carries the secret. */
export const SECRET_PARAM = 'tkn';
/** What code-server prints once it listens on its socket. */
export const CODE_SERVER_SOCKET_RE = /HTTP server listening on (\/\S+)/;
/** Longest unix socket path Linux takes (sun_path is 108 bytes with its NUL). */
const MAX_SOCKET_PATH = 107;

export interface EditorGateOptions {
  /** The unix socket code-server listens on. */
  upstreamSocket: string;
  /** The port on 127.0.0.1; 0 takes a free one. */
  port: number;
  /** For tests; by default 32 random bytes. */
  secret?: string;
}

export interface EditorGate {
  readonly port: number;
  /** `http://127.0.0.1:PORT`. */
  readonly origin: string;
  /** The name of the cookie that holds the secret (one per port: cookies are not kept apart by port). */
  readonly cookieName: string;
  /** The URL to open: `pathAndQuery` on this gate, with the secret added to its query. */
  urlWithSecret(pathAndQuery?: string): string;
  /** Stops listening and ends every open connection. */
  close(): Promise<void>;
}

/** A new 0700 folder under the temp dir for code-server's socket (short: unix socket paths are limited). */
export function createSocketDir(): { dir: string; socket: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'catalog-lens-editor-'));
  const socket = path.join(dir, 'code-server.sock');
  if (Buffer.byteLength(socket) > MAX_SOCKET_PATH) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(
      `the socket path ${socket} is longer than ${MAX_SOCKET_PATH} bytes: set TMPDIR to a shorter folder`,
    );
  }
  return { dir, socket, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** code-server's listening flags behind the gate: no password of its own, a socket only its user can open. */
export function codeServerListenArgs(socket: string): string[] {
  return ['--auth', 'none', '--socket', socket, '--socket-mode', '600'];
}

export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** Constant-time comparison; hashing first makes the lengths equal, so the length does not leak either. */
export function secretMatches(given: string | undefined, secret: string): boolean {
  if (given === undefined) return false;
  const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(secret));
}

/** The value of one cookie in a Cookie header, or undefined. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

type Verdict = { ok: true } | { ok: false; status: number; text: string } | { ok: 'redirect'; location: string };

export async function startEditorGate(opts: EditorGateOptions): Promise<EditorGate> {
  if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535) throw new Error(`not a port: ${opts.port}`);
  const secret = opts.secret ?? newSecret();
  // It goes into a cookie and a URL as it is: letters, digits, - and _ need no escaping in either.
  if (!/^[A-Za-z0-9_-]{16,}$/.test(secret))
    throw new Error("the gate's secret must be at least 16 characters of A-Z, a-z, 0-9, - and _");
  let port = opts.port;
  let cookieName = '';
  const sockets = new Set<Socket>();
  // Its own agent, destroyed by close(), so no kept-alive upstream socket outlives the gate.
  const agent = new Agent({ keepAlive: true });

  const allowedHost = (host: string | undefined): boolean => {
    const h = (host ?? '').toLowerCase();
    return h === `127.0.0.1:${port}` || h === `localhost:${port}`;
  };

  const openTheUrl = (): string =>
    `Catalog Lens: this editor needs the secret of the URL that \`npm start\` printed (http://127.0.0.1:${port}/?${SECRET_PARAM}=…). Open that URL.\n`;

  /** What to do with a request: let it through, refuse it, or trade the secret in its URL for a cookie. */
  const judge = (req: IncomingMessage, upgrade: boolean): Verdict => {
    const host = req.headers.host;
    if (!allowedHost(host)) {
      return {
        ok: false,
        status: 403,
        text: `Catalog Lens: refused. This editor answers only at http://127.0.0.1:${port}/ and http://localhost:${port}/, not at Host ${JSON.stringify(host ?? '')}.\n`,
      };
    }
    const target = req.url ?? '';
    // Absolute-form targets (`GET http://other/ HTTP/1.1`) and `*` name another host or none.
    if (!target.startsWith('/'))
      return { ok: false, status: 400, text: 'Catalog Lens: the request target must be a path.\n' };
    const origin = req.headers.origin;
    if (
      (upgrade || !['GET', 'HEAD'].includes(req.method ?? '')) &&
      origin !== undefined &&
      origin.toLowerCase() !== `http://${host!.toLowerCase()}`
    ) {
      return {
        ok: false,
        status: 403,
        text: `Catalog Lens: refused a request from another origin (${JSON.stringify(origin)}).\n`,
      };
    }
    const url = new URL(target, `http://${host!}`);
    const given = url.searchParams.get(SECRET_PARAM);
    if (given !== null && !upgrade) {
      if (!secretMatches(given, secret))
        return { ok: false, status: 403, text: `Catalog Lens: that secret is not this editor's.\n${openTheUrl()}` };
      url.searchParams.delete(SECRET_PARAM);
      // Built from the checked Host: a target such as //other.example/ cannot redirect elsewhere.
      return { ok: 'redirect', location: `http://${host!}${url.pathname}${url.search}` };
    }
    if (!secretMatches(cookieValue(req.headers.cookie, cookieName), secret))
      return { ok: false, status: 403, text: openTheUrl() };
    return { ok: true };
  };

  const refusalHeaders = (text: string): Record<string, string> => ({
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
  });

  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    const verdict = judge(req, false);
    if (verdict.ok === false) {
      res.writeHead(verdict.status, refusalHeaders(verdict.text)).end(verdict.text);
      req.resume();
      return;
    }
    if (verdict.ok === 'redirect') {
      res
        .writeHead(302, {
          Location: verdict.location,
          'Set-Cookie': `${cookieName}=${secret}; Path=/; HttpOnly; SameSite=Strict`,
          'Cache-Control': 'no-store',
          'Referrer-Policy': 'no-referrer',
          'Content-Length': '0',
        })
        .end();
      req.resume();
      return;
    }
    const upstream = request(
      {
        agent,
        socketPath: opts.upstreamSocket,
        method: req.method,
        path: req.url,
        headers: forwardedHeaders(req.headers, cookieName),
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.statusMessage, up.rawHeaders);
        // code-server going away mid-answer: the browser sees a cut answer, not a hung one.
        up.on('error', () => res.destroy());
        up.pipe(res);
      },
    );
    upstream.on('error', (err) => {
      if (!res.headersSent) {
        const text = `Catalog Lens: code-server did not answer (${err.message}).\n`;
        res.writeHead(502, refusalHeaders(text)).end(text);
      } else {
        res.destroy();
      }
    });
    // A browser that goes away mid-answer: stop the upstream request too.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  };

  const onUpgrade = (req: IncomingMessage, client: Socket, head: Buffer): void => {
    client.on('error', () => client.destroy());
    const verdict = judge(req, true);
    if (verdict.ok !== true) {
      const text = verdict.ok === false ? verdict.text : openTheUrl();
      const status = verdict.ok === false ? verdict.status : 403;
      const lines = Object.entries({ ...refusalHeaders(text), Connection: 'close' })
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('');
      client.end(`HTTP/1.1 ${status} ${status === 400 ? 'Bad Request' : 'Forbidden'}\r\n${lines}\r\n${text}`);
      return;
    }
    const upstream = connect(opts.upstreamSocket);
    sockets.add(upstream);
    upstream.once('close', () => sockets.delete(upstream));
    const fail = (): void => {
      upstream.destroy();
      client.destroy();
    };
    upstream.on('error', fail);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    upstream.once('connect', () => {
      // The request head as it came, minus the gate's cookie and the forwarding headers; then the
      // bytes that followed it, then both ways as they come.
      const headers = Object.entries(forwardedHeaders(req.headers, cookieName)).flatMap(([k, v]) =>
        Array.isArray(v) ? v.map((x) => `${k}: ${x}\r\n`) : v === undefined ? [] : [`${k}: ${v}\r\n`],
      );
      upstream.write(`${req.method ?? 'GET'} ${req.url ?? '/'} HTTP/1.1\r\n${headers.join('')}\r\n`);
      if (head.length > 0) upstream.write(head);
      client.pipe(upstream);
      upstream.pipe(client);
    });
  };

  const server = createServer(onRequest);
  server.on('upgrade', onUpgrade);
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as { port: number }).port;
  cookieName = `catalog-lens-editor-${port}`;
  const origin = `http://127.0.0.1:${port}`;
  return {
    port,
    origin,
    cookieName,
    urlWithSecret: (pathAndQuery = '/') => {
      const url = new URL(pathAndQuery, origin);
      if (url.origin !== origin) throw new Error(`${pathAndQuery} is not a path on ${origin}`);
      url.searchParams.set(SECRET_PARAM, secret);
      return url.href;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
        agent.destroy();
      }),
  };
}

/**
 * The request's headers for code-server: Host unchanged, the gate's cookie removed (code-server's
 * port proxy would pass it on to other local servers), and no Forwarded / X-Forwarded-* (code-server
 * reads the Host from them before the Host header).
 */
export function forwardedHeaders(headers: IncomingHttpHeaders, cookieName: string): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (name === 'forwarded' || name.startsWith('x-forwarded-')) continue;
    if (name === 'cookie' && typeof value === 'string') {
      const rest = value
        .split(';')
        .filter((part) => part.split('=')[0]!.trim() !== cookieName)
        .join(';')
        .trim();
      if (rest !== '') out.cookie = rest;
      continue;
    }
    out[name] = value;
  }
  return out;
}
