import type { Ballot } from "../majority-vote";
import {
  DEFAULT_GOSSIP_ROUNDS,
  type EnsembleContext,
  type EnsembleStep,
  type ModelAnswer,
  type ResolvedContext,
  type ShownAnswer,
} from "./types";

/** A round in progress and every answer so far; plain JSON, part of every mode's state. */
export interface RoundProgress {
  /** The current round, from 1. */
  round: number;
  /** Providers asked in the current round whose answer has not arrived. */
  pending: string[];
  /** Answers per round (index 0 is round 1), each in panel order. */
  rounds: ModelAnswer[][];
}

/** A valid answer: its category is one of the request's. */
export type ValidAnswer = ModelAnswer & { category: string };

/** Applies the defaults and rejects a context no decision can be made with (a caller's bug). */
export function resolveContext(ctx: EnsembleContext): ResolvedContext {
  const categories = [...ctx.categories];
  if (categories.length === 0) throw new RangeError("An ensemble needs at least one category.");
  if (new Set(categories).size !== categories.length) throw new RangeError("The categories must be distinct.");
  const panel = ctx.panel.map((m) => ({ provider: m.provider, label: m.label, weight: m.weight }));
  if (panel.length === 0) throw new RangeError("An ensemble needs at least one model on its panel.");
  if (new Set(panel.map((m) => m.provider)).size !== panel.length) throw new RangeError("Each provider may sit on the panel once.");
  for (const m of panel) {
    if (!Number.isFinite(m.weight) || m.weight < 0) throw new RangeError(`The weight of ${m.provider} must be a finite number ≥ 0.`);
  }
  const maxRounds = ctx.maxRounds ?? DEFAULT_GOSSIP_ROUNDS;
  if (!Number.isInteger(maxRounds) || maxRounds < 1) throw new RangeError("maxRounds must be a whole number ≥ 1.");
  const judge = ctx.judge ? { provider: ctx.judge.provider, label: ctx.judge.label } : null;
  return { question: ctx.question, categories, panel, maxRounds, judge, earlyQuorum: ctx.earlyQuorum ?? false };
}

export function labelOf(ctx: ResolvedContext, provider: string): string {
  return ctx.panel.find((m) => m.provider === provider)?.label ?? provider;
}

/**
 * The answer as it is kept: a failed answer has no category, a valid one no error, and a category
 * outside the request's becomes an error (it is never counted, as in `majorityVote`).
 */
function normalise(ctx: ResolvedContext, answer: ModelAnswer): ModelAnswer {
  const confidence =
    answer.confidence !== null && Number.isFinite(answer.confidence) && answer.confidence >= 0 && answer.confidence <= 1
      ? answer.confidence
      : null;
  const base = { provider: answer.provider, round: answer.round, reason: answer.reason };
  if (answer.error !== null) return { ...base, category: null, confidence: null, error: answer.error };
  if (answer.category === null) return { ...base, category: null, confidence: null, error: "No answer was received from this model." };
  if (!ctx.categories.includes(answer.category)) {
    return { ...base, category: null, confidence: null, error: `Answered "${answer.category}", which is not one of the categories.` };
  }
  return { ...base, category: answer.category, confidence, error: null };
}

export function isValid(answer: ModelAnswer): answer is ValidAnswer {
  return answer.category !== null && answer.error === null;
}

/** Round 1: every panel member is asked, independently. */
export function firstRound(ctx: ResolvedContext): { progress: RoundProgress; step: EnsembleStep } {
  const providers = ctx.panel.map((m) => m.provider);
  return { progress: { round: 1, pending: providers, rounds: [[]] }, step: { kind: "ask", round: 1, providers, peers: [] } };
}

/** The next round: these providers are asked, shown `peers`. */
export function nextRound(progress: RoundProgress, providers: string[], peers: ShownAnswer[]): { progress: RoundProgress; step: EnsembleStep } {
  const round = progress.round + 1;
  return {
    progress: { round, pending: [...providers], rounds: [...progress.rounds, []] },
    step: { kind: "ask", round, providers: [...providers], peers },
  };
}

/**
 * Adds the answers that belong to the current round and are awaited; ignores the rest (another
 * round, a provider not asked, already answered or skipped). Null when none was new.
 */
export function acceptAnswers(ctx: ResolvedContext, progress: RoundProgress, answers: readonly ModelAnswer[]): RoundProgress | null {
  const pending = [...progress.pending];
  const current = [...(progress.rounds[progress.round - 1] ?? [])];
  for (const answer of answers) {
    const at = pending.indexOf(answer.provider);
    if (answer.round !== progress.round || at === -1) continue;
    pending.splice(at, 1);
    current.push(normalise(ctx, answer));
  }
  if (pending.length === progress.pending.length) return null;
  const order = (a: ModelAnswer) => ctx.panel.findIndex((m) => m.provider === a.provider);
  current.sort((a, b) => order(a) - order(b));
  return { ...progress, pending, rounds: [...progress.rounds.slice(0, -1), current] };
}

export function waitStep(progress: RoundProgress): EnsembleStep {
  return { kind: "wait", round: progress.round, pending: [...progress.pending] };
}

export function ballot(answer: ValidAnswer, weight: number): Ballot {
  return { provider: answer.provider, category: answer.category, weight, confidence: answer.confidence };
}

export function shown(ctx: ResolvedContext, answer: ValidAnswer): ShownAnswer {
  return {
    provider: answer.provider,
    label: labelOf(ctx, answer.provider),
    round: answer.round,
    category: answer.category,
    confidence: answer.confidence,
    reason: answer.reason,
  };
}

/** Weights as text: two decimals, enough to tell which weights decided. */
export const formatWeight = (weight: number): string => weight.toFixed(2);
