/**
 * Did-you-mean's searches: what the pipeline asks, after a document's
 * diagnostics are out, for the URNs the catalog lacks (openDocuments.ts `suggest`).
 */
import type { LookupKind } from '../../../model/src/kinds';
import { parseUrn, printUrn, withNamespace } from '../../../model/src/urn';
import type { CatalogClient } from '../catalogClient/client';
import { searchUrnsOfKind } from '../catalogClient/search';
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
  items: ReadonlyArray<{ urn: string; kind: LookupKind }>,
  signal?: AbortSignal,
): Promise<SuggestionLookup> {
  const found = new Map<string, string[]>();
  await Promise.all(
    items.slice(0, MAX_SUGGESTION_SEARCHES).map(async (item) => {
      const parsed = parseUrn(item.urn);
      if (!parsed.ok) return;
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
