/**
 * `catalog-lens-catalog`: starts the local catalog and says where it is. Tests read the first
 * line ("catalog-lens catalog listening on http://127.0.0.1:<port>"); keep its form.
 */
import { parseCliOptions, TOKEN_ENV, UsageError, USAGE, type CliOptions } from './cliOptions';

function banner(url: string, o: CliOptions, sampleDataset: string): string[] {
  const ns = o.namespaces.includes('li') ? 'li' : o.namespaces[0]!;
  const dataset = sampleDataset.replaceAll('urn:li:', `urn:${ns}:`);
  const query = `{ dataset(urn: \\"${dataset}\\") { urn properties { description } schemaMetadata { fields { fieldPath description } } } }`;
  const auth = o.token
    ? `auth: on — every request except GET /health and GET /config needs "Authorization: Bearer <token>" (token not shown)`
    : 'auth: off — started without --token, every request is accepted';
  const authHeader = o.token ? ` -H "Authorization: Bearer $${TOKEN_ENV}"` : '';
  const mode = o.compat === 'datahub'
    ? `mode: DataHub (--compat datahub) — answers as a real DataHub where it differs from the spec (catalog/README.md "DataHub mode"); GraphQL limits: depth ${o.graphqlDepthLimit ?? 50}, complexity ${o.graphqlComplexityLimit ?? 2000}`
    : 'mode: spec — answers as shared/spec/catalog-interface.md says (--compat datahub answers as a real DataHub)';
  return [
    `catalog-lens catalog listening on ${url}`,
    `  GraphQL:        POST ${url}/api/graphql`,
    `  aspect write:   POST ${url}/aspects?action=ingestProposal   (and ?action=ingestProposalBatch)`,
    `  aspect read:    GET  ${url}/aspects/{url-encoded urn}?aspect=<name>&version=0`,
    `  several:        GET  ${url}/entitiesV2/{url-encoded urn}?aspects=List(a,b)`,
    `  server info:    GET  ${url}/config   health: GET ${url}/health`,
    `  database: ${o.db === ':memory:' ? ':memory: (not kept after exit)' : o.db} (synchronous=${o.durability.toUpperCase()})`,
    `  ${mode}`,
    `  namespaces: ${o.namespaces.join(', ')}${o.compat === 'datahub' ? ' (each a different entity, as at DataHub)' : ''}${o.sample ? '   sample data: loaded' : ''}`,
    `  ${auth}`,
    `  try: curl -s ${url}/api/graphql -H 'Content-Type: application/json'${authHeader} -d '{"query":"${query}"}'`,
  ];
}

async function main(): Promise<void> {
  let o: CliOptions;
  try {
    o = parseCliOptions(process.argv.slice(2), process.env, process.cwd());
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`catalog-lens-catalog: ${e.message}\nRun with --help for the options.\n`);
      process.exit(2);
    }
    throw e;
  }
  if (o.help) {
    process.stdout.write(USAGE);
    return;
  }
  // Loaded only now, so that --help and bad flags answer without loading SQLite and GraphQL.
  const { startCatalog } = require('./server') as typeof import('./server');
  const { SAMPLE } = require('./sample') as typeof import('./sample');
  // The database's folder is created (0700) and its file (0600) by the store: catalog/src/dbFile.ts.
  const catalog = await startCatalog({
    port: o.port, host: o.host, db: o.db, token: o.token, sample: o.sample, namespaces: o.namespaces,
    durability: o.durability, compat: o.compat,
    connections: {
      ...(o.maxConnections !== undefined ? { maxConnections: o.maxConnections } : {}),
      ...(o.headersTimeoutMs !== undefined ? { headersTimeoutMs: o.headersTimeoutMs } : {}),
    },
    ...(o.graphqlComplexityLimit !== undefined ? { graphqlComplexityLimit: o.graphqlComplexityLimit } : {}),
    ...(o.graphqlDepthLimit !== undefined ? { graphqlDepthLimit: o.graphqlDepthLimit } : {}),
    ...(o.maxBodyBytes !== undefined ? { maxBodyBytes: o.maxBodyBytes } : {}),
    log: (line) => {
      if (!o.quiet || line.startsWith('internal error')) process.stdout.write(`${new Date().toISOString()} ${line}\n`);
    },
  });
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`catalog-lens catalog: ${signal}, closing\n`);
    catalog.close().then(
      () => process.exit(0),
      (e: unknown) => {
        process.stderr.write(`catalog-lens catalog: error while closing: ${String(e)}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  // Printed last: whoever reads the listening line may signal the process at once.
  process.stdout.write(banner(catalog.url, o, SAMPLE.datasets.users).join('\n') + '\n');
}

main().catch((e: unknown) => {
  process.stderr.write(`catalog-lens-catalog: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
