/**
 * What `catalog-lens-catalog` says when it starts: warnings first (also on stderr), then the
 * banner. Its first line is the listening line of model/src/localCatalog.ts, which the extension,
 * `npm start` and the tests read.
 */
import { statSync } from 'node:fs';
import { TOKEN_ENV, type CliOptions } from './cliOptions';
import { listeningLine } from '../../model/src/localCatalog';
import { isLoopbackHost } from '../../model/src/origin';

/**
 * What is risky about how the catalog was started (a token other users can read, no token beyond
 * loopback), one sentence each.
 */
export function startupWarnings(o: Pick<CliOptions, 'host' | 'port' | 'token' | 'tokenSource'>): string[] {
  const warnings: string[] = [];
  if (o.tokenSource?.kind === 'flag') {
    warnings.push(
      `--token puts the token on the command line, where any user of this machine can read it (ps); set ${TOKEN_ENV} or use --token-file FILE instead`,
    );
  }
  if (o.tokenSource?.kind === 'file') {
    const mode = statSync(o.tokenSource.file).mode;
    if ((mode & 0o077) !== 0) {
      warnings.push(
        `the token file ${o.tokenSource.file} can be read by other users (mode ${(mode & 0o777).toString(8)}); chmod 600 it`,
      );
    }
  }
  if (!isLoopbackHost(o.host) && o.token === undefined) {
    warnings.push(
      `listening on ${o.host}, beyond this machine, with no token: anyone who can reach port ${o.port === 0 ? '(the one below)' : o.port} ` +
        `can read and change the catalog; set ${TOKEN_ENV} or --token-file FILE`,
    );
  }
  return warnings;
}

function tokenOrigin(o: Pick<CliOptions, 'tokenSource'>): string {
  switch (o.tokenSource?.kind) {
    case 'env':
      return `from ${TOKEN_ENV}`;
    case 'file':
      return `from --token-file ${o.tokenSource.file}`;
    case 'flag':
      return 'from --token';
    default:
      return '';
  }
}

function pagesAccess(o: Pick<CliOptions, 'token' | 'pages' | 'host'>): string {
  if (!o.token) return 'open like the API';
  const mode = o.pages ?? (isLoopbackHost(o.host) ? 'open' : 'token');
  return mode === 'open'
    ? 'open without the token (--pages token to require it)'
    : 'need the token (Bearer, or a browser sign-in with the token as password)';
}

export function banner(url: string, hosts: readonly string[], o: CliOptions, sampleDataset: string): string[] {
  const ns = o.namespaces.includes('li') ? 'li' : o.namespaces[0]!;
  const dataset = sampleDataset.replaceAll('urn:li:', `urn:${ns}:`);
  const query = `{ dataset(urn: \\"${dataset}\\") { urn properties { description } schemaMetadata { fields { fieldPath description } } } }`;
  const auth = o.token
    ? `auth: on (token ${tokenOrigin(o)}, not shown) — every request except GET /health and GET /config needs "Authorization: Bearer <token>"`
    : `auth: off — no token (set ${TOKEN_ENV} or --token-file FILE): every request to the names below is accepted`;
  const authHeader = o.token ? ` -H "Authorization: Bearer $${TOKEN_ENV}"` : '';
  const mode =
    o.compat === 'datahub'
      ? `mode: DataHub (--compat datahub) — answers as a real DataHub where it differs from the spec (docs/local-catalog.md "DataHub mode"); GraphQL limits: depth ${o.graphqlDepthLimit ?? 50}, complexity ${o.graphqlComplexityLimit ?? 2000}`
      : 'mode: spec — answers as shared/spec/catalog-interface.md says (--compat datahub answers as a real DataHub)';
  return [
    listeningLine(url),
    `  GraphQL:        POST ${url}/api/graphql`,
    `  aspect write:   POST ${url}/aspects?action=ingestProposal   (and ?action=ingestProposalBatch)`,
    `  aspect read:    GET  ${url}/aspects/{url-encoded urn}?aspect=<name>&version=0`,
    `  several:        GET  ${url}/entitiesV2/{url-encoded urn}?aspects=List(a,b)`,
    `  server info:    GET  ${url}/config   health: GET ${url}/health`,
    `  pages:          GET  ${url}/   read-only HTML at DataHub's UI paths (/dataset/<urn> …); ${pagesAccess(o)}`,
    `  database: ${o.db === ':memory:' ? ':memory: (not kept after exit)' : o.db} (synchronous=${o.durability.toUpperCase()})`,
    `  ${mode}`,
    `  namespaces: ${o.namespaces.join(', ')}${o.compat === 'datahub' ? ' (each a different entity, as at DataHub)' : ''}${o.sample ? '   sample data: loaded' : ''}`,
    `  ${auth}`,
    `  requests: Host ${hosts.join(', ')} only; POST with Content-Type: application/json; no CORS (docs/local-catalog.md "Security")`,
    ...startupWarnings({ ...o, port: Number(new URL(url).port) }).map((w) => `  warning: ${w}`),
    `  try: curl -s ${url}/api/graphql -H 'Content-Type: application/json'${authHeader} -d '{"query":"${query}"}'`,
  ];
}
