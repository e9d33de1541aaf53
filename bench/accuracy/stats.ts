/** The few statistics the accuracy lab reports: 95% intervals of a proportion, a mean and a paired difference of proportions. */

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

/** a − b over the same questions, with the counts a paired comparison rests on. */
export interface PairedDifference extends Interval {
  questions: number;
  /** Questions only the first got right, and only the second: the difference is (onlyFirst − onlySecond)/questions. */
  onlyFirst: number;
  onlySecond: number;
}

/**
 * a − b over the same questions (each true when right), with Newcombe's 95% square-and-add interval
 * for paired proportions (Statistics in Medicine 17:2635–2650, 1998, method 10, with its continuity
 * correction). Paired, so two modes that agree on most questions are compared far more precisely;
 * unlike the normal interval it stays within [−1, 1] and holds up with few discordant questions.
 */
export function pairedDifference(a: readonly boolean[], b: readonly boolean[]): PairedDifference {
  if (a.length !== b.length) throw new RangeError("A paired difference needs the same questions on both sides.");
  const n = a.length;
  let [e, f, g, h] = [0, 0, 0, 0];
  a.forEach((right, i) => {
    if (right && b[i]) e += 1;
    else if (right) f += 1;
    else if (b[i]) g += 1;
    else h += 1;
  });
  const counts = { questions: n, onlyFirst: f, onlySecond: g };
  if (n === 0) return { value: Number.NaN, low: Number.NaN, high: Number.NaN, ...counts };
  const [pa, pb] = [(e + f) / n, (e + g) / n];
  const [wa, wb] = [wilson(e + f, n), wilson(e + g, n)];
  const margins = (e + f) * (g + h) * (e + g) * (f + h);
  const A = e * h - f * g;
  const corrected = A > n / 2 ? A - n / 2 : A >= 0 ? 0 : A;
  const phi = margins === 0 ? 0 : corrected / Math.sqrt(margins);
  const D = pa - pb;
  const below = Math.sqrt(Math.max(0, (pa - wa.low) ** 2 - 2 * phi * (pa - wa.low) * (wb.high - pb) + (wb.high - pb) ** 2));
  const above = Math.sqrt(Math.max(0, (wa.high - pa) ** 2 - 2 * phi * (wa.high - pa) * (pb - wb.low) + (pb - wb.low) ** 2));
  return { value: D, low: D - below, high: D + above, ...counts };
}

export const contains = (interval: Interval, x: number): boolean => interval.low <= x && x <= interval.high;

