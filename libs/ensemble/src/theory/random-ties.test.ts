import { describe, expect, it } from "vitest";
import { earlyQuorum } from "../early-quorum";
import { majorityVote } from "../majority-vote";
import { expectedCallsSaved, pluralityAccuracy, weightedPluralityAccuracy } from "./random-ties";
import { logOddsWeight } from "../weights";

/** mulberry32: a small seeded PRNG, so the Monte Carlo checks give the same numbers on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CATEGORIES = ["c0", "c1", "c2", "c3"]; // c0 is the correct answer in every simulated question

/** One labelled question as the lab will run it: categories shuffled, each model right with its accuracy, else a uniform wrong one. */
function simulate(random: () => number, accuracies: readonly number[]): { categories: string[]; answers: string[] } {
  const categories = [...CATEGORIES];
  for (let i = categories.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [categories[i], categories[j]] = [categories[j]!, categories[i]!];
  }
  const answers = accuracies.map((p) => (random() < p ? "c0" : CATEGORIES[1 + Math.floor(random() * (CATEGORIES.length - 1))]!));
  return { categories, answers };
}

const SAMPLES = 20_000;

/** Accuracy of the product's own tally (no confidence: ties go to the category listed first, which the shuffle makes random). */
function monteCarloAccuracy(accuracies: readonly number[], weights: readonly number[], seed: number): number {
  const random = prng(seed);
  let right = 0;
  for (let n = 0; n < SAMPLES; n++) {
    const { categories, answers } = simulate(random, accuracies);
    const tally = majorityVote(categories, answers.map((category, i) => ({ provider: `m${i}`, category, weight: weights[i]!, confidence: null })));
    if (tally.final_decision === "c0") right += 1;
  }
  return right / SAMPLES;
}

/** Calls saved by the product's `earlyQuorum` when the models answer in `order`. */
function monteCarloCallsSaved(accuracies: readonly number[], order: readonly number[], weights: readonly number[], seed: number): number {
  const random = prng(seed);
  const byId = Object.fromEntries(weights.map((w, i) => [`m${i}`, w]));
  let saved = 0;
  for (let n = 0; n < SAMPLES; n++) {
    const { categories, answers } = simulate(random, accuracies);
    for (let arrived = 1; arrived < order.length; arrived++) {
      const cast = order.slice(0, arrived).map((i) => ({ provider: `m${i}`, category: answers[i]!, confidence: null }));
      const pending = order.slice(arrived).map((i) => `m${i}`);
      if (earlyQuorum({ categories, weights: byId, answers: cast, pending }).decided) {
        saved += pending.length;
        break;
      }
    }
  }
  return saved / SAMPLES;
}

const logOdds = (accuracies: readonly number[]) => accuracies.map((p) => logOddsWeight(p, 4));

describe("pluralityAccuracy", () => {
  it("matches the hand count for 0.8/0.7/0.6 over 4 categories", () => {
    // Right when ≥ 2 models are right (0.788); with exactly one right (0.188) it wins only a
    // three-way tie — the two wrong models disagree (2/3) — and then one time in three.
    expect(pluralityAccuracy([0.8, 0.7, 0.6], 4)).toBeCloseTo(0.788 + (0.188 * 2) / 9, 12);
    expect(pluralityAccuracy([0.9, 0.6, 0.6], 4)).toBeCloseTo(0.792 + (0.192 * 2) / 9, 12);
  });

  it("counts a tie as a coin flip among the tied categories", () => {
    // Two models over 2 categories: both right 0.48; one right (0.32 + 0.12) is a 1–1 tie, won half the time.
    expect(pluralityAccuracy([0.8, 0.6], 2)).toBeCloseTo(0.48 + 0.44 / 2, 12);
    // Three models over 2 categories cannot tie: right exactly when at least two are.
    expect(pluralityAccuracy([0.8, 0.7, 0.6], 2)).toBeCloseTo(0.788, 12);
  });

  it("is a lone model's own accuracy", () => {
    expect(pluralityAccuracy([0.73], 5)).toBeCloseTo(0.73, 12);
  });

  it("handles the largest panels and category lists the product allows", () => {
    const accuracy = pluralityAccuracy([0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6], 20);
    expect(accuracy).toBeGreaterThan(0.6);
    expect(accuracy).toBeLessThan(1);
  });

  it("agrees with the product's tally on shuffled categories (Monte Carlo, fixed seed)", () => {
    for (const [panel, seed] of [
      [[0.8, 0.7, 0.6], 1],
      [[0.9, 0.6, 0.6], 2],
      [[0.8, 0.7, 0.6, 0.6, 0.55], 3],
    ] as const) {
      expect(Math.abs(monteCarloAccuracy(panel, panel.map(() => 1), seed) - pluralityAccuracy(panel, 4))).toBeLessThan(0.015);
    }
  });
});

