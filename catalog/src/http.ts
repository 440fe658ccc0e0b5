/** Small HTTP helpers: bounded body reading, JSON answers, DataHub's Rest.li error body. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CompatMode } from './compat';
import { restliStackTrace } from './datahub/restli';
import { badRequest, CatalogError } from './errors';

export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;

const JSON_TYPE = 'application/json; charset=utf-8';

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': JSON_TYPE,
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** A JSON answer already serialised (`bytes`: its UTF-8 length), with the headers `sendJson` sends. */
export function sendJsonText(res: ServerResponse, status: number, text: string, bytes: number): void {
  res.setHeader('Content-Type', JSON_TYPE);
  res.setHeader('Content-Length', bytes);
  res.writeHead(status);
  res.end(text);
}

/**
 * DataHub's Rest.li error body (`exceptionClass`, `message`, `status`). The DataHub mode adds the
 * `stackTrace` DataHub sends and leaves out an empty `message`, as DataHub's 404 for an absent aspect has none.
 */
export function sendRestLiError(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
  compat: CompatMode = 'spec',
): void {
  const datahub = compat === 'datahub';
  sendJson(
    res,
    status,
    {
      exceptionClass: 'com.linkedin.restli.server.RestLiServiceException',
      ...(datahub ? { stackTrace: restliStackTrace(status, message === '' ? undefined : message) } : {}),
      ...(datahub && message === '' ? {} : { message }),
      status,
    },
    { 'X-RestLi-Error-Response': 'true', ...headers },
  );
}

/** Decodes a whole body at once (no stream): one decoder serves every request. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Reads the whole body as UTF-8, refusing more than `limit` bytes with a 413. */
export function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      req.resume();
      reject(tooLarge(declared, limit));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > limit) {
        refused = true;
        chunks.length = 0;
        reject(tooLarge(size, limit));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (refused) return;
      try {
        resolve(UTF8.decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
      } catch {
        reject(badRequest('the request body is not valid UTF-8'));
      }
    });
    // The client went away, or the catalog closed a body too slow to wait for (connections.ts):
    // the client's doing, not an internal error, so not logged as one.
    req.on('error', (e: NodeJS.ErrnoException) =>
      reject(
        e.code === 'ECONNRESET' ? new CatalogError(400, 'the connection closed before the whole body arrived') : e,
      ),
    );
  });
}

function tooLarge(size: number, limit: number): CatalogError {
  return new CatalogError(
    413,
    `the request body (${size} bytes or more) is larger than the limit of ${limit} bytes (start the catalog with --max-body to change it)`,
  );
}

/** Parses a JSON body; a 400 says where the JSON breaks. */
export function parseJsonBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw badRequest(`malformed JSON in the request body: ${(e as Error).message}`);
  }
}
