/** The few statistics the accuracy lab reports: 95% intervals of a proportion, a mean and a paired difference. */

const Z95 = 1.959963984540054;

export interface Interval {
  value: number;
  low: number;
  high: number;
}

/** Wilson's 95% score interval of `successes` out of `trials` (good near 0 and 1, unlike the normal one). */
export function wilson(successes: number, trials: number): Interval {
  if (trials === 0) return { value: Number.NaN, low: Number.NaN, high: Number.NaN };
  const p = successes / trials;
  const z2 = Z95 * Z95;
  const centre = (p + z2 / (2 * trials)) / (1 + z2 / trials);
  const half = (Z95 / (1 + z2 / trials)) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  return { value: p, low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** The mean of `samples` with its normal 95% interval (the samples are many independent questions). */
export function meanInterval(samples: readonly number[]): Interval {
  const n = samples.length;
  if (n === 0) return { value: Number.NaN, low: Number.NaN, high: Number.NaN };
  const mean = samples.reduce((sum, x) => sum + x, 0) / n;
  const variance = n > 1 ? samples.reduce((sum, x) => sum + (x - mean) ** 2, 0) / (n - 1) : 0;
  const half = Z95 * Math.sqrt(variance / n);
  return { value: mean, low: mean - half, high: mean + half };
}

/** a − b over the same questions (each 1 when right), with the 95% interval of the paired difference. */
export function pairedDifference(a: readonly boolean[], b: readonly boolean[]): Interval {
  if (a.length !== b.length) throw new RangeError("A paired difference needs the same questions on both sides.");
  return meanInterval(a.map((right, i) => Number(right) - Number(b[i])));
}

export const contains = (interval: Interval, x: number): boolean => interval.low <= x && x <= interval.high;

