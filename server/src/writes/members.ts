/**
 * The members an ML entity's properties aspect lists now (a feature table's or a model's
 * features, a model's groups), read fresh from the catalog: the client's Remove commands offer
 * these to pick from. A read; the write is removeFeaturesFromTable & co. (memberListCommands.ts).
 */
import type { MlFeatureTableProperties, MlModelProperties } from '../../../model/src/aspects';
import type { MembersParams, MembersResult } from '../../../model/src/protocol';
import { parseUrn } from '../../../model/src/urn';
import type { CatalogClient } from '../catalogClient/client';

const ASPECT = { mlFeatureTable: 'mlFeatureTableProperties', mlModel: 'mlModelProperties' } as const;

export async function listMembers(
  client: CatalogClient,
  params: MembersParams,
  signal?: AbortSignal,
): Promise<MembersResult> {
  const p = typeof params?.urn === 'string' ? parseUrn(params.urn) : undefined;
  if (!p?.ok) return { error: "'urn' is not a valid URN" };
  const kind = p.urn.kind;
  if (kind !== 'mlFeatureTable' && kind !== 'mlModel') return { error: 'only feature tables and models list members' };
  if (params.list !== 'mlFeatures' && params.list !== 'groups') return { error: "'list' must be mlFeatures or groups" };
  if (kind === 'mlFeatureTable' && params.list === 'groups') return { error: 'a feature table lists no groups' };
  if (!client.configured) return { error: 'no catalog is configured (catalogLens.url is empty)' };
  const aspect = ASPECT[kind];
  const r = await client.readAspects(params.urn, [aspect], signal);
  if (!r.ok) return { error: r.error.message };
  const value = r.aspects[aspect]?.value as (MlFeatureTableProperties & MlModelProperties) | undefined;
  const list = value?.[params.list];
  return { members: Array.isArray(list) ? list.filter((m): m is string => typeof m === 'string') : [] };
}
