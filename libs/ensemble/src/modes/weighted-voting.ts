import { tieSentence, votes } from "../explanation";
import { majorityVote, type Tally } from "../majority-vote";
import { ballot, formatWeight, isValid, labelOf } from "./rounds";
import type { ModelAnswer, ResolvedContext } from "./types";
import { countingMode } from "./vote-count";

/** "Weights: Yes 2.08 = GPT-4o 1.39 + Claude 3 Haiku 0.69; No 1.39 = Gemini 2.5 Pro 1.39." */
function weightsLine(ctx: ResolvedContext, tally: Tally, counted: readonly ModelAnswer[], weights: Readonly<Record<string, number>>): string {
  const voted = ctx.categories
    .filter((c) => (tally.vote_counts[c] ?? 0) > 0)
    .sort((a, b) => tally.scores[b]! - tally.scores[a]!);
  const parts = voted.map((category) => {
    const terms = counted
      .filter((a) => a.category === category)
      .map((a) => `${labelOf(ctx, a.provider)} ${formatWeight(weights[a.provider]!)}`);
    return `${category} ${formatWeight(tally.scores[category]!)} = ${terms.join(" + ")}`;
  });
  return `Weights: ${parts.join("; ")}.`;
}

/**
 * `weighted_voting`: each vote counts with its model's weight (`PanelMember.weight`: configured,
 * or learned with `logOddsWeight`). Same tie policy as `majorityVote`, on weighted scores. The
 * explanation shows the weights behind each category's score, and says so when a plain count
 * would have chosen otherwise.
 */
export const weightedVoting = countingMode({
  weightOf: (ctx, provider) => ctx.panel.find((m) => m.provider === provider)?.weight ?? 0,
  headline: (ctx, tally, counted, weights) => {
    const winner = tally.final_decision!;
    const lines = [
      `${winner} won the weighted vote with ${formatWeight(tally.scores[winner]!)} (${tally.vote_counts[winner]} of ${votes(tally.total_votes)}).${tieSentence(tally)}`,
      weightsLine(ctx, tally, counted, weights),
    ];
    const plain = majorityVote(ctx.categories, counted.filter(isValid).map((a) => ballot(a, 1))).final_decision;
    if (plain !== winner) lines.push(`A plain count of the votes would have chosen ${plain}.`);
    return lines;
  },
});
