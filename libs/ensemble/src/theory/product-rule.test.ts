import { describe, expect, it } from "vitest";
import { feedAnswers, startEnsemble, type EnsembleModeId, type EnsembleState } from "../modes/registry";
import type { EnsembleResult, EnsembleStep, ModelAnswer, ShownAnswer } from "../modes/types";
import type { ConfidenceModel } from "./confidence";
import { confidenceJudgeAccuracy } from "./confidence-judge";
import { peerGossip } from "./peer-gossip";
import { productRuleAccuracy, productRuleCallsSaved } from "./product-rule";
import { expectedCallsSaved, pluralityAccuracy } from "./random-ties";

/**
 * The theory of the product's rule against the product itself: on small panels every way the
 * models can answer (category and confidence) and every order the request can list the categories
 * in is enumerated, each is decided by the real mode (`majority_voting`, `weighted_voting`, the
 * `earlyQuorum` inside them, `gossip`), and the probability-weighted outcomes must equal the
 * theory's figure to float precision. Then hand-computed figures for a few panels.
 */

/** A confidence model with its distribution written out by hand (round2 of a uniform draw: each end of a range half as likely as a cent inside). */
interface StatedConfidence {
  model: ConfidenceModel;
  right: readonly (readonly [confidence: number, probability: number])[];
  wrong: readonly (readonly [confidence: number, probability: number])[];
}

/** Overlapping ranges: right and wrong answers often have equal confidences, so many ties fall to the category order. */
const OVERLAPPING: StatedConfidence = {
  model: { right: [0.5, 0.52], wrong: [0.49, 0.51] },
  right: [
    [0.5, 0.25],
    [0.51, 0.5],
    [0.52, 0.25],
  ],
  wrong: [
    [0.49, 0.25],
    [0.5, 0.5],
    [0.51, 0.25],
  ],
};

/** One cent wide and high: two right answers (1.80-1.82) against one wrong and a pending vote at 1 (1.81-1.82) can go either way, or tie. */
const HIGH: StatedConfidence = {
  model: { right: [0.9, 0.91], wrong: [0.81, 0.82] },
  right: [
    [0.9, 0.5],
    [0.91, 0.5],
  ],
  wrong: [
    [0.81, 0.5],
    [0.82, 0.5],
  ],
};

const fixed = (right: number, wrong: number): StatedConfidence => ({ model: { right: [right, right], wrong: [wrong, wrong] }, right: [[right, 1]], wrong: [[wrong, 1]] });

const CORRECT = "c0";
const categoriesOf = (k: number): string[] => Array.from({ length: k }, (_, i) => `c${i}`);

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

/** One answer a model can give, with its probability. */
interface Choice {
  category: string;
  confidence: number;
  probability: number;
}

/** Every first-round answer of a model of accuracy p: each category, each confidence the model allows for it. */
function firstRoundChoices(p: number, categories: readonly string[], confidence: StatedConfidence): Choice[] {
  return categories.flatMap((category) => {
    const right = category === CORRECT;
    const pCategory = right ? p : (1 - p) / (categories.length - 1);
    return (right ? confidence.right : confidence.wrong).map(([c, pc]) => ({ category, confidence: c, probability: pCategory * pc }));
  });
}

const answerOf = (provider: string, round: number, choice: Choice): ModelAnswer => ({
  provider,
  round,
  category: choice.category,
  confidence: choice.confidence,
  reason: null,
  error: null,
});

type Choices = (provider: string, round: number, peers: readonly ShownAnswer[]) => Choice[];

/**
 * Runs the real mode over every branch of `choices`, answers fed one at a time in `arrival` order
 * (provider ids) as the aggregator feeds them, once per category order; `visit` gets each final
 * result with the branch's probability (the category orders equally likely).
 */
