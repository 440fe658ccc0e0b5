/**
 * DataHub's frontend (port 9002) in front of a real catalog, routed as datahub-frontend routes
 * requests (conf/routes, app/controllers/Application.java): `GET /config` is the web app's own
 * config (`application: "datahub-frontend"`, no `noCode`), `/api/gms/<x>` is proxied to GMS as `/<x>`
 * (`mapPath`), `/api/graphql` is proxied unchanged, a POST elsewhere has no route (404), and every
 * other GET is the single-page app's index.html. With `sessionRequired`, `/api/*` without a session
 * cookie gets the frontend's own 401 with an empty body (Authenticator.onUnauthorized), which is what
 * a bearer-only call meets when `metadataService.auth.enabled` is off.
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { listenOnLoopback } from './loopbackServer';

export interface DatahubFrontend {
  url: string;
  /** Paths (with query) the frontend passed on to the catalog, and the ones it answered itself. */
  proxied: string[];
  served: string[];
  sessionRequired: boolean;
  close(): Promise<void>;
}

const SPA =
  '<!doctype html><html><head><title>DataHub</title></head><body><div id="root"></div><script src="/assets/index.js"></script></body></html>';

export async function startDatahubFrontend(gms: string): Promise<DatahubFrontend> {
  const target = new URL(gms);
  const state: DatahubFrontend = {
    url: '',
    proxied: [],
    served: [],
    sessionRequired: false,
    close: async () => undefined,
  };

  const forward = (req: IncomingMessage, path: string, body: Buffer, res: ServerResponse): void => {
    state.proxied.push(path);
    const up = request(
      {
        host: target.hostname,
        port: target.port,
        path,
        method: req.method,
        headers: { ...req.headers, host: target.host, 'content-length': String(body.length) },
      },
      (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, { 'Content-Type': upRes.headers['content-type'] ?? 'application/json' });
        upRes.pipe(res);
      },
    );
    up.on('error', () => res.writeHead(502, { 'Content-Type': 'text/plain' }).end('Proxy connection failed'));
    up.end(body);
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = req.url ?? '/';
      const path = url.split('?')[0]!;
      const body = Buffer.concat(chunks);
      if (path.startsWith('/api/')) {
        if (state.sessionRequired && !/PLAY_SESSION=/.test(req.headers.cookie ?? '')) {
          state.served.push(url);
          res.writeHead(401).end();
          return;
        }
        forward(req, path.startsWith('/api/gms/') ? url.slice('/api/gms'.length) : url, body, res);
        return;
      }
      state.served.push(url);
      if (req.method === 'GET' && path === '/config') {
        res
          .writeHead(200, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ application: 'datahub-frontend', appVersion: 'v1.2.0', isInternal: false }));
      } else if (req.method === 'GET') {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(SPA);
      } else {
        res
          .writeHead(404, { 'Content-Type': 'text/html' })
          .end(`<html><body><h1>Action Not Found</h1><p>For request '${req.method} ${path}'</p></body></html>`);
      }
    });
  };

  const server: Server = createServer(handle);
  const listening = await listenOnLoopback(server);
  state.url = listening.url;
  state.close = listening.close;
  return state;
}
