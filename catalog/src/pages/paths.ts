/**
 * Page URLs as DataHub's web UI makes them, so every link the extension builds
 * (model/src/entityPage.ts) opens a page here: `/{pathName}/{urn}` with an optional tab
 * (`/Columns?highlightedPath=…` for a column). Path names are each entity's `getPathName()` in
 * datahub-web-react/src (`dataset`, `features`, `user`, `group`, `tag`, `glossaryTerm`,
 * `pipelines` for a dataFlow, `tasks` for a dataJob …): the one table of model/src/urn.ts
 * `uiPathSegment`, which this file uses. A kind DataHub's UI has no page for but the server looks
 * up (a query) has its page at its entity type.
 *
 * The URN in the path is URL-encoded by DataHub's `urlEncodeUrn` (app/entity/shared/utils.ts:
 * `/ ? # %` escaped, newer versions write `%` as `{{encoded_percent}}`) or by a full
 * `encodeURIComponent`; typed by hand it may be raw, `/` included. All are read.
 */
import { encodeUrnForUi, parseUrn, uiPathSegment, type Urn } from '../../../model/src/urn';
import { PAGE_ENTITY_TYPES } from './data';

/** Path name → the entity type whose pages are there, for every kind with pages (data.ts). */
const TYPE_OF_PATH: ReadonlyMap<string, string> = new Map([
  ...PAGE_ENTITY_TYPES.map((type): [string, string] => [uiPathSegment('other', type), type]),
  ['schemaField', 'schemaField'],
]);

/** Path names of the kinds with pages; other kinds' links (`/dataHubPolicy/urn:…`) get the not-found page. */
export const PAGE_PATHS: ReadonlySet<string> = new Set(TYPE_OF_PATH.keys());

/** First path segments of the catalog's APIs: never pages. */
const API_ROOTS = new Set(['aspects', 'entitiesV2', 'api', 'config', 'health', '_catalog-lens']);

export type PageRoute =
  | { page: 'home'; kind?: string | undefined }
  | { page: 'entity'; pathName: string; rest: string }
  | { page: 'favicon' };

/**
 * The page a request path asks for, or undefined when it is not a page (an API path, or an unknown
 * one, which keeps the APIs' JSON 404). `/{unknown}/urn:…` is a page (the not-found one) only for a
 * browser, which says it accepts HTML: programs asking for an unknown resource still get JSON.
 */
export function pageRoute(path: string, acceptsHtml: boolean): PageRoute | undefined {
  if (path === '/' || path === '/search') return { page: 'home' };
  if (path === '/favicon.ico') return { page: 'favicon' };
  const m = /^\/([A-Za-z_][A-Za-z0-9_-]*)(?:\/([^]*))?$/.exec(path);
  if (!m || API_ROOTS.has(m[1]!)) return undefined;
  const pathName = m[1]!;
  const rest = m[2] ?? '';
  if (PAGE_PATHS.has(pathName))
    return rest === '' ? { page: 'home', kind: kindOfPath(pathName) } : { page: 'entity', pathName, rest };
  if (acceptsHtml && /^urn(:|%3A)/i.test(rest)) return { page: 'entity', pathName, rest };
  return undefined;
}

/** The kind whose list a path names (`/features` → mlFeature, `/pipelines` → dataFlow); a column has no list. */
function kindOfPath(pathName: string): string | undefined {
  const type = TYPE_OF_PATH.get(pathName);
  return type === 'schemaField' ? undefined : type;
}

/** One path part as DataHub's UI reads it: percent-decoded once, then its `{{encoded_percent}}` placeholder. */
function decodePathPart(raw: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // A stray `%` typed by hand: decode the well-formed escapes, keep the rest as written.
    decoded = raw.replace(/(%[0-9A-Fa-f]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
  return decoded.replaceAll('{{encoded_percent}}', '%');
}

export interface PathUrn {
  /** The URN as decoded from the path. */
  text: string;
  urn: Urn;
  /** A tab after the URN (`Columns`, `Schema` …), or ''. */
  tab: string;
}

/**
 * The URN of `/{pathName}/{rest}` and the tab after it. A `/` in the path ends the URN where DataHub
 * encodes it (`%2F`), but a URN typed by hand may hold a raw one (`s3` names): every split is tried,
 * the longest URN first, and the first whose entity `exists` wins, else the first that parses.
 */
export function urnFromPagePath(rest: string, exists: (u: PathUrn) => boolean): PathUrn | { error: string } {
  const cuts = [rest.length];
  for (let i = rest.lastIndexOf('/'); i > 0; i = rest.lastIndexOf('/', i - 1)) cuts.push(i);
  const parsed: PathUrn[] = [];
  let firstError = '';
  for (const at of cuts) {
    const text = decodePathPart(rest.slice(0, at));
    const r = parseUrn(text);
    if (!r.ok) {
      firstError ||= `'${text}' is not a URN: ${r.error.message}`;
      continue;
    }
    const candidate = { text, urn: r.urn, tab: decodePathPart(rest.slice(at + 1)) };
    if (exists(candidate)) return candidate;
    parsed.push(candidate);
  }
  return parsed[0] ?? { error: firstError };
}

/** Characters left as they are in a page link; anything else is percent-encoded (UTF-8). */
const NOT_KEPT = /[^A-Za-z0-9\-._~:(),@!$*+;=%]/gu;

function percentEncode(c: string): string {
  return encodeURIComponent(/^[\uD800-\uDFFF]$/.test(c) ? '\uFFFD' : c);
}

/** The path of a URN's page here, as DataHub's UI writes it (`/dataset/urn:li:dataset:(…)`), or undefined for a text that is not a URN. */
export function pageHref(urnText: string): string | undefined {
  const r = parseUrn(urnText);
  if (!r.ok) return undefined;
  const pathName =
    r.urn.kind === 'schemaField'
      ? 'schemaField'
      : uiPathSegment(r.urn.kind, r.urn.kind === 'other' ? r.urn.entityType : undefined);
  return `/${pathName}/${encodeUrnForUi(urnText).replace(NOT_KEPT, percentEncode)}`;
}

/** The page path name of a kind (`mlFeature` → `features`). */
export function pathNameOf(urn: Urn): string {
  return urn.kind === 'schemaField'
    ? 'schemaField'
    : uiPathSegment(urn.kind, urn.kind === 'other' ? urn.entityType : undefined);
}
