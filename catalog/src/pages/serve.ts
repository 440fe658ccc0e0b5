/**
 * The local catalog's read-only web pages, at DataHub's UI paths (paths.ts), so every "Open in
 * catalog" link opens one: `/` lists and searches the catalog, `/{pathName}/{urn}` shows one
 * entity, a column link shows its dataset with the column marked. Kinds the catalog does not store
 * get an HTML page that says so. GET and HEAD only; nothing on a page writes.
 * Who may read them: access.ts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isCatalogKind } from '../../../model/src/kinds';
import { displayId } from '../../../model/src/entityNames';
import { decodePart, type Urn } from '../../../model/src/urn';
import type { BearerAuth } from '../auth';
import type { RawStoredAspect } from '../store';
import { CatalogError } from '../errors';
import type { NamespacePolicy } from '../namespaces';
import { mayReadPages, type PageAccess } from './access';
import { entityTypeOfUrn, hasPages, kindLabelOf, PAGE_ENTITY_TYPES, type EntitySummary, type PageData } from './data';
import { answerFor, escapeHtml, layout, relativeLink, sendHtml, text, when } from './html';
import { pageHref, pageRoute, pathNameOf, urnFromPagePath, type PageRoute } from './paths';
import { searchPages } from './search';
import { entityLink, entityPage, entityTable, httpHref, LIST_LIMIT, otherEntityPage } from './views';

export interface PageServices {
  pageData: PageData;
  namespaces: NamespacePolicy;
  auth: BearerAuth;
  pageAccess: PageAccess;
}

const REALM = 'Catalog Lens local catalog: any user name, the catalog token as password';

/** The page a request asks for, or undefined when it is an API request (routes.ts answers those). */
export function pageRequest(req: IncomingMessage, path: string): PageRoute | undefined {
  const accept = req.headers.accept;
  return pageRoute(path, typeof accept === 'string' && /\btext\/html\b/i.test(accept));
}

export function servePage(
  req: IncomingMessage,
  res: ServerResponse,
  s: PageServices,
  route: PageRoute,
  query: URLSearchParams,
  prefixedPath?: string,
): void {
  req.resume();
  // Under the proxy prefix (`/_pages/SECRET/…`) every link and redirect is relative, so it keeps
  // working behind whatever path a proxy puts in front; directly, links are DataHub's root paths.
  if (prefixedPath !== undefined) answerFor(res, prefixedPath);
  const method = req.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') {
    problem(
      res,
      405,
      'Read-only',
      `<p>${escapeHtml(method)} is not supported on pages: they are read-only (GET).</p>`,
      {
        Allow: 'GET, HEAD',
      },
    );
    return;
  }
  if (route.page === 'favicon') {
    res.writeHead(204, { 'Cache-Control': 'max-age=86400' });
    res.end();
    return;
  }
  if (!mayReadPages(req, s.auth, s.pageAccess)) {
    problem(
      res,
      401,
      'Sign in with the catalog token',
      '<p>This catalog was started with a token and serves its pages to those who have it (<code>--pages token</code>). ' +
        'Reload and sign in with any user name and the token as the password. <code>npm start</code> keeps it in ' +
        '<code>.catalog-lens/catalog.token</code>; programs can send <code>Authorization: Bearer &lt;token&gt;</code>.</p>',
      { 'WWW-Authenticate': `Basic realm="${REALM}", charset="UTF-8"` },
    );
    return;
  }
  try {
    if (route.page === 'home') home(res, s, query, route.kind);
    else entity(res, s, route.pathName, route.rest, query);
  } catch (e) {
    if (!(e instanceof CatalogError)) throw e;
    problem(res, e.status, 'Not a page', `<p>${text(e.message)}</p>`);
  }
}

function problem(
  res: ServerResponse,
  status: number,
  title: string,
  body: string,
  headers: Record<string, string> = {},
): void {
  sendHtml(
    res,
    status,
    layout({
      title,
      body: `<h1>${escapeHtml(title)}</h1>${body}<p><a href="/">All entities of the local catalog</a></p>`,
    }),
    headers,
  );
}

