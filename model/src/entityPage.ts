/**
 * An entity's page in the catalog's web UI (DataHub's `/{pathName}/{urn}`, from
 * datahub-web-react/src/app/entity/EntityRegistry.tsx `getEntityUrl`): one function for
 * the server's links and hovers and the client's Open in Catalog, so both open the same page.
 */
import { HIDDEN_CHARACTERS } from './inertText';
import { decodePart, encodeUrnForUi, uiPathSegment, type Urn } from './urn';

export interface EntityPageSettings {
  url: string;
  uiUrl: string;
  /** `{uiUrl}`, `{path}` (DataHub's page name for the kind) and `{urn}` are filled in. */
  entityUrlTemplate: string;
}

/**
 * The longest page URL made. DataHub refuses URNs over 512 characters URL-encoded
 * (metadata-utils/src/main/java/com/linkedin/metadata/utils/UrnValidationUtil.java), and common
 * servers refuse request lines over 8 KiB: a URN that would make a longer URL has no page, and a
 * megabyte URN in a file does not become a megabyte link.
 */
export const MAX_PAGE_URL_LENGTH = 8192;

/**
 * The web UI's base: `uiUrl`, else read from `url` in each form DataHub's address takes: the
 * frontend's proxy `https://host/api/gms` → `https://host`; DataHub Cloud `https://name.acryl.io/gms`
 * → `https://name.acryl.io`; GMS on its port 8080 → the frontend's 9002 (quickstart's ports);
 * anything else (the local catalog, a frontend root) is its own UI.
 */
export function uiBase(url: string, uiUrl: string): string | undefined {
  // The settings change seldom, and reading `url` parses it: the last answer is kept.
  if (url === lastBase.url && uiUrl === lastBase.uiUrl) return lastBase.base;
  const base = readUiBase(url, uiUrl);
  lastBase = { url, uiUrl, base };
  return base;
}
let lastBase: { url: string; uiUrl: string; base: string | undefined } = { url: '', uiUrl: '', base: undefined };

