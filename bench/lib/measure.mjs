// Timing and summaries. Every figure is reported as min / median / max over repeated runs made
// after a warm-up; latency figures (p50, p99) are taken per run, then summarised the same way.
import { performance } from 'node:perf_hooks';

export const now = () => performance.now();

/** min / median / max of a list of numbers. */
export function summary(values) {
  if (values.length === 0) return { min: NaN, median: NaN, max: NaN, runs: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { min: sorted[0], median, max: sorted[sorted.length - 1], runs: sorted.length };
}

/** One number as a summary (a size, a count): min = median = max. */
export const single = (value) => ({ min: value, median: value, max: value, runs: 1 });

/** The p-th percentile (0–100) by the nearest-rank method. */
export function percentile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1];
}

/** A summary in other units (e.g. ms → MB/s); `f` must be monotonic, so min/max may swap. */
export function mapSummary(s, f) {
  const a = f(s.min),
    b = f(s.max);
  return { min: Math.min(a, b), median: f(s.median), max: Math.max(a, b), runs: s.runs };
}

/**
 * Runs `target` and `floor` alternately (so both see the same machine noise): `warmup` pairs
 * first, unmeasured, then `runs` pairs. Each function returns its own elapsed time in ms (so it
 * can leave set-up out), or undefined to be timed whole.
 */
export async function alternate({ warmup, runs }, target, floor) {
  const times = { target: [], floor: [] };
  // This process's CPU time per run too: on a busy machine it moves much less than wall time.
  const cpu = { target: [], floor: [] };
  let lastCpu = 0;
  const timed = async (fn) => {
    const cpuStart = process.cpuUsage();
    const start = now();
    const own = await fn();
    const wall = now() - start;
    const used = process.cpuUsage(cpuStart);
    lastCpu = (used.user + used.system) / 1000;
    return typeof own === 'number' ? own : wall;
  };
  for (let i = 0; i < warmup; i++) {
    await timed(target);
    await timed(floor);
  }
  for (let i = 0; i < runs; i++) {
    // Alternate which goes first, so neither always follows the other's garbage.
    for (const which of i % 2 === 0 ? ['target', 'floor'] : ['floor', 'target']) {
      times[which].push(await timed(which === 'target' ? target : floor));
      cpu[which].push(lastCpu);
    }
  }
  return {
    target: summary(times.target),
    floor: summary(times.floor),
    cpu: { target: summary(cpu.target), floor: summary(cpu.floor) },
    raw: times,
  };
}
