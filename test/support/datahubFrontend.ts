/**
 * DataHub's frontend (port 9002) in front of a real catalog, routed as datahub-frontend routes
 * requests (conf/routes, app/controllers/Application.java): `GET /config` is the web app's own
 * config (`application: "datahub-frontend"`, no `noCode`), `/api/gms/<x>` is proxied to GMS as `/<x>`
 * (`mapPath`), `/api/graphql` is proxied unchanged, a POST elsewhere has no route (404), and every
 * other GET is the single-page app's index.html. With `sessionRequired`, `/api/*` without a session
 * cookie gets the frontend's own 401 with an empty body (Authenticator.onUnauthorized), which is what
 * a bearer-only call meets when `metadataService.auth.enabled` is off.
 */
import { startProxy, type Fault, type ProxiedRequest } from './proxy';

export interface DatahubFrontend {
  url: string;
  /** Paths (with query) the frontend passed on to the catalog, and the ones it answered itself. */
  readonly proxied: string[];
  readonly served: string[];
  sessionRequired: boolean;
  close(): Promise<void>;
}

const SPA =
  '<!doctype html><html><head><title>DataHub</title></head><body><div id="root"></div><script src="/assets/index.js"></script></body></html>';

export async function startDatahubFrontend(gms: string): Promise<DatahubFrontend> {
  let sessionRequired = false;
  /** What the frontend answers itself; undefined for what it proxies to GMS. */
  const ownAnswers = (req: ProxiedRequest): Fault | undefined => {
    const path = req.path.split('?')[0]!;
    if (path.startsWith('/api/'))
      return sessionRequired && !/PLAY_SESSION=/.test(req.headers.cookie ?? '') ? { status: 401 } : undefined;
    if (req.method === 'GET' && path === '/config')
      return {
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ application: 'datahub-frontend', appVersion: 'v1.2.0', isInternal: false }),
      };
    if (req.method === 'GET') return { status: 200, contentType: 'text/html; charset=utf-8', body: SPA };
    return {
      status: 404,
      contentType: 'text/html',
      body: `<html><body><h1>Action Not Found</h1><p>For request '${req.method} ${path}'</p></body></html>`,
    };
  };
  const proxy = await startProxy({
    target: gms,
    ownAnswers,
    rewritePath: (url) => (url.startsWith('/api/gms/') ? url.slice('/api/gms'.length) : url),
  });
  return {
    url: proxy.url,
    get proxied() {
      return proxy.exchanges.flatMap((e) => (e.forwardedAs !== undefined ? [e.forwardedAs] : []));
    },
    get served() {
      return proxy.exchanges.flatMap((e) => (e.answeredBy === 'proxy' ? [e.path] : []));
    },
    get sessionRequired() {
      return sessionRequired;
    },
    set sessionRequired(on: boolean) {
      sessionRequired = on;
    },
    close: () => proxy.stop(),
  };
}
