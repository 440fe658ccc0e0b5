/**
 * Bounds on connections. ~20,000 idle or dripping sockets held every file descriptor and the
 * catalog stopped answering, so there is a cap below the file descriptor limit, which keeps
 * descriptors for SQLite and the log. Then 1,000 sockets that sent their headers and then dripped a
 * body byte by byte held that cap for 60 s and locked everyone out, one local process sufficing
 * (on loopback every client is 127.0.0.1). So:
 *
 * - A connection that is not being answered (waiting for a request's headers, receiving a body, or
 *   holding an answer its client does not read) gives its place to a new one when the cap is
 *   reached: the one whose last byte arrived longest ago is closed. A request that has arrived
 *   whole is never closed for another. Only when every connection is being answered is a new one
 *   refused.
 * - A client address beyond loopback holds at most `maxPerClient` connections (its own stalest
 *   gives way, or it is refused); on loopback all clients share one address, and the rule above
 *   is what protects them from each other.
 * - A body must keep arriving: at least `MIN_BODY_BYTES` in every `bodyTimeoutMs`, or the request
 *   is answered 408 and closed. Node closes a socket whose headers are not complete within
 *   `headersTimeoutMs`, a request not complete within `requestTimeoutMs`, and a keep-alive socket
 *   idle for `keepAliveTimeoutMs`.
 *
 * `ConnectionTable` decides (pure: the caller gives the time and the connections' state);
 * `trackConnections` applies it to a server.
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { isLoopbackHost } from '../../model/src/origin';

export interface ConnectionLimits {
  /** Sockets open at once; at the cap a new one takes the place of a stalled one, or is closed. */
  maxConnections: number;
  /** Sockets of one client address beyond loopback. */
  maxPerClient: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** A request body that receives fewer than MIN_BODY_BYTES in this long is answered 408 and closed. */
  bodyTimeoutMs: number;
  /** How often Node looks for sockets past their headers or request timeout, and this module for slow bodies. */
  checkIntervalMs: number;
}

/** What a body must gain in each `bodyTimeoutMs` (or be complete): a body dripped at 1 byte per 5 s is far below. */
export const MIN_BODY_BYTES = 1024;

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

/** A quarter of the cap, at least 8: a few machines of a team share a catalog bound beyond loopback. */
export function defaultMaxPerClient(maxConnections: number): number {
  return Math.max(8, Math.floor(maxConnections / 4));
}

