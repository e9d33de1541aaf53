/**
 * Exact figures of the product's own rules for the emulator's accuracy lab (LAB_DESCRIPTION), by
 * enumeration. `@sd/ensemble`'s theory (pluralityAccuracy, expectedCallsSaved) models a vote
 * without confidences, ties broken at random. The product breaks a tie on the tied categories'
 * summed confidence first, and the lab's confidences are informative (higher when right), so on
 * tie-prone panels the product is measurably better than that model: with 3 models over 4
 * categories a 1-1-1 split happens about one question in eight. These functions add the lab's
 * confidence model, so every mode the bench runs has an exact prediction to be checked against.
 *
 * The model: model i answers the correct category with probability p_i, else a uniform wrong one;
 * its confidence, in whole cents, is uniform on the lab's "right" range or "wrong" range (read from
 * LAB_DESCRIPTION, so the two cannot drift apart); every model answers; the request's categories are
 * shuffled, so "the category listed first" is a uniform random pick. Category 0 is the correct one.
 */
import { sameSum } from "@sd/ensemble";
import { LAB_DESCRIPTION } from "@sd/provider-emulator";

/** A distribution over whole cents: `p[c]` is the probability of c cents. */
type Cents = Float64Array<ArrayBuffer>;

/** The lab's confidence ranges, read from its description ("uniform on [0.60, 0.95] when right, on [0.35, 0.80] when wrong"). */
export function labConfidenceRanges(description = LAB_DESCRIPTION): { right: [number, number]; wrong: [number, number] } {
  const found = /uniform on \[(\d\.\d+), (\d\.\d+)\]\s+when right, on \[(\d\.\d+), (\d\.\d+)\] when wrong/.exec(description);
  if (!found) throw new Error("LAB_DESCRIPTION no longer states the first-round confidence ranges: update lab-theory.ts");
  const [, rl, rh, wl, wh] = found.map(Number) as [number, number, number, number, number];
  return { right: [rl, rh], wrong: [wl, wh] };
}

/**
 * round2(low + u·(high − low)) for u uniform on [0, 1), in cents: every cent strictly inside the
 * range has weight 1/(range in cents), the two ends half that (rounding reaches them from one side).
 */
