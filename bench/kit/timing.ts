import { setTimeout as delay } from "node:timers/promises";

export interface Timing {
  p50: number;
  p95: number;
  p99: number;
  runs: number;
}

/** The nearest-rank percentile `p` (0-100) of ascending `sorted` values (NaN when there are none). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function percentiles(samples: readonly number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99), runs: sorted.length };
}

/** The median of `values` (the mean of the middle two for an even count; NaN when there are none). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Runs `task(i)` for i from 0 to count-1 with at most `concurrency` at once (a closed loop of
 * `concurrency` users); returns the seconds it took. With `rampMs`, the users join one after
 * another, evenly over that time, instead of all at the same instant.
 */
export async function closedLoop(count: number, concurrency: number, task: (i: number) => Promise<unknown>, rampMs = 0): Promise<number> {
  let next = 0;
  const started = performance.now();
  const users = Math.min(concurrency, count);
  await Promise.all(
    Array.from({ length: users }, async (_, user) => {
      if (rampMs > 0 && user > 0) await delay((rampMs * user) / users);
      while (next < count) await task(next++);
    }),
  );
  return (performance.now() - started) / 1000;
}

/** Calls `run(0)` … `run(runs - 1)` one after another, timing each; returns the timings and the last answer. */
export async function timeRuns<T>(runs: number, run: (i: number) => T | Promise<T>): Promise<{ timing: Timing; last: T | undefined }> {
  const samples: number[] = [];
  let last: T | undefined;
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    last = await run(i);
    samples.push(performance.now() - started);
  }
  return { timing: percentiles(samples), last };
}
