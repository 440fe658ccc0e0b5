/** Links to an entity's page in the catalog's web UI (DataHub's page pattern: model/src/entityPage.ts). */
import { entityPageMaker, entityPageUrl } from '../../../model/src/entityPage';
import type { Settings } from '../../../model/src/protocol';
import type { Urn } from '../../../model/src/urn';
import type { ScanResult } from '../scan/types';
import { firstRangeAt } from './intervals';

/** The page of the entity for hovers and document links; none when there is no web UI or the URN is too long for a URL. */
export function entityUrlFor(s: Settings, urn: Urn, text: string): string | undefined {
  const page = entityPageUrl(s, urn, text);
  return 'url' in page ? page.url : undefined;
}

/**
 * entityUrlFor for a hover (`urn` the parse of `text`): the pages last made are kept by the
 * settings they depend on and the URN's text, since a hover asks for the same page each time the
 * mouse rests on the URN, and making it parses the catalog's URL.
 */
export function hoverPageUrl(s: Settings, urn: Urn, text: string): string | undefined {
  const key = `${s.url}\u0000${s.uiUrl}\u0000${s.entityUrlTemplate}\u0000${text}`;
  const kept = pages.get(key);
  if (kept !== undefined) return kept === NO_PAGE ? undefined : kept;
  const url = entityUrlFor(s, urn, text);
  if (pages.size >= PAGES_KEPT) pages.clear();
  pages.set(key, url ?? NO_PAGE);
  return url;
}

/** hoverPageUrl's pages by settings and URN text; NO_PAGE when there is none. */
const pages = new Map<string, string | typeof NO_PAGE>();
const NO_PAGE = Symbol('no page');
const PAGES_KEPT = 256;

/**
 * Whether a document link (as linksIn gives them) covers `offset`: the outermost URN there, when it
 * has a page. One page is built, not the document's every link, and the URN is found through the
 * scan's index of ranges (features/intervals.ts), not by walking the document.
 */
export function linkAt(scan: ScanResult, offset: number, s: Settings): boolean {
  const o = firstRangeAt(scan.occurrences, offset, (x) => x.parent === undefined);
  return o !== undefined && !o.template && o.parsed?.ok === true && hoverPageUrl(s, o.parsed.urn, o.urn) !== undefined;
}

/**
 * The document links of a scan: each outermost URN that has a page, with its range (offsets). The
 * page of a URN written several times is built once (ingestion files repeat their URNs: half the
 * links of a golden file are repeats), and the settings are read once for all of them
 * (entityPageMaker).
 */
export function linksIn(scan: ScanResult, s: Settings): Array<{ start: number; end: number; target: string }> {
  const pageOf = entityPageMaker(s);
  const pages = new Map<string, string | undefined>();
  const links: Array<{ start: number; end: number; target: string }> = [];
  for (const o of scan.occurrences) {
    if (o.template || !o.parsed?.ok || o.parent !== undefined) continue;
    let target = pages.get(o.urn);
    if (target === undefined && !pages.has(o.urn)) {
      const page = pageOf(o.parsed.urn, o.urn);
      target = 'url' in page ? page.url : undefined;
      pages.set(o.urn, target);
    }
    if (target) links.push({ start: o.start, end: o.end, target });
  }
  return links;
}
