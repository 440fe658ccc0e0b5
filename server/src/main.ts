/**
 * The language server's process entry: `catalog-lens-server --stdio` (or `--node-ipc`,
 * `--socket=N`, `--pipe=NAME`, as vscode-languageserver reads them from argv; transport/connection.ts).
 */
import { SERVER_TOKEN_ENV } from '../../model/src/protocol';
import { PRODUCT_VERSION } from '../../model/src/version';
import { startServer } from './server';
import { createServerConnection } from './transport/connection';

const args = process.argv.slice(2);
if (args.includes('--version')) {
  process.stdout.write(`catalog-lens-server ${PRODUCT_VERSION}\n`);
  process.exit(0);
}
if (
  args.includes('--help') ||
  !args.some((a) => a === '--stdio' || a === '--node-ipc' || a.startsWith('--socket') || a.startsWith('--pipe'))
) {
  process.stderr.write(
    [
      'Usage: catalog-lens-server --stdio | --node-ipc | --socket=PORT | --pipe=NAME',
      '',
      'The Catalog Lens language server. Settings come through workspace/configuration (section',
      '"catalogLens") or initializationOptions.settings; the access token from the environment',
      `variable ${SERVER_TOKEN_ENV} (or initializationOptions.token).`,
      '',
    ].join('\n'),
  );
  process.exit(args.includes('--help') ? 0 : 2);
}
// A stray error must not take the server down with the user's open documents: log and go on.
process.on('uncaughtException', (e) => process.stderr.write(`catalog-lens-server: uncaught ${e.stack ?? e.message}\n`));
process.on('unhandledRejection', (e) =>
  process.stderr.write(
    `catalog-lens-server: unhandled rejection ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
  ),
);

startServer(createServerConnection(process.argv.slice(2)), { env: process.env });
