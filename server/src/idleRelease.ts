/**
 * Gives memory back to the system once the server goes idle after a burst of work (documents
 * resolved and closed, a Check Workspace, the index build). V8 keeps the young generation it grew
 * to and the pages of old garbage until its memory reducer runs, which it does only after many
 * seconds of idleness; meanwhile the process holds tens of MiB it no longer uses.
 *
 * While there is work, the server looks (on a timer that never keeps the process alive) every
 * second, half a second after a look that found it idle, and a second after the last work in flight
 * ended (that look measures from the end, so that it does not count the burst): at how busy its
 * event loop was since the last look, at the work in flight (catalog requests, index builds, worker scans: the waits during
 * which the loop is idle but a burst is not over) and at its resident memory. When two looks in a row find the loop idle (under 2 % busy) and nothing
 * in flight after some work, the burst has ended; then, if the RSS is 8 MiB or more above what it
 * was after the last release (or at the start), it asks V8 for a full collection, which returns
 * the free pages and shrinks the young generation. At most one collection per burst and per growth:
 * a server that keeps what it grew to (a full cache) is not collected again and again. The rules
 * are `decideIdle`, a pure function of the state and one look. When a burst has ended, the caches
 * are first told to tidy (`tidy`: the catalog cache compacts the answers it kept as parsed).
 *
 * The collection stops the server for several full passes (hundreds of ms with a large live
 * heap), so it is timed and logged, skipped when the live heap is large (the pause grows with it
 * and little of it is garbage), and after a long pause the growth wanted before the next one is
 * raised. When a burst ends without anything to do, the timer stops; the next work starts it again.
 *
 * The collection is the one a debugger's "collect garbage" asks for (the inspector's
 * HeapProfiler.collectGarbage: V8 collects all it can, shrinks the young generation and returns
 * the free pages), asked through one in-process inspector session (node:inspector), connected
 * when first needed and kept for the life of the process: no port is opened, no V8 flag is set,
 * and no editor needs to pass one — the same server runs under any editor's `node`. The session
 * never enables the HeapProfiler domain (collectGarbage does not need it) and is never
 * disconnected, since V8 disables the heap profiler for the whole process when a session closes
 * (a developer's allocation timeline would stop and heap object ids restart). While a debugger's
 * port is open (`inspector.url()`), nothing is collected: the developer decides. (V8's `gc()` of
 * `--expose-gc` collects but keeps the pages and the grown young generation: the RSS does not
 * move.) A Node built without the inspector has no such session: then nothing is collected.
 * `CATALOG_LENS_IDLE_GC=off` turns it off; `CATALOG_LENS_IDLE_GC=always` collects even while a
 * debugger's port is open (a benchmark that measures the server through that port);
 * `CATALOG_LENS_IDLE_TRACE=1` logs every look (what it found, what it decided).
 */
import type * as Inspector from 'node:inspector';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';

/** How often the server looks while there is work. */
const LOOK_MS = 1000;
/**
 * After a look that found the loop idle, the next look comes this much sooner: the second look
 * of the quiet wanted before a collection, which then comes half a second earlier after a burst.
 */
const QUIET_LOOK_MS = 500;
/** While asleep, how often RSS is read, so that growth from work it does not count (a request answered from the caches) still wakes it. */
const DROWSY_LOOK_MS = 10_000;
/** Busy below this share of the last second: idle. */
export const IDLE_UTILIZATION = 0.02;
/** Looks in a row that must find the loop idle: a pause between two requests of a burst is not the end of it. */
export const IDLE_LOOKS = 2;
/** RSS grown by this much since the last release: worth a collection. */
export const GROWTH_BYTES = 8 * 1024 * 1024;
/** A collection that paused the server longer than this: the next one waits for more growth. */
export const LONG_PAUSE_MS = 200;
/** The growth wanted after a long pause, as a multiple of GROWTH_BYTES. */
export const BACKOFF_FACTOR = 4;
/** A live heap larger than this is not collected: the pause grows with it, and little of it is garbage. */
export const LARGE_HEAP_BYTES = 150 * 1024 * 1024;
/** A collection that has not answered after this long is given up on. */
export const COLLECTION_TIMEOUT_MS = 10_000;

