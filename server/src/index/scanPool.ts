/**
 * Worker threads that read and scan the workspace's files for the index build and Check Workspace
 * (scanWorker.ts), so that both use the machine's other cores while the main thread only merges
 * what they send back. Started on first use, one fewer than the cores (at least one, at most
 * two), ended when idle. Each worker is handed a range of files at a time, bounded by files, and
 * answers after at most `maxBytes` of text read (a range of large files comes back in several
 * answers), so the main thread merges in bounded steps and sees a cancellation between them.
 *
 * Results are handed over in the order of the files, whatever worker read them. A worker that
 * fails (an exception, an exit, a message that cannot be read) ends the run: the files not yet
 * handed over are the caller's to read on the main thread, and the log says so.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Settings } from '../../../model/src/protocol';
import { scanFiles, type ScanMode, type WorkerResult } from './scanFiles';

export type { ScanMode, WorkerResult };

/** A file a worker reads: its path, language, settings, and whether the listing said it is a regular file. */
export interface PoolFile {
  path: string;
  languageId: string;
  settings: Settings;
  /** The directory listing said the entry is a regular file (no stat before the open); default true. */
  listedRegular?: boolean;
}

/** A request to a worker (scanWorker.ts); settings are sent once per worker, then named by number. */
export interface WorkerRequest {
  id: number;
  mode: ScanMode;
  files: Array<{ path: string; languageId: string; settings: number; listedRegular: boolean }>;
  settings: Array<[number, Settings]>;
  maxBytes: number;
}

export interface WorkerAnswer {
  id: number;
  results: WorkerResult[];
}

export interface ScanPoolOptions {
  log(message: string): void;
  /** Workers at most; default one fewer than the cores, at least one, at most two. */
  size?: number;
  /** The worker's script; default scanWorker.js beside this module (the bundle's folder when bundled). */
  file?: string;
  /** Files a worker is handed at once. */
  maxFiles?: number;
  /** Bytes of text after which a worker answers. */
  maxBytes?: number;
  /** How long the workers stay after the last run. */
  idleMs?: number;
  /**
   * The main thread reads ranges too, smaller ones, between merges (default true): the run never
   * waits on a worker that gets no core, and a machine of two cores has both busy.
   */
  local?: boolean;
}

export interface ScanPool {
  /**
   * Reads (and packs or scans, by `mode`) `files` in the workers, handing each result to `take` in
   * the order of `files`; resolves with how many it handed: all of them, or fewer when `cancelled`
   * or when a worker failed (the log says so; the caller reads the rest).
   */
  run(
    mode: ScanMode,
    files: ReadonlyArray<PoolFile>,
    take: (index: number, result: WorkerResult) => void,
    cancelled: () => boolean,
  ): Promise<number>;
  /**
   * Keeps the workers between runs until the returned function is called (a check runs the pool
   * once per window of files, with the catalog's answers between): they are not ended when idle.
   */
  hold(): () => void;
  /** Ends the workers now. */
  close(): Promise<void>;
}

/** After this many failed runs, the pool is not used again in this process. */
const MAX_FAILURES = 2;

interface Thread {
  worker: Worker;
  /** The settings this worker has been sent, by number. */
  sent: Set<number>;
  pending: { resolve(results: WorkerResult[]): void; reject(e: Error): void } | undefined;
  dead: boolean;
}

/**
 * Whether worker threads pay on this machine: not with two cores or fewer. There a worker, started
 * for a build or a check and ended after it (an idle one holds ~40 MiB), scans with a cold JIT,
 * while the main thread's scanner is warm from the last run and compiled from the code cache:
 * benchmarks 6 and 10 (2 cores) measured the index build 1.2× and the warm check 1.7× slower
 * with one worker than on the main thread alone.
 */
export function workersPay(): boolean {
  return availableParallelism() > 2;
}

export function defaultPoolSize(): number {
  return Math.max(1, Math.min(2, availableParallelism() - 1));
}