describe("weightedPluralityAccuracy", () => {
  it("with log-odds weights lets the 0.9 model of 0.9/0.6/0.6 decide alone: 0.9, above plain plurality", () => {
    // ln 27 ≈ 3.30 outweighs ln 4.5 + ln 4.5 ≈ 3.01, so the best model is never outvoted.
    const weighted = weightedPluralityAccuracy([0.9, 0.6, 0.6], logOdds([0.9, 0.6, 0.6]), 4);
    expect(weighted).toBeCloseTo(0.9, 12);
    expect(weighted).toBeGreaterThan(pluralityAccuracy([0.9, 0.6, 0.6], 4));
  });

  it("with log-odds weights on 0.8/0.7/0.6 differs from plurality only in a three-way split, which the 0.8 model wins", () => {
    // 0.788 (≥ 2 right) + the 0.8 model alone right (0.096) with the other two split (2/3).
    expect(weightedPluralityAccuracy([0.8, 0.7, 0.6], logOdds([0.8, 0.7, 0.6]), 4)).toBeCloseTo(0.788 + 0.096 * (2 / 3), 12);
  });

  it("equals plurality with equal weights", () => {
    expect(weightedPluralityAccuracy([0.8, 0.7, 0.6], [2, 2, 2], 4)).toBeCloseTo(pluralityAccuracy([0.8, 0.7, 0.6], 4), 12);
  });

  it("agrees with the product's weighted tally (Monte Carlo, fixed seed)", () => {
    const panel = [0.8, 0.7, 0.6, 0.6, 0.55];
    const weights = logOdds(panel);
    expect(Math.abs(monteCarloAccuracy(panel, weights, 4) - weightedPluralityAccuracy(panel, weights, 4))).toBeLessThan(0.015);
  });
});

describe("expectedCallsSaved", () => {
  it("is the chance that the first two of three answers agree, for a plain majority", () => {
    // The 0.8 and 0.7 models answer first: both right (0.56) or wrong alike (0.2 · 0.3 / 3 = 0.02): 0.58 calls of 3, 19.3%.
    expect(expectedCallsSaved([0.8, 0.7, 0.6], 4, [0, 1, 2])).toBeCloseTo(0.58, 12);
    // The 0.6 and 0.7 models first: 0.42 + 0.4 · 0.3 / 3.
    expect(expectedCallsSaved([0.8, 0.7, 0.6], 4, [2, 1, 0])).toBeCloseTo(0.46, 12);
  });

  it("with log-odds weights depends on who answers first", () => {
    const weights = logOdds([0.9, 0.6, 0.6]);
    expect(expectedCallsSaved([0.9, 0.6, 0.6], 4, [0, 1, 2], weights)).toBeCloseTo(2, 12); // the decisive model first: 2 calls saved always
    expect(expectedCallsSaved([0.9, 0.6, 0.6], 4, [1, 2, 0], weights)).toBe(0); // the two light models can never outweigh it
  });

  it("agrees with the product's earlyQuorum on a five-model panel (Monte Carlo, fixed seed)", () => {
    const panel = [0.8, 0.7, 0.6, 0.6, 0.55];
    const order = [0, 1, 2, 3, 4];
    const equal = panel.map(() => 1);
    const theory = expectedCallsSaved(panel, 4, order);
    expect(theory).toBeCloseTo(0.959, 3); // more calls than the three-model panel's 0.58, about the same share (19%)
    expect(Math.abs(monteCarloCallsSaved(panel, order, equal, 5) - theory)).toBeLessThan(0.04);
    // Log-odds weights let the strong early models settle it sooner: about 2 calls of 5.
    const weights = logOdds(panel);
    const weightedTheory = expectedCallsSaved(panel, 4, order, weights);
    expect(weightedTheory).toBeGreaterThan(1.9);
    expect(Math.abs(monteCarloCallsSaved(panel, order, weights, 6) - weightedTheory)).toBeLessThan(0.04);
  });

  it("refuses an order that does not name every model once", () => {
    expect(() => expectedCallsSaved([0.8, 0.7], 4, [0, 0])).toThrow(RangeError);
    expect(() => expectedCallsSaved([0.8, 0.7], 4, [0])).toThrow(RangeError);
  });
});