/** The decision rules' state between looks. */
export interface IdleState {
  /** Looks in a row that found the loop idle and nothing in flight. */
  idleLooks: number;
  /** The RSS after the last release (or at the start), followed down. */
  baseline: number;
  /** Work seen since the last end of a burst. */
  worked: boolean;
  /** A collection was asked for and has not answered. */
  collecting: boolean;
  /** A collection failed (no inspector): nothing more is asked. */
  failed: boolean;
  /** How long the last collection paused the server, in ms. */
  lastPauseMs: number;
}

/** What one look finds. */
export interface IdleLook {
  /** Event-loop utilisation since the last look, 0–1. */
  busy: number;
  rss: number;
  /** V8's used heap. */
  heapUsed: number;
  /** Work in flight (WorkInFlight.count). */
  inFlight: number;
  /** A debugger's port is open. */
  debuggerOpen: boolean;
}

/**
 * `wait`: look again; `collect`: ask V8 for the collection; `sleep`: the burst has ended and there
 * is nothing to do, stop looking until the next work; `stop`: never look again.
 */
export type IdleDecision = 'wait' | 'collect' | 'sleep' | 'stop';

export const initialIdleState = (rss: number): IdleState => ({
  idleLooks: 0,
  baseline: rss,
  worked: true,
  collecting: false,
  failed: false,
  lastPauseMs: 0,
});

/** The growth wanted before a collection, raised after a long pause. */
export const growthWanted = (state: IdleState): number =>
  state.lastPauseMs > LONG_PAUSE_MS ? GROWTH_BYTES * BACKOFF_FACTOR : GROWTH_BYTES;

/** The rules: what to do after `look`, and the state after it; `why` says why nothing is collected. */
export function decideIdle(
  state: IdleState,
  look: IdleLook,
): { state: IdleState; decision: IdleDecision; why?: string } {
  if (state.failed) return { state, decision: 'stop' };
  if (state.collecting) return { state, decision: 'wait' };
  // Memory given back by V8 itself, or never taken: the baseline follows it down.
  const baseline = Math.min(state.baseline, look.rss);
  const quiet = look.busy < IDLE_UTILIZATION && look.inFlight === 0;
  const next: IdleState = {
    ...state,
    baseline,
    idleLooks: quiet ? state.idleLooks + 1 : 0,
    worked: state.worked || !quiet,
  };
  if (next.idleLooks < IDLE_LOOKS) return { state: next, decision: 'wait' };
  // The burst has ended (or nothing happened since the last end): one decision per burst.
  const ended: IdleState = { ...next, worked: false };
  if (!next.worked) return { state: ended, decision: 'sleep' };
  if (look.rss - baseline < growthWanted(next)) return { state: ended, decision: 'sleep' };
  if (look.debuggerOpen) return { state: ended, decision: 'sleep', why: 'a debugger is attached' };
  if (look.heapUsed > LARGE_HEAP_BYTES)
    return { state: ended, decision: 'sleep', why: `the live heap is large (${mib(look.heapUsed)} MiB used)` };
  return { state: { ...ended, collecting: true, idleLooks: 0 }, decision: 'collect' };
}

/** The state after the collection answered: the baseline is the RSS after it. */
export const collectedIdle = (state: IdleState, rssAfter: number, pauseMs: number): IdleState => ({
  ...state,
  collecting: false,
  baseline: rssAfter,
  lastPauseMs: pauseMs,
  idleLooks: 0,
});

/** The state after the collection failed (stop) or never answered (a pause of at least the timeout). */
export const failedIdle = (state: IdleState, timedOut: boolean): IdleState =>
  timedOut
    ? { ...state, collecting: false, idleLooks: 0, lastPauseMs: Math.max(state.lastPauseMs, COLLECTION_TIMEOUT_MS) }
    : { ...state, collecting: false, failed: true };

/**
 * The work in flight: what the server awaits (catalog requests, index builds, worker scans) while
 * its event loop is idle. `begin` counts one and answers its end (once); every begin also tells
 * the listeners that work arrived.
 */
export class WorkInFlight {
  private n = 0;
  private readonly listeners: (() => void)[] = [];
  private readonly settledListeners: (() => void)[] = [];

  get count(): number {
    return this.n;
  }

