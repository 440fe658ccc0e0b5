/**
 * A real HTTP proxy in front of a real catalog that can be switched to misbehave: refuse
 * connections, answer slowly, answer 401/403/404/500/502, an HTML page, garbage, a truncated
 * body, or GraphQL errors beside partial data. Fault tests go through it; "recovered" is the
 * mode that forwards again.
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type FaultMode =
  | 'forward'
  | 'refuse'
  | 'slow'
  | 'drip'
  | 'status401'
  | 'status403'
  | 'status404'
  | 'status500'
  | 'status502'
  | 'html'
  | 'garbage'
  | 'truncated'
  | 'partialErrors';

export interface FaultProxy {
  url: string;
  mode: FaultMode;
  /** Requests that reached the proxy (refused connections are not counted). */
  requests: number;
  /** Authorization headers seen, to check where the token went. */
  authorizations: string[];
  setMode(mode: FaultMode): Promise<void>;
  close(): Promise<void>;
}

export async function startFaultProxy(target: string, slowMs = 60000): Promise<FaultProxy> {
  const targetUrl = new URL(target);
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const state: FaultProxy = {
    url: '',
    mode: 'forward',
    requests: 0,
    authorizations: [],
    async setMode(mode) {
      const wasRefusing = state.mode === 'refuse';
      state.mode = mode;
      if (mode === 'refuse' && !wasRefusing) await stop();
      if (mode !== 'refuse' && wasRefusing) await listen();
    },
    async close() {
      await stop();
    },
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    state.requests++;
    if (req.headers.authorization) state.authorizations.push(req.headers.authorization);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      switch (state.mode) {
        case 'slow': {
          const t = setTimeout(() => forward(req, body, res), slowMs);
          res.on('close', () => clearTimeout(t));
          return;
        }
        case 'drip': {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          const t = setInterval(() => res.write(' '), 200);
          res.on('close', () => clearInterval(t));
          return;
        }
        case 'status401':
          res.writeHead(401, { 'Content-Type': 'text/plain' }).end('Unauthorized to perform this action.');
          return;
        case 'status403':
          res
            .writeHead(403, { 'Content-Type': 'application/json' })
            .end('{"error":"is unauthorized to READ entities."}');
          return;
        case 'status404':
          res.writeHead(404, { 'Content-Type': 'text/html' }).end('<html><body>Not Found</body></html>');
          return;
        case 'status500':
          res.writeHead(500, { 'Content-Type': 'application/json' }).end('{"error":"Internal server error occurred"}');
          return;
        case 'status502':
          res.writeHead(502, { 'Content-Type': 'text/html' }).end('<html><body><h1>502 Bad Gateway</h1></body></html>');
          return;
        case 'html':
          res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><html><body>Sign in</body></html>');
          return;
        case 'garbage':
          res.writeHead(200, { 'Content-Type': 'application/json' }).end('\u0000\u0001garbage}{');
          return;
        case 'truncated':
          res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"data": {"e0": {"urn": "urn:li:data');
          return;
        case 'partialErrors':
          forward(req, body, res, (json) => {
            const j = json as { data?: Record<string, unknown>; errors?: unknown[] };
            const first = Object.keys(j.data ?? {})[0];
            if (first && j.data) {
              j.data[first] = null;
              j.errors = [
                {
                  message: 'An unknown error occurred.',
                  path: [first],
                  extensions: { code: 500, type: 'SERVER_ERROR' },
                },
              ];
            }
            return j;
          });
          return;
        default:
          forward(req, body, res);
      }
    });
  };

  const forward = (
    req: IncomingMessage,
    body: Buffer,
    res: ServerResponse,
    rewrite?: (json: unknown) => unknown,
  ): void => {
    const up = request(
      {
        host: targetUrl.hostname,
        port: targetUrl.port,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, host: targetUrl.host, 'content-length': String(body.length) },
      },
      (upRes) => {
        const parts: Buffer[] = [];
        upRes.on('data', (c: Buffer) => parts.push(c));
        upRes.on('end', () => {
          let out = Buffer.concat(parts);
          if (rewrite) out = Buffer.from(JSON.stringify(rewrite(JSON.parse(out.toString()))));
          res
            .writeHead(upRes.statusCode ?? 502, { 'Content-Type': upRes.headers['content-type'] ?? 'application/json' })
            .end(out);
        });
      },
    );
    up.on('error', () => res.writeHead(502).end());
    up.end(body);
  };

  const listen = (): Promise<void> =>
    new Promise((resolve) => {
      server = createServer(handle);
      server.on('connection', (s) => {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as AddressInfo).port;
        state.url = `http://127.0.0.1:${port}`;
        resolve();
      });
    });
  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      if (!server) {
        resolve();
        return;
      }
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
      server = undefined;
    });
  await listen();
  return state;
}
