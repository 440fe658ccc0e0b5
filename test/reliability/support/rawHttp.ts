/**
 * HTTP requests as a broken client sends them: any method, raw bytes, a declared length that
 * lies, a body streamed in chunks without a length. The answer is read even when the server
 * answers before the body is sent and closes the connection (as it does for a 413).
 */
import { request } from 'node:http';

export interface RawRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  /** A string or bytes; an array is streamed as chunks (`Transfer-Encoding: chunked`). */
  body?: string | Buffer | Buffer[];
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export function rawRequest(base: string, r: RawRequest): Promise<RawAnswer> {
  const url = new URL(r.path, base);
  const headers = { ...r.headers };
  if (r.body !== undefined && !Array.isArray(r.body)) headers['Content-Length'] = String(Buffer.byteLength(r.body));
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method: r.method ?? 'POST', headers },
      (res) => {
        answered = true;
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(parts).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    // The server may answer and hang up while the body is still going out: that is not a failure.
    req.on('error', (e) => {
      if (!answered) reject(e);
    });
    const body = r.body;
    if (Array.isArray(body)) {
      const chunks = [...body];
      const next = (): void => {
        const c = chunks.shift();
        if (c === undefined || req.destroyed) {
          req.end();
          return;
        }
        if (req.write(c)) setImmediate(next);
        else req.once('drain', next);
      };
      next();
    } else {
      req.end(body);
    }
  });
}
