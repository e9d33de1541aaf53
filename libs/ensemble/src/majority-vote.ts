/** One model's valid vote as the tally sees it. */
export interface Ballot {
  provider: string;
  category: string;
  weight: number;
  confidence: number | null;
}

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
}

/**
 * Majority voting. The category with the highest weighted score wins.
 * Tie policy (deterministic): among tied categories, the higher summed confidence wins;
 * if still tied, the category listed first in the request wins.
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
    if (!(ballot.category in vote_counts)) continue; // not an allowed category: never counted
    vote_counts[ballot.category]! += 1;
    scores[ballot.category]! += ballot.weight;
    confidence[ballot.category]! += ballot.confidence ?? 0;
    total_votes += 1;
  }
  if (total_votes === 0) return { final_decision: null, vote_counts, total_votes, scores, leaders: [], confidence };

  const top = Math.max(...categories.map((c) => scores[c]!));
  const leaders = categories.filter((c) => scores[c] === top && vote_counts[c]! > 0);
  const bestConfidence = Math.max(...leaders.map((c) => confidence[c]!));
  const final_decision = leaders.find((c) => confidence[c] === bestConfidence) ?? null;
  return { final_decision, vote_counts, total_votes, scores, leaders, confidence };
}

/**
 * True when the votes still outstanding cannot change the winner: the leader's score beats
 * every other category's score plus all remaining weight. Lets the aggregator decide early.
 */
export function isDecided(tally: Tally, remainingWeight: number): boolean {
  if (tally.final_decision === null) return false;
  const leaderScore = tally.scores[tally.final_decision]!;
  return Object.entries(tally.scores).every(
    ([category, score]) => category === tally.final_decision || score + remainingWeight < leaderScore,
  );
}
