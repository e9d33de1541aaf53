import type { VoteStats } from "./decision-run";
import type { ModelRow } from "./live-rows";

/** What a decision's model calls took together, as far as their live events have said. */
export interface UsageTotals {
  /** US dollars over every counted call (simulated ones cost nothing). */
  costUsd: number;
  /** Tokens over the calls of real models that reported them; simulated calls' estimates are left out. */
  inputTokens: number;
  outputTokens: number;
  /** Calls whose figures are in (every gossip round and the judge count as calls). */
  calls: number;
  /** Calls of real models that reported tokens. */
  callsWithTokens: number;
  /** Every counted call was simulated. */
  allSimulated: boolean;
}

/** A row's calls with figures: its current answer and its earlier gossip rounds. */
const callsOf = (row: ModelRow): VoteStats[] => [row.stats, ...row.earlier.map((round) => round.stats)].filter((stats) => stats !== null);

/** The decision's cost and tokens, summed over every call of every row (each round, and the judge). */
export function usageTotals(rows: readonly ModelRow[]): UsageTotals {
  const totals: UsageTotals = { costUsd: 0, inputTokens: 0, outputTokens: 0, calls: 0, callsWithTokens: 0, allSimulated: true };
  for (const row of rows) {
    for (const stats of callsOf(row)) {
      totals.calls += 1;
      totals.costUsd += stats.costUsd;
      if (!row.simulated) totals.allSimulated = false;
      if (row.simulated || stats.usage === null) continue;
      totals.callsWithTokens += 1;
      totals.inputTokens += stats.usage.input_tokens;
      totals.outputTokens += stats.usage.output_tokens;
    }
  }
  return totals;
}