function notFound(res: ServerResponse, message: string, searchFor?: string): void {
  const search = searchFor
    ? `<p><a href="/?q=${encodeURIComponent(searchFor)}">Search the catalog for “${text(searchFor)}”</a></p>`
    : '';
  problem(res, 404, 'Not in the local catalog', `<p>${message}</p>${search}`);
}

/**
 * `/` and `/search`: every entity by kind, filtered by `?q=` (or DataHub's `?query=`: text, a tag,
 * near spellings when nothing matches; search.ts) and `?kind=`.
 */
function home(res: ServerResponse, s: PageServices, query: URLSearchParams, pathKind: string | undefined): void {
  const q = (query.get('q') ?? query.get('query') ?? '').trim();
  const kindParam = pathKind ?? query.get('kind') ?? '';
  const kind = hasPages(kindParam) ? kindParam : undefined;
  const all = s.pageData.entities();
  const search = searchPages(
    s.pageData,
    all.filter((e) => kind === undefined || e.entityType === kind),
    q,
  );
  const found = search.found;
  const kinds: readonly string[] = kind
    ? [kind]
    : [
        'dataset',
        'mlFeatureTable',
        'mlFeature',
        'mlModel',
        'mlModelGroup',
        ...PAGE_ENTITY_TYPES.filter((t) => !isCatalogKind(t)),
      ];
  const sections = kinds
    .map((k) => {
      const items = found.filter((e) => e.entityType === k);
      if (items.length === 0 && (q !== '' || kind === undefined)) return '';
      return `<section><h2>${escapeHtml(kindLabelOf(k).plural)} (${items.length})</h2>${entityTable(items)}</section>`;
    })
    .join('');
  const among = kind ? ` among ${escapeHtml(kindLabelOf(kind).plural.toLowerCase())}` : '';
  const summary =
    q === '' && kind === undefined
      ? `<p class="note">${all.length} entities. Each has a page at DataHub's path, e.g. <code>/dataset/&lt;urn&gt;</code>; the editor's “Open in catalog” links lead here.</p>`
      : search.how === 'near'
        ? `<p class="note">Nothing matches “${text(q)}”${among}. Did you mean <a href="/?q=${encodeURIComponent(search.closest ?? '')}${kind ? `&amp;kind=${encodeURIComponent(kind)}` : ''}">${text(search.closest ?? '')}</a>? Below: ${found.length === 1 ? 'the entity' : `the ${found.length} entities`} whose name is spelled near it. <a href="/">Show all</a></p>`
        : search.how === 'tag'
          ? `<p class="note">${found.length} of ${all.length} entities are tagged “${text(search.tag ?? '')}”${among}. <a href="/">Show all</a></p>`
          : `<p class="note">${found.length} of ${all.length} entities match${q ? ` “${text(q)}”` : ''}${among}. <a href="/">Show all</a></p>`;
  const empty = found.length === 0 ? '<p class="none">Nothing matches.</p>' : '';
  sendHtml(
    res,
    200,
    layout(
      {
        title: q ? `Search: ${q}` : 'Local catalog',
        body: `<h1>Local catalog</h1>${summary}${empty}${sections}`,
        query: q,
      },
      kind ?? '',
    ),
  );
}

