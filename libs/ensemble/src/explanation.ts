import type { Tally } from "./majority-vote";

export interface Rationale {
  label: string;
  category: string | null;
  rationale: string | null;
  error: string | null;
}

/** "Why this decision?": the outcome in one sentence, then each model's own reason. */
export function explainDecision(tally: Tally, rationales: readonly Rationale[], noDecisionText: string): string {
  if (tally.final_decision === null) return noDecisionText;
  const winnerVotes = tally.vote_counts[tally.final_decision] ?? 0;
  const plural = tally.total_votes === 1 ? "vote" : "votes";
  let summary = `"${tally.final_decision}" won with ${winnerVotes} of ${tally.total_votes} valid ${plural}.`;
  if (tally.leaders.length > 1) {
    summary += ` It tied with ${tally.leaders
      .filter((c) => c !== tally.final_decision)
      .map((c) => `"${c}"`)
      .join(", ")} and won the tie-break on combined confidence, then on the order of the categories.`;
  }
  const reasons = rationales.map((r) =>
    r.category === null
      ? `${r.label} gave no valid vote${r.error ? ` (${r.error})` : ""}.`
      : `${r.label} chose "${r.category}"${r.rationale ? `: ${r.rationale.trim()}` : "."}`,
  );
  return [summary, ...reasons].join(" ");
}