export function createScanPool(options: ScanPoolOptions): ScanPool {
  const size = options.size ?? defaultPoolSize();
  const file = options.file ?? join(__dirname, 'scanWorker.js');
  const maxFiles = options.maxFiles ?? 128;
  const maxBytes = options.maxBytes ?? 1 << 20;
  const idleMs = options.idleMs ?? 0;
  const local = options.local ?? true;
  let threads: Thread[] = [];
  let failures = 0;
  let running = 0;
  let holds = 0;
  let idleTimer: NodeJS.Timeout | undefined;
  let requests = 0;
  const settingsIds = new WeakMap<Settings, number>();
  let nextSettings = 0;

  const start = (): Thread => {
    const worker = new Worker(file, {
      stdout: true,
      stderr: true,
      // A smaller young generation than the main thread's: a worker's garbage is short-lived, and its pages count in the server's RSS.
      resourceLimits: { maxYoungGenerationSizeMb: 4 },
    });
    const thread: Thread = { worker, sent: new Set(), pending: undefined, dead: false };
    const fail = (e: Error): void => {
      thread.dead = true;
      const pending = thread.pending;
      thread.pending = undefined;
      pending?.reject(e);
    };
    worker.on('message', (answer: WorkerAnswer) => {
      const pending = thread.pending;
      thread.pending = undefined;
      pending?.resolve(answer.results);
    });
    worker.on('error', (e) => fail(e));
    worker.on('messageerror', (e) => fail(e));
    worker.on('exit', (code) => fail(new Error(`the worker thread exited (code ${code})`)));
    // The server's stdout carries the protocol: what a worker prints goes to the log.
    for (const stream of [worker.stdout, worker.stderr])
      stream.on('data', (chunk: Buffer) => options.log(`scan worker: ${chunk.toString('utf8').trimEnd()}`));
    return thread;
  };

  const ask = (thread: Thread, mode: ScanMode, files: ReadonlyArray<PoolFile>, from: number, to: number) =>
    new Promise<WorkerResult[]>((resolve, reject) => {
      if (thread.dead) return reject(new Error('the worker thread had stopped'));
      const settings: Array<[number, Settings]> = [];
      const list = files.slice(from, to).map((f) => {
        let id = settingsIds.get(f.settings);
        if (id === undefined) settingsIds.set(f.settings, (id = nextSettings++));
        if (!thread.sent.has(id)) {
          thread.sent.add(id);
          settings.push([id, f.settings]);
        }
        return { path: f.path, languageId: f.languageId, settings: id, listedRegular: f.listedRegular ?? true };
      });
      thread.pending = { resolve, reject };
      const request: WorkerRequest = { id: ++requests, mode, files: list, settings, maxBytes };
      thread.worker.postMessage(request);
    });

  const close = async (): Promise<void> => {
    clearTimeout(idleTimer);
    const ending = threads;
    threads = [];
    for (const t of ending) t.dead = true;
    await Promise.all(ending.map((t) => t.worker.terminate().catch(() => undefined)));
  };

  /** Runs one at a time: a worker answers one request at a time. */
  let queue: Promise<unknown> = Promise.resolve();
  const run: ScanPool['run'] = (mode, files, take, cancelled) => {
    const next = queue.then(() => runNow(mode, files, take, cancelled));
    queue = next.catch(() => undefined);
    return next;
  };

  const runNow: ScanPool['run'] = async (mode, files, take, cancelled) => {
    if (files.length === 0 || failures >= MAX_FAILURES) return 0;
    clearTimeout(idleTimer);
    running++;
    let delivered = 0;
    try {
      threads = threads.filter((t) => !t.dead);
      while (threads.length < Math.min(size, Math.ceil(files.length / maxFiles))) threads.push(start());
      for (const t of threads) t.worker.ref();
      let cursor = 0;
      let failed: Error | undefined;
      /** Answers that came before the ones ahead of them, by the index of their first file. */
      const early = new Map<number, WorkerResult[]>();
      const handOver = (): void => {
        for (let results = early.get(delivered); results; results = early.get(delivered)) {
          early.delete(delivered);
          for (const r of results) {
            take(delivered, r);
            delivered++;
          }
        }
      };
      /** A lane takes the next range of at most `span` files and asks for it until it is done. */
      const work = async (
        span: number,
        askFor: (from: number, to: number) => Promise<WorkerResult[]>,
      ): Promise<void> => {
        while (failed === undefined && !cancelled() && cursor < files.length) {
          let from = cursor;
          const to = Math.min(files.length, from + span);
          cursor = to;
          while (from < to && failed === undefined && !cancelled()) {
            const results = await askFor(from, to);
            if (results.length === 0 || results.length > to - from)
              throw new Error(`a worker thread answered ${results.length} results for ${to - from} files`);
            early.set(from, results);
            from += results.length;
            handOver();
          }
        }
      };
      const lanes = threads.map((t) => work(maxFiles, (from, to) => ask(t, mode, files, from, to)));
      // The main thread's lane: a quarter of a worker's range and bytes at a time, after the events waiting.
      if (local)
        lanes.push(
          work(Math.max(1, maxFiles >> 2), async (from, to) => {
            await new Promise((resolve) => setImmediate(resolve));
            const list = files.slice(from, to).map((f) => ({ ...f, listedRegular: f.listedRegular ?? true }));
            return scanFiles(mode, list, Math.max(1, maxBytes >> 2)).results;
          }),
        );
      await Promise.all(
        lanes.map((lane) =>
          lane.catch((e: unknown) => {
            failed ??= e instanceof Error ? e : new Error(String(e));
          }),
        ),
      );
      if (failed !== undefined) {
        failures++;
        options.log(
          `scan workers: ${failed.message}; the other ${files.length - delivered} of ${files.length} files are read on the main thread`,
        );
        await close();
      }
      return delivered;
    } finally {
      running--;
      idle();
    }
  };

  /** Idle workers do not keep the process alive, and end after `idleMs` unless held. */
  const idle = (): void => {
    if (running > 0) return;
    for (const t of threads) t.worker.unref();
    clearTimeout(idleTimer);
    if (holds > 0) return;
    idleTimer = setTimeout(() => void close(), idleMs);
    idleTimer.unref();
  };

  const hold = (): (() => void) => {
    holds++;
    clearTimeout(idleTimer);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      holds--;
      idle();
    };
  };

  return { run, hold, close };
}
