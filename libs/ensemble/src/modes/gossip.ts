import { oneLine, outcomeLine, rationaleLine } from "../explanation";
import { majorityVote } from "../majority-vote";
import {
  acceptAnswers,
  ballot,
  firstRound,
  isValid,
  labelOf,
  nextRound,
  resolveContext,
  shown,
  waitStep,
  type RoundProgress,
  type ValidAnswer,
} from "./rounds";
import type { EnsembleMode, EnsembleResult, ModelAnswer, ResolvedContext, Transition } from "./types";

export interface GossipState {
  ctx: ResolvedContext;
  progress: RoundProgress;
  result: EnsembleResult | null;
}

/** Why the rounds stopped. */
type Stop = "agreed" | "round_cap" | "no_answer";

const answersOf = (progress: RoundProgress, provider: string): ModelAnswer[] =>
  progress.rounds.flatMap((round) => round.filter((a) => a.provider === provider));

/** Each model's last valid answer (its standing answer), in panel order; models that never answered validly have none. */
function standingAnswers(ctx: ResolvedContext, progress: RoundProgress): ValidAnswer[] {
  return ctx.panel.flatMap((m) => answersOf(progress, m.provider).filter(isValid).slice(-1));
}

function summary(ctx: ResolvedContext, progress: RoundProgress, standing: readonly ValidAnswer[], stop: Stop): string {
  const r = progress.round;
  if (stop === "round_cap") return `The models still disagreed after ${r} rounds, the most allowed: the last answers were counted.`;
  if (stop === "no_answer") return `No model answered in round ${r}: each model's last valid answer was counted.`;
  if (standing.length === 1) return `Only ${labelOf(ctx, standing[0]!.provider)} had a valid answer, so no other round was needed.`;
  return r === 1 ? "The models agreed in round 1, so no other round was needed." : `The models agreed in round ${r}.`;
}

/** "Changed answers: Gemini 2.5 Flash from No to Yes in round 2." — every change of a valid answer. */
function changesLine(ctx: ResolvedContext, progress: RoundProgress): string | null {
  if (progress.round === 1) return null;
  const changes = ctx.panel.flatMap((m) => {
    const valid = answersOf(progress, m.provider).filter(isValid);
    return valid.slice(1).flatMap((a, i) => (a.category === valid[i]!.category ? [] : [`${m.label} from ${valid[i]!.category} to ${a.category} in round ${a.round}`]));
  });
  return changes.length === 0 ? "No model changed its answer." : `Changed answers: ${changes.join("; ")}.`;
}

function finish(ctx: ResolvedContext, progress: RoundProgress, stop: Stop): EnsembleResult {
  const standing = standingAnswers(ctx, progress);
  const weights = Object.fromEntries(standing.map((a) => [a.provider, 1]));
  const tally = majorityVote(ctx.categories, standing.map((a) => ballot(a, 1)));
  const final_answers: ModelAnswer[] = [];
  const modelLines = ctx.panel.map((m) => {
    const last = answersOf(progress, m.provider).at(-1)!;
    const kept = standing.find((a) => a.provider === m.provider);
    final_answers.push(kept ?? last);
    if (!kept) return rationaleLine({ label: m.label, category: null, rationale: null, error: last.error });
    const line = rationaleLine({ label: m.label, category: kept.category, rationale: kept.reason, error: null });
    return last.round === kept.round ? line : `${line} (its round ${kept.round} answer; round ${last.round} failed: ${oneLine(last.error ?? "no answer")})`;
  });
  const explanation =
    tally.final_decision === null
      ? null
      : [outcomeLine(tally), summary(ctx, progress, standing, stop), changesLine(ctx, progress), ...modelLines].filter((l) => l !== null).join("\n");
  return { tally, rounds: progress.rounds, final_answers, weights, skipped: [], judge: null, explanation };
}

/** A round is complete: stop, or ask the models that answered it again, shown everyone's standing answer. */
function afterRound(state: GossipState, progress: RoundProgress): Transition<GossipState> {
  const { ctx } = state;
  const standing = standingAnswers(ctx, progress);
  const stop = (why: Stop): Transition<GossipState> => {
    const result = finish(ctx, progress, why);
    return { state: { ...state, progress, result }, step: { kind: "final", result } };
  };
  if (standing.length === 0 || standing.every((a) => a.category === standing[0]!.category)) return stop("agreed");
  if (progress.round >= ctx.maxRounds) return stop("round_cap");
  const again = (progress.rounds[progress.round - 1] ?? []).filter(isValid).map((a) => a.provider);
  if (again.length === 0) return stop("no_answer");
  const next = nextRound(progress, again, standing.map((a) => shown(ctx, a)));
  return { state: { ...state, progress: next.progress }, step: next.step };
}

/**
 * `gossip`: round 1 is independent. After each round, unless the standing answers all agree, the
 * models are asked again, each shown every model's standing answer and reason (`peers`, its own
 * included: a prompt shows it as "your previous answer"), and may keep or change its answer. The
 * rounds stop when the standing answers agree or after `maxRounds`; the last answers are counted
 * (plain majority, weight 1 each), and every round is kept in `rounds`.
 *
 * A model whose call fails in a round (after its worker's retries) is not asked again in this
 * decision: asking again would cost a call and time on a model likely to fail again. Its last
 * valid answer, if it gave one, still stands — shown to its peers and counted — the way a person
 * who leaves a discussion keeps the view they stated; the explanation says the answer was kept.
 * A model whose round-1 call failed never votes, as in `majority_voting`.
 */
export const gossipMode: EnsembleMode<GossipState> = {
  start(input) {
    const ctx = resolveContext(input);
    const { progress, step } = firstRound(ctx);
    return { state: { ctx, progress, result: null }, step };
  },
  onAnswers(state, answers) {
    if (state.result) return { state, step: { kind: "final", result: state.result } };
    const progress = acceptAnswers(state.ctx, state.progress, answers);
    if (progress === null) return { state, step: waitStep(state.progress) };
    if (progress.pending.length > 0) return { state: { ...state, progress }, step: waitStep(progress) };
    return afterRound(state, progress);
  },
};