function explore(
  mode: EnsembleModeId,
  setup: { models: number; categoryCount: number; weights?: readonly number[]; earlyQuorum?: boolean; maxRounds?: number; arrival?: readonly number[] },
  choices: Choices,
  visit: (result: EnsembleResult, probability: number) => void,
): void {
  const providers = Array.from({ length: setup.models }, (_, i) => `m${i}`);
  const arrival = (setup.arrival ?? providers.map((_, i) => i)).map((i) => providers[i]!);
  const orders = permutations(categoriesOf(setup.categoryCount));
  const walk = (state: EnsembleState, step: EnsembleStep, probability: number): void => {
    if (step.kind === "final") return visit(step.result, probability);
    if (step.kind !== "ask") throw new Error(`unexpected step ${step.kind}`);
    const { round, peers } = step;
    const asked = arrival.filter((p) => step.providers.includes(p));
    const feed = (st: EnsembleState, i: number, p: number, last: EnsembleStep): void => {
      if (i === asked.length) return walk(st, last, p);
      for (const choice of choices(asked[i]!, round, peers)) {
        const next = feedAnswers(st, [answerOf(asked[i]!, round, choice)]);
        // Early quorum may end the decision before everyone answered: the rest is never awaited.
        if (next.step.kind === "final") visit(next.step.result, p * choice.probability);
        else feed(next.state, i + 1, p * choice.probability, next.step);
      }
    };
    feed(state, 0, probability, step);
  };
  for (const categories of orders) {
    const { state, step } = startEnsemble(mode, {
      question: "Which one?",
      categories,
      panel: providers.map((provider, i) => ({ provider, label: provider, weight: setup.weights?.[i] ?? 1 })),
      earlyQuorum: setup.earlyQuorum ?? false,
      maxRounds: setup.maxRounds,
    });
    walk(state, step, 1 / orders.length);
  }
}

/** The product's accuracy and calls saved on a panel, by enumeration through the real mode. */
function measureByEnumeration(
  mode: "majority_voting" | "weighted_voting",
  accuracies: readonly number[],
  categoryCount: number,
  confidence: StatedConfidence,
  more: { weights?: readonly number[]; earlyQuorum?: boolean; arrival?: readonly number[] } = {},
): { accuracy: number; callsSaved: number; total: number } {
  const categories = categoriesOf(categoryCount);
  const byProvider = new Map(accuracies.map((p, i) => [`m${i}`, firstRoundChoices(p, categories, confidence)]));
  let accuracy = 0;
  let callsSaved = 0;
  let total = 0;
  explore(
    mode,
    { models: accuracies.length, categoryCount, ...more },
    (provider) => byProvider.get(provider)!,
    (result, p) => {
      total += p;
      if (result.tally.final_decision === CORRECT) accuracy += p;
      callsSaved += p * result.skipped.length;
    },
  );
  return { accuracy, callsSaved, total };
}

describe("productRuleAccuracy against majority_voting, every answer, confidence and category order enumerated", () => {
  it.each([
    ["0.8/0.7/0.6 over 3 categories, overlapping confidences", [0.8, 0.7, 0.6], 3, OVERLAPPING],
    ["0.9/0.6/0.6 over 3 categories, high confidences", [0.9, 0.6, 0.6], 3, HIGH],
    ["0.7/0.6/0.55/0.5 over 3 categories (2-2 splits), overlapping confidences", [0.7, 0.6, 0.55, 0.5], 3, OVERLAPPING],
    ["0.8/0.6 over 4 categories, equal fixed confidences (every tie falls to the order)", [0.8, 0.6], 4, fixed(0.5, 0.5)],
  ] as const)("%s", (_name, accuracies, k, confidence) => {
    const measured = measureByEnumeration("majority_voting", accuracies, k, confidence);
    expect(measured.total).toBeCloseTo(1, 12);
    expect(productRuleAccuracy(accuracies, k, confidence.model)).toBeCloseTo(measured.accuracy, 12);
  });
});

describe("productRuleAccuracy with weights against weighted_voting, enumerated", () => {
  it.each([
    ["weights 2/1/1: a 1-1 pair ties the heavy model", [0.8, 0.7, 0.6], [2, 1, 1], OVERLAPPING],
    ["log-odds-like weights 3.3/1.5/1.5: the heavy model decides alone", [0.9, 0.6, 0.6], [3.3, 1.5, 1.5], HIGH],
    ["weights 0.3/0.1/0.2: 0.1 + 0.2 ties 0.3 only up to float rounding", [0.8, 0.7, 0.6], [0.3, 0.1, 0.2], fixed(0.9, 0.3)],
  ] as const)("%s", (_name, accuracies, weights, confidence) => {
    const measured = measureByEnumeration("weighted_voting", accuracies, 3, confidence, { weights });
    expect(productRuleAccuracy(accuracies, 3, confidence.model, weights)).toBeCloseTo(measured.accuracy, 12);
  });
});

