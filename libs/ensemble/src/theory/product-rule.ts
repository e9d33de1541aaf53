/**
 * Exact figures of the product's own rules, by enumeration, for panels whose confidences are
 * informative (higher when right). `random-ties.ts` models a vote without confidences, ties broken
 * at random. The product breaks a tie on the tied categories' summed confidence first, so on
 * tie-prone panels it is measurably better than that model: with 3 models over 4 categories a
 * 1-1-1 split happens about one question in eight. These functions add a confidence model, so
 * every mode the accuracy lab runs has an exact prediction to be checked against.
 *
 * The model: model i answers the correct category with probability p_i, else a uniform wrong one;
 * its confidence follows the `ConfidenceModel` (by whether it is right); every model answers; the
 * request's categories are shuffled, so "the category listed first" is a uniform random pick.
 * product-rule.test.ts checks each function against the real `majorityVoting`, `weightedVoting`
 * and `earlyQuorum` on small panels, every answer, confidence and category order enumerated.
 */
import { sameSum } from "../majority-vote";
import { beatsAll, ConfidenceSums, type ConfidenceModel } from "./confidence";
import { answerPatterns, countsOf } from "./patterns";
import { checkOrder, checkWeights } from "./panel";

/**
 * P(the correct category (0) wins `majorityVote` for this pattern): the top weighted score, then
 * the top summed confidence, then a uniform pick (the shuffled order).
 */
export function tallyWon(votes: readonly number[], weights: readonly number[], categoryCount: number, sums: ConfidenceSums): number {
  const counts = countsOf(votes, categoryCount);
  if (counts[0] === 0) return 0; // only a voted category can win
  const scores = new Array<number>(categoryCount).fill(0);
  votes.forEach((v, i) => (scores[v]! += weights[i]!));
  const top = Math.max(...scores.filter((_, c) => counts[c]! > 0));
  if (!sameSum(scores[0]!, top)) return 0;
  const rivals = scores.flatMap((score, c) => (c !== 0 && counts[c]! > 0 && sameSum(score, top) ? [{ sum: sums.of("wrong", counts[c]!), offset: 0 }] : []));
  return rivals.length === 0 ? 1 : beatsAll(sums.of("right", counts[0]!), rivals, null);
}

/**
 * Exact accuracy of (weighted) plurality voting with the product's tie policy (`majorityVote`:
 * score, then summed confidence, then the category listed first) under the confidence model.
 * `weights` default to 1 each (`majority_voting`); pass the panel's weights for `weighted_voting`.
 */
export function productRuleAccuracy(accuracies: readonly number[], categoryCount: number, confidence: ConfidenceModel, weights: readonly number[] = accuracies.map(() => 1)): number {
  checkWeights(weights, accuracies.length);
  const sums = new ConfidenceSums(confidence);
  let accuracy = 0;
  for (const { votes, probability } of answerPatterns(accuracies, categoryCount)) accuracy += probability * tallyWon(votes, weights, categoryCount, sums);
  return accuracy;
}

/** A probability that differs from 0 or 1 by float rounding only is that certainty. */
const certainOrNot = (p: number): number => (p < 1e-12 ? 0 : p > 1 - 1e-12 ? 1 : p);

/**
 * Exact expected model calls early quorum saves per decision (plain majority, weight 1 each) when
 * the models answer in `order` (indices, fastest first), under the product's rule (`earlyQuorum`):
 * after each answer, the pending votes are skipped once no category could beat the leader even if
 * every pending vote chose it with confidence 1, ties decided by summed confidence, then order.
 * Unlike `expectedCallsSaved` (votes without confidence), a reachable tie the leader would win on
 * confidence counts as decided: on 4 or more models a split such as 2-1 with one vote to come can
 * end there. Divide by the number of models for the share of calls saved.
 *
 * Exact while at most one arrival of a decision is decided by the confidences alone (with a
 * chance strictly between 0 and 1): its leader's summed confidence is then compared once, and
 * later arrivals depend on the counts only. That holds for every panel of up to 5 models whose
 * confidences stay below 1; the function throws a RangeError if a panel breaks it.
 */
export function productRuleCallsSaved(accuracies: readonly number[], categoryCount: number, confidence: ConfidenceModel, order: readonly number[]): number {
  const n = accuracies.length;
  checkOrder(order, n);
  const sums = new ConfidenceSums(confidence);
  let saved = 0;
  for (const { votes, probability } of answerPatterns(accuracies, categoryCount)) {
    let open = 1; // the chance the decision is still waiting
    let hinged = false;
    for (let answered = 1; answered < n && open > 0; answered++) {
      const pending = n - answered;
      const counts = countsOf(
        order.slice(0, answered).map((i) => votes[i]!),
        categoryCount,
      );
      const lead = Math.max(...counts);
      if (counts.filter((c) => c === lead).length > 1) continue; // a tied lead: any pending vote may break it either way
      const leader = counts.indexOf(lead);
      const margins = counts.map((count, c) => (c === leader ? Infinity : lead - (count + pending)));
      if (margins.some((m) => m < 0)) continue;
      const hinges = margins.flatMap((m, c) => (m === 0 ? [c] : []));
      if (hinges.length === 0) {
        saved += probability * open * pending;
        open = 0;
        continue;
      }
      const sumOf = (c: number) => sums.of(c === 0 ? "right" : "wrong", counts[c]!);
      const decided = certainOrNot(
        beatsAll(
          sumOf(leader),
          hinges.map((c) => ({ sum: sumOf(c), offset: pending * 100 })),
          null,
        ),
      );
      // Certain either way, the confidences tell nothing about later arrivals.
      if (decided === 0) continue;
      if (decided < 1) {
        if (hinged) throw new RangeError("Two arrivals of one decision hinge on confidences: this panel needs a joint computation.");
        hinged = true;
      }
      saved += probability * open * decided * pending;
      open *= 1 - decided;
    }
  }
  return saved;
}
