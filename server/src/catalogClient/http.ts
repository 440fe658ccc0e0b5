/**
 * The only code that talks HTTP (through transport.ts). Every call ends in a value (`{ok, body}` or a CatalogClientError),
 * has a timeout, honours cancellation, and never sends the token anywhere but the configured
 * catalog (redirects are not followed: a redirect could carry it to another host).
 */
import { catalogClientError, displayUrl, quoteCatalogText, type CatalogClientError } from './errors';
import { nodeFetch, type Fetch, type FetchResponse } from './transport';

export { credentialsAsHeader, type Fetch, type FetchInit, type FetchResponse } from './transport';

export interface HttpOptions {
  token: string | undefined;
  /**
   * Asked once per origin before the token is first sent there; `false` withholds it (requests go
   * without it). See CatalogClients: the token's own origin, plain HTTP off this machine, other origins.
   */
  allowToken?: (url: string) => Promise<true | string>;
  timeoutMs: number;
  fetch?: Fetch;
  /** Tells the owner about every request's outcome (status bar, logs). */
  onOutcome?: (endpoint: string, error: CatalogClientError | undefined) => void;
}

export type HttpResult<T> = { ok: true; status: number; body: T } | { ok: false; error: CatalogClientError };

export interface CallOptions {
  method: 'GET' | 'POST';
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Reads may be retried with back-off (a refused connection, 429, 502–504; never a timeout); writes never are. */
  retry?: boolean;
  /** Statuses that are answers, not errors (404 for "aspect absent", 422 for a conflict …). */
  accept?: readonly number[];
  /** A 404 from an endpoint that always exists (GraphQL) means a wrong address, not a missing entity. */
  notFoundMeansWrongAddress?: boolean;
}

const MAX_BODY_BYTES = 64 * 1024 * 1024;
const RETRY_DELAYS_MS = [150, 600];
const RETRY_STATUS = new Set([429, 502, 503, 504]);
/** How long a read waits for its answer once the catalog is known not to answer (CatalogHttp.hung). */
export const HUNG_READ_WAIT_MS = 500;

export class CatalogHttp {
  private readonly fetch: Fetch;
  private readonly tokenAllowed = new Map<string, Promise<true | string>>();

  constructor(private readonly opts: HttpOptions) {
    this.fetch = opts.fetch ?? nodeFetch;
  }

  /**
   * The last request that got no answer within the timeout (a hung or paused catalog), until a
   * request gets any answer or a refused connection. Meanwhile a read waits at most HUNG_READ_WAIT_MS for its own answer:
   * a hover or a diagnostic then says the catalog is not answering at once instead of after the
   * whole timeout, while the request itself runs on and reports its outcome (status, recovery).
   */
  private hung: CatalogClientError | undefined;