describe("productRuleCallsSaved against earlyQuorum in majority_voting, enumerated", () => {
  it.each([
    ["3 models, fastest first", [0.8, 0.7, 0.6], 3, OVERLAPPING, [0, 1, 2]],
    ["3 models, slowest first", [0.8, 0.7, 0.6], 3, OVERLAPPING, [2, 1, 0]],
    ["4 models: a 2-1 split with one vote to come is decided by confidence", [0.8, 0.7, 0.6, 0.6], 3, HIGH, [0, 1, 2, 3]],
    ["5 models: a 2-1-1 split with one vote to come is decided by confidence", [0.8, 0.7, 0.6, 0.6, 0.55], 3, HIGH, [1, 0, 2, 4, 3]],
  ] as const)("%s", (_name, accuracies, k, confidence, arrival) => {
    const measured = measureByEnumeration("majority_voting", accuracies, k, confidence, { earlyQuorum: true, arrival });
    const theory = productRuleCallsSaved(accuracies, k, confidence.model, arrival);
    expect(theory).toBeCloseTo(measured.callsSaved, 12);
    // Early quorum never changes the decision: the accuracy is the full count's.
    expect(productRuleAccuracy(accuracies, k, confidence.model)).toBeCloseTo(measured.accuracy, 12);
  });

  it("on 4 models saves more than the no-confidence theory, which never counts a reachable tie as decided", () => {
    const theory = productRuleCallsSaved([0.8, 0.7, 0.6, 0.6], 3, HIGH.model, [0, 1, 2, 3]);
    expect(theory).toBeGreaterThan(expectedCallsSaved([0.8, 0.7, 0.6, 0.6], 3, [0, 1, 2, 3]) + 0.1);
  });
});

describe("peerGossip against the gossip mode, enumerated (models follow the lab's switching rule)", () => {
  /** The lab's rule: keep a first-round answer; later, switch to the peers' strict majority with probability s. */
  const gossipChoices =
    (accuracies: readonly number[], categories: readonly string[], confidence: StatedConfidence, s: number): Choices =>
    (provider, round, peers) => {
      if (round === 1) return firstRoundChoices(accuracies[Number(provider.slice(1))]!, categories, confidence);
      const own = peers.find((p) => p.provider === provider)!.category;
      const counts = new Map<string, number>();
      for (const peer of peers) if (peer.provider !== provider) counts.set(peer.category, (counts.get(peer.category) ?? 0) + 1);
      const ranked = [...counts].sort((a, b) => b[1] - a[1]);
      const majority = ranked.length > 0 && (ranked.length === 1 || ranked[1]![1] < ranked[0]![1]) ? ranked[0]![0] : null;
      const confidenceOf = (category: string) => (category === CORRECT ? confidence.right : confidence.wrong)[0]![0];
      if (majority === null || majority === own) return [{ category: own, confidence: confidenceOf(own), probability: 1 }];
      return [
        { category: majority, confidence: confidenceOf(majority), probability: s },
        { category: own, confidence: confidenceOf(own), probability: 1 - s },
      ];
    };

  it.each([
    ["3 models over 3 categories, 3 rounds, confidence breaks ties", [0.8, 0.7, 0.6], 3, fixed(0.9, 0.4), 0.5, 3],
    ["4 models over 3 categories, 2 rounds, the order breaks ties", [0.7, 0.6, 0.6, 0.5], 3, fixed(0.5, 0.5), 0.3, 2],
  ] as const)("%s", (_name, accuracies, k, confidence, s, maxRounds) => {
    const categories = categoriesOf(k);
    let accuracy = 0;
    let rounds = 0;
    explore("gossip", { models: accuracies.length, categoryCount: k, maxRounds }, gossipChoices(accuracies, categories, confidence, s), (result, p) => {
      if (result.tally.final_decision === CORRECT) accuracy += p;
      rounds += p * result.rounds.length;
    });
    const theory = peerGossip(accuracies, k, confidence.model, { switchProbability: s, maxRounds });
    expect(theory.accuracy).toBeCloseTo(accuracy, 12);
    expect(theory.rounds).toBeCloseTo(rounds, 12);
  });
});