export function defaultConnectionLimits(): ConnectionLimits {
  const maxConnections = defaultMaxConnections(openFileLimit());
  return {
    maxConnections,
    maxPerClient: defaultMaxPerClient(maxConnections),
    headersTimeoutMs: 10_000,
    // A 16 MiB body (the default limit) needs well under a minute on any link the catalog serves.
    requestTimeoutMs: 60_000,
    keepAliveTimeoutMs: 5_000,
    bodyTimeoutMs: 5_000,
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

/**
 * Where a connection is: `waiting` for a request's headers (a new socket, or keep-alive between
 * requests), receiving a request's `body`, `answering` a request that arrived whole, or holding an
 * answer written in full that its client does not read (`unread`). All but `answering` may give
 * their place to a new connection.
 */
export type Phase = 'waiting' | 'body' | 'answering' | 'unread';

/** One connection as the table sees it. */
export interface Conn {
  readonly address: string;
  /** Bytes received so far. */
  bytesRead(): number;
  phase(): Phase;
  /** Closes it: `slowBody` answers 408 first when nothing was answered yet. */
  close(why: 'evicted' | 'slowBody'): void;
}

interface Entry {
  lastBytes: number;
  /** When its last byte arrived (as seen by the sweeps and by `admit`). */
  lastProgress: number;
  /** The body window: since when, and the bytes read then (undefined: not receiving a body). */
  windowStart: number | undefined;
  windowBytes: number;
}

const EVICTABLE: ReadonlySet<Phase> = new Set(['waiting', 'body', 'unread']);

export class ConnectionTable {
  private readonly open = new Map<Conn, Entry>();
  private readonly perClient = new Map<string, number>();
  private refused = 0;
  private evicted = 0;
  private slow = 0;

  constructor(
    private readonly limits: Pick<ConnectionLimits, 'maxConnections' | 'maxPerClient' | 'bodyTimeoutMs'>,
    private readonly log: (line: string) => void,
  ) {}

  get size(): number {
    return this.open.size;
  }

  connections(): Conn[] {
    return [...this.open.keys()];
  }

  /** A new connection: true when it may stay (a stalled one may have been closed for it), false when it must be closed. */
  admit(c: Conn, now: number): boolean {
    const own = this.perClient.get(c.address) ?? 0;
    if (!isLoopbackHost(c.address) && own >= this.limits.maxPerClient) {
      if (!this.evictStalest(now, c.address, `${own} connections of ${c.address} are open (per client)`))
        return this.refuse(`${own} connections of ${c.address} are open (per client)`);
    }
    if (this.open.size >= this.limits.maxConnections) {
      const why = `${this.open.size} connections are open (--max-connections)`;
      if (!this.evictStalest(now, undefined, why)) return this.refuse(why);
    }
    this.open.set(c, { lastBytes: c.bytesRead(), lastProgress: now, windowStart: undefined, windowBytes: 0 });
    this.perClient.set(c.address, (this.perClient.get(c.address) ?? 0) + 1);
    return true;
  }

  /** Its request's headers arrived: the body window starts. */
  requestStarted(c: Conn, now: number): void {
    const e = this.open.get(c);
    if (!e) return;
    this.progress(c, e, now);
    e.lastProgress = now;
    e.windowStart = now;
    e.windowBytes = c.bytesRead();
  }

  closed(c: Conn): void {
    if (!this.open.delete(c)) return;
    const n = (this.perClient.get(c.address) ?? 1) - 1;
    if (n > 0) this.perClient.set(c.address, n);
    else this.perClient.delete(c.address);
  }

  /** Notes who received bytes, and closes each request whose body gained fewer than MIN_BODY_BYTES in a whole window. */
  sweep(now: number): void {
    for (const [c, e] of this.open) {
      this.progress(c, e, now);
      if (c.phase() !== 'body') {
        e.windowStart = undefined;
        continue;
      }
      if (e.windowStart === undefined) {
        e.windowStart = now;
        e.windowBytes = c.bytesRead();
        continue;
      }
      if (now - e.windowStart < this.limits.bodyTimeoutMs) continue;
      const gained = c.bytesRead() - e.windowBytes;
      if (gained < MIN_BODY_BYTES) {
        this.slow++;
        if (this.slow === 1 || this.slow % 1000 === 0)
          this.log(
            `request body too slow: ${gained} bytes in ${((now - e.windowStart) / 1000).toFixed(1)} s from ${c.address} (at least ${MIN_BODY_BYTES} per ${this.limits.bodyTimeoutMs / 1000} s); answered 408 and closed; ${this.slow} so far`,
          );
        this.closed(c);
        c.close('slowBody');
      } else {
        e.windowStart = now;
        e.windowBytes = c.bytesRead();
      }
    }
  }

  private progress(c: Conn, e: Entry, now: number): void {
    const bytes = c.bytesRead();
    if (bytes !== e.lastBytes) {
      e.lastBytes = bytes;
      e.lastProgress = now;
    }
  }

  /** Closes the connection (of `address`, if given) not being answered whose last byte is oldest; false when there is none. */
  private evictStalest(now: number, address: string | undefined, why: string): boolean {
    let stalest: [Conn, Entry] | undefined;
    for (const [c, e] of this.open) {
      if (address !== undefined && c.address !== address) continue;
      if (!EVICTABLE.has(c.phase())) continue;
      this.progress(c, e, now);
      if (!stalest || e.lastProgress < stalest[1].lastProgress) stalest = [c, e];
    }
    if (!stalest) return false;
    const [c, e] = stalest;
    this.evicted++;
    if (this.evicted === 1 || this.evicted % 1000 === 0)
      this.log(
        `connection closed to make room: ${why}; the one closed (${c.address}, ${c.phase()}) received nothing for ${((now - e.lastProgress) / 1000).toFixed(1)} s; ${this.evicted} closed so far`,
      );
    this.closed(c);
    c.close('evicted');
    return true;
  }

  /** Refused connections are logged: the first, then every 1000th (a flood must not flood the log). */
  private refuse(why: string): false {
    this.refused++;
    if (this.refused === 1 || this.refused % 1000 === 0)
      this.log(`connection refused: ${why}, each being answered; ${this.refused} refused so far`);
    return false;
  }
}

const SLOW_BODY_ANSWER =
  'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nX-Content-Type-Options: nosniff\r\nContent-Length: 0\r\n\r\n';

/** A socket of the server, with the last request it received and that request's answer. */
class SocketConn implements Conn {
  readonly address: string;
  req: IncomingMessage | undefined;
  res: ServerResponse | undefined;

  constructor(readonly socket: Socket) {
    this.address = socket.remoteAddress ?? 'unknown';
  }

  bytesRead(): number {
    return this.socket.bytesRead;
  }

  phase(): Phase {
    if (this.req && !this.req.complete) return 'body';
    const res = this.res;
    if (res && !res.writableFinished && !res.destroyed) return res.writableEnded ? 'unread' : 'answering';
    return 'waiting';
  }

  close(why: 'evicted' | 'slowBody'): void {
    if (why === 'slowBody' && this.socket.writable && !this.res?.headersSent) this.socket.write(SLOW_BODY_ANSWER);
    this.socket.destroy();
  }
}

export interface TrackedConnections {
  table: ConnectionTable;
  /** Closes every socket the server has (stop: nothing may keep the process). */
  closeAll(): void;
  /** Stops the sweeps. */
  stop(): void;
}

/** Applies the limits to `server`: the table admits each connection, sweeps find slow bodies; Node's own cap stays off. */
export function trackConnections(server: Server, l: ConnectionLimits, log: (line: string) => void): TrackedConnections {
  server.keepAliveTimeout = l.keepAliveTimeoutMs;
  const table = new ConnectionTable(l, log);
  const bySocket = new WeakMap<Socket, SocketConn>();
  server.on('connection', (socket: Socket) => {
    const c = new SocketConn(socket);
    if (!table.admit(c, Date.now())) {
      socket.destroy();
      return;
    }
    bySocket.set(socket, c);
    socket.once('close', () => table.closed(c));
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const c = bySocket.get(req.socket);
    if (!c) return;
    c.req = req;
    c.res = res;
    table.requestStarted(c, Date.now());
  });
  const timer = setInterval(() => table.sweep(Date.now()), Math.min(l.checkIntervalMs, l.bodyTimeoutMs));
  timer.unref();
  return {
    table,
    closeAll() {
      for (const c of table.connections()) (c as SocketConn).socket.destroy();
      server.closeAllConnections();
    },
    stop() {
      clearInterval(timer);
    },
  };
}
