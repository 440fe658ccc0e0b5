/**
 * The pages' search box (`/?q=`): what a query finds among the entities listed.
 *
 * - `tag:pii` finds the entities tagged so, on the entity or on a column; the tag is named by its
 *   id (`pii` of `urn:li:tag:pii`), its stored name (`GDPR`) or its URN.
 * - Any other query finds the entities whose name, URN or description holds it (any case), and
 *   those carrying a tag it names.
 * - When that finds nothing, near spellings: the entities with a name, or a part of one (`revenue`
 *   of `analytics.public.revenue`), at most one edit away from the query (two from a query of 8
 *   characters or more; a swap of neighbours is one edit), closest first. Bounded: a query shorter
 *   than 4 or longer than 64 characters is not respelled, and each name gives at most 8 parts.
 */
import { displayId } from '../../../model/src/entityNames';
import { editDistance } from '../../../model/src/urn';
import type { EntitySummary, PageData } from './data';

export interface PageSearch {
  found: EntitySummary[];
  /** How they were found: every entity (no query), by text (and tags), by tag alone, by near spelling. */
  how: 'all' | 'text' | 'tag' | 'near';
  /** The tag a `tag:` query names, as typed. */
  tag?: string;
  /** By near spelling: the name closest to the query, to offer as "did you mean". */
  closest?: string;
}

const TAG_PREFIX = /^tag:\s*/i;
const MIN_NEAR = 4;
const MAX_NEAR = 64;
const MAX_PARTS = 8;

/** The edits a query of `length` characters may be away from a name. */
export function nearLimit(length: number): number {
  return length < MIN_NEAR || length > MAX_NEAR ? -1 : length < 8 ? 1 : 2;
}

export function searchPages(data: PageData, entities: readonly EntitySummary[], query: string): PageSearch {
  const q = query.trim();
  if (q === '') return { found: [...entities], how: 'all' };
  const tagged = (word: string): Set<string> => {
    const byEntity = data.tagsByEntity();
    const named = data.tagsNamed(word, new Set([...byEntity.values()].flatMap((tags) => [...tags])));
    const out = new Set<string>();
    if (named.size === 0) return out;
    for (const [entity, tags] of byEntity) if ([...tags].some((t) => named.has(t))) out.add(entity);
    return out;
  };
  if (TAG_PREFIX.test(q)) {
    const tag = q.replace(TAG_PREFIX, '');
    const keys = tag === '' ? new Set<string>() : tagged(tag);
    return { found: entities.filter((e) => keys.has(e.key)), how: 'tag', tag };
  }
  const needle = q.toLowerCase();
  const keys = tagged(q);
  const found = entities.filter(
    (e) => keys.has(e.key) || [e.name, e.key, e.description ?? ''].some((s) => s.toLowerCase().includes(needle)),
  );
  if (found.length > 0) return { found, how: 'text' };
  const near = nearSpellings(entities, needle);
  return near.length > 0
    ? { found: near.map((n) => n.entity), how: 'near', closest: near[0]!.word }
    : { found, how: 'text' };
}

/** The entities with a name or name part within nearLimit of `lower`, closest first (then in list order). */
function nearSpellings(
  entities: readonly EntitySummary[],
  lower: string,
): Array<{ entity: EntitySummary; distance: number; word: string }> {
  const limit = nearLimit(lower.length);
  if (limit < 0) return [];
  const out: Array<{ entity: EntitySummary; distance: number; word: string }> = [];
  for (const entity of entities) {
    let best: { distance: number; word: string } | undefined;
    for (const word of wordsOf(entity)) {
      const distance = editDistance(lower, word.toLowerCase(), best ? best.distance - 1 : limit);
      if (distance <= limit && (!best || distance < best.distance)) best = { distance, word };
    }
    if (best) out.push({ entity, ...best });
  }
  return out.sort((a, b) => a.distance - b.distance);
}

/** The names of an entity a query may misspell: its name and id, whole and by part. */
function wordsOf(e: EntitySummary): string[] {
  const words = new Set<string>();
  for (const name of [e.name, displayId(e.urn)]) {
    if (name === '') continue;
    words.add(name);
    for (const part of name.split(/[\s./:_-]+/).slice(-MAX_PARTS)) if (part.length >= MIN_NEAR - 1) words.add(part);
  }
  return [...words];
}
