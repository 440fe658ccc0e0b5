/**
 * A plain HTTP server on 127.0.0.1 that records every request it gets (method, path, headers,
 * body). With an upstream it is a proxy in front of the catalog, which can also fail chosen
 * requests on purpose; without one it answers 404 and only records (a decoy endpoint). It is
 * the tests' one proxy (test/support/proxy.ts) under the names the e2e scenarios use.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { startProxy, type Exchange, type FaultRule } from '../../support/proxy';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface InjectedFault {
  /** Which request fails (the first one matching after `failNext`). */
  matches(req: RecordedRequest): boolean;
  status: number;
  body: unknown;
}

export interface HttpRecorder {
  url: string;
  readonly requests: RecordedRequest[];
  /** The next request that `fault.matches` is answered with the fault instead of the upstream's answer. */
  failNext(fault: InjectedFault): void;
  /** Requests answered with an injected fault so far. */
  readonly faulted: RecordedRequest[];
  stop(): Promise<void>;
}

/** A recorded request as this module spells it, the same object each time it is asked for. */
const recorded = new WeakMap<Exchange, RecordedRequest>();
function asRecorded(e: Exchange): RecordedRequest {
  let r = recorded.get(e);
  if (!r) recorded.set(e, (r = { method: e.method, url: e.path, headers: e.headers, body: e.body }));
  return r;
}

export async function startRecorder(opts: { upstream?: string } = {}): Promise<HttpRecorder> {
  const injected = new Set<FaultRule>();
  const proxy = await startProxy({
    ...(opts.upstream !== undefined ? { target: opts.upstream } : {}),
    ownAnswers: () =>
      opts.upstream === undefined
        ? { status: 404, contentType: 'application/json', body: '{"error":"recorder: no upstream"}' }
        : undefined,
  });
  let closing: Promise<void> | undefined;
  return {
    url: proxy.url,
    get requests() {
      return proxy.exchanges.map(asRecorded);
    },
    get faulted() {
      return proxy.exchanges.filter((e) => e.fault !== undefined && injected.has(e.fault)).map(asRecorded);
    },
    failNext: (fault) =>
      void injected.add(
        proxy.fault(
          { status: fault.status, contentType: 'application/json', body: JSON.stringify(fault.body) },
          { when: (r) => fault.matches(asRecorded(r)), times: 1 },
        ),
      ),
    stop: () => (closing ??= proxy.stop()),
  };
}
