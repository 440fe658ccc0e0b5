/**
 * The tests' one HTTP forwarding proxy: listens on 127.0.0.1 (a free port) and forwards each
 * request to a target, keeping every exchange (method, path, headers, body and the answer). On
 * the way it can:
 * - fault: answer a request itself (a status and body, a hang, a drip, a reset) instead of
 *   forwarding it, for the requests a predicate picks, always or a number of times;
 * - delay: hold a request for some milliseconds, or until released, then forward it;
 * - rewrite: ask the target for another path (a frontend's prefix), or change the target's answer;
 * - answer some requests itself before forwarding (a frontend's own pages: `ownAnswers`);
 * - refuse connections (stop listening on its port) and accept them again on the same port.
 * `stop` closes every connection it holds.
 */
import {
  createServer,
  request,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A request as the proxy received it (its body read whole, as UTF-8). */
export interface ProxiedRequest {
  method: string;
  /** The path with its query, as sent to the proxy. */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface ProxiedAnswer {
  status: number;
  headers: IncomingHttpHeaders | OutgoingHttpHeaders;
  body: string;
}

/** One request and what became of it. */
export interface Exchange extends ProxiedRequest {
  /** The path the target was asked for (after `rewritePath`), when the request was forwarded. */
  forwardedAs?: string;
  /** Who answered: the target, a fault, or the proxy's own answers (`ownAnswers`). */
  answeredBy?: 'target' | 'fault' | 'proxy';
  /** The fault that answered it. */
  fault?: FaultRule;
  /** The answer, set as it is sent back (none for a hang, a drip or a reset). */
  answer?: ProxiedAnswer;
}

/** What the proxy answers instead of forwarding. */
export type Fault =
  | { status: number; contentType?: string; body?: string }
  /** No answer: the request stays open until the client gives up or the proxy stops. */
  | { hang: true }
  /** The head (status 200 unless given), then `chunk` every `everyMs`, never ending. */
  | { drip: string; everyMs: number; status?: number; contentType?: string }
  /** The connection is destroyed without an answer. */
  | { reset: true };

export type RequestPredicate = (req: ProxiedRequest) => boolean;

export interface FaultRule {
  /** Stops applying the fault. */
  remove(): void;
}

export interface Hold {
  /** Forwards the requests held so far and lets later ones through; removes the hold. */
  release(): void;
  /** How many requests are held now. */
  readonly held: number;
}

export interface ProxyOptions {
  /** Where requests are forwarded; without one, a request nothing answers gets a 502. */
  target?: string;
  /** The path the target is asked for, from the path the proxy got (with its query). */
  rewritePath?: (path: string, req: ProxiedRequest) => string;
  /** The proxy's own answers, asked after the faults: an answer here is not forwarded. */
  ownAnswers?: (req: ProxiedRequest) => Fault | undefined;
}

export interface TestProxy {
  readonly url: string;
  /** Every request that reached the proxy, in arrival order (refused connections are not here). */
  readonly exchanges: Exchange[];
  /**
   * Answers `fault` (or what it returns for the request) instead of forwarding, for the requests
   * `when` picks (all by default), `times` times (always by default). The first fault added that
   * applies answers.
   */
  fault(fault: Fault | ((req: ProxiedRequest) => Fault), opts?: { when?: RequestPredicate; times?: number }): FaultRule;
  /** Holds the requests `when` picks (all by default) for `ms`, then forwards them; removed with `remove`. */
  delay(ms: number, when?: RequestPredicate): FaultRule;
  /** Holds the requests `when` picks (all by default) until `release`. */
  hold(when?: RequestPredicate): Hold;
  /** Changes the target's answer to the requests `when` picks (all by default) before it is sent back. */
  rewriteAnswer(
    change: (answer: ProxiedAnswer, req: ProxiedRequest) => ProxiedAnswer,
    when?: RequestPredicate,
  ): FaultRule;
  /** Resolves when `accept` holds for the exchanges: checked now, as each request arrives and as each answer has been sent whole. */
  waitFor(accept: (exchanges: readonly Exchange[]) => boolean, what: string, timeoutMs?: number): Promise<void>;
  /** Stops listening (connections are refused) and closes the open ones. */
  refuse(): Promise<void>;
  /** Listens again, on the same port. */
  accept(): Promise<void>;
  stop(): Promise<void>;
}

/** Headers of the target's answer that describe the connection or the body's framing, not the answer. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length']);

export async function startProxy(opts: ProxyOptions = {}): Promise<TestProxy> {
  const target = opts.target !== undefined ? new URL(opts.target) : undefined;
  const sockets = new Set<Socket>();
  const exchanges: Exchange[] = [];
  type Rule<T> = { when: RequestPredicate; value: T; times: number };
  const faults: Array<Rule<Fault | ((req: ProxiedRequest) => Fault)>> = [];
  const delays: Array<Rule<number | Promise<void>>> = [];
  const rewrites: Array<Rule<(answer: ProxiedAnswer, req: ProxiedRequest) => ProxiedAnswer>> = [];
  const waiters = new Set<() => void>();
  const timers = new Set<NodeJS.Timeout>();
  let server: Server | undefined;
  let port = 0;
  let stopped = false;

  const all: RequestPredicate = () => true;
  const removable = <T>(list: Array<Rule<T>>, rule: Rule<T>): FaultRule => {
    list.push(rule);
    return {
      remove: () => {
        const i = list.indexOf(rule);
        if (i >= 0) list.splice(i, 1);
      },
    };
  };
  const changed = (): void => {
    for (const w of [...waiters]) w();
  };
  const later = (ms: number, fn: () => void): NodeJS.Timeout => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
    return t;
  };

  const send = (ex: Exchange, res: ServerResponse, answer: ProxiedAnswer): void => {
    if (res.destroyed) return;
    ex.answer = answer;
    res.writeHead(answer.status, answer.headers as OutgoingHttpHeaders);
    res.end(answer.body, changed);
  };

  const answerFault = (ex: Exchange, req: IncomingMessage, res: ServerResponse, fault: Fault): void => {
    if ('hang' in fault) return;
    if ('reset' in fault) {
      req.socket.destroy();
      return;
    }
    if ('drip' in fault) {
      res.writeHead(fault.status ?? 200, { 'Content-Type': fault.contentType ?? 'application/json' });
      const t = setInterval(() => res.write(fault.drip), fault.everyMs);
      timers.add(t);
      res.on('close', () => {
        clearInterval(t);
        timers.delete(t);
      });
      return;
    }
    const headers: OutgoingHttpHeaders = fault.contentType !== undefined ? { 'Content-Type': fault.contentType } : {};
    send(ex, res, { status: fault.status, headers, body: fault.body ?? '' });
  };

  const forward = (ex: Exchange, req: IncomingMessage, res: ServerResponse, body: Buffer): void => {
    if (!target) {
      send(ex, res, { status: 502, headers: { 'Content-Type': 'text/plain' }, body: 'proxy: no target' });
      return;
    }
    const path = opts.rewritePath ? opts.rewritePath(ex.path, ex) : ex.path;
    ex.forwardedAs = path;
    const headers: OutgoingHttpHeaders = { ...req.headers, host: target.host, 'content-length': String(body.length) };
    delete headers['transfer-encoding'];
    const up = request({ host: target.hostname, port: target.port, path, method: ex.method, headers }, (upRes) => {
      const parts: Buffer[] = [];
      upRes.on('data', (c: Buffer) => parts.push(c));
      upRes.on('end', () => {
        const kept = Object.fromEntries(Object.entries(upRes.headers).filter(([k]) => !HOP_BY_HOP.has(k)));
        let answer: ProxiedAnswer = {
          status: upRes.statusCode ?? 502,
          headers: kept,
          body: Buffer.concat(parts).toString('utf8'),
        };
        for (const r of rewrites) if (r.when(ex)) answer = r.value(answer, ex);
        ex.answeredBy = 'target';
        send(ex, res, answer);
      });
    });
    up.on('error', (err) => {
      if (res.headersSent) res.destroy();
      else send(ex, res, { status: 502, headers: { 'Content-Type': 'text/plain' }, body: `proxy: ${err.message}` });
    });
    // A client that gave up (a timeout) ends the request to the target too.
    res.on('close', () => up.destroy());
    up.end(body);
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const ex: Exchange = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body: body.toString('utf8'),
      };
      exchanges.push(ex);
      changed();
      const fault = faults.find((f) => f.when(ex));
      if (fault) {
        if (--fault.times === 0) faults.splice(faults.indexOf(fault), 1);
        ex.answeredBy = 'fault';
        ex.fault = fault as Partial<FaultRule> as FaultRule;
        answerFault(ex, req, res, typeof fault.value === 'function' ? fault.value(ex) : fault.value);
        return;
      }
      const own = opts.ownAnswers?.(ex);
      if (own) {
        ex.answeredBy = 'proxy';
        answerFault(ex, req, res, own);
        return;
      }
      // Held first (until every hold that picks it is released), then delayed by the longest delay.
      const picked = delays.filter((d) => d.when(ex));
      const holds = picked.flatMap((d) => (typeof d.value === 'number' ? [] : [d.value]));
      const ms = Math.max(0, ...picked.flatMap((d) => (typeof d.value === 'number' ? [d.value] : [])));
      let gone = false;
      res.on('close', () => (gone = true));
      const go = (): void => {
        if (!gone && !stopped) forward(ex, req, res, body);
      };
      if (picked.length === 0) go();
      else
        void Promise.all(holds).then(() => {
          if (ms === 0) return go();
          const t = later(ms, go);
          res.on('close', () => {
            clearTimeout(t);
            timers.delete(t);
          });
        });
    });
  };

  const listen = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const s = createServer(handle);
      s.on('connection', (socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        s.off('error', reject);
        server = s;
        port = (s.address() as AddressInfo).port;
        resolve();
      });
    });
  const close = (): Promise<void> =>
    new Promise((resolve) => {
      const s = server;
      server = undefined;
      if (!s) {
        resolve();
        return;
      }
      for (const socket of sockets) socket.destroy();
      s.close(() => resolve());
    });

  await listen();
  const proxy: TestProxy = {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    fault(fault, o = {}) {
      const rule = { when: o.when ?? all, value: fault, times: o.times ?? Infinity };
      // The rule itself is the handle: an exchange it answered names it (`Exchange.fault`).
      return Object.assign(rule, removable(faults, rule));
    },
    delay: (ms, when = all) => removable(delays, { when, value: ms, times: Infinity }),
    hold(when = all) {
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      let held = 0;
      const counted: RequestPredicate = (req) => {
        if (!when(req)) return false;
        held++;
        void released.then(() => held--);
        return true;
      };
      const rule = removable(delays, { when: counted, value: released, times: Infinity });
      return {
        release: () => {
          rule.remove();
          release();
        },
        get held() {
          return held;
        },
      };
    },
    rewriteAnswer: (change, when = all) => removable(rewrites, { when, value: change, times: Infinity }),
    waitFor(accept, what, timeoutMs = 10_000) {
      if (accept(exchanges)) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const check = (): void => {
          if (!accept(exchanges)) return;
          waiters.delete(check);
          clearTimeout(t);
          resolve();
        };
        const t = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`proxy: timed out after ${timeoutMs} ms waiting for ${what}`));
        }, timeoutMs);
        waiters.add(check);
      });
    },
    refuse: close,
    accept: async () => {
      if (!server) await listen();
    },
    async stop() {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await close();
    },
  };
  return proxy;
}