  onWork(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** `listener` is told each time the last work in flight ends (the count falls to 0). */
  onSettled(listener: () => void): void {
    this.settledListeners.push(listener);
  }

  /** Work that arrived and is done at once (a document opened or changed). */
  arrived(): void {
    for (const l of this.listeners) l();
  }

  begin(): () => void {
    this.n++;
    this.arrived();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.n--;
      if (this.n === 0) for (const l of this.settledListeners) l();
    };
  }

  /** `p` in flight until it settles; answers `p`. */
  track<T>(p: Promise<T>): Promise<T> {
    const end = this.begin();
    p.then(end, end);
    return p;
  }
}

let session: Inspector.Session | undefined;

/**
 * V8's full collection that gives memory back, through the process's one in-process inspector
 * session; settles when done, rejects when there is no inspector.
 */
export function collectAllGarbage(): Promise<void> {
  if (!session) {
    // Loaded when first used: a Node built without the inspector throws here, not at start-up.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded when first used, as said above
    const { Session } = require('node:inspector') as typeof Inspector;
    const s = new Session();
    s.connect();
    session = s;
  }
  const s = session;
  return new Promise<void>((resolve, reject) =>
    s.post('HeapProfiler.collectGarbage', (e) => (e ? reject(e) : resolve())),
  );
}

/** A debugger's port is open (`--inspect`, or inspector.open()). */
function debuggerOpen(): boolean {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded when first used, as in collectAllGarbage
    const inspector = require('node:inspector') as typeof Inspector;
    return inspector.url() !== undefined;
  } catch {
    // A Node built without the inspector: no debugger either; the collection then fails once and
    // the release stops.
    return false;
  }
}

export interface IdleRelease {
  /** Stops looking. */
  stop(): void;
  /** How many collections it asked for. */
  readonly collections: number;
  /** It is looking (not asleep until the next work, not stopped). */
  readonly looking: boolean;
}

export interface IdleReleaseOptions {
  /** The work in flight; each begin wakes the looking. */
  work?: WorkInFlight;
  /** The collection (collectAllGarbage). */
  collect?: () => Promise<void>;
  /** Whether a debugger's port is open. */
  debuggerOpen?: () => boolean;
  /** How busy the event loop was since the last look, 0–1 (its utilisation; tests give their own). */
  busy?: () => number;
  /**
   * The event loop's utilisation so far (performance.eventLoopUtilization; tests give their own),
   * of which each look takes the difference since the last look or the end of the work in flight.
   */
  utilization?: () => EventLoopUtilization;
  /**
   * Told once when a burst of work has ended, before the collection is decided: the caches turn
   * what they kept in a larger form during the work into a smaller one, so that the collection
   * returns the difference. Its own time is not counted as work.
   */
  tidy?: () => void;
}

/**
 * Starts looking; `log` is told of each collection with the RSS before and after and its pause.
 * `env`: `CATALOG_LENS_IDLE_GC=off` turns it off (then undefined); `always` collects even while a
 * debugger's port is open.
 */
