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
import type { CatalogClientError } from './errors';
import { catalogClientError, displayUrl } from './errors';
import type { CatalogHttp } from './http';

export interface RestBase {
  /** The base the Rest.li paths are appended to. */
  url: string;
  /** One line for the status and the log when `url` is not what the setting says. */
  notice?: string;
  /** Why the Rest.li paths cannot be used: the setting points at the wrong thing, or (not settled) `/config` could not be asked. */
  error?: CatalogClientError;
  /** False when the answer said nothing yet (unreachable, 5xx, throttled): ask again next time. */
  settled: boolean;
}

const FRONTEND_PROXY = '/api/gms';

type ConfigAnswer =
  | { is: 'gms' | 'frontend' | 'other' }
  | { is: 'refused'; error: CatalogClientError }
  | { is: 'unavailable'; error: CatalogClientError };

/**
 * What `GET {url}/config` tells about `url`, judged by status and body, never by message text:
 * GMS (JSON with `noCode`); DataHub's frontend (its app config: `application: "datahub-frontend"`
 * in newer versions, `appVersion` without `noCode` in older ones — datahub-frontend
 * app/controllers/Application.java `appConfig` — or a 2xx answer that is not JSON, a web page);
 * refused (401/403: GMS's own `/config` needs no token, a proxy in front may); unavailable
 * (unreachable, timed out, 5xx, throttled: nothing learnt); or something else, such as a catalog
 * without `/config` (404), which is not judged.
 */
async function configOf(http: CatalogHttp, url: string): Promise<ConfigAnswer> {
  const r = await http.call<unknown>(`${url}/config`, { method: 'GET', retry: true, accept: [404] });
  if (!r.ok) {
    const status = r.error.status;
    if (status !== undefined && status >= 200 && status < 300) return { is: 'frontend' };
    if (status === 401 || status === 403) return { is: 'refused', error: r.error };
    if (status === undefined || status >= 500 || status === 429 || status < 400)
      return { is: 'unavailable', error: r.error };
    return { is: 'other' };
  }
  if (r.status === 404) return { is: 'other' };
  const body = typeof r.body === 'object' && r.body !== null ? (r.body as Record<string, unknown>) : {};
  if (body['noCode'] === 'true') return { is: 'gms' };
  if (body['application'] === 'datahub-frontend' || ('appVersion' in body && !('noCode' in body)))
    return { is: 'frontend' };
  return { is: 'other' };
}

/**
 * Finds the Rest.li base for `url`. A frontend root whose `/api/gms` answers as GMS is corrected,
 * and the notice names the URL to set; one whose proxy refuses or does not answer as GMS is
 * explained. Runs on its own (no caller's cancellation), so every caller waiting on it gets a verdict.
 */
export async function discoverRestBase(http: CatalogHttp, url: string): Promise<RestBase> {
  const direct = await configOf(http, url);
  if (direct.is === 'unavailable') return { url, settled: false, error: direct.error };
  if (direct.is !== 'frontend' || url.endsWith(FRONTEND_PROXY)) return { url, settled: true };
  const proxied = `${url}${FRONTEND_PROXY}`;
  const viaProxy = await configOf(http, proxied);
  if (viaProxy.is === 'gms') {
    return {
      url: proxied,
      settled: true,
      notice: `catalogLens.url ${displayUrl(url)} is DataHub's frontend; aspect reads and writes go through ${displayUrl(proxied)} — set catalogLens.url to ${displayUrl(proxied)}`,
    };
  }
  if (viaProxy.is === 'unavailable') return { url, settled: false, error: viaProxy.error };
  const why =
    viaProxy.is === 'refused'
      ? `its ${FRONTEND_PROXY} refused the request (${viaProxy.error.status})`
      : `its ${FRONTEND_PROXY} does not answer as GMS`;
  const error = catalogClientError(
    'badResponse',
    `${displayUrl(url)} is DataHub's web app, not its metadata service (GET /config has no "noCode"), and ${why}`,
    displayUrl(url),
  );
  error.hint = `Set catalogLens.url to DataHub's metadata service (GMS, e.g. http://host:8080)${viaProxy.is === 'refused' ? ', or enable metadataService.auth on the frontend and use' : ' or to'} ${displayUrl(proxied)}.`;
  return { url, settled: true, error };
}
