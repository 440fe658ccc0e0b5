/**
 * A real HTTP proxy in front of a real catalog that can be switched to misbehave: refuse
 * connections, answer slowly, answer 401/403/404/500/502, an HTML page, garbage, a truncated
 * body, or GraphQL errors beside partial data. Fault tests go through it; "forward" is the
 * mode that forwards again. The modes are faults of the tests' one proxy (proxy.ts).
 */
import { startProxy, type Fault, type FaultRule, type RequestPredicate } from './proxy';

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
  /** Requests that reached the proxy and that the modes apply to (refused connections are not counted). */
  readonly requests: number;
  /** Authorization headers seen, to check where the token went. */
  readonly authorizations: string[];
  setMode(mode: FaultMode): Promise<void>;
  close(): Promise<void>;
}

/** The answers the proxy gives instead of the catalog's. */
const ANSWERS: Partial<Record<FaultMode, Fault>> = {
  drip: { drip: ' ', everyMs: 200, status: 200, contentType: 'application/json' },
  status401: { status: 401, contentType: 'text/plain', body: 'Unauthorized to perform this action.' },
  status403: { status: 403, contentType: 'application/json', body: '{"error":"is unauthorized to READ entities."}' },
  status404: { status: 404, contentType: 'text/html', body: '<html><body>Not Found</body></html>' },
  status500: { status: 500, contentType: 'application/json', body: '{"error":"Internal server error occurred"}' },
  status502: { status: 502, contentType: 'text/html', body: '<html><body><h1>502 Bad Gateway</h1></body></html>' },
  html: { status: 200, contentType: 'text/html', body: '<!doctype html><html><body>Sign in</body></html>' },
  garbage: { status: 200, contentType: 'application/json', body: '\u0000\u0001garbage}{' },
  truncated: { status: 200, contentType: 'application/json', body: '{"data": {"e0": {"urn": "urn:li:data' },
};

/** GraphQL's partial answer: the first field of `data` null, and an error naming it. */
function partialErrors(body: string): string {
  const j = JSON.parse(body) as { data?: Record<string, unknown>; errors?: unknown[] };
  const first = Object.keys(j.data ?? {})[0];
  if (first && j.data) {
    j.data[first] = null;
    j.errors = [
      { message: 'An unknown error occurred.', path: [first], extensions: { code: 500, type: 'SERVER_ERROR' } },
    ];
  }
  return JSON.stringify(j);
}

/**
 * `slowMs`: how long the `slow` mode holds a request before forwarding it. `faulted`: the
 * requests the modes apply to (all by default); the others are forwarded whatever the mode, and
 * are not counted. `refuse` refuses every connection, so it needs no `faulted`.
 */
export async function startFaultProxy(
  target: string,
  slowMs = 60000,
  faulted: RequestPredicate = () => true,
): Promise<FaultProxy> {
  const proxy = await startProxy({ target });
  let rule: FaultRule | undefined;
  const picked = (): typeof proxy.exchanges => proxy.exchanges.filter(faulted);
  const state: FaultProxy = {
    url: proxy.url,
    mode: 'forward',
    get requests() {
      return picked().length;
    },
    get authorizations() {
      return picked().flatMap((e) => (e.headers.authorization ? [e.headers.authorization] : []));
    },
    async setMode(mode) {
      rule?.remove();
      rule = undefined;
      const answer = ANSWERS[mode];
      if (answer) rule = proxy.fault(answer, { when: faulted });
      else if (mode === 'slow') rule = proxy.delay(slowMs, faulted);
      else if (mode === 'partialErrors')
        rule = proxy.rewriteAnswer((a) => ({ ...a, body: partialErrors(a.body) }), faulted);
      if (mode === 'refuse') await proxy.refuse();
      else await proxy.accept();
      state.mode = mode;
    },
    close: () => proxy.stop(),
  };
  return state;
}
