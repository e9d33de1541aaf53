import { earlyQuorum } from "../early-quorum";
import { rationaleLine } from "../explanation";
import { majorityVote, type Tally } from "../majority-vote";
import { acceptAnswers, ballot, firstRound, isValid, resolveContext, waitStep, type RoundProgress } from "./rounds";
import type { EnsembleContext, EnsembleMode, EnsembleResult, ModelAnswer, ResolvedContext, Transition } from "./types";

/** State of a one-round count (`majority_voting`, `weighted_voting`). */
export interface VoteCountState {
  ctx: ResolvedContext;
  progress: RoundProgress;
  result: EnsembleResult | null;
}

/** How a counting mode weighs and explains; the rest of the state machine is shared. */
export interface CountingRules {
  weightOf(ctx: ResolvedContext, provider: string): number;
  /** The lines before the per-model lines, for a tally with a winner. */
  headline(ctx: ResolvedContext, tally: Tally, counted: readonly ModelAnswer[], weights: Readonly<Record<string, number>>): string[];
}

const callsSkipped = (n: number): string =>
  n === 1
    ? "Decided early: the answer still to come could not change the winner, so its call was skipped."
    : `Decided early: the ${n} answers still to come could not change the winner, so their calls were skipped.`;

function finish(rules: CountingRules, ctx: ResolvedContext, progress: RoundProgress, skipped: string[]): EnsembleResult {
  const answers = progress.rounds[0] ?? [];
  const valid = answers.filter(isValid);
  const weights = Object.fromEntries(valid.map((a) => [a.provider, rules.weightOf(ctx, a.provider)]));
  const tally = majorityVote(
    ctx.categories,
    valid.map((a) => ballot(a, weights[a.provider]!)),
  );
  const modelLines = ctx.panel.map((member) => {
    const answer = answers.find((a) => a.provider === member.provider);
    if (!answer) return `${member.label}: skipped (decided early)`;
    return rationaleLine({ label: member.label, category: answer.category, rationale: answer.reason, error: answer.error });
  });
  const explanation =
    tally.final_decision === null
      ? null
      : [...rules.headline(ctx, tally, valid, weights), ...(skipped.length > 0 ? [callsSkipped(skipped.length)] : []), ...modelLines].join("\n");
  return { tally, rounds: [answers], final_answers: answers, weights, skipped, judge: null, explanation };
}

/**
 * The one-round count shared by `majority_voting` and `weighted_voting`: every panel member is
 * asked once; the decision is final when every answer is in or, with early quorum, as soon as the
 * answers still to come cannot change the winner (those providers are then `skipped`).
 */
export function countingMode(rules: CountingRules): EnsembleMode<VoteCountState> {
  const final = (state: VoteCountState, result: EnsembleResult): Transition<VoteCountState> => ({
    state: { ...state, result },
    step: { kind: "final", result },
  });
  return {
    start(input: EnsembleContext) {
      const ctx = resolveContext(input);
      const { progress, step } = firstRound(ctx);
      return { state: { ctx, progress, result: null }, step };
    },
    onAnswers(state, answers) {
      if (state.result) return { state, step: { kind: "final", result: state.result } };
      const { ctx } = state;
      const progress = acceptAnswers(ctx, state.progress, answers);
      if (progress === null) return { state, step: waitStep(state.progress) };
      const next = { ...state, progress };
      if (progress.pending.length === 0) return final(next, finish(rules, ctx, progress, []));
      if (ctx.earlyQuorum) {
        const weights = Object.fromEntries(ctx.panel.map((m) => [m.provider, rules.weightOf(ctx, m.provider)]));
        const quorum = earlyQuorum({ categories: ctx.categories, weights, answers: progress.rounds[0] ?? [], pending: progress.pending });
        if (quorum.decided) return final(next, finish(rules, ctx, progress, quorum.skippable));
      }
      return { state: next, step: waitStep(progress) };
    },
  };
}
