/**
 * A plain HTTP server on 127.0.0.1 that records every request it gets (method, path, headers,
 * body). With an upstream it is a proxy in front of the catalog, which can also fail chosen
 * requests on purpose; without one it answers 404 and only records (a decoy endpoint).
 */
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

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

export async function startRecorder(opts: { upstream?: string } = {}): Promise<HttpRecorder> {
  const requests: RecordedRequest[] = [];
  const faulted: RecordedRequest[] = [];
  const faults: InjectedFault[] = [];
  const upstream = opts.upstream !== undefined ? new URL(opts.upstream) : undefined;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body: body.toString('utf8'),
      };
      requests.push(recorded);
      const faultAt = faults.findIndex((f) => f.matches(recorded));
      if (faultAt >= 0) {
        const fault = faults.splice(faultAt, 1)[0]!;
        faulted.push(recorded);
        res.writeHead(fault.status, { 'content-type': 'application/json' }).end(JSON.stringify(fault.body));
        return;
      }
      if (!upstream) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"recorder: no upstream"}');
        return;
      }
      const forward = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: recorded.method,
          path: recorded.url,
          headers: { ...req.headers, host: upstream.host },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on('error', (err) => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`recorder: upstream failed: ${err.message}`);
      });
      forward.end(body);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    faulted,
    failNext: (fault) => void faults.push(fault),
    stop: () => {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
