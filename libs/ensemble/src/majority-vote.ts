/** One model's valid vote as the tally sees it. */
export interface Ballot {
  provider: string;
  category: string;
  weight: number;
  confidence: number | null;
}

/** How the winner was chosen among categories that shared the top score. */
export type TieBreak = "none" | "confidence" | "category_order";

export interface Tally {
  /** Winning category, or null when no valid vote was cast. */
  final_decision: string | null;
  /** Votes per category, every requested category present (0 when nobody chose it). */
  vote_counts: Record<string, number>;
  /** Number of valid votes. */
  total_votes: number;
  /** Weighted score per category; equal to vote_counts when every weight is 1. */
  scores: Record<string, number>;
  /** Categories that shared the top score before the tie-break (one entry when there was no tie). */
  leaders: string[];
  /** Summed confidence of the votes for each category: the first tie-break. */
  confidence: Record<string, number>;
  /** Which rule picked the winner: no tie, the summed confidence, or the order of the categories. */
  tie_break: TieBreak;
}

/**
 * Two sums are equal when they differ by float rounding only: 0.1 + 0.2 must tie with 0.3, or
 * the winner of a weighted tie would be chosen by rounding noise instead of the tie policy.
 */
export function sameSum(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

/**
 * Majority voting. The category with the highest weighted score wins.
 * Tie policy (deterministic): among tied categories, the higher summed confidence wins;
 * if still tied, the category listed first in the request wins. Sums that differ only by
 * float rounding count as equal (`sameSum`).
 */
export function majorityVote(categories: readonly string[], ballots: readonly Ballot[]): Tally {
  const vote_counts: Record<string, number> = {};
  const scores: Record<string, number> = {};
  const confidence: Record<string, number> = {};
  for (const category of categories) {
    vote_counts[category] = 0;
    scores[category] = 0;
    confidence[category] = 0;
  }
  let total_votes = 0;
  for (const ballot of ballots) {
    if (!Object.hasOwn(vote_counts, ballot.category)) continue; // not an allowed category: never counted
    vote_counts[ballot.category]! += 1;
    scores[ballot.category]! += ballot.weight;
    confidence[ballot.category]! += ballot.confidence ?? 0;
    total_votes += 1;
  }
  if (total_votes === 0) return { final_decision: null, vote_counts, total_votes, scores, leaders: [], confidence, tie_break: "none" };

  const voted = categories.filter((c) => vote_counts[c]! > 0);
  const top = Math.max(...voted.map((c) => scores[c]!));
  const leaders = voted.filter((c) => sameSum(scores[c]!, top));
  const bestConfidence = Math.max(...leaders.map((c) => confidence[c]!));
  const byConfidence = leaders.filter((c) => sameSum(confidence[c]!, bestConfidence));
  const final_decision = byConfidence[0]!;
  const tie_break: TieBreak = leaders.length === 1 ? "none" : byConfidence.length === 1 ? "confidence" : "category_order";
  return { final_decision, vote_counts, total_votes, scores, leaders, confidence, tie_break };
}

/**
 * True when the votes still outstanding cannot change the winner: the leader's score beats
 * every other category's score plus all remaining weight.
 * @deprecated Use `earlyQuorum`, which knows which providers are pending and is exact about ties.
 */
export function isDecided(tally: Tally, remainingWeight: number): boolean {
  if (tally.final_decision === null) return false;
  const leaderScore = tally.scores[tally.final_decision]!;
  return Object.entries(tally.scores).every(
    ([category, score]) => category === tally.final_decision || score + remainingWeight < leaderScore,
  );
}
