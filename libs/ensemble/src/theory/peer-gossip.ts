/**
 * Exact accuracy and expected rounds of gossip when each model follows a fixed rule (the accuracy
 * lab's simulated models, see LAB_DESCRIPTION in the provider emulator): after each round that did
 * not end in agreement, every model whose answer differs from its peers' strict majority switches
 * to it with probability `switchProbability`, else keeps it. The product's part is the rest, as the
 * `gossip` mode runs it: the rounds stop when all agree or after `maxRounds`, and the last round is
 * tallied with `majorityVote`'s tie policy (each final answer's confidence drawn afresh by whether
 * it is right, as the lab does).
 */
import { ConfidenceSums, type ConfidenceModel } from "./confidence";
import { answerPatterns, countsOf, type AnswerPattern } from "./patterns";
import { tallyWon } from "./product-rule";

export interface GossipRule {
  /** The chance a model that differs from its peers' strict majority switches to it, per round. */
  switchProbability: number;
  /** The most rounds, round 1 included. */
  maxRounds: number;
}

/** The category more of `others` answered than any other, or null (a tie at the top). */
function peersMajority(others: readonly number[], categoryCount: number): number | null {
  const counts = countsOf(others, categoryCount);
  const top = Math.max(...counts);
  return counts.filter((c) => c === top).length === 1 ? counts.indexOf(top) : null;
}

/** Every next round a round's answers can lead to under the rule, with its probability. */
function nextRound({ votes, probability }: AnswerPattern, categoryCount: number, switchProbability: number): AnswerPattern[] {
  let outcomes: AnswerPattern[] = [{ votes: [], probability }];
  votes.forEach((own, i) => {
    const majority = peersMajority(
      votes.filter((_, j) => j !== i),
      categoryCount,
    );
    const options =
      majority === null || majority === own
        ? [{ v: own, p: 1 }]
        : [
            { v: majority, p: switchProbability },
            { v: own, p: 1 - switchProbability },
          ];
    outcomes = outcomes.flatMap((o) => options.filter((x) => x.p > 0).map((x) => ({ votes: [...o.votes, x.v], probability: o.probability * x.p })));
  });
  return outcomes;
}

/** Exact accuracy and expected number of rounds (each round is one call per model) of gossip under the rule. */
export function peerGossip(accuracies: readonly number[], categoryCount: number, confidence: ConfidenceModel, rule: GossipRule): { accuracy: number; rounds: number } {
  const { switchProbability, maxRounds } = rule;
  if (!(switchProbability >= 0 && switchProbability <= 1)) throw new RangeError("The switch probability is a number from 0 to 1.");
  if (!Number.isInteger(maxRounds) || maxRounds < 1) throw new RangeError("At least one round is needed.");
  const sums = new ConfidenceSums(confidence);
  const ones = accuracies.map(() => 1);
  let states = new Map(answerPatterns(accuracies, categoryCount).map((a) => [a.votes.join(), a]));
  let accuracy = 0;
  let rounds = 0;
  for (let round = 1; states.size > 0; round++) {
    const next = new Map<string, AnswerPattern>();
    for (const state of states.values()) {
      if (state.votes.every((v) => v === state.votes[0]) || round === maxRounds) {
        accuracy += state.probability * tallyWon(state.votes, ones, categoryCount, sums);
        rounds += state.probability * round;
        continue;
      }
      for (const o of nextRound(state, categoryCount, switchProbability)) {
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
