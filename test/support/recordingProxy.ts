/** A real HTTP proxy in front of a catalog that keeps every GraphQL request body and answer, to check what was sent (proxy.ts). */
import { startProxy } from './proxy';

export interface GraphqlExchange {
  query: string;
  answer: { data?: unknown; errors?: Array<{ message?: string }> };
}

export interface RecordingProxy {
  url: string;
  readonly graphql: GraphqlExchange[];
  /** While set, `GET /config` gets a load balancer's 502 page instead of the catalog's answer. */
  configDown: boolean;
  /** Paths (with query) of every request. */
  readonly paths: string[];
  close(): Promise<void>;
}

export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const proxy = await startProxy({ target });
  const state: RecordingProxy = {
    url: proxy.url,
    configDown: false,
    get graphql() {
      return proxy.exchanges.flatMap((e) =>
        e.path === '/api/graphql' && e.method === 'POST' && e.answeredBy === 'target' && e.answer
          ? [
              {
                query: (JSON.parse(e.body) as { query: string }).query,
                answer: JSON.parse(e.answer.body) as GraphqlExchange['answer'],
              },
            ]
          : [],
      );
    },
    get paths() {
      return proxy.exchanges.map((e) => e.path);
    },
    close: () => proxy.stop(),
  };
  proxy.fault(
    { status: 502, contentType: 'text/html', body: '<html><body><h1>502 Bad Gateway</h1></body></html>' },
    { when: (r) => state.configDown && r.path === '/config' },
  );
  return state;
}
