/**
 * Errors are values: a kind the user can act on and a message that names the endpoint
 * (never the token). Every request of the catalog client ends in a value, never a throw.
 */
import { inertText } from '../../../model/src/inertText';
import type { CatalogErrorKind } from '../../../model/src/protocol';

export interface CatalogClientError {
  kind: CatalogErrorKind;
  message: string;
  endpoint?: string;
  /** HTTP status, when the catalog answered. */
  status?: number;
  /**
   * The whole message the catalog sent, never shortened: errors are classified on it (DataHub puts
   * "Expected version" past character 300 of its 422 text). Not for display: `message` is.
   */
  detail?: string;
  /** What the user can do, when it is more precise than the kind's hint (ERROR_HINTS). */
  hint?: string;
}

/** The hint shown after an error's message. */
export function hintFor(e: CatalogClientError): string {
  return e.hint ?? ERROR_HINTS[e.kind];
}

export function catalogClientError(
  kind: CatalogErrorKind,
  message: string,
  endpoint?: string,
  status?: number,
): CatalogClientError {
  const e: CatalogClientError = { kind, message };
  if (endpoint !== undefined) e.endpoint = endpoint;
  if (status !== undefined) e.status = status;
  return e;
}

/** What the user can do about each kind, one short sentence. */
export const ERROR_HINTS: Record<CatalogErrorKind, string> = {
  notConfigured: 'Set catalogLens.url (or run "Catalog Lens: Configure Catalog").',
  unauthorized: 'Set a valid access token ("Catalog Lens: Set Access Token", or CATALOG_LENS_TOKEN).',
  forbidden: 'The token is valid but lacks the privilege for this.',
  unreachable: 'Is the catalog running at this address?',
  timeout: 'The catalog did not answer in time (catalogLens.requestTimeoutMs).',
  notFound: 'Not found in the catalog.',
  badResponse: 'The catalog answered with something that is not what this endpoint should answer.',
  rejected: 'The catalog refused the request.',
  conflict: 'Someone else changed it at the same time.',
  cancelled: 'Cancelled.',
  badInput: 'Check the arguments.',
};

/** States that concern the connection as a whole (shown once, not per URN). */
export function isConnectionError(e: CatalogClientError): boolean {
  return (
    e.kind === 'unreachable' ||
    e.kind === 'unauthorized' ||
    e.kind === 'forbidden' ||
    e.kind === 'timeout' ||
    e.kind === 'notConfigured' ||
    e.kind === 'badResponse'
  );
}

/** A URL fit for messages: no credentials, no query string. */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    u.search = '';
    return u.toString();
  } catch {
    return '<invalid URL>';
  }
}

/**
 * Catalog text quoted in a one-line message (a notification, the status, a diagnostic): inertText
 * for notifications, the strictest one-line place, since these messages are shown in all of them.
 */
export function quoteCatalogText(text: string, limit = 300): string {
  return inertText(text, 'notification', limit);
}
