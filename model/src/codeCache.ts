/**
 * What the server's entry (server/src/boot.ts) did with V8's code cache, handed to the server bundle
 * it runs through one global slot, so the server can say it in its log.
 */

/** The global slot (`globalThis[CODE_CACHE_STATUS]`). */
export const CODE_CACHE_STATUS = Symbol.for('catalog-lens.codeCache');

/**
 * The global slot of the entry's loader of the server's other bundles (`globalThis[RUN_BUNDLE]`,
 * a RunBundle): the server bundle calls it, when it is there, to run dist/server-wiring.js through
 * the code cache too (scripts/build.mjs writes that call, naming the same symbol).
 */
export const RUN_BUNDLE = Symbol.for('catalog-lens.runBundle');

/** Runs the CommonJS bundle at this path as `require` would, and gives its exports. */
export type RunBundle = (file: string) => unknown;

/**
 * The global slot of the entry's code cache writer (`globalThis[CODE_CACHE_WRITER]`, a
 * CodeCacheWriter): the server claims the write for the end of its first burst of work.
 */
export const CODE_CACHE_WRITER = Symbol.for('catalog-lens.codeCacheWriter');

export interface CodeCacheWriter {
  /**
   * From now on the cache is written when the answered function is called (the server calls it
   * when a burst of work has ended), not on the entry's timer a few seconds after the start: that
   * timer fell in the middle of the first requests or right after them, where its work (V8's data
   * for both bundles, a sha256, a write and an fsync on the main thread) made the idle release see
   * a busy loop. The function writes only when a write is due, and the entry still writes at the
   * latest a minute later. Answers the function.
   */
  whenIdle(): () => void;
}

export interface CodeCacheStatus {
  /** `used`, `none yet: written`, `refused by V8: written again`, `off`, `not used: <why>` … */
  state: string;
  /** The cache folder, when one is used. */
  folder?: string;
  /** The size of the cache read or written, once known. */
  bytes?: number;
}

/** One log line of what the code cache did at this start; undefined when the server was started without the entry. */
export function codeCacheLine(slot: unknown): string | undefined {
  if (typeof slot !== 'object' || slot === null || typeof (slot as CodeCacheStatus).state !== 'string')
    return undefined;
  const s = slot as CodeCacheStatus;
  const size = typeof s.bytes === 'number' ? `, ${Math.round(s.bytes / 1024)} KiB` : '';
  return `code cache: ${s.state}${s.folder !== undefined ? ` (${s.folder}${size})` : ''}`;
}
