import { majorityVote, type Ballot } from "./majority-vote";

/** What early quorum needs of an answer: a category (null when the model failed) and its confidence. */
export interface CastAnswer {
  provider: string;
  category: string | null;
  confidence: number | null;
}

export interface QuorumInput {
  /** The request's categories, in order (the order breaks full ties). */
  categories: readonly string[];
  /** Each provider's vote weight, for those that answered and those pending (1 each for a plain majority). */
  weights: Readonly<Record<string, number>>;
  /** The answers so far; failed ones (category null) and categories outside the list count for nothing. */
  answers: readonly CastAnswer[];
  /** Providers whose answers are still to come. */
  pending: readonly string[];
}

export interface QuorumVerdict {
  /** True when no way the pending answers could turn out changes the winner (always true when none is pending). */
  decided: boolean;
  /** The winner of the answers so far (the final winner when decided); null without a valid vote. */
  winner: string | null;
  /** When not decided: a category the pending answers could still make win; else null. */
  challenger: string | null;
  /** Providers whose answers are not needed: every pending one when decided, else none. */
  skippable: string[];
}

/**
 * Whether the answers still to come can no longer change the winner, under the tie policy of
 * `majorityVote` (weighted score, then summed confidence, then the order of the categories).
 *
 * Exact, not a bound: a pending model may fail, or answer any category with any confidence from 0
 * to 1. For the winner W to change, some other category C must win. The completion that helps C
 * most is every pending model answering C with confidence 1: compared with any other completion
 * it gives C at least as much score (weights are ≥ 0), at least as much summed confidence and at
 * least one vote, and leaves every other category as it is (a vote for a third category or for W
 * can only hurt C). So C can win in some completion exactly when it wins in that one, and the
 * check runs `majorityVote` itself on it: a completion that ties C with W and wins C the tie-break
 * is found, and one whose tie-break W would still win is not counted against the quorum.
 *
 * While the winner can still change, no pending answer is skipped: the decision waits for them.
 */
export function earlyQuorum({ categories, weights, answers, pending }: QuorumInput): QuorumVerdict {
  const weightOf = (provider: string): number => {
    const weight = weights[provider];
    if (weight === undefined || !Number.isFinite(weight) || weight < 0) throw new RangeError(`No valid weight for ${provider}.`);
    return weight;
  };
  const cast: Ballot[] = answers.flatMap((a) =>
    a.category === null ? [] : [{ provider: a.provider, category: a.category, weight: weightOf(a.provider), confidence: a.confidence }],
  );
  const winner = majorityVote(categories, cast).final_decision;
  if (pending.length === 0) return { decided: true, winner, challenger: null, skippable: [] };
  const pendingWeights = pending.map((provider) => ({ provider, weight: weightOf(provider) }));
  const challenger =
    categories.find((category) => {
      if (category === winner) return false;
      const bestCase = pendingWeights.map(({ provider, weight }) => ({ provider, category, weight, confidence: 1 }));
      return majorityVote(categories, [...cast, ...bestCase]).final_decision !== winner;
    }) ?? null;
  // Without a valid vote there is no winner yet, and any pending vote would make one.
  if (winner === null || challenger !== null) return { decided: false, winner, challenger, skippable: [] };
  return { decided: true, winner, challenger: null, skippable: [...pending] };
}
