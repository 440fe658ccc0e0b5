/**
 * Gives memory back to the system once the server goes idle after a burst of work (documents
 * resolved and closed, a Check Workspace, the index build). V8 keeps the young generation it grew
 * to and the pages of old garbage until its memory reducer runs, which it does only after many
 * seconds of idleness; meanwhile the process holds tens of MiB it no longer uses.
 *
 * Every second (a timer that never keeps the process alive) the server looks at how busy its
 * event loop was since the last look and at its resident memory: when the loop was idle (under 2 %
 * busy: no request came in that took time) twice in a row, and the RSS is 8 MiB or more above what it was after
 * the last release (or at the start), it asks V8 for a full collection, which returns the free
 * pages and shrinks the young generation. At most one collection per growth of 8 MiB: a server
 * that keeps what it grew to (a full cache) is not collected again and again.
 *
 * The collection is the one a debugger's "collect garbage" asks for (the inspector's
 * HeapProfiler.collectGarbage: V8 collects all it can, shrinks the young generation and returns
 * the free pages), asked through an in-process inspector session (node:inspector), connected for
 * the collection only: no port is opened, no V8 flag is set, and no editor needs to pass one — the
 * same server runs under any editor's `node`. (V8's `gc()` of `--expose-gc` collects but keeps the
 * pages and the grown young generation: the RSS does not move.) A Node built without the
 * inspector has no such session: then nothing is collected. `CATALOG_LENS_IDLE_GC=off` turns it off.
 */
import type * as Inspector from 'node:inspector';
import { performance } from 'node:perf_hooks';

/** How often the server looks. */
const LOOK_MS = 1000;
/** Busy below this share of the last second: idle. */
const IDLE_UTILIZATION = 0.02;
/** Looks in a row that must find the loop idle: a pause between two requests of a burst is not the end of it. */
const IDLE_LOOKS = 2;
/** RSS grown by this much since the last release: worth a collection. */
const GROWTH_BYTES = 8 * 1024 * 1024;

/**
 * V8's full collection that gives memory back, through an in-process inspector session; settles
 * when done, rejects when there is no inspector.
 */
export async function collectAllGarbage(): Promise<void> {
  // Loaded when first used: a Node built without the inspector throws here, not at start-up.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded when first used, as said above
  const { Session } = require('node:inspector') as typeof Inspector;
  const session = new Session();
  session.connect();
  try {
    await new Promise<void>((resolve, reject) => {
      session.post('HeapProfiler.enable', (e) => {
        if (e) reject(e);
      });
      session.post('HeapProfiler.collectGarbage', (e) => (e ? reject(e) : resolve()));
    });
  } finally {
    // Not from within the session's own callback: the inspector would wait on itself.
    await new Promise((resolve) => setImmediate(resolve));
    session.disconnect();
  }
}

export interface IdleRelease {
  /** Stops looking. */
  stop(): void;
  /** How many collections it asked for. */
  readonly collections: number;
}

/**
 * Starts looking; `log` is told of each collection with the RSS before and after. `env`:
 * `CATALOG_LENS_IDLE_GC=off` turns it off (then undefined).
 */
export function releaseMemoryWhenIdle(
  env: NodeJS.ProcessEnv,
  log: (message: string) => void = () => {},
): IdleRelease | undefined {
  if (env.CATALOG_LENS_IDLE_GC === 'off') return undefined;
  let baseline = process.memoryUsage.rss();
  let last = performance.eventLoopUtilization();
  let collections = 0;
  let idleLooks = 0;
  let collecting = false;
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    if (collecting) return;
    const rss = process.memoryUsage.rss();
    // Memory given back by V8 itself, or never taken: the baseline follows it down.
    if (rss < baseline) baseline = rss;
    idleLooks = busy < IDLE_UTILIZATION ? idleLooks + 1 : 0;
    if (idleLooks < IDLE_LOOKS || rss - baseline < GROWTH_BYTES) return;
    collecting = true;
    collectAllGarbage().then(
      () => {
        collecting = false;
        collections++;
        idleLooks = 0;
        const after = process.memoryUsage.rss();
        baseline = after;
        last = performance.eventLoopUtilization();
        log(`memory: idle after work, collected: RSS ${mib(rss)} → ${mib(after)} MiB`);
      },
      (e: unknown) => {
        log(`memory: no collection when idle: ${e instanceof Error ? e.message : String(e)}`);
        stop();
      },
    );
  }, LOOK_MS);
  timer.unref();
  const stop = (): void => clearInterval(timer);
  return {
    stop,
    get collections() {
      return collections;
    },
  };
}

const mib = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);