function readUiBase(url: string, uiUrl: string): string | undefined {
  if (uiUrl.trim()) return uiUrl.trim().replace(/\/+$/, '');
  const t = url.trim();
  if (!/^https?:\/\//i.test(t)) return undefined;
  try {
    const u = new URL(t);
    const path = u.pathname.replace(/\/+$/, '');
    if (path.endsWith('/api/gms')) u.pathname = path.slice(0, -'/api/gms'.length) || '/';
    else if (path === '/gms' && u.hostname.toLowerCase().endsWith('.acryl.io')) u.pathname = '/';
    else if (u.port === '8080') u.port = '9002';
    return u.toString().replace(/\/+$/, '');
  } catch {
    return undefined;
  }
}

// What a URL cannot hold as text: hidden characters (controls, bidi, zero-width …), whitespace, and
// the characters that would end a Markdown link or start HTML in a hover.
const URL_UNSAFE = /[\s\u0085<>"`{}|\\^]/u;
const NOT_IN_URL = new RegExp(`${HIDDEN_CHARACTERS.source}|${URL_UNSAFE.source}`, 'gu');

/** A lone surrogate has no UTF-8 form (encodeURIComponent throws): it is sent as U+FFFD. */
const percentEncoded = (c: string): string => encodeURIComponent(/^[\uD800-\uDFFF]$/.test(c) ? '\uFFFD' : c);

/**
 * `url` without `user:password@`: credentials written into catalogLens.url, uiUrl or the template
 * are for requests, never copied into a link the document shows, where anyone who reads it sees them.
 * Up to the last `@` before the path, as URL parsers read the authority; a backslash ends it too.
 */
const withoutUserinfo = (url: string): string => url.replace(/^(https?:\/\/)[^/?#\\]*@/i, '$1');

/** The page of an entity, or why there is none. */
export type EntityPage = { url: string } | { error: string };

/**
 * The page of the entity `urn`, whose text in the document is `text`, or why there is none. The
 * URN is document text: what breaks a path is escaped as DataHub's urlEncodeUrn does, and what a
 * URL cannot hold is percent-encoded. Replacement is one pass by a function, so a `$&` in a URN or a
 * setting is text, not a replacement pattern. Only http(s) pages are made, never `command:` or `file:` links.
 */
export function entityPageUrl(s: EntityPageSettings, urn: Urn, text: string): EntityPage {
  return entityPageMaker(s)(urn, text);
}

/**
 * entityPageUrl for many URNs under the same settings (a document's links): the web UI's base
 * (which parses `url`) and the template's parts are read once, then each page is put together
 * from them. The same pages as entityPageUrl.
 */
export function entityPageMaker(s: EntityPageSettings): (urn: Urn, text: string) => EntityPage {
  const base = uiBase(s.url, s.uiUrl);
  const template = templateParts(s.entityUrlTemplate);
  const columnPages = s.entityUrlTemplate === DEFAULT_ENTITY_URL_TEMPLATE;
  const siteFromDocument = base !== undefined && documentPicksSite(template, base);
  const page = (urn: Urn, text: string): EntityPage => {
    if (urn.kind === 'schemaField') return columnPageUrl(page, columnPages, urn);
    if (!base)
      return {
        error: 'No catalog web UI is configured (catalogLens.url and catalogLens.uiUrl are empty or not http(s) URLs).',
      };
    if (siteFromDocument)
      return {
        error:
          "catalogLens.entityUrlTemplate is not an http(s) URL whose site (https://host/) comes before {urn} and {path}: a document's text would choose where a link goes. Put them in the path.",
      };
    const path = uiPathSegment(urn.kind, urn.kind === 'other' ? urn.entityType : undefined);
    const urnInUrl = urlText(encodeUrnForUi(text));
    // One pass: a `{path}` or `{urn}` inside the base (a setting) stays as written.
    let filled = template[0]!;
    for (let i = 1; i < template.length; i += 2)
      filled += (template[i] === 'uiUrl' ? base : template[i] === 'path' ? path : urnInUrl) + template[i + 1]!;
    const url = withoutUserinfo(filled);
    if (!/^https?:\/\//i.test(url))
      return { error: `catalogLens.entityUrlTemplate gives '${url.slice(0, 200)}', which is not an http(s) URL.` };
    if (url.length > MAX_PAGE_URL_LENGTH)
      return {
        error: `The page's URL would be ${url.length} characters, over ${MAX_PAGE_URL_LENGTH}: no catalog holds a URN that long (DataHub refuses URNs over 512).`,
      };
    return { url };
  };
  return page;
}

/**
 * Whether the template lets the document choose the site: `{urn}` and `{path}` (both from the
 * document: `{path}` names the URN's entity type) must follow a fixed `http(s)://host` and the `/`,
 * `?` or `#` that ends it. What precedes the first of them, `{uiUrl}` filled in, is read as the URL
 * parsers read it (tabs and line breaks dropped, `user@` not the host) and as VS Code's URI reads it
 * (a backslash does not end the host there): an empty host, a backslash, or no scheme at all leaves
 * the site to the document. A prefix of another scheme is left to the whole URL's http(s) check.
 */
function documentPicksSite(template: readonly string[], base: string): boolean {
  let fixed = template[0]!;
  for (let i = 1; i < template.length; i += 2) {
    if (template[i] !== 'uiUrl') {
      const read = withoutUserinfo(fixed.replace(/[\t\n\r]/g, ''));
      // Another scheme written out: the whole URL's http(s) check refuses it.
      if (/^[a-z][a-z0-9+.-]*:/i.test(read) && !/^https?:/i.test(read)) return false;
      return read.includes('\\') || !/^https?:\/\/[^/?#@\s]+[/?#]/i.test(read);
    }
    fixed += base + template[i + 1]!;
  }
  return false;
}

/**
 * A template cut at its placeholders: text, then each placeholder's name followed by the text
 * after it (`{uiUrl}/{path}/{urn}` → `['', 'uiUrl', '/', 'path', '/', 'urn', '']`), the matches
 * of one left-to-right pass as `replace` finds them. The last few templates are kept.
 */
function templateParts(template: string): readonly string[] {
  let parts = templatesCut.get(template);
  if (!parts) {
    parts = template.split(/\{(uiUrl|path|urn)\}/);
    if (templatesCut.size >= 8) templatesCut.clear();
    templatesCut.set(template, parts);
  }
  return parts;
}
const templatesCut = new Map<string, readonly string[]>();

/**
 * `text` with what a URL cannot hold percent-encoded. A text of printable ASCII with none of
 * URL_UNSAFE's characters (most URNs) has none of NOT_IN_URL's, and is returned as it is.
 */
function urlText(text: string): string {
  return URL_SAFE_ASCII.test(text) ? text : text.replace(NOT_IN_URL, percentEncoded);
}
const URL_SAFE_ASCII = /^[!#-;=?-[\]_a-z~]*$/;

/** A surrogate without its pair has no UTF-8 form (encodeURIComponent throws): it is sent as U+FFFD. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The template DataHub's own UI answers; a custom template gets the parent's page only. */
export const DEFAULT_ENTITY_URL_TEMPLATE = '{uiUrl}/{path}/{urn}';

/**
 * A schemaField has no page of its own in DataHub's UI: a column is shown on its dataset's Columns
 * tab with the field highlighted (datahub-web-react `entityV2/schemaField/utils.ts`,
 * getSchemaFieldParentLink: `/dataset/<parent>/Columns?highlightedPath=<field path>`).
 * `page` makes the dataset's page; `columnPages`: the template is DataHub's own.
 */
function columnPageUrl(
  page: (urn: Urn, text: string) => EntityPage,
  columnPages: boolean,
  urn: Extract<Urn, { kind: 'schemaField' }>,
): EntityPage {
  if (!urn.dataset)
    return {
      error: `This schemaField's parent is not a dataset (${urn.parent.slice(0, 200)}): only a dataset's columns have a page.`,
    };
  const parent = page(urn.dataset, urn.parent);
  if ('error' in parent || !columnPages) return parent;
  const url = `${parent.url}/Columns?highlightedPath=${encodeURIComponent(decodePart(urn.fieldPath).replace(LONE_SURROGATE, '\uFFFD'))}`;
  return url.length > MAX_PAGE_URL_LENGTH ? parent : { url };
}
