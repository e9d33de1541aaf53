export interface VoteResult {
  category: string;
  count: number;
  /** Share of all votes, 0 to 1: the bar's length. */
  share: number;
  /** e.g. "1 vote", "2 votes". */
  label: string;
}

const formatCount = (count: number): string => (Number.isInteger(count) ? String(count) : String(Number(count.toFixed(2))));

/** "1 vote" or "N votes". */
export const votesLabel = (count: number): string => `${formatCount(count)} ${count === 1 ? "vote" : "votes"}`;

/** Vote counts per category, most votes first (ties keep the request's order), each with its bar share. */
export function voteResults(voteCounts: Readonly<Record<string, number>>, totalVotes: number): VoteResult[] {
  return Object.entries(voteCounts)
    .map(([category, count]) => ({
      category,
      count,
      share: totalVotes > 0 ? Math.min(1, Math.max(0, count / totalVotes)) : 0,
      label: votesLabel(count),
    }))
    .sort((a, b) => b.count - a.count);
}