  async call<T = unknown>(url: string, call: CallOptions): Promise<HttpResult<T>> {
    const hung = this.hung;
    const request = this.attempts<T>(url, call);
    if (hung === undefined || call.retry !== true) return request;
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), HUNG_READ_WAIT_MS);
    });
    const first = await Promise.race([request, waited]);
    clearTimeout(timer);
    if (first !== undefined) return first;
    // An attempt meanwhile got an answer or a refusal (which comes fast): wait for this request's end.
    if (this.hung === undefined) return request;
    return {
      ok: false,
      error: {
        ...hung,
        message: `${hung.message}; it has not answered since, so reads do not wait for it (it is asked again in the background)`,
      },
    };
  }

  private async attempts<T>(url: string, call: CallOptions): Promise<HttpResult<T>> {
    let attempt = 0;
    for (;;) {
      const r = await this.once<T>(url, call);
      if (r.ok || r.error.status !== undefined || r.error.kind === 'unreachable') this.hung = undefined;
      else if (r.error.kind === 'timeout') this.hung = r.error;
      const retryable =
        !r.ok &&
        call.retry === true &&
        attempt < RETRY_DELAYS_MS.length &&
        // A timeout is not tried again: catalogLens.requestTimeoutMs is how long a request may take,
        // and a paused catalog would otherwise hold a write (or a hover) three times as long.
        (r.error.kind === 'unreachable' || (r.error.status !== undefined && RETRY_STATUS.has(r.error.status)));
      if (!retryable) {
        this.opts.onOutcome?.(url, r.ok ? undefined : r.error);
        return r;
      }
      const delay = RETRY_DELAYS_MS[attempt++]! * (0.75 + Math.random() * 0.5);
      if (!(await sleep(delay, call.signal)))
        return { ok: false, error: catalogClientError('cancelled', 'cancelled', displayUrl(url)) };
    }
  }

  /** The last URL asked and how messages show it: a client asks one endpoint over and over. */
  private lastShown: { url: string; shown: string } | undefined;

  /** displayUrl of `url`, worked out once per endpoint in a row. */
  private shown(url: string): string {
    if (this.lastShown?.url !== url) this.lastShown = { url, shown: displayUrl(url) };
    return this.lastShown.shown;
  }

  /** True, or why the token is withheld from this URL's origin. */
  private mayUseToken(url: string): Promise<true | string> {
    const allow = this.opts.allowToken;
    if (!allow) return Promise.resolve(true);
    let origin: string;
    try {
      origin = new URL(url).origin;
    } catch {
      return Promise.resolve('not a URL');
    }
    let answer = this.tokenAllowed.get(origin);
    if (!answer) {
      answer = allow(url).catch(() => 'the check failed');
      this.tokenAllowed.set(origin, answer);
    }
    return answer;
  }

  private async once<T>(url: string, call: CallOptions): Promise<HttpResult<T>> {
    const endpoint = this.shown(url);
    if (call.signal?.aborted) return { ok: false, error: catalogClientError('cancelled', 'cancelled', endpoint) };
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.opts.timeoutMs);
    const onCancel = (): void => controller.abort();
    call.signal?.addEventListener('abort', onCancel, { once: true });
    const headers: Record<string, string> = { Accept: 'application/json', ...call.headers };
    if (call.body !== undefined) headers['Content-Type'] = 'application/json';
    const withheld = this.opts.token ? await this.mayUseToken(url) : true;
    if (this.opts.token && withheld === true) headers['Authorization'] = `Bearer ${this.opts.token}`;
    try {
      const res = await this.fetch(url, {
        method: call.method,
        headers,
        ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
        redirect: 'manual',
        size: MAX_BODY_BYTES,
        signal: controller.signal,
      });
      const text = await res.text();
      if (res.status === 401 && typeof withheld === 'string') {
        return {
          ok: false,
          error: catalogClientError('unauthorized', `${endpoint} answered 401: ${withheld}`, endpoint, 401),
        };
      }
      return interpret<T>(res, text, endpoint, call.accept ?? [], call.notFoundMeansWrongAddress === true);
    } catch (e) {
      if (call.signal?.aborted) return { ok: false, error: catalogClientError('cancelled', 'cancelled', endpoint) };
      if (timedOut)
        return {
          ok: false,
          error: catalogClientError('timeout', `no answer from ${endpoint} within ${this.opts.timeoutMs} ms`, endpoint),
        };
      return { ok: false, error: networkError(e, endpoint) };
    } finally {
      clearTimeout(timer);
      call.signal?.removeEventListener('abort', onCancel);
    }
  }
}

