import { oneLine, outcomeLine, rationaleLine } from "../explanation";
import { majorityVote, type Tally } from "../majority-vote";
import { acceptAnswers, ballot, firstRound, isValid, labelOf, resolveContext, waitStep, type RoundProgress } from "./rounds";
import type { EnsembleMode, EnsembleResult, EnsembleStep, JudgeMember, JudgeOutcome, JudgeVerdict, ResolvedContext, Transition } from "./types";

export interface JudgeState {
  ctx: ResolvedContext;
  /** The panel's single round. */
  progress: RoundProgress;
  result: EnsembleResult | null;
}

const judgeOf = (ctx: ResolvedContext): JudgeMember => ctx.judge!;
/** Every panel answer is in and no result yet: the judge's verdict is awaited. */
const awaitingJudge = (state: JudgeState): boolean => state.result === null && state.progress.pending.length === 0;

function judgeStep(ctx: ResolvedContext, progress: RoundProgress): EnsembleStep {
  const judge = judgeOf(ctx);
  const answers = (progress.rounds[0] ?? []).map((a) => ({ ...a, label: labelOf(ctx, a.provider) }));
  return { kind: "judge", provider: judge.provider, label: judge.label, question: ctx.question, categories: [...ctx.categories], answers };
}

/** Why a verdict cannot decide, or null when it names one of the categories. */
function verdictError(ctx: ResolvedContext, verdict: JudgeVerdict): string | null {
  if (verdict.error !== null) return verdict.error.trim() || "The judge failed without saying why.";
  if (verdict.category === null) return "The judge gave no category.";
  if (!ctx.categories.includes(verdict.category)) return `Chose "${verdict.category}", which is not one of the categories.`;
  return null;
}

/** "The panel voted Yes 2, No 1." — the voted categories, most votes first. */
function panelLine(ctx: ResolvedContext, tally: Tally): string {
  const voted = ctx.categories.filter((c) => (tally.vote_counts[c] ?? 0) > 0).sort((a, b) => tally.vote_counts[b]! - tally.vote_counts[a]!);
  return `The panel voted ${voted.map((c) => `${c} ${tally.vote_counts[c]}`).join(", ")}.`;
}

function finish(ctx: ResolvedContext, progress: RoundProgress, verdict: JudgeVerdict | null): EnsembleResult {
  const answers = progress.rounds[0] ?? [];
  const valid = answers.filter(isValid);
  const weights = Object.fromEntries(valid.map((a) => [a.provider, 1]));
  const vote = majorityVote(ctx.categories, valid.map((a) => ballot(a, 1)));
  const modelLines = answers.map((a) => rationaleLine({ label: labelOf(ctx, a.provider), category: a.category, rationale: a.reason, error: a.error }));
  const base = { rounds: [answers], final_answers: answers, weights, skipped: [] };
  // No valid panel answer: there is nothing to judge, and the judge is not asked.
  if (verdict === null) return { ...base, tally: vote, judge: null, explanation: null };

  const { provider, label } = judgeOf(ctx);
  const error = verdictError(ctx, verdict);
  const judge: JudgeOutcome = {
    provider,
    label,
    category: error === null ? verdict.category : null,
    reason: verdict.reason,
    error,
    fallback: error !== null,
  };
  if (error !== null) {
    const explanation = [`The judge ${label} failed (${oneLine(error)}): the majority vote decided.`, outcomeLine(vote), ...modelLines].join("\n");
    return { ...base, tally: vote, judge, explanation };
  }
  const chosen = verdict.category!;
  const tally: Tally = { ...vote, final_decision: chosen };
  const why = verdict.reason?.trim() ? `: ${oneLine(verdict.reason)}` : ".";
  return { ...base, tally, judge, explanation: [`The judge ${label} chose ${chosen}${why}`, panelLine(ctx, vote), ...modelLines].join("\n") };
}

/**
 * `judge`: the panel answers once, independently; then the judge (`EnsembleContext.judge`) is shown
 * the question, the categories and each model's answer with its reason and confidence, and its
 * category decides, with its reason. A judge that fails (an error, no category, or a category
 * outside the list) leaves the decision to the panel's majority vote, and `judge.fallback` says so.
 * When no panel member gave a valid answer there is nothing to judge: no decision, judge not asked.
 */
export const judgeMode: EnsembleMode<JudgeState> = {
  start(input) {
    const ctx = resolveContext(input);
    if (ctx.judge === null) throw new RangeError("The judge mode needs a judge.");
    const { progress, step } = firstRound(ctx);
    return { state: { ctx, progress, result: null }, step };
  },
  onAnswers(state, answers) {
    if (state.result) return { state, step: { kind: "final", result: state.result } };
    const progress = acceptAnswers(state.ctx, state.progress, answers);
    if (progress === null) return { state, step: current(state) };
    const next = { ...state, progress };
    if (progress.pending.length > 0) return { state: next, step: waitStep(progress) };
    if (!(progress.rounds[0] ?? []).some(isValid)) return final(next, finish(state.ctx, progress, null));
    return { state: next, step: judgeStep(state.ctx, progress) };
  },
  onJudge(state, verdict) {
    if (!awaitingJudge(state)) return { state, step: current(state) };
    return final(state, finish(state.ctx, state.progress, verdict));
  },
};

function final(state: JudgeState, result: EnsembleResult): Transition<JudgeState> {
  return { state: { ...state, result }, step: { kind: "final", result } };
}

/** The step for an event that changed nothing: what is still awaited, or the final result. */
function current(state: JudgeState): EnsembleStep {
  if (state.result) return { kind: "final", result: state.result };
  if (awaitingJudge(state)) return { kind: "wait", round: 1, pending: [judgeOf(state.ctx).provider] };
  return waitStep(state.progress);
}
