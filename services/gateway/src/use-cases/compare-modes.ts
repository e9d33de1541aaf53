import { ENSEMBLE_MODES, type EnsembleMode, type ModeComparison, type ModeOutcome, type StoredDecision } from "@sd/contracts";
import { majorityVote, type Ballot, type TieBreak } from "@sd/ensemble";

/** Each panel model's weight in a weighted vote on these categories, or null when the panel is no longer configured. */
export type WeightsOf = (panel: readonly string[], categories: readonly string[]) => Record<string, number> | null;

/** The modes a vote count can replay; the others need the models again. */
const COUNTING_MODES: ReadonlySet<EnsembleMode> = new Set(["majority_voting", "weighted_voting"]);

/** The contract's tie-break values are the tally's: a renamed rule breaks the build here, not the page. */
const tieBreak = (rule: TieBreak): ModeOutcome["tie_break"] => rule;

/**
 * The decision's independent votes: its first round (the panel's answers before a gossip round
 * or a judge saw them), without the votes early quorum skipped. Decisions stored before modes kept
 * rounds have their per-model responses instead.
 */
export function storedBallots(decision: StoredDecision): Omit<Ballot, "weight">[] {
  const skipped = new Set(decision.ensemble?.early_quorum?.skipped ?? []);
  const firstRound = decision.ensemble?.rounds[0];
  const answers = firstRound
    ? firstRound.map((answer) => ({ provider: answer.provider, category: answer.category, confidence: answer.confidence }))
    : Object.entries(decision.individual_responses).map(([provider, category]) => ({ provider, category, confidence: decision.confidence_scores[provider] ?? null }));
  return answers.flatMap(({ provider, category, confidence }) => (category !== null && !skipped.has(provider) ? [{ provider, category, confidence }] : []));
}

function recomputed(mode: EnsembleMode, decision: StoredDecision, ballots: readonly Omit<Ballot, "weight">[], weights: Readonly<Record<string, number>>): ModeOutcome {
  const tally = majorityVote(
    decision.categories,
    ballots.map((b) => ({ ...b, weight: weights[b.provider] ?? 0 })),
  );
  return {
    mode,
    source: "recomputed",
    current: decision.ensemble_mode === mode,
    final_decision: tally.final_decision,
    scores: tally.scores,
    tie_break: tieBreak(tally.tie_break),
    leaders: tally.leaders,
    decision_id: null,
  };
}

/** A mode whose outcome needs model calls: the decision's own, its newest re-run in that mode, or not run yet. */
function asked(mode: EnsembleMode, decision: StoredDecision, reruns: readonly StoredDecision[]): ModeOutcome {
  const current = decision.ensemble_mode === mode;
  const holder = current ? decision : reruns.find((rerun) => rerun.ensemble_mode === mode);
  return {
    mode,
    source: current ? "decided" : holder ? "rerun" : "not_run",
    current,
    final_decision: holder?.final_decision ?? null,
    scores: {},
    tie_break: null,
    leaders: [],
    decision_id: holder?.id ?? null,
  };
}

/**
 * "What would the other modes have decided?": majority and weighted voting counted again from the
 * stored votes with the tally's own tie policy (no model is asked), and judge and gossip from the
 * decision itself or its newest re-run in that mode (`reruns` newest first). The weighted vote uses
 * the weights the decision was made with when it was a weighted vote, else today's (`weightsOf`).
 */
export function compareModes(decision: StoredDecision, reruns: readonly StoredDecision[], weightsOf: WeightsOf): ModeComparison {
  const ballots = storedBallots(decision);
  const panel = decision.ensemble?.panel ?? Object.keys(decision.individual_responses);
  const outcomes = ENSEMBLE_MODES.map((mode): ModeOutcome => {
    if (!COUNTING_MODES.has(mode)) return asked(mode, decision, reruns);
    if (mode === "majority_voting") return recomputed(mode, decision, ballots, Object.fromEntries(panel.map((id) => [id, 1])));
    const weights = decision.ensemble_mode === "weighted_voting" && decision.ensemble ? decision.ensemble.weights : weightsOf(panel, decision.categories);
    // A panel model no longer configured has no weight today: the weighted vote can only be asked again.
    return weights ? recomputed(mode, decision, ballots, weights) : asked(mode, decision, reruns);
  });
  return { votes_counted: ballots.length, outcomes };
}
