/**
 * Bearer-token check. Without a token every request is accepted (as DataHub with
 * METADATA_SERVICE_AUTH_ENABLED=false); with one, only GET /health and GET /config are open.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const UNAUTHORIZED_BODY = { error: 'Unauthorized to perform this action.', status: 401 } as const;

/**
 * Paths DataHub leaves open with auth on (the unauthenticated paths of
 * metadata-service/configuration/src/main/resources/application.yaml).
 */
export function isOpenPath(method: string, path: string): boolean {
  return method === 'GET' && (path === '/health' || path === '/config');
}

export class BearerAuth {
  private readonly expected: Buffer | undefined;

  constructor(token: string | undefined) {
    this.expected = token ? digest(token) : undefined;
  }

  get enabled(): boolean {
    return this.expected !== undefined;
  }

  accepts(req: IncomingMessage): boolean {
    if (!this.expected) return true;
    const header = req.headers.authorization;
    const m = typeof header === 'string' ? /^Bearer\s+(.+)$/i.exec(header.trim()) : null;
    return m !== null && this.matches(m[1]!);
  }

  /** Whether `token` is this catalog's token (also the password of the pages' Basic sign-in, pages/access.ts). */
  matches(token: string): boolean {
    if (!this.expected) return true;
    // Digests have equal length, so the comparison time says nothing about the token.
    return timingSafeEqual(digest(token), this.expected);
  }
}

function digest(s: string): Buffer {
  return createHash('sha256').update(s, 'utf8').digest();
}