function roundedUniform([low, high]: [number, number]): Cents {
  const lo = Math.round(low * 100);
  const hi = Math.round(high * 100);
  const out = new Float64Array(hi + 1);
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
class ConfidenceSums {
  readonly #one: { right: Cents; wrong: Cents };
  readonly #sums = { right: [Float64Array.of(1)], wrong: [Float64Array.of(1)] };

  constructor(ranges = labConfidenceRanges()) {
    this.#one = { right: roundedUniform(ranges.right), wrong: roundedUniform(ranges.wrong) };
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

/**
 * P(a sum distributed as `leader` beats every rival): each rival j is a distribution and an offset
 * it gets on top (early quorum's pending votes at confidence 1); a rival beaten only on equal sums
 * loses when `tieWon(j)` (a known order) or, with `tieWon` null, in a uniformly random order (k
 * tied rivals: 1/(k+1)).
 */
function beatsAll(leader: Cents, rivals: readonly { sum: Cents; offset: number }[], tieWon: ((j: number) => boolean) | null): number {
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

/** Every assignment of a category (0 = correct) to each of n models, with its probability. */
function* assignments(accuracies: readonly number[], categoryCount: number): Generator<{ votes: number[]; probability: number }> {
  const n = accuracies.length;
  const votes = new Array<number>(n).fill(0);
  const total = categoryCount ** n;
  for (let code = 0; code < total; code++) {
    let rest = code;
    let probability = 1;
    for (let i = 0; i < n; i++) {
      votes[i] = rest % categoryCount;
      rest = Math.floor(rest / categoryCount);
      probability *= votes[i] === 0 ? accuracies[i]! : (1 - accuracies[i]!) / (categoryCount - 1);
    }
    if (probability > 0) yield { votes: [...votes], probability };
  }
}

function checkPanel(accuracies: readonly number[], categoryCount: number): void {
  if (accuracies.length === 0 || accuracies.length > 8) throw new RangeError("The enumeration is for panels of 1 to 8 models.");
  if (!Number.isInteger(categoryCount) || categoryCount < 2) throw new RangeError("At least 2 categories are needed.");
}

/** How many models voted each category. */
const countsOf = (votes: readonly number[], categoryCount: number): number[] => {
  const counts = new Array<number>(categoryCount).fill(0);
  for (const v of votes) counts[v]! += 1;
  return counts;
};

/**
 * P(the correct category wins `majorityVote` for this assignment): the top weighted score, then the
 * top summed confidence, then a uniform pick (the shuffled order). Confidences are the lab's.
 */
function tallyWon(votes: readonly number[], weights: readonly number[], categoryCount: number, sums: ConfidenceSums): number {
  const counts = countsOf(votes, categoryCount);
  if (counts[0] === 0) return 0; // only a voted category can win
  const scores = new Array<number>(categoryCount).fill(0);
  votes.forEach((v, i) => (scores[v]! += weights[i]!));
  const top = Math.max(...scores.filter((_, c) => counts[c]! > 0));
  if (!sameSum(scores[0]!, top)) return 0;
  const rivals = scores.flatMap((score, c) => (c !== 0 && counts[c]! > 0 && sameSum(score, top) ? [{ sum: sums.of("wrong", counts[c]!), offset: 0 }] : []));
  return rivals.length === 0 ? 1 : beatsAll(sums.of("right", counts[0]!), rivals, null);
}

/** Exact accuracy of (weighted) plurality voting with the product's tie policy and the lab's confidences. */
export function labTallyAccuracy(accuracies: readonly number[], categoryCount: number, weights: readonly number[] = accuracies.map(() => 1)): number {
  checkPanel(accuracies, categoryCount);
  const sums = new ConfidenceSums();
  let accuracy = 0;
  for (const { votes, probability } of assignments(accuracies, categoryCount)) accuracy += probability * tallyWon(votes, weights, categoryCount, sums);
  return accuracy;
}

/**
 * Exact accuracy of the lab's judge (LAB_DESCRIPTION): it picks the category with the highest summed
 * confidence over the panel's answers, listed in panel order; a tie goes to the category that
 * appears first in that list.
 */
export function labJudgeAccuracy(accuracies: readonly number[], categoryCount: number): number {
  checkPanel(accuracies, categoryCount);
  const sums = new ConfidenceSums();
  let accuracy = 0;
  for (const { votes, probability } of assignments(accuracies, categoryCount)) {
    const counts = countsOf(votes, categoryCount);
    if (counts[0] === 0) continue;
    const firstSeen = (c: number) => votes.indexOf(c);
    const rivals = counts.flatMap((count, c) => (c !== 0 && count > 0 ? [{ category: c, sum: sums.of("wrong", count), offset: 0 }] : []));
    accuracy += probability * beatsAll(sums.of("right", counts[0]!), rivals, (j) => firstSeen(0) < firstSeen(rivals[j]!.category));
  }
  return accuracy;
}

/** The category more of `others` answered than any other, or null (a tie at the top). */
function peersMajority(others: readonly number[], categoryCount: number): number | null {
  const counts = countsOf(others, categoryCount);
  const top = Math.max(...counts);
  return counts.filter((c) => c === top).length === 1 ? counts.indexOf(top) : null;
}

/**
 * Exact accuracy and expected rounds of gossip under the lab's rule (LAB_DESCRIPTION): after each
 * round that did not end in agreement, every model whose answer differs from its peers' strict
 * majority switches to it with probability `switchProbability`; the rounds stop when all agree or
 * after `maxRounds`, and the last round is tallied with the product's tie policy (its confidences
 * drawn afresh by each final answer's correctness, as the lab does).
 */
export function labGossip(accuracies: readonly number[], categoryCount: number, switchProbability: number, maxRounds: number): { accuracy: number; rounds: number } {
  checkPanel(accuracies, categoryCount);
  const sums = new ConfidenceSums();
  const ones = accuracies.map(() => 1);
  let states = new Map<string, { votes: number[]; probability: number }>();
  for (const a of assignments(accuracies, categoryCount)) states.set(a.votes.join(), a);
  let accuracy = 0;
  let rounds = 0;
  for (let round = 1; states.size > 0; round++) {
    const next = new Map<string, { votes: number[]; probability: number }>();
    for (const { votes, probability } of states.values()) {
      if (votes.every((v) => v === votes[0]) || round === maxRounds) {
        accuracy += probability * tallyWon(votes, ones, categoryCount, sums);
        rounds += probability * round;
        continue;
      }
      // Each model's options for the next round, then every combination of them.
      let outcomes = [{ votes: [] as number[], probability }];
      votes.forEach((own, i) => {
        const majority = peersMajority(votes.filter((_, j) => j !== i), categoryCount);
        const options = majority === null || majority === own ? [{ v: own, p: 1 }] : [{ v: majority, p: switchProbability }, { v: own, p: 1 - switchProbability }];
        outcomes = outcomes.flatMap((o) => options.filter((x) => x.p > 0).map((x) => ({ votes: [...o.votes, x.v], probability: o.probability * x.p })));
      });
      for (const o of outcomes) {
        const key = o.votes.join();
        const existing = next.get(key);
        if (existing) existing.probability += o.probability;
        else next.set(key, o);
      }
    }
    states = next;
  }
  return { accuracy, rounds };
}

/**
 * Exact expected model calls early quorum saves per decision (plain majority, weight 1 each) when
 * the models answer in `order` (indices, fastest first), under the product's rule (`earlyQuorum`):
 * after each answer, the pending votes are skipped once no category could beat the leader even if
 * every pending vote chose it with confidence 1, ties decided by summed confidence, then order.
 * Unlike `expectedCallsSaved` (votes without confidence), a reachable tie the leader would win on
 * confidence counts as decided: on 5 models a 2-1-1 split after 4 answers can end there.
 *
 * Exact while at most one arrival of a decision can hinge on confidences (the leader's summed
 * confidence is then compared once); that holds for every panel of up to 5 models, and the
 * function throws if a panel breaks it.
 */
export function labCallsSaved(accuracies: readonly number[], categoryCount: number, order: readonly number[]): number {
  checkPanel(accuracies, categoryCount);
  const n = accuracies.length;
  if (order.length !== n || new Set(order).size !== n || order.some((i) => !(i >= 0 && i < n))) throw new RangeError("The order must name every model once.");
  const sums = new ConfidenceSums();
  let saved = 0;
  for (const { votes, probability } of assignments(accuracies, categoryCount)) {
    let open = 1; // the chance the decision is still waiting
    let hinged = false;
    for (let answered = 1; answered < n && open > 0; answered++) {
      const pending = n - answered;
      const arrived = order.slice(0, answered).map((i) => votes[i]!);
      const counts = countsOf(arrived, categoryCount);
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
      if (hinged) throw new RangeError("Two arrivals of one decision hinge on confidences: this panel needs a joint computation.");
      hinged = true;
      const sumOf = (c: number) => sums.of(c === 0 ? "right" : "wrong", counts[c]!);
      const decided = beatsAll(
        sumOf(leader),
        hinges.map((c) => ({ sum: sumOf(c), offset: pending * 100 })),
        null,
      );
      saved += probability * open * decided * pending;
      open *= 1 - decided;
    }
  }
  return saved;
}
