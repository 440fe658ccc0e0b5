/**
 * Direct HTTP to a catalog, for setting up and reading back in tests (DataHub's Rest.li shapes).
 * Every Rest.li call says it speaks protocol 2.0, as DataHub's SDK does: DataHub (and the local
 * catalog's DataHub mode) reads `List(a,b)` only then.
 */
const RESTLI_2 = { 'X-RestLi-Protocol-Version': '2.0.0' };
export async function ingest(
  url: string,
  entityType: string,
  urn: string,
  aspectName: string,
  value: unknown,
  token?: string,
): Promise<number> {
  const r = await fetch(`${url}/aspects?action=ingestProposal`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...RESTLI_2,
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({
      proposal: {
        entityType,
        entityUrn: urn,
        changeType: 'UPSERT',
        aspectName,
        aspect: { value: JSON.stringify(value), contentType: 'application/json' },
      },
      async: 'false',
    }),
  });
  await r.text();
  return r.status;
}

export async function ingestBatch(
  url: string,
  proposals: Array<{ entityType: string; urn: string; aspectName: string; value: unknown }>,
): Promise<number> {
  const r = await fetch(`${url}/aspects?action=ingestProposalBatch`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...RESTLI_2 },
    body: JSON.stringify({
      proposals: proposals.map((p) => ({
        entityType: p.entityType,
        entityUrn: p.urn,
        changeType: 'UPSERT',
        aspectName: p.aspectName,
        aspect: { value: JSON.stringify(p.value), contentType: 'application/json' },
      })),
      async: 'false',
    }),
  });
  await r.text();
  return r.status;
}

/** Aspect values by name (absent aspects are absent), from GET /entitiesV2. */
export async function aspects(url: string, urn: string, names: string[]): Promise<Record<string, any>> {
  const r = await fetch(`${url}/entitiesV2/${encodeURIComponent(urn)}?aspects=List(${names.join(',')})`, {
    headers: RESTLI_2,
  });
  const body = (await r.json()) as { aspects?: Record<string, { value: unknown }> };
  const out: Record<string, any> = {};
  // Only what was asked for: DataHub also answers an entity's key aspect (alwaysIncludeKeyAspect).
  for (const [k, v] of Object.entries(body.aspects ?? {})) if (names.includes(k)) out[k] = v.value;
  return out;
}

export async function graphql(url: string, query: string, variables: Record<string, unknown> = {}): Promise<any> {
  const r = await fetch(`${url}/api/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return r.json();
}
