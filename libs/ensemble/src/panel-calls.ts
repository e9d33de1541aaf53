import type { EnsembleModeId } from "./modes/registry";

/**
 * Each vote's weight as early quorum counts it, for a decision with early quorum on; null for a
 * mode whose round-1 votes do not decide it alone (the judge, gossip), where early quorum does not apply.
 */
export function quorumWeights(mode: EnsembleModeId, panel: readonly string[], weights?: Readonly<Record<string, number>> | null): Record<string, number> | null {
  if (mode !== "majority_voting" && mode !== "weighted_voting") return null;
  return Object.fromEntries(panel.map((provider) => [provider, mode === "weighted_voting" ? (weights?.[provider] ?? 1) : 1]));
}

/** The round the judge's verdict shows as in live progress: it comes after the rounds of votes, which count from 1. */
export const JUDGE_ROUND = 0;

/** The round a call shows as in live progress: its own, or `JUDGE_ROUND` for the judge. */
export function progressRound(task: "vote" | "judge" | undefined, round: number): number {
  return task === "judge" ? JUDGE_ROUND : round;
}
