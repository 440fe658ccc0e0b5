/**
 * Did-you-mean for a URN the catalog does not have: of the entities a search
 * found, the nearest names of the same kind. Distance: optimal string alignment on the name,
 * lower-cased (a swap of neighbours is one typo, as for envs), plus 2 for another platform, 1 for
 * another env or feature table; kept within max(2, a third of the name's length), or when one name
 * holds the other (`users` for `db.users`). At most 3, nearest first, then by name. Pure.
 */
import { decodePart, entityKey, editDistance, parseUrn, type Urn } from '../../../model/src/urn';
import { entityName } from '../../../model/src/entityNames';

/** What a search found: an entity's URN (its name and parts are read from it). */
export interface Candidate {
  urn: string;
}

/** Suggestions per unknown URN: the URNs of near entities, nearest first; undefined when none were looked for. */
export type SuggestionLookup = (urn: string) => readonly string[] | undefined;

export const MAX_SUGGESTIONS = 3;

/** The name a search is asked for, to find what `urn` may have meant. */
export function searchName(urn: Urn): string {
  return urn.kind === 'mlFeature' ? urn.feature : entityName(urn);
}

/** The nearest candidates to `unknown` (a URN's text), as URNs. */
export function rankSuggestions(unknown: string, candidates: readonly Candidate[], max = MAX_SUGGESTIONS): string[] {
  const parsedUnknown = parseUrn(unknown);
  if (!parsedUnknown.ok) return [];
  const urn = parsedUnknown.urn;
  const name = searchName(urn).toLowerCase();
  const limit = Math.max(2, Math.floor(name.length / 3));
  const own = entityKey(unknown);
  const seen = new Set<string>();
  const ranked: Array<{ urn: string; name: string; d: number }> = [];
  for (const c of candidates) {
    const parsed = parseUrn(c.urn);
    if (!parsed.ok || parsed.urn.kind !== urn.kind) continue;
    if (parsed.urn.kind === 'other' && urn.kind === 'other' && parsed.urn.entityType !== urn.entityType) continue;
    const key = entityKey(c.urn);
    if (key === own || seen.has(key)) continue;
    seen.add(key);
    const other = searchName(parsed.urn).toLowerCase();
    const d = editDistance(name, other, limit + 3);
    if (d > limit && !other.includes(name) && !name.includes(other)) continue;
    ranked.push({ urn: c.urn, name: other, d: d + partPenalty(urn, parsed.urn) });
  }
  return ranked
    .sort((a, b) => a.d - b.d || a.name.localeCompare(b.name) || a.urn.localeCompare(b.urn))
    .slice(0, max)
    .map((r) => r.urn);
}

/** Another platform is a bigger step than a typo in the name; another env or feature table a smaller one. */
function partPenalty(a: Urn, b: Urn): number {
  let p = 0;
  if ('platform' in a && 'platform' in b && a.platform !== b.platform) p += 2;
  if ('env' in a && 'env' in b && a.env !== b.env) p += 1;
  if (a.kind === 'mlFeature' && b.kind === 'mlFeature' && a.table !== b.table) p += 1;
  return p;
}

/**
 * "db.users", "db.users or db.user", "db.users, db.user or db.usr" — names, with the platform where two share a name.
 * Given the unknown URN, each near match is named by what differs from it (nearMatch).
 */
export function suggestionNames(urns: readonly string[], unknown?: string): string {
  const parsed = urns.flatMap((u) => {
    const p = parseUrn(u);
    return p.ok ? [{ text: u, urn: p.urn }] : [];
  });
  const names = parsed.map((u) => entityName(u.urn));
  const labels = parsed.map((u, i) =>
    unknown !== undefined
      ? nearMatch(unknown, u.text).mention
      : names.filter((n) => n === names[i]).length > 1 && 'platform' in u.urn
        ? `${names[i]} (${u.urn.platform})`
        : names[i]!,
  );
  if (labels.length <= 1) return labels.join('');
  return `${labels.slice(0, -1).join(', ')} or ${labels[labels.length - 1]}`;
}

/** How a near match differs from the unknown URN: what a message mentions, and its quick fix's title. */
export interface NearMatch {
  /** "db.users", "env PROD", "platform hive", "db.users on platform hive", "platform hive in env PROD". */
  mention: string;
  /** "Replace with db.users", "Replace env PORD with PROD", "Replace platform hiv with hive", "Replace with db.users on platform hive". */
  title: string;
}

/**
 * What differs between `unknown` and `near` (URN texts): the name (case included), the platform, the
 * env, an ML feature's table. Only the differing parts are named; where none of these differ
 * (another part, or the spelling of an escape), the whole near URN.
 */
export function nearMatch(unknown: string, near: string): NearMatch {
  const a = parseUrn(unknown);
  const b = parseUrn(near);
  if (!a.ok || !b.ok) return { mention: near, title: `Replace with ${near}` };
  const u = a.urn;
  const n = b.urn;
  const diffs: Array<{ word: string; link: string; from: string; to: string }> = [];
  if (entityName(u) !== entityName(n)) diffs.push({ word: '', link: '', from: entityName(u), to: entityName(n) });
  if ('platform' in u && 'platform' in n && u.platform !== n.platform && u.kind !== 'dataPlatform') {
    diffs.push({ word: 'platform', link: 'on', from: u.platform, to: n.platform });
  }
  if ('env' in u && 'env' in n && u.env !== n.env) diffs.push({ word: 'env', link: 'in', from: u.env, to: n.env });
  if (u.kind === 'mlFeature' && n.kind === 'mlFeature' && u.table !== n.table) {
    diffs.push({ word: 'feature table', link: 'of', from: decodePart(u.table), to: decodePart(n.table) });
  }
  const [first, ...rest] = diffs;
  if (!first) return { mention: near, title: `Replace with ${near}` };
  const head = first.word ? `${first.word} ${first.to}` : first.to;
  const mention = [head, ...rest.map((d) => `${d.link} ${d.word} ${d.to}`)].join(' ');
  if (rest.length === 0 && first.word)
    return { mention, title: `Replace ${first.word} ${first.from} with ${first.to}` };
  return { mention, title: `Replace with ${mention}` };
}
