/**
 * The transport the command line names, as vscode-languageserver reads it from argv. A module of
 * its own, free of the LSP library: dist/server.js (boot.ts) reads it before the library is loaded
 * (earlyInitialize.ts).
 */
export type Transport =
  | { kind: 'stdio' }
  | { kind: 'socket'; port: number }
  | { kind: 'pipe'; name: string }
  /** --node-ipc, or no transport the library would accept: the library's own createConnection. */
  | { kind: 'library' };

/**
 * The transport of `argv` (process.argv without node and the script), read as vscode-languageserver
 * reads it: the first of `--node-ipc`, `--stdio`, `--socket N`, `--socket=N`, `--pipe NAME`,
 * `--pipe=NAME` wins; a port that does not parse to a number above 0, or an empty pipe name, is
 * no transport.
 */
export function transportOf(argv: readonly string[]): Transport {
  let port: number | undefined;
  let pipeName: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--node-ipc') return { kind: 'library' };
    if (arg === '--stdio') return { kind: 'stdio' };
    if (arg === '--socket') {
      port = parseInt(argv[i + 1]!);
      break;
    }
    if (arg === '--pipe') {
      pipeName = argv[i + 1];
      break;
    }
    const parts = arg.split('=');
    if (parts[0] === '--socket') {
      port = parseInt(parts[1]!);
      break;
    }
    if (parts[0] === '--pipe') {
      pipeName = parts[1];
      break;
    }
  }
  if (port) return { kind: 'socket', port };
  if (pipeName) return { kind: 'pipe', name: pipeName };
  return { kind: 'library' };
}