export function releaseMemoryWhenIdle(
  env: NodeJS.ProcessEnv,
  log: (message: string) => void = () => {},
  options: IdleReleaseOptions = {},
): IdleRelease | undefined {
  if (env.CATALOG_LENS_IDLE_GC === 'off') return undefined;
  const collect = options.collect ?? collectAllGarbage;
  const attached =
    options.debuggerOpen ?? (env.CATALOG_LENS_IDLE_GC === 'always' ? (): boolean => false : debuggerOpen);
  const elu = options.utilization ?? ((): EventLoopUtilization => performance.eventLoopUtilization());
  let state = initialIdleState(process.memoryUsage.rss());
  let last = elu();
  let collections = 0;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  // CATALOG_LENS_IDLE_TRACE=1: every look logged, with what it found and decided.
  const trace = env.CATALOG_LENS_IDLE_TRACE === '1';

  const look = (): void => {
    const now = elu();
    const busy = options.busy?.() ?? utilizationBetween(last, now);
    last = now;
    if (state.collecting) return;
    const { rss, heapUsed } = process.memoryUsage();
    const worked = state.worked;
    const r = decideIdle(state, {
      busy,
      rss,
      heapUsed,
      inFlight: options.work?.count ?? 0,
      debuggerOpen: !state.failed && attached(),
    });
    state = r.state;
    if (trace)
      log(
        `memory look: busy ${(busy * 100).toFixed(2)} %, RSS ${mib(rss)} MiB, heap ${mib(heapUsed)} MiB, in flight ${options.work?.count ?? 0}, baseline ${mib(state.baseline)} MiB, idle looks ${state.idleLooks}, ${r.decision}`,
      );
    if (worked && !state.worked && options.tidy) {
      try {
        options.tidy();
      } catch (e) {
        log(`memory: tidying the caches failed: ${e instanceof Error ? e.message : String(e)}`);
      }
      last = elu();
    }
    if (r.why) log(`memory: idle after work, not collected: ${r.why}`);
    if (r.decision === 'stop') stop();
    else if (r.decision === 'sleep') sleep();
    else if (r.decision === 'collect') run(rss);
  };

  const run = (before: number): void => {
    const started = performance.now();
    let done = false;
    const timeout = setTimeout(() => {
      if (done) return;
      done = true;
      state = failedIdle(state, true);
      log(`memory: the collection did not answer in ${COLLECTION_TIMEOUT_MS} ms; given up on`);
    }, COLLECTION_TIMEOUT_MS);
    timeout.unref();
    collect().then(
      () => {
        if (done) return;
        done = true;
        clearTimeout(timeout);
        const pause = performance.now() - started;
        collections++;
        const after = process.memoryUsage.rss();
        state = collectedIdle(state, after, pause);
        last = elu();
        log(`memory: idle after work, collected in ${pause.toFixed(0)} ms: RSS ${mib(before)} → ${mib(after)} MiB`);
      },
      (e: unknown) => {
        if (done) return;
        done = true;
        clearTimeout(timeout);
        state = failedIdle(state, false);
        log(`memory: no collection when idle: ${e instanceof Error ? e.message : String(e)}`);
        stop();
      },
    );
  };

  /** Work arrived: the burst is not over; the looking starts again if it slept. */
  let drowsy: NodeJS.Timeout | undefined;
  const wake = (): void => {
    if (stopped) return;
    state = { ...state, worked: true, idleLooks: 0 };
    if (timer) return;
    if (trace) log(`memory: woken${drowsy ? ' from sleep' : ''}`);
    if (drowsy) clearInterval(drowsy);
    drowsy = undefined;
    last = elu();
    schedule();
  };
  /**
   * The last work in flight ended (a Check Workspace answered, an index built): the next look
   * comes a full look's time after that end and measures from it. The loop's time before the end
   * belongs to the work (a look then was never quiet, the work being in flight); measured from
   * the last look instead, the look after the end of a burst held part of it and was busy, and the
   * release came up to a second later, 1.5–2.5 s after the end instead of 1.5 s.
   */
  const settled = (): void => {
    if (stopped || !timer || state.collecting) return;
    clearTimeout(timer);
    timer = undefined;
    last = elu();
    schedule();
  };
  /** The next look: a second after a busy one, half a second after an idle one. */
  const schedule = (): void => {
    timer = setTimeout(
      () => {
        timer = undefined;
        look();
        // Unless the look put it to sleep or stopped it.
        if (!stopped && !drowsy && !timer) schedule();
      },
      state.idleLooks > 0 ? QUIET_LOOK_MS : LOOK_MS,
    );
    timer.unref();
  };
  const sleep = (): void => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (stopped || drowsy) return;
    // Asleep, RSS is read every 10 s: grown by what a collection wants, the looking starts again.
    drowsy = setInterval(() => {
      if (process.memoryUsage.rss() - state.baseline >= growthWanted(state)) wake();
    }, DROWSY_LOOK_MS);
    drowsy.unref();
  };
  const stop = (): void => {
    stopped = true;
    sleep();
    if (drowsy) clearInterval(drowsy);
    drowsy = undefined;
  };
  options.work?.onWork(wake);
  options.work?.onSettled(settled);
  wake();
  return {
    stop,
    get collections() {
      return collections;
    },
    get looking() {
      return timer !== undefined;
    },
  };
}

/** The share of the time between two readings of the loop's utilisation that it was busy (0 when none passed). */
function utilizationBetween(before: EventLoopUtilization, after: EventLoopUtilization): number {
  const active = after.active - before.active;
  const total = active + (after.idle - before.idle);
  return total > 0 ? active / total : 0;
}

const mib = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);
