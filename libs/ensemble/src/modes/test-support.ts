/** Builders and a driver for the mode tests; not part of the package's API. */
import { feedAnswers, feedJudgeVerdict, startEnsemble, type EnsembleModeId, type EnsembleState } from "./registry";
import type { EnsembleContext, EnsembleResult, EnsembleStep, JudgeVerdict, ModelAnswer, PanelMember, ShownAnswer } from "./types";

export const member = (provider: string, weight = 1): PanelMember => ({ provider, label: provider.toUpperCase(), weight });

export const context = (providers: readonly (string | PanelMember)[], more: Partial<EnsembleContext> = {}): EnsembleContext => ({
  question: "Ship it today?",
  categories: ["Yes", "No", "Later"],
  panel: providers.map((p) => (typeof p === "string" ? member(p) : p)),
  ...more,
});

export const ok = (provider: string, category: string, more: Partial<ModelAnswer> = {}): ModelAnswer => ({
  provider,
  round: 1,
  category,
  confidence: null,
  reason: null,
  error: null,
  ...more,
});

export const failed = (provider: string, error: string, round = 1): ModelAnswer => ({
  provider,
  round,
  category: null,
  confidence: null,
  reason: null,
  error,
});

/** The state as it comes back out of a queue job. */
export const throughJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** How a scripted model answers when asked: a category, or an Error for a failed call. */
export type Script = (provider: string, round: number, peers: readonly ShownAnswer[]) => string | Error | { category: string; confidence?: number; reason?: string };

export interface Run {
  result: EnsembleResult;
  /** Every step the driver was given, in order. */
  steps: EnsembleStep[];
}

/**
 * Drives a mode to its end as the aggregator will: starts it, answers every ask one answer at a
 * time (state through JSON between every call, as between queue jobs), and asks the judge.
 */
export function runEnsemble(mode: EnsembleModeId, ctx: EnsembleContext, script: Script, judge?: () => JudgeVerdict): Run {
  let { state, step } = startEnsemble(mode, ctx);
  const steps: EnsembleStep[] = [step];
  const advance = (next: { state: EnsembleState; step: EnsembleStep }): EnsembleStep => {
    state = throughJson(next.state);
    step = next.step;
    steps.push(step);
    return step;
  };
  for (let guard = 0; guard < 100; guard++) {
    if (step.kind === "final") return { result: step.result, steps };
    if (step.kind === "ask") {
      const { round, peers } = step;
      for (const provider of step.providers) {
        const reply = script(provider, round, peers);
        const answer =
          reply instanceof Error
            ? failed(provider, reply.message, round)
            : typeof reply === "string"
              ? ok(provider, reply, { round })
              : ok(provider, reply.category, { round, confidence: reply.confidence ?? null, reason: reply.reason ?? null });
        if (advance(feedAnswers(state, [answer])).kind === "final") break;
      }
      continue;
    }
    if (step.kind === "judge") {
      if (!judge) throw new Error("The mode asked for a judge the test did not script.");
      advance(feedJudgeVerdict(state, judge()));
      continue;
    }
    throw new Error(`The driver was left waiting for ${step.pending.join(", ")}.`);
  }
  throw new Error("The ensemble never finished.");
}

/** Only the asks of a run, as [round, providers]. */
export const asks = (steps: readonly EnsembleStep[]): [number, string[]][] =>
  steps.flatMap((s) => (s.kind === "ask" ? [[s.round, s.providers] as [number, string[]]] : []));
