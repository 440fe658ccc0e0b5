/**
 * Where the Rest.li paths (`/aspects`, `/entitiesV2`) live for a configured `catalogLens.url`.
 * Users give DataHub's address in three forms that work — GMS (`http://host:8080`), the frontend's
 * proxy (`https://host/api/gms`) and DataHub Cloud (`https://name.acryl.io/gms`) — and one that
 * half works: the frontend root, where GraphQL is proxied (`/api/graphql`) but every other GET is
 * the web app (datahub-frontend conf/routes: `/api/*path` is proxied, `/*path` serves index.html).
 * GMS answers `GET /config` with JSON holding `"noCode": "true"`, which is how DataHub's own SDK
 * tells it from the frontend (metadata-ingestion rest_emitter.py, `fetch_server_config`; the
 * frontend's `/config` is its own app config, without `noCode`).
 */
import type { CatalogError } from './errors';
import { catalogError, displayUrl } from './errors';
import type { CatalogHttp } from './http';

export interface RestBase {
  /** The base the Rest.li paths are appended to. */
  url: string;
  /** One line for the status and the log when `url` is not what the setting says. */
  notice?: string;
  /** Set when the setting points at something that cannot serve the Rest.li paths. */
  error?: CatalogError;
  /** False when the answer says nothing yet (the catalog was unreachable): ask again next time. */
  settled: boolean;
}

const FRONTEND_PROXY = '/api/gms';

/**
 * What `GET {url}/config` tells about `url`: GMS (`noCode`), DataHub's frontend (its app config:
 * `application: "datahub-frontend"` in newer versions, `appVersion` without `noCode` in older ones —
 * datahub-frontend app/controllers/Application.java `appConfig`), a web page, or something else
 * (a catalog without `/config`, which is not judged).
 */
async function configOf(http: CatalogHttp, url: string, signal?: AbortSignal): Promise<'gms' | 'frontend' | 'other' | 'unreachable'> {
  const r = await http.call<unknown>(`${url}/config`, { method: 'GET', retry: true, accept: [404], ...(signal ? { signal } : {}) });
  if (!r.ok) {
    if (r.error.kind === 'unreachable' || r.error.kind === 'timeout' || r.error.kind === 'cancelled') return 'unreachable';
    return /HTML/i.test(r.error.message) ? 'frontend' : 'other';
  }
  const body = typeof r.body === 'object' && r.body !== null ? r.body as Record<string, unknown> : {};
  if (body['noCode'] === 'true') return 'gms';
  if (body['application'] === 'datahub-frontend' || ('appVersion' in body && !('noCode' in body))) return 'frontend';
  return 'other';
}

/**
 * Finds the Rest.li base for `url`. A frontend root whose `/api/gms` answers as GMS is corrected,
 * and the notice names the URL to set; one whose proxy does not answer is explained.
 */
export async function discoverRestBase(http: CatalogHttp, url: string, signal?: AbortSignal): Promise<RestBase> {
  const direct = await configOf(http, url, signal);
  if (direct === 'unreachable') return { url, settled: false };
  if (direct !== 'frontend' || url.endsWith(FRONTEND_PROXY)) return { url, settled: true };
  const proxied = `${url}${FRONTEND_PROXY}`;
  const viaProxy = await configOf(http, proxied, signal);
  if (viaProxy === 'gms') {
    return {
      url: proxied, settled: true,
      notice: `catalogLens.url ${displayUrl(url)} is DataHub's frontend; aspect reads and writes go through ${displayUrl(proxied)} — set catalogLens.url to ${displayUrl(proxied)}`,
    };
  }
  if (viaProxy === 'unreachable') return { url, settled: false };
  const error = catalogError('badResponse', `${displayUrl(url)} answers DataHub's web app, not its metadata service (GET /config has no "noCode")`, displayUrl(url));
  error.hint = `Set catalogLens.url to DataHub's metadata service (GMS, e.g. http://host:8080) or to ${displayUrl(proxied)}.`;
  return { url, settled: true, error };
}
