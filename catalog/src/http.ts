/** Small HTTP helpers: bounded body reading, JSON answers, DataHub's Rest.li error body. */
import { ServerResponse, type IncomingMessage, type OutgoingHttpHeader, type OutgoingHttpHeaders } from 'node:http';
import type { CompatMode } from './compat';
import { restliStackTrace } from './datahub/restli';
import { badRequest, CatalogError } from './errors';

export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;

const JSON_TYPE = 'application/json; charset=utf-8';

const NOSNIFF = 'X-Content-Type-Options';

/**
 * The catalog's answers: every one, JSON or page, whatever its status, says
 * `X-Content-Type-Options: nosniff` (no browser reads an answer as another type). The header is
 * added when the status line is written (`writeHead`, which `write` and `end` call when no one
 * did) unless the headers given there hold it first: an answer whose headers are all given at
 * once as an array (`sendJsonText`) keeps Node's path that sets no header one by one.
 */
export class CatalogResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  override writeHead(
    statusCode: number,
    reasonOrHeaders?: string | OutgoingHttpHeaders | OutgoingHttpHeader[],
    headers?: OutgoingHttpHeaders | OutgoingHttpHeader[],
  ): this {
    if (!this.headersSent) {
      const given = typeof reasonOrHeaders === 'string' ? headers : (reasonOrHeaders ?? headers);
      if (!(Array.isArray(given) && given[0] === NOSNIFF) && !this.hasHeader(NOSNIFF))
        this.setHeader(NOSNIFF, 'nosniff');
    }
    return typeof reasonOrHeaders === 'string'
      ? super.writeHead(statusCode, reasonOrHeaders, headers)
      : super.writeHead(statusCode, reasonOrHeaders ?? headers);
  }
}

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
  // One array, nosniff first (CatalogResponse): Node writes it as given, with no header map.
  res.writeHead(status, [NOSNIFF, 'nosniff', 'Content-Type', JSON_TYPE, 'Content-Length', String(bytes)]);
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
  return new Promise((resolve, reject) => collectBody(req, limit, resolve, reject));
}

/**
 * `readBody` without a promise: `done` gets the body, or `failed` the error (each at most once,
 * never both), from the request's own events.
 */
export function collectBody(
  req: IncomingMessage,
  limit: number,
  done: (text: string) => void,
  failed: (e: Error) => void,
): void {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    failed(tooLarge(declared, limit));
    return;
  }
  let first: Buffer | undefined;
  let chunks: Buffer[] | undefined;
  let size = 0;
  let settled = false;
  req.on('data', (chunk: Buffer) => {
    if (settled) return;
    size += chunk.length;
    if (size > limit) {
      settled = true;
      first = undefined;
      chunks = undefined;
      failed(tooLarge(size, limit));
      return;
    }
    if (first === undefined) first = chunk;
    else (chunks ??= [first]).push(chunk);
  });
  req.on('end', () => {
    if (settled) return;
    settled = true;
    let text: string;
    try {
      text = UTF8.decode(chunks ? Buffer.concat(chunks) : (first ?? EMPTY));
    } catch {
      failed(badRequest('the request body is not valid UTF-8'));
      return;
    }
    done(text);
  });
  // The client went away, or the catalog closed a body too slow to wait for (connections.ts):
  // the client's doing, not an internal error, so not logged as one.
  req.on('error', (e: NodeJS.ErrnoException) => {
    if (settled) return;
    settled = true;
    failed(e.code === 'ECONNRESET' ? new CatalogError(400, 'the connection closed before the whole body arrived') : e);
  });
}

const EMPTY = Buffer.alloc(0);

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
