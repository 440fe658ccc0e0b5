/**
 * Bounds on connections (security-probe finding 4: ~20,000 idle or dripping sockets held every
 * file descriptor and the catalog stopped answering until they went away). A cap below the file
 * descriptor limit keeps descriptors for SQLite and the log; short timeouts close what does not
 * become a request: a socket that sends no complete header block within `headersTimeoutMs`, a
 * request whose body does not arrive within `requestTimeoutMs`, a keep-alive socket idle for
 * `keepAliveTimeoutMs`. Node checks the first two every `checkIntervalMs`.
 */
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';

export interface ConnectionLimits {
  /** Sockets open at once; more are closed as they arrive (the server's 'drop' event). */
  maxConnections: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** How often Node looks for sockets past their headers or request timeout. */
  checkIntervalMs: number;
}

/** The soft limit on open files, where the system says (Linux); Node raises it to the hard limit at start. */
export function openFileLimit(): number | undefined {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line?.split(/\s{2,}/)[1];
    return soft !== undefined && /^\d+$/.test(soft) ? Number(soft) : undefined;
  } catch {
    // No /proc (macOS, Windows): the default below applies.
    return undefined;
  }
}

/** Half the descriptors, at most 1000: the language server uses a handful, a benchmark eight. */
export function defaultMaxConnections(fdLimit: number | undefined): number {
  return fdLimit === undefined ? 500 : Math.max(16, Math.min(1000, Math.floor(fdLimit / 2)));
}

export function defaultConnectionLimits(): ConnectionLimits {
  return {
    maxConnections: defaultMaxConnections(openFileLimit()),
    headersTimeoutMs: 10_000,
    // A 16 MiB body (the default limit) needs well under a minute on any link the catalog serves.
    requestTimeoutMs: 60_000,
    keepAliveTimeoutMs: 5_000,
    checkIntervalMs: 1_000,
  };
}

/** Server options for createServer (headers and request timeouts, the check interval). */
export function serverOptions(l: ConnectionLimits): {
  headersTimeout: number;
  requestTimeout: number;
  connectionsCheckingInterval: number;
} {
  return {
    headersTimeout: l.headersTimeoutMs,
    requestTimeout: l.requestTimeoutMs,
    connectionsCheckingInterval: l.checkIntervalMs,
  };
}

/** Sets the cap and keep-alive timeout, and logs refused connections: the first, then every 1000th (a flood must not flood the log). */
export function applyConnectionLimits(server: Server, l: ConnectionLimits, log: (line: string) => void): void {
  server.maxConnections = l.maxConnections;
  server.keepAliveTimeout = l.keepAliveTimeoutMs;
  let dropped = 0;
  server.on('drop', () => {
    dropped++;
    if (dropped === 1 || dropped % 1000 === 0) {
      log(
        `connection refused: ${l.maxConnections} connections are open (--max-connections); ${dropped} refused so far`,
      );
    }
  });
}
