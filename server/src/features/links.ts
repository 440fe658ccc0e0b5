/** Links to an entity's page in the catalog's web UI (DataHub's page pattern, notes §8). */
import type { Settings } from '../../../model/src/protocol';
import { encodeUrnForUi, uiPathSegment, type Urn } from '../../../model/src/urn';

/** The web UI's base: `uiUrl`, else `url` with DataHub's GMS port 8080 read as the frontend's 9002. */
export function uiBase(s: Settings): string | undefined {
  if (s.uiUrl) return s.uiUrl.replace(/\/+$/, '');
  if (!s.url) return undefined;
  try {
    const u = new URL(s.url);
    if (u.port === '8080') u.port = '9002';
    return u.toString().replace(/\/+$/, '');
  } catch {
    return undefined;
  }
}

// eslint-disable-next-line no-control-regex
const NOT_IN_URL = /[\u0000-\u0020\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069<>"`{}|\\^]/g;

export function entityUrlFor(s: Settings, urn: Urn, text: string): string | undefined {
  const base = uiBase(s);
  if (!base) return undefined;
  const path = uiPathSegment(urn.kind, urn.kind === 'other' ? urn.entityType : undefined);
  // The URN is the document's text: what a URL cannot hold is escaped, so a space or `<` in it
  // neither ends the hover's Markdown link nor starts HTML there. Function replacers: a `$&` in
  // the URN is text, not a replacement pattern.
  const urnInUrl = encodeUrnForUi(text).replace(NOT_IN_URL, (c) => encodeURIComponent(c));
  return s.entityUrlTemplate
    .replace(/\{uiUrl\}/g, () => base)
    .replace(/\{path\}/g, () => path)
    .replace(/\{urn\}/g, () => urnInUrl);
}