function entity(res: ServerResponse, s: PageServices, pathName: string, rest: string, query: URLSearchParams): void {
  const found = urnFromPagePath(rest, (c) => {
    const key = s.namespaces.keyOf(c.text);
    return key !== undefined && s.pageData.existsAny(key, c.urn);
  });
  if ('error' in found) {
    problem(res, 400, 'Not a URN', `<p>The path does not hold a URN: ${text(found.error)}.</p>`);
    return;
  }
  const { urn, text: urnText } = found;
  const right = pathNameOf(urn);
  if (right !== pathName && urn.kind !== 'schemaField' && hasPages(entityTypeOfUrn(urn))) {
    // `/features/urn:li:dataset:…`: the page of that URN is at its own kind's path.
    const qs = query.toString();
    res.writeHead(302, {
      Location: relativeLink(res, `${pageHref(urnText)}${qs ? `?${qs}` : ''}`),
      'Content-Length': 0,
    });
    res.end();
    return;
  }
  if (urn.kind === 'schemaField') {
    if (!urn.dataset) {
      notFound(
        res,
        `The column <code>${text(urnText)}</code> belongs to <code>${text(urn.parent)}</code>, which is not a dataset: only datasets have columns here.`,
      );
      return;
    }
    const path = encodeURIComponent(decodePart(urn.fieldPath).replace(/[\uD800-\uDFFF]/g, '\uFFFD'));
    res.writeHead(302, {
      Location: relativeLink(res, `${pageHref(urn.parent)}/Columns?highlightedPath=${path}`),
      'Content-Length': 0,
    });
    res.end();
    return;
  }
  if (!s.namespaces.words.includes(urn.namespace)) {
    notFound(
      res,
      `<code>${text(urnText)}</code> is in namespace <code>${text(urn.namespace)}</code>, which this catalog does not accept (it accepts ${s.namespaces.words.map((w) => `<code>${text(w)}</code>`).join(', ')}).`,
    );
    return;
  }
  const key = s.namespaces.keyOf(urnText)!;
  const type = entityTypeOfUrn(urn);
  if (!hasPages(type)) {
    notFound(
      res,
      `The local catalog has no pages for <code>${text(type)}</code> entities: DataHub's web UI has none either. <code>${text(urnText)}</code> is not shown here.`,
    );
    return;
  }
  if (urn.kind === 'corpuser') return userPage(res, s, urnText, key, urn);
  if (urn.kind === 'dataPlatform') return platformPage(res, s, urnText, key, urn);
  if (!isCatalogKind(urn.kind)) {
    const aspects = s.pageData.rawAspects(key);
    otherPage(
      res,
      s,
      { urnText, key, urn, aspects },
      aspects.size === 0 && {
        message: `The local catalog has no ${escapeHtml(kindLabelOf(type).word)} <code>${text(urnText)}</code>.`,
        searchFor: displayId(urn),
      },
    );
    return;
  }
  const aspects = s.pageData.aspects(key);
  const ref = s.pageData.reference(urnText);
  if (!ref || !s.pageData.exists(key, urn.kind, aspects)) {
    notFound(
      res,
      `The local catalog has no ${escapeHtml(kindLabelOf(urn.kind).label.toLowerCase())} <code>${text(urnText)}</code>.`,
      ref?.summary.name,
    );
    return;
  }
  const highlighted = query.get('highlightedPath') ?? undefined;
  const page = entityPage({
    data: s.pageData,
    urn,
    urnText,
    key,
    summary: ref.summary,
    aspects,
    highlightedPath: highlighted,
  });
  sendHtml(res, 200, layout({ title: page.title, body: page.body }));
}

/**
 * A user's page: the profile stored for them (corpUserInfo …) as any other kind's page, and what
 * they did here: the links they added and the aspects last written as them.
 */
function userPage(res: ServerResponse, s: PageServices, urnText: string, key: string, urn: Urn): void {
  const { links, changed } = s.pageData.byUser(key);
  const aspects = s.pageData.rawAspects(key);
  otherPage(
    res,
    s,
    { urnText, key, urn, aspects, extra: () => userActivity(links, changed, aspects.size > 0) },
    links.length === 0 &&
      changed.length === 0 &&
      aspects.size === 0 && {
        message: `The local catalog has no user <code>${text(urnText)}</code>: no profile is stored for them, and they added no link and wrote no aspect here.`,
      },
  );
}

