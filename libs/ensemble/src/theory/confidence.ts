/**
 * Confidences as the exact theories of the product's rule see them: whole cents (the accuracy lab
 * states two decimals), drawn by whether the answer is right, and their sums per category, which
 * the tie policy compares.
 */

/**
 * How confident a model says it is: uniform on `right` when its answer is right, on `wrong` when it
 * is not, rounded to two decimals (round2(low + u·(high − low)), u uniform on [0, 1)). The accuracy
 * lab of the provider emulator states its own (LAB_CONFIDENCE there); a range of one point
 * (low = high) is a fixed confidence.
 */
export interface ConfidenceModel {
  right: readonly [low: number, high: number];
  wrong: readonly [low: number, high: number];
}

/** A distribution over whole cents: `p[c]` is the probability of c cents. */
export type Cents = Float64Array<ArrayBuffer>;

function checkRange([low, high]: readonly [number, number]): void {
  if (!(low >= 0 && low <= high && high <= 1)) throw new RangeError("A confidence range is [low, high] with 0 ≤ low ≤ high ≤ 1.");
}

/**
 * round2(low + u·(high − low)) for u uniform on [0, 1), in cents: every cent strictly inside the
 * range has weight 1/(range in cents), the two ends half that (rounding reaches them from one side).
 */
function roundedUniform([low, high]: readonly [number, number]): Cents {
  const lo = Math.round(low * 100);
  const hi = Math.round(high * 100);
  const out = new Float64Array(hi + 1);
  if (hi === lo) {
    out[lo] = 1;
    return out;
  }
  const width = hi - lo;
  for (let c = lo; c <= hi; c++) out[c] = (c === lo || c === hi ? 0.5 : 1) / width;
  return out;
}

function convolve(a: Cents, b: Cents): Cents {
  const out = new Float64Array(a.length + b.length - 1);
  a.forEach((pa, i) => {
    if (pa === 0) return;
    b.forEach((pb, j) => {
      out[i + j]! += pa * pb;
    });
  });
  return out;
}

/** Summed confidence of m right (or m wrong) answers, memoised: the distribution depends on the count only. */
export class ConfidenceSums {
  readonly #one: { right: Cents; wrong: Cents };
  readonly #sums = { right: [Float64Array.of(1)], wrong: [Float64Array.of(1)] };

  constructor(model: ConfidenceModel) {
    checkRange(model.right);
    checkRange(model.wrong);
    this.#one = { right: roundedUniform(model.right), wrong: roundedUniform(model.wrong) };
  }

  of(kind: "right" | "wrong", count: number): Cents {
    const sums = this.#sums[kind];
    while (sums.length <= count) sums.push(convolve(sums[sums.length - 1]!, this.#one[kind]));
    return sums[count]!;
  }
}

const at = (d: Cents, c: number): number => (c >= 0 && c < d.length ? d[c]! : 0);

/** P(X < c) for each c, as a prefix sum. */
function below(d: Cents): (c: number) => number {
  const prefix = new Float64Array(d.length + 1);
  d.forEach((p, i) => (prefix[i + 1] = prefix[i]! + p));
  return (c) => (c <= 0 ? 0 : prefix[Math.min(c, d.length)]!);
}

/** A category that may beat the leader on summed confidence: its sum, plus a fixed `offset` in cents. */
export interface Rival {
  sum: Cents;
  /** Cents added to the rival's sum (early quorum's pending votes, each at confidence 1: 100). */
  offset: number;
}

/**
 * P(a sum distributed as `leader` beats every rival), all sums independent. A rival beaten only
 * on equal sums loses when `tieWon(j)` (a known order) or, with `tieWon` null, in a uniformly
 * random order (k tied rivals: 1/(k+1)), which is the product's "category listed first" when the
 * categories are shuffled.
 */
export function beatsAll(leader: Cents, rivals: readonly Rival[], tieWon: ((j: number) => boolean) | null): number {
  const lows = rivals.map((r) => below(r.sum));
  let total = 0;
  leader.forEach((ps, s) => {
    if (ps === 0) return;
    // Coefficients of z^k: the chance that every rival is at or below s with exactly k of them equal.
    let poly = [1];
    rivals.forEach((rival, j) => {
      const lt = lows[j]!(s - rival.offset);
      const eq = at(rival.sum, s - rival.offset);
      if (tieWon !== null) {
        poly = poly.map((c) => c * (lt + (tieWon(j) ? eq : 0)));
        return;
      }
      const next = new Array<number>(poly.length + 1).fill(0);
      poly.forEach((c, k) => {
        next[k]! += c * lt;
        next[k + 1]! += c * eq;
      });
      poly = next;
    });
    total += ps * poly.reduce((sum, c, k) => sum + c / (k + 1), 0);
  });
  return total;
}
