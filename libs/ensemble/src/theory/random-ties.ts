import { sameSum } from "../majority-vote";
import { checkOrder, checkPanel, checkWeights } from "./panel";

/**
 * Exact figures for the accuracy lab, by enumeration, under this model of a panel:
 * - model i answers independently: the correct category with probability p_i, else one of the
 *   K−1 wrong categories, uniformly;
 * - every model answers (none fails);
 * - a tie for the top score is broken uniformly at random among the tied categories. The product
 *   breaks ties on summed confidence, then on the category listed first; with no confidence and the
 *   categories shuffled per question, "listed first" is a uniform random pick among the tied ones,
 *   which is what the Monte Carlo cross-check (random-ties.test.ts) relies on. Informative
 *   confidences make the product's tie-break much better than chance: with 4 categories and 3
 *   models, ties are frequent, and the product's rule gives about 5.6 points more than these
 *   figures (panel 0.8/0.7/0.6: 88.6% by `product-rule.ts`, the exact theory of the product's own
 *   tie rule with informative confidences, against 83.0% here; the accuracy lab measures 89.1%).
 *   These figures are the textbook baseline.
 *
 * The enumeration uses the symmetry of the wrong categories: an outcome is the correct category's
 * score and the multiset of the wrong categories' scores, which keeps it small for 8 models and
 * 20 categories.
 */
interface Outcome {
  correct: number;
  correctVoted: boolean;
  /** Scores of the wrong categories that got at least one vote, ascending. */
  wrong: number[];
  probability: number;
}

interface Voter {
  accuracy: number;
  weight: number;
}

const keyOf = (o: Omit<Outcome, "probability">): string =>
  `${Math.round(o.correct * 1e9)}|${o.correctVoted ? 1 : 0}|${o.wrong.map((s) => Math.round(s * 1e9)).join(",")}`;

function add(into: Map<string, Outcome>, o: Omit<Outcome, "probability">, probability: number): void {
  if (probability === 0) return;
  const key = keyOf(o);
  const existing = into.get(key);
  if (existing) existing.probability += probability;
  else into.set(key, { ...o, probability });
}

/** The outcomes after one more model has answered. */
function answer(outcomes: Iterable<Outcome>, { accuracy, weight }: Voter, categoryCount: number): Map<string, Outcome> {
  const next = new Map<string, Outcome>();
  const perWrong = (1 - accuracy) / (categoryCount - 1);
  for (const o of outcomes) {
    add(next, { correct: o.correct + weight, correctVoted: true, wrong: o.wrong }, o.probability * accuracy);
    o.wrong.forEach((_, i) => {
      const wrong = o.wrong.map((s, j) => (j === i ? s + weight : s)).sort((a, b) => a - b);
      add(next, { correct: o.correct, correctVoted: o.correctVoted, wrong }, o.probability * perWrong);
    });
    const unvoted = categoryCount - 1 - o.wrong.length;
    if (unvoted > 0) {
      const wrong = [...o.wrong, weight].sort((a, b) => a - b);
      add(next, { correct: o.correct, correctVoted: o.correctVoted, wrong }, o.probability * perWrong * unvoted);
    }
  }
  return next;
}

const start = (): Map<string, Outcome> => new Map([["start", { correct: 0, correctVoted: false, wrong: [], probability: 1 }]]);

/** The chance that the correct category wins an outcome's count, ties broken uniformly at random. */
function correctShare(o: Outcome): number {
  if (!o.correctVoted) return 0; // only a voted category can win
  const top = Math.max(o.correct, ...o.wrong);
  if (!sameSum(o.correct, top)) return 0;
  return 1 / (1 + o.wrong.filter((s) => sameSum(s, top)).length);
}

function voters(accuracies: readonly number[], weights: readonly number[], categoryCount: number): Voter[] {
  checkPanel(accuracies, categoryCount);
  checkWeights(weights, accuracies.length);
  return accuracies.map((accuracy, i) => ({ accuracy, weight: weights[i]! }));
}

/** Exact accuracy of weighted plurality voting (see the model above). */
export function weightedPluralityAccuracy(accuracies: readonly number[], weights: readonly number[], categoryCount: number): number {
  let outcomes = start();
  for (const voter of voters(accuracies, weights, categoryCount)) outcomes = answer(outcomes.values(), voter, categoryCount);
  let accuracy = 0;
  for (const o of outcomes.values()) accuracy += o.probability * correctShare(o);
  return accuracy;
}

/** Exact accuracy of plurality voting, one vote per model (see the model above). */
export function pluralityAccuracy(accuracies: readonly number[], categoryCount: number): number {
  return weightedPluralityAccuracy(accuracies, accuracies.map(() => 1), categoryCount);
}

/**
 * True when no way the pending votes could go changes the winner: its score beats every other
 * category's (an unvoted one's is 0) plus all the pending weight. A reachable tie counts as not
 * decided, as `earlyQuorum` does when the votes carry no confidence: a pending vote's confidence
 * would win the tie-break.
 */
function decided(o: Outcome, pendingWeight: number, categoryCount: number): boolean {
  const voted = [...(o.correctVoted ? [o.correct] : []), ...o.wrong].sort((a, b) => b - a);
  const unvoted = categoryCount - voted.length;
  const top = voted[0]!;
  const runnerUp = Math.max(voted[1] ?? 0, unvoted > 0 ? 0 : -Infinity);
  return runnerUp + pendingWeight < top && !sameSum(runnerUp + pendingWeight, top);
}

/**
 * The expected number of model calls early quorum saves per decision when the models answer in a
 * fixed order (`order`: model indices, fastest first): after each answer, if the votes still to
 * come cannot change the winner, they are not awaited. Exact, by enumeration; `weights` default to
 * 1 each (plain majority). Divide by the number of models for the share of calls saved.
 *
 * The rule is `earlyQuorum`'s for votes without confidence (see `decided`). With confidences the
 * product can decide a little sooner in one case: a reachable tie whose tie-break the leader
 * would win on summed confidence. With 3 equal-weight models no such tie can arise.
 */
export function expectedCallsSaved(accuracies: readonly number[], categoryCount: number, order: readonly number[], weights?: readonly number[]): number {
  const all = voters(accuracies, weights ?? accuracies.map(() => 1), categoryCount);
  checkOrder(order, all.length);
  const arrivals = order.map((i) => all[i]!);
  let outcomes = start();
  let saved = 0;
  arrivals.forEach((voter, answered) => {
    if (answered > 0) {
      const pending = arrivals.slice(answered);
      const pendingWeight = pending.reduce((sum, v) => sum + v.weight, 0);
      for (const [key, o] of outcomes) {
        if (!decided(o, pendingWeight, categoryCount)) continue;
        saved += o.probability * pending.length;
        outcomes.delete(key);
      }
    }
    outcomes = answer(outcomes.values(), voter, categoryCount);
  });
  return saved;
}