/** A user's activity on their page: the links they added, and the entities whose aspects they wrote last. */
function userActivity(
  links: ReturnType<PageData['byUser']>['links'],
  changed: ReturnType<PageData['byUser']>['changed'],
  hasProfile: boolean,
): string {
  const linkRows = links
    .slice(0, LIST_LIMIT)
    .map((l) => {
      const href = httpHref(l.url);
      const label = text(l.label || l.url);
      const link = href
        ? `<a href="${escapeHtml(href)}" rel="noopener noreferrer nofollow">${label}</a>`
        : `${label} <span class="badge absent">not a web link</span>`;
      return `<tr><td>${link}</td><td>${entityLink(l.entity.key, l.entity.name)}</td><td>${escapeHtml(when(l.time))}</td></tr>`;
    })
    .join('');
  const byEntity = new Map<string, { entity: EntitySummary; aspects: string[]; time: number }>();
  for (const c of changed) {
    const e = byEntity.get(c.entity.key) ?? { entity: c.entity, aspects: [], time: 0 };
    e.aspects.push(c.aspect);
    e.time = Math.max(e.time, c.time);
    byEntity.set(c.entity.key, e);
  }
  const changedRows = [...byEntity.values()]
    .slice(0, LIST_LIMIT)
    .map(
      (c) =>
        `<tr><td>${entityLink(c.entity.key, c.entity.name)}</td><td>${escapeHtml(kindLabelOf(c.entity.entityType).label)}</td><td>${c.aspects.map((a) => `<code>${escapeHtml(a)}</code>`).join(', ')}</td><td>${escapeHtml(when(c.time))}</td></tr>`,
    )
    .join('');
  return (
    (hasProfile ? '' : '<p class="note">No profile is stored for this user; this is what they did here.</p>') +
    `<section id="links-added"><h2>Links added (${links.length})</h2>${links.length ? `<table><thead><tr><th>Link</th><th>On</th><th>When</th></tr></thead><tbody>${linkRows}</tbody></table>` : '<p class="none">None.</p>'}</section>` +
    `<section id="changed"><h2>Last changed by this user (${byEntity.size})</h2>${byEntity.size ? `<table><thead><tr><th>Entity</th><th>Kind</th><th>Aspects</th><th>When</th></tr></thead><tbody>${changedRows}</tbody></table>` : '<p class="none">None.</p>'}</section>`
  );
}

/** A platform's page: its stored info as any other kind's page, and the entities whose URN names it. */
function platformPage(res: ServerResponse, s: PageServices, urnText: string, key: string, urn: Urn): void {
  const platform = urn.kind === 'dataPlatform' ? urn.platform : '';
  const items = s.pageData.entities().filter((e) => e.platform === platform);
  const aspects = s.pageData.rawAspects(key);
  otherPage(
    res,
    s,
    {
      urnText,
      key,
      urn,
      aspects,
      extra: () => `<section id="entities"><h2>Entities (${items.length})</h2>${entityTable(items, true)}</section>`,
      untitled: decodePart(platform),
    },
    items.length === 0 &&
      aspects.size === 0 && { message: `The local catalog holds nothing on platform <code>${text(urnText)}</code>.` },
  );
}

/**
 * The page of an entity that is not of a catalog kind (a user, a platform, a tag …): its stored
 * aspects as otherEntityPage shows them, with `extra` after them and `untitled` as the title when
 * it has no name; or, when `absent` is given, the not-found page with its message (HTML) and a
 * search for `searchFor`.
 */
function otherPage(
  res: ServerResponse,
  s: PageServices,
  o: {
    urnText: string;
    key: string;
    urn: Urn;
    aspects: Map<string, RawStoredAspect>;
    extra?: () => string;
    untitled?: string;
  },
  absent: { message: string; searchFor?: string } | false,
): void {
  if (absent) {
    notFound(res, absent.message, absent.searchFor);
    return;
  }
  const page = otherEntityPage({
    data: s.pageData,
    urnText: o.urnText,
    key: o.key,
    summary: s.pageData.otherSummary(o.key, o.urnText, o.urn, o.aspects),
    aspects: o.aspects,
    ...(o.extra ? { extra: o.extra() } : {}),
  });
  sendHtml(res, 200, layout({ title: page.title || o.untitled || page.title, body: page.body }));
}
