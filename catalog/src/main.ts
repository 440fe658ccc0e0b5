/**
 * `catalog-lens-catalog`: starts the local catalog and says where it is (banner.ts): its first
 * line is the listening line of model/src/localCatalog.ts.
 */
import { readFileSync } from 'node:fs';
import { banner, startupWarnings } from './banner';
import { parseCliOptions, UsageError, USAGE, type CliOptions } from './cliOptions';

/** How long a stop may take before the process exits without waiting further. */
const STOP_DEADLINE_MS = 5_000;

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
  for (const w of startupWarnings(o)) process.stderr.write(`catalog-lens-catalog: warning: ${w}\n`);
  let files: Array<{ file: string; text: string }> | undefined;
  if (o.load.length > 0) {
    files = [];
    for (const file of o.load) {
      try {
        files.push({ file, text: readFileSync(file, 'utf8') });
      } catch (e) {
        process.stderr.write(`catalog-lens-catalog: --load: cannot read ${file}: ${(e as Error).message}\n`);
        process.exit(1);
      }
    }
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded lazily, as said below
  const { loadInto, reportLines } = require('./load') as typeof import('./load');
  if (o.into !== undefined && files) {
    const report = await loadInto(o.into, files, o.token);
    process.stderr.write(
      reportLines(report)
        .map((l) => `catalog-lens-catalog: ${l}\n`)
        .join(''),
    );
    return;
  }
  // Loaded only now, so that --help and bad flags answer without loading SQLite and GraphQL.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded lazily, as said above
  const { startCatalog } = require('./server') as typeof import('./server');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded lazily, as said above
  const { SAMPLE } = require('./sample') as typeof import('./sample');
  // The database's folder is created (0700) and its file (0600) by the store: catalog/src/dbFile.ts.
  const catalog = await startCatalog({
    port: o.port,
    host: o.host,
    db: o.db,
    token: o.token,
    sample: o.sample,
    ...(files ? { load: files } : {}),
    namespaces: o.namespaces,
    durability: o.durability,
    compat: o.compat,
    allowedHosts: o.allowedHosts,
    ...(o.pages !== undefined ? { pages: o.pages } : {}),
    ...(o.pagesSecret !== undefined ? { pagesSecret: o.pagesSecret } : {}),
    connections: {
      ...(o.maxConnections !== undefined ? { maxConnections: o.maxConnections } : {}),
      ...(o.headersTimeoutMs !== undefined ? { headersTimeoutMs: o.headersTimeoutMs } : {}),
      ...(o.bodyTimeoutMs !== undefined ? { bodyTimeoutMs: o.bodyTimeoutMs } : {}),
    },
    ...(o.graphqlComplexityLimit !== undefined ? { graphqlComplexityLimit: o.graphqlComplexityLimit } : {}),
    ...(o.graphqlDepthLimit !== undefined ? { graphqlDepthLimit: o.graphqlDepthLimit } : {}),
    ...(o.maxBodyBytes !== undefined ? { maxBodyBytes: o.maxBodyBytes } : {}),
    requestLog: !o.quiet,
    log: (line) => {
      if (!o.quiet || line.startsWith('internal error')) process.stdout.write(`${new Date().toISOString()} ${line}\n`);
    },
  });
  if (catalog.loadReport)
    process.stderr.write(
      reportLines(catalog.loadReport)
        .map((l) => `catalog-lens-catalog: ${l}\n`)
        .join(''),
    );
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`catalog-lens catalog: ${signal}, closing\n`);
    // close() closes every socket at once; should anything still hold it, the process exits anyway.
    // Writes are on disk when acknowledged (durability 'full').
    setTimeout(() => {
      process.stderr.write(`catalog-lens catalog: not closed after ${STOP_DEADLINE_MS / 1000} s; exiting\n`);
      process.exit(1);
    }, STOP_DEADLINE_MS).unref();
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
  process.stdout.write(banner(catalog.url, catalog.hosts, o, SAMPLE.datasets.users).join('\n') + '\n');
}

main().catch((e: unknown) => {
  process.stderr.write(`catalog-lens-catalog: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
