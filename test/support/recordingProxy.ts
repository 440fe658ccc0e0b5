/** A real HTTP proxy in front of a catalog that keeps every GraphQL request body and answer, to check what was sent. */
import { createServer, request, type Server } from 'node:http';
import { listenOnLoopback } from './loopbackServer';

export interface GraphqlExchange {
  query: string;
  answer: { data?: unknown; errors?: Array<{ message?: string }> };
}

export interface RecordingProxy {
  url: string;
  graphql: GraphqlExchange[];
  /** While set, `GET /config` gets a load balancer's 502 page instead of the catalog's answer. */
  configDown: boolean;
  /** Paths (with query) of every request. */
  paths: string[];
  close(): Promise<void>;
}

export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const t = new URL(target);
  const state: RecordingProxy = { url: '', graphql: [], configDown: false, paths: [], close: async () => undefined };
  const server: Server = createServer((req, res) => {
    state.paths.push(req.url ?? '');
    if (state.configDown && req.url === '/config') {
      req.resume();
      res.writeHead(502, { 'Content-Type': 'text/html' }).end('<html><body><h1>502 Bad Gateway</h1></body></html>');
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const up = request(
        {
          host: t.hostname,
          port: t.port,
          path: req.url,
          method: req.method,
          headers: { ...req.headers, host: t.host },
        },
        (upRes) => {
          const parts: Buffer[] = [];
          upRes.on('data', (c: Buffer) => parts.push(c));
          upRes.on('end', () => {
            const out = Buffer.concat(parts);
            if (req.url === '/api/graphql' && req.method === 'POST') {
              state.graphql.push({
                query: (JSON.parse(body.toString()) as { query: string }).query,
                answer: JSON.parse(out.toString()) as GraphqlExchange['answer'],
              });
            }
            res
              .writeHead(upRes.statusCode ?? 502, {
                'Content-Type': upRes.headers['content-type'] ?? 'application/json',
              })
              .end(out);
          });
        },
      );
      up.on('error', () => res.writeHead(502).end());
      up.end(body);
    });
  });
  const listening = await listenOnLoopback(server);
  state.url = listening.url;
  state.close = listening.close;
  return state;
}
