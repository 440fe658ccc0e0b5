/**
 * Waiting for what has no change event to listen to: a file's text, a log file, the process
 * table in /proc. The condition is read again every `intervalMs` until it holds or `timeoutMs`
 * has passed; the pause between two reads is the only wait, and it ends early as soon as the
 * condition holds.
 */

export interface PollOptions {
  timeoutMs: number;
  /** Between two reads (default 100 ms). */
  intervalMs?: number;
}

/**
 * Resolves with the first value `read` returns that is not undefined; rejects with `failure()`'s
 * message (what was read instead) after `timeoutMs`.
 */
export async function pollUntil<T>(read: () => T | undefined, opts: PollOptions, failure: () => string): Promise<T> {
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() >= deadline) throw new Error(failure());
    await new Promise((resolve) => setTimeout(resolve, Math.min(opts.intervalMs ?? 100, deadline - Date.now() + 1)));
  }
}