function interpret<T>(
  res: FetchResponse,
  text: string,
  endpoint: string,
  accept: readonly number[],
  wrongAddressOn404: boolean,
): HttpResult<T> {
  const status = res.status;
  if (status >= 300 && status < 400) {
    return {
      ok: false,
      error: catalogClientError(
        'badResponse',
        `${endpoint} redirects (${status}) to ${quoteCatalogText(displayUrl(res.headers.get('location') ?? '?'), 200)}; configure the final address (the token is not sent through redirects)`,
        endpoint,
        status,
      ),
    };
  }
  if (status === 401) return { ok: false, error: unauthorized(text, endpoint) };
  if (status === 403)
    return {
      ok: false,
      error: withDetail(
        catalogClientError(
          'forbidden',
          `${endpoint} answered 403: ${shortMessage(text) ?? 'forbidden'}`,
          endpoint,
          status,
        ),
        text,
      ),
    };
  const accepted = (status >= 200 && status < 300) || accept.includes(status);
  if (!accepted) return { ok: false, error: withDetail(refusal(status, text, endpoint, wrongAddressOn404), text) };
  if (text === '') return { ok: true, status, body: undefined as T };
  try {
    return { ok: true, status, body: JSON.parse(text) as T };
  } catch {
    const kind = /^\s*</.test(text)
      ? 'an HTML page'
      : text.length > 0 && /^\s*[[{]/.test(text)
        ? 'truncated or invalid JSON'
        : 'text that is not JSON';
    return {
      ok: false,
      error: catalogClientError(
        'badResponse',
        `${endpoint} answered ${kind} (status ${status}) instead of JSON`,
        endpoint,
        status,
      ),
    };
  }
}

/** A status that is neither success nor an accepted answer; the message shows the body's message, shortened. */
function refusal(status: number, text: string, endpoint: string, wrongAddressOn404: boolean): CatalogClientError {
  const detail = shortMessage(text);
  const said = detail ? `: ${detail}` : '';
  if (status === 404) {
    return wrongAddressOn404
      ? catalogClientError(
          'badResponse',
          `${endpoint} answered 404${said} — is this the catalog's address?`,
          endpoint,
          status,
        )
      : catalogClientError('notFound', `${endpoint} answered 404${said}`, endpoint, status);
  }
  if (status === 413 || status === 400 || status === 422 || status === 412) {
    return catalogClientError('rejected', `${endpoint} refused the request (${status})${said}`, endpoint, status);
  }
  return catalogClientError('badResponse', `${endpoint} answered ${status}${said}`, endpoint, status);
}

/**
 * GMS refuses a missing or bad token with a servlet error page (AuthenticationFilter,
 * "Unauthorized to perform this action."); DataHub's frontend answers its own 401 with an empty body
 * when the call has no session cookie and the frontend does not take bearer tokens
 * (datahub-frontend/app/auth/Authenticator.java, `unauthorized()`). The token may be fine.
 */
function unauthorized(text: string, endpoint: string): CatalogClientError {
  if (text.trim() === '') {
    const e = catalogClientError(
      'unauthorized',
      `${endpoint} answered 401 with an empty body, as DataHub's frontend does for calls without a browser session`,
      endpoint,
      401,
    );
    e.hint =
      "The token may be fine: point catalogLens.url at DataHub's metadata service (GMS, e.g. http://host:8080) or at <frontend>/api/gms, or enable metadataService.auth on the frontend.";
    return e;
  }
  return withDetail(
    catalogClientError('unauthorized', `${endpoint} refused the access token (401)`, endpoint, 401),
    text,
  );
}

function withDetail(e: CatalogClientError, text: string): CatalogClientError {
  const full = fullMessage(text);
  if (full !== undefined) e.detail = full;
  return e;
}

/** The message a catalog put in an error body (Rest.li `message`, OpenAPI `error`, GraphQL `errors`), cut short. */
function shortMessage(text: string): string | undefined {
  const m = fullMessage(text);
  return m === undefined ? undefined : quoteCatalogText(m);
}

/** The whole message of an error body, for classifying it; the raw text when it is not JSON. */
function fullMessage(text: string): string | undefined {
  let m: string | undefined;
  try {
    const j = JSON.parse(text) as Record<string, unknown>;
    const errors = j['errors'];
    if (typeof j['message'] === 'string') m = j['message'];
    else if (typeof j['error'] === 'string') m = j['error'];
    else if (
      Array.isArray(errors) &&
      typeof (errors[0] as Record<string, unknown> | undefined)?.['message'] === 'string'
    ) {
      m = (errors[0] as Record<string, string>)['message'];
    }
  } catch {
    m = /^\s*</.test(text) ? 'an HTML error page' : text.trim() || undefined;
  }
  return m;
}

function networkError(e: unknown, endpoint: string): CatalogClientError {
  const code = (e as { code?: string } | undefined)?.code ?? (e as { errno?: string } | undefined)?.errno;
  // A message may quote the URL: a user and password in it are not shown.
  const text = (e instanceof Error ? e.message : String(e)).replace(/\/\/[^/@\s]*@/g, '//***@');
  if (code === 'ECONNREFUSED') return catalogClientError('unreachable', `connection refused at ${endpoint}`, endpoint);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return catalogClientError('unreachable', `cannot resolve the host of ${endpoint}`, endpoint);
  if (code === 'ECONNRESET' || code === 'EPIPE')
    return catalogClientError('unreachable', `${endpoint} closed the connection`, endpoint);
  if (/max size|over limit/i.test(text))
    return catalogClientError('badResponse', `${endpoint} answered more than ${MAX_BODY_BYTES} bytes`, endpoint);
  if (/premature close|invalid response body/i.test(text))
    return catalogClientError('badResponse', `${endpoint} cut its answer short`, endpoint);
  return catalogClientError(
    'unreachable',
    `cannot reach ${endpoint}: ${text.replace(/Bearer\s+\S+/g, 'Bearer ***')}`,
    endpoint,
  );
}

function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve(false);
      return;
    }
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    const onAbort = (): void => {
      clearTimeout(t);
      resolve(false);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
