/**
 * When a language server that stopped on its own is started again: at once the first time, then
 * after longer and longer pauses, and not at all after too many stops in a short time (a server
 * that dies on every start would otherwise spin). No `vscode` here, so the policy is unit-testable.
 */

/** At most this many automatic restarts within CRASH_WINDOW_MS; the next stop is final. */
export const MAX_CRASH_RESTARTS = 4;
export const CRASH_WINDOW_MS = 3 * 60_000;
/** Pause before the n-th restart in the window (the last value repeats). */
export const RESTART_DELAYS_MS: readonly number[] = [250, 2_000, 5_000, 10_000];

export type CrashDecision =
  | { restart: true; delayMs: number; attempt: number; max: number }
  | { restart: false; crashes: number; windowMs: number };

export class CrashRestarts {
  private readonly stops: number[] = [];

  constructor(
    private readonly max = MAX_CRASH_RESTARTS,
    private readonly windowMs = CRASH_WINDOW_MS,
    private readonly delays: readonly number[] = RESTART_DELAYS_MS,
  ) {}

  /** Records a stop at `now` (ms) and says whether, and after which pause, to start the server again. */
  next(now: number): CrashDecision {
    this.stops.push(now);
    while (this.stops.length > 0 && now - this.stops[0]! > this.windowMs) this.stops.shift();
    const attempt = this.stops.length;
    if (attempt > this.max) return { restart: false, crashes: attempt, windowMs: this.windowMs };
    const delayMs = this.delays[Math.min(attempt, this.delays.length) - 1] ?? 0;
    return { restart: true, delayMs, attempt, max: this.max };
  }
}
