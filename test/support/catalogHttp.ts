/** Direct HTTP to a catalog, for setting up and reading back in tests (DataHub's Rest.li shapes). */
export async function ingest(url: string, entityType: string, urn: string, aspectName: string, value: unknown, token?: string): Promise<number> {
  const r = await fetch(`${url}/aspects?action=ingestProposal`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ proposal: { entityType, entityUrn: urn, changeType: 'UPSERT', aspectName, aspect: { value: JSON.stringify(value), contentType: 'application/json' } }, async: 'false' }),
  });
  await r.text();
  return r.status;
}

export async function ingestBatch(url: string, proposals: Array<{ entityType: string; urn: string; aspectName: string; value: unknown }>): Promise<number> {
  const r = await fetch(`${url}/aspects?action=ingestProposalBatch`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      proposals: proposals.map((p) => ({ entityType: p.entityType, entityUrn: p.urn, changeType: 'UPSERT', aspectName: p.aspectName, aspect: { value: JSON.stringify(p.value), contentType: 'application/json' } })),
      async: 'false',
    }),
  });
  await r.text();
  return r.status;
}

/** Aspect values by name (absent aspects are absent), from GET /entitiesV2. */
export async function aspects(url: string, urn: string, names: string[]): Promise<Record<string, any>> {
  const r = await fetch(`${url}/entitiesV2/${encodeURIComponent(urn)}?aspects=List(${names.join(',')})`);
  const body = await r.json() as { aspects?: Record<string, { value: unknown }> };
  const out: Record<string, any> = {};
  for (const [k, v] of Object.entries(body.aspects ?? {})) out[k] = v.value;
  return out;
}

export async function graphql(url: string, query: string, variables: Record<string, unknown> = {}): Promise<any> {
  const r = await fetch(`${url}/api/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ query, variables }) });
  return r.json();
}
