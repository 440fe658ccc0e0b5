/**
 * DataHub's lineage relationship names (`DownstreamOf`, `DerivedFrom`, `Consumes` …) in words, one
 * table for every place that shows them: the catalog's pages (their Lineage section) and the
 * editor's lineage view. A relationship is named from the entity shown: `revenue DownstreamOf
 * orders` reads, on revenue's page, "orders: read from" (upstream), and on orders' page "revenue:
 * reads this" (downstream).
 */

export type LineageSide = 'upstream' | 'downstream';

/** The words for a relationship, by the side of the entity shown the neighbour is on. */
export const RELATIONSHIP_WORDS: Readonly<Record<string, Readonly<Record<LineageSide, string>>>> = {
  DownstreamOf: { upstream: 'read from', downstream: 'reads this' },
  DerivedFrom: { upstream: 'source', downstream: 'derived from this' },
  Consumes: { upstream: 'feature used', downstream: 'uses this' },
};

/**
 * How a neighbour `side` of the entity shown is related to it: the table's words, else DataHub's
 * name as words (`TrainedBy` → `trained by`, `MLModelGroupOf` → `ml model group of`).
 */
export function relationshipWords(name: string, side: LineageSide): string {
  const words = Object.hasOwn(RELATIONSHIP_WORDS, name) ? RELATIONSHIP_WORDS[name]![side] : undefined;
  return words ?? nameAsWords(name);
}

/** A relationship name split into lower-case words (`DownstreamOf` → `downstream of`). */
export function nameAsWords(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase();
}
