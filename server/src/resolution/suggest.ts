/**
 * Did-you-mean's searches: what the pipeline asks, after a document's
 * diagnostics are out, for the URNs the catalog lacks (openDocuments.ts `suggest`).
 */
import type { LookupKind } from '../../../model/src/kinds';
import { entityName } from '../../../model/src/entityNames';
import { parseUrn, printUrn, withNamespace, type Urn } from '../../../model/src/urn';
import type { CatalogClient } from '../catalogClient/client';
import { searchNamed, searchUrnsOfKind } from '../catalogClient/search';
import { rankSuggestions, searchName, type SuggestionLookup } from './didYouMean';

/** Most unknown URNs one check searches near names for: a document full of typos does not flood the catalog. */
export const MAX_SUGGESTION_SEARCHES = 10;

/**
 * Did-you-mean: for each URN the catalog lacks (the first
 * MAX_SUGGESTION_SEARCHES), a search of its name among entities of its kind, ranked by
 * didYouMean.ts, each spelled in the unknown URN's namespace word. A failed search suggests nothing.
 */
export async function suggestNear(
  client: CatalogClient,
  items: ReadonlyArray<{ urn: string; kind: LookupKind; byName?: string }>,
  signal?: AbortSignal,
): Promise<SuggestionLookup> {
  const found = new Map<string, string[]>();
  await Promise.all(
    items.slice(0, MAX_SUGGESTION_SEARCHES).map(async (item) => {
      const parsed = parseUrn(item.urn);
      if (!parsed.ok) return;
      if (item.byName !== undefined) {
        const near = await nearByName(client, item, parsed.urn, signal);
        if (near) found.set(item.urn, near);
        return;
      }
      const urns = await searchUrnsOfKind(client, item.kind, searchName(parsed.urn), 20, signal);
      if (urns === undefined) return;
      const ns = parsed.urn.namespace;
      const respelled = urns.flatMap((u) => {
        const p = parseUrn(u);
        return p.ok ? [{ urn: printUrn(withNamespace(p.urn, ns)) }] : [];
      });
      found.set(item.urn, rankSuggestions(item.urn, respelled));
    }),
  );
  return (urn) => found.get(urn);
}

/**
 * Did-you-mean for a domain written by name that the catalog has neither as id nor as name: the
 * names and the ids of the domains a search of it finds, each written as the file would write it
 * (`urn:li:domain:<name or id>`: DataHub takes either), ranked as any other near name.
 */
async function nearByName(
  client: CatalogClient,
  item: { urn: string; kind: LookupKind; byName?: string },
  urn: Urn,
  signal?: AbortSignal,
): Promise<string[] | undefined> {
  const r = await searchNamed(client, [item.kind], item.byName!, 20, signal);
  if (r.error !== undefined) return undefined;
  const prefix = `urn:${urn.namespace}:${item.kind}:`;
  const candidates = r.items.flatMap((x) => {
    const p = parseUrn(x.urn);
    if (!p.ok) return [];
    const id = entityName(p.urn);
    return [...(x.displayName ? [{ urn: prefix + x.displayName }] : []), { urn: prefix + id }];
  });
  return rankSuggestions(item.urn, candidates);
}