describe("hand-computed figures, panel 0.8/0.7/0.6", () => {
  const PANEL = [0.8, 0.7, 0.6];

  it("majority with confidence 0.9 when right, 0.4 when wrong: a 1-1-1 split always goes to the right answer", () => {
    // ≥ 2 right: 0.8·0.7 + 0.8·0.6 + 0.7·0.6 − 2·0.8·0.7·0.6 = 0.788. Exactly one right (0.188) wins
    // unless the two wrong models agree (1 time in 3 over 4 categories): 0.188 · 2/3.
    expect(productRuleAccuracy(PANEL, 4, fixed(0.9, 0.4).model)).toBeCloseTo(0.788 + (0.188 * 2) / 3, 12);
    // The random-tie theory gives that split only 1 chance in 3.
    expect(pluralityAccuracy(PANEL, 4)).toBeCloseTo(0.788 + (0.188 * 2) / 9, 12);
  });

  it("majority when the tie-break compares one-cent confidences: 0.60-0.61 when right, 0.59-0.60 when wrong", () => {
    // Two models over 2 categories (0.8, 0.6): both right 0.48; a 1-1 split (0.44) goes to the right answer when
    // its confidence is higher (1 − 0.5·0.5 = 0.75), half the time when equal (0.25): 0.875.
    expect(productRuleAccuracy([0.8, 0.6], 2, { right: [0.6, 0.61], wrong: [0.59, 0.6] })).toBeCloseTo(0.48 + 0.44 * 0.875, 12);
  });

  it("early quorum, 4 models of 0.8 over 2 categories, 0.9 when right, 0.3 when wrong", () => {
    const panel = [0.8, 0.8, 0.8, 0.8];
    // After 3 answers: 3-0 is decided (0.8³ + 0.2³); 2-1 for the right answer too (1.8 > 0.3 + 1 for the pending
    // vote): 3 · 0.8² · 0.2. A 2-1 for a wrong answer (0.6 < 0.9 + 1) waits. After 2 answers nothing is decided.
    expect(productRuleCallsSaved(panel, 2, fixed(0.9, 0.3).model, [0, 1, 2, 3])).toBeCloseTo(0.512 + 0.008 + 0.384, 12);
    // Without confidences only the 3-0 counts.
    expect(expectedCallsSaved(panel, 2, [0, 1, 2, 3])).toBeCloseTo(0.52, 12);
  });

  it("the summed-confidence judge, 0.9 when right and 0.4 when wrong, is wrong only when every model is", () => {
    // Two wrong answers sum to 0.8 < 0.9: any right answer wins.
    expect(confidenceJudgeAccuracy(PANEL, 4, fixed(0.9, 0.4).model)).toBeCloseTo(1 - 0.2 * 0.3 * 0.4, 12);
    // Equal confidences: a 1-1 split goes to the first model's answer, so two models judge as well as the first.
    expect(confidenceJudgeAccuracy([0.8, 0.6], 2, fixed(0.5, 0.5).model)).toBeCloseTo(0.8, 12);
  });

  it("gossip that never switches is a majority vote after one round, or after the cap when they disagree", () => {
    const never = peerGossip(PANEL, 4, fixed(0.9, 0.4).model, { switchProbability: 0, maxRounds: 3 });
    expect(never.accuracy).toBeCloseTo(productRuleAccuracy(PANEL, 4, fixed(0.9, 0.4).model), 12);
    // All agree in round 1: all right (0.336) or all the same wrong answer (0.2·0.3·0.4/9); else 3 rounds.
    const agree = 0.336 + (0.2 * 0.3 * 0.4) / 9;
    expect(never.rounds).toBeCloseTo(agree + 3 * (1 - agree), 12);
  });
});

describe("the product-rule theories", () => {
  it("handle the largest panels and category lists the product allows (8 models, 20 categories)", () => {
    const accuracy = productRuleAccuracy([0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6], 20, { right: [0.6, 0.95], wrong: [0.35, 0.8] });
    expect(accuracy).toBeGreaterThan(pluralityAccuracy([0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6], 20));
    expect(accuracy).toBeLessThan(1);
  });

  it("refuse a confidence range outside 0..1 or upside down, and an order that does not name every model once", () => {
    expect(() => productRuleAccuracy([0.8], 2, { right: [0.9, 0.8], wrong: [0.1, 0.2] })).toThrow(RangeError);
    expect(() => productRuleAccuracy([0.8], 2, { right: [0.9, 1.1], wrong: [0.1, 0.2] })).toThrow(RangeError);
    expect(() => productRuleCallsSaved([0.8, 0.7], 2, OVERLAPPING.model, [1, 1])).toThrow(RangeError);
    expect(() => productRuleAccuracy([0.8, 0.7], 2, OVERLAPPING.model, [1])).toThrow(RangeError);
  });
});
