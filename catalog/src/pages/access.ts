/**
 * Who may read the pages. `open` (the default when the catalog listens on loopback) serves them
 * without the token: the editor's links open in a browser, which has none, and the pages only
 * read; the Host/Origin guard (security.ts) still refuses a rebound page. `token` (the default
 * beyond loopback, or `--pages token` on a machine shared with other users) wants the API's token,
 * as `Authorization: Bearer` or as the password of the browser's own Basic sign-in. Kept apart
 * from serve.ts so the CLI's option parsing loads no renderer.
 */
import type { IncomingMessage } from 'node:http';
import type { BearerAuth } from '../auth';

export type PageAccess = 'open' | 'token';

export const PAGE_ACCESS_MODES: readonly PageAccess[] = ['open', 'token'];

/** Whether this request may read pages: always with `open` or no token; with `token`, a Bearer token or Basic password that matches. */
export function mayReadPages(req: IncomingMessage, auth: BearerAuth, access: PageAccess): boolean {
  if (access === 'open' || !auth.enabled || auth.accepts(req)) return true;
  const m = /^Basic\s+([A-Za-z0-9+/]+=*)$/i.exec((req.headers.authorization ?? '').trim());
  if (!m) return false;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon >= 0 && auth.matches(decoded.slice(colon + 1));
}
