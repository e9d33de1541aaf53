/**
 * The checks every exact theory makes of the panel it is given, in one place, so the two models
 * (random ties, the product's rule) refuse the same inputs with the same words.
 */

/** Throws a RangeError unless there are ≥ 2 categories and ≥ 1 model, each accuracy a probability. */
export function checkPanel(accuracies: readonly number[], categoryCount: number): void {
  if (!Number.isInteger(categoryCount) || categoryCount < 2) throw new RangeError("At least 2 categories are needed.");
  if (accuracies.length === 0) throw new RangeError("At least one model is needed.");
  for (const accuracy of accuracies) {
    if (!(accuracy >= 0 && accuracy <= 1)) throw new RangeError("An accuracy is a number from 0 to 1.");
  }
}

/** Throws a RangeError unless there is one finite weight ≥ 0 per model. */
export function checkWeights(weights: readonly number[], modelCount: number): void {
  if (weights.length !== modelCount) throw new RangeError("One weight per model is needed.");
  for (const weight of weights) {
    if (!(Number.isFinite(weight) && weight >= 0)) throw new RangeError("A weight is a finite number ≥ 0.");
  }
}

/** Throws a RangeError unless `order` names every model (by index) exactly once. */
export function checkOrder(order: readonly number[], modelCount: number): void {
  const isPermutation = order.length === modelCount && new Set(order).size === order.length && order.every((i) => Number.isInteger(i) && i >= 0 && i < modelCount);
  if (!isPermutation) throw new RangeError("The order must name every model once, by index.");
}
