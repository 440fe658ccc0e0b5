/**
 * One hop of an entity's lineage, for the lineage view: DataHub's `lineage` field, read
 * leniently (DataHub lists entities of any type there: a data job, a chart …; those show by URN).
 */
import { isRecord } from '../../../model/src/json';
import { LINEAGE_PAGE, type LineageItem, type LineageResult } from '../../../model/src/protocol';
import { entityName } from '../../../model/src/entityNames';
import { acceptCatalogUrn } from '../../../model/src/insertion';
import { kindOfGraphqlEntityType } from '../../../model/src/kinds';
import { parseUrn } from '../../../model/src/urn';
import type { CatalogClient } from './client';
import { hintFor } from './errors';
import { lineageQuery, type LineageKind } from './queries';

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** One relationship's entity as a view row; undefined when the answer has no well-formed URN for it. */
function itemOf(rel: Record<string, unknown>): LineageItem | undefined {
  const entity = isRecord(rel['entity']) ? rel['entity'] : undefined;
  const urn = str(entity?.['urn']);
  if (!entity || !urn) return undefined;
  // A row is offered for Insert/Copy URN and for the next hop: only a well-formed URN, as DataHub writes it.
  if (!acceptCatalogUrn(urn).ok) return undefined;
  const type = str(entity['type']) ?? '';
  const parsed = parseUrn(urn);
  // A dataset's or model's platform; a chart's or dashboard's tool; a job's orchestrator.
  const platform = isRecord(entity['platform'])
    ? str(entity['platform']['name'])
    : (str(entity['tool']) ?? (isRecord(entity['dataFlow']) ? str(entity['dataFlow']['orchestrator']) : undefined));
  const properties = isRecord(entity['properties']) ? entity['properties'] : undefined;
  const name = str(entity['name']) ?? str(properties?.['name']) ?? (parsed.ok ? entityName(parsed.urn) : urn);
  return {
    urn,
    kind: kindOfGraphqlEntityType(type) ?? (type.toLowerCase() || 'entity'),
    name,
    ...(platform ? { platform } : {}),
    relationship: str(rel['type']) ?? '',
  };
}

/** The entities one hop `direction` of `urn` (an entity of `kind`), at most LINEAGE_PAGE, with the catalog's total. */
export async function lineageOf(
  client: CatalogClient,
  urn: string,
  kind: LineageKind,
  direction: 'upstream' | 'downstream',
  signal?: AbortSignal,
): Promise<LineageResult> {
  const r = await client.read(
    lineageQuery(kind),
    { urn, direction: direction === 'upstream' ? 'UPSTREAM' : 'DOWNSTREAM', count: LINEAGE_PAGE },
    signal,
  );
  if (!r.ok) return { error: `${r.error.message}. ${hintFor(r.error)}` };
  const entity = isRecord(r.data['e0']) ? r.data['e0'] : undefined;
  const lineage = isRecord(entity?.['lineage']) ? entity['lineage'] : undefined;
  if (!lineage) return { items: [], total: 0 };
  const rels = Array.isArray(lineage['relationships']) ? lineage['relationships'].filter(isRecord) : [];
  const items = rels.flatMap((rel) => itemOf(rel) ?? []).slice(0, LINEAGE_PAGE);
  const total = typeof lineage['total'] === 'number' ? Math.max(lineage['total'], items.length) : items.length;
  return { items, total };
}
