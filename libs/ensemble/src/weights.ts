/**
 * How far an accuracy is kept from chance and from certainty before its weight is taken: a model
 * measured at 100% would get an infinite weight (a dictator whatever the others say), and one just
 * above chance a weight that is mostly noise. With 4 categories the largest weight is ln(0.99·3/0.01) ≈ 5.7.
 */
export const ACCURACY_MARGIN = 0.01;

/**
 * The vote weight of a model of accuracy `accuracy` over `categoryCount` categories, by the
 * log-odds rule w = ln(p(K−1)/(1−p)): for independent models whose wrong answers spread evenly over
 * the K−1 wrong categories, weighted plurality with these weights picks the most likely category.
 *
 * A model at or below chance (p ≤ 1/K) tells nothing, and gets weight 0. Above chance, p is first
 * clamped to [1/K + margin, 1 − margin] (`ACCURACY_MARGIN`), so every weight is finite and positive.
 */
export function logOddsWeight(accuracy: number, categoryCount: number, margin = ACCURACY_MARGIN): number {
  if (!Number.isInteger(categoryCount) || categoryCount < 2) throw new RangeError("A weight needs at least 2 categories.");
  if (!Number.isFinite(accuracy) || accuracy < 0 || accuracy > 1) throw new RangeError("An accuracy is a number from 0 to 1.");
  const chance = 1 / categoryCount;
  if (accuracy <= chance) return 0;
  const p = Math.min(1 - margin, Math.max(chance + margin, accuracy));
  return Math.log((p * (categoryCount - 1)) / (1 - p));
}

/** `logOddsWeight` for each provider's accuracy. */
export function logOddsWeights(accuracies: Readonly<Record<string, number>>, categoryCount: number, margin = ACCURACY_MARGIN): Record<string, number> {
  return Object.fromEntries(Object.entries(accuracies).map(([provider, p]) => [provider, logOddsWeight(p, categoryCount, margin)]));
}
