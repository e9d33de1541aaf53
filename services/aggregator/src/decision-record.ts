import { EnsembleRecordSchema, MESSAGES, type AggregateJob, type EnsembleRecord, type StoredDecision, type TokenUsage, type Vote } from "@sd/contracts";
import type { ModelAnswer } from "@sd/ensemble";
import type { EnsembleOutcome } from "./ensemble-driver";

/** Sum of token usages; null when none of the calls reported any. */
function addUsage(a: TokenUsage | null, b: TokenUsage | null): TokenUsage | null {
  if (a === null) return b;
  if (b === null) return a;
  return { input_tokens: a.input_tokens + b.input_tokens, output_tokens: a.output_tokens + b.output_tokens };
}

/** How the ensemble decided, as the decision keeps it (checked by the shared schema before it is stored). */
function ensembleRecord(data: AggregateJob, { result, calls, skipped }: EnsembleOutcome): EnsembleRecord {
  const quorumApplies = data.early_quorum === true && (data.ensemble_mode === "majority_voting" || data.ensemble_mode === "weighted_voting");
  const roundOne = [...calls.values()].filter((vote) => (vote.round ?? 1) === 1);
  return EnsembleRecordSchema.parse({
    mode: data.ensemble_mode,
    panel: data.providers,
    weights: data.ensemble_mode === "weighted_voting" ? result.weights : {},
    rounds: result.rounds.map((round) => round.map(({ provider, round: n, category, confidence, reason, error }) => ({ provider, round: n, category, confidence, reason, error }))),
    judge: result.judge && {
      provider: result.judge.provider,
      category: result.judge.category,
      reason: result.judge.reason,
      error: result.judge.error,
      fallback: result.judge.fallback,
    },
    early_quorum: quorumApplies
      ? {
          skipped,
          // A skipped vote whose call had already answered was not saved, only not counted.
          calls_saved: skipped.filter((provider) => roundOne.some((vote) => vote.provider === provider && vote.status === "skipped")).length,
        }
      : null,
  });
}

/**
 * The decision history item for a finished decision, as stored and listed in the history. The per-model
 * columns show each panel model's counted answer (gossip: its last valid one; a model early quorum
 * skipped has none); `ensemble` keeps every round, the weights, the judge and what early quorum
 * saved. `imageAssetIds` are the ids of its images stored as the user's image assets (none for an
 * anonymous decision). Its `token_usage` and `cost_usd` add up every call the decision made, per
 * model and in all; `model_latencies_ms` adds up each model's awaited calls.
 */
export function buildDecisionRecord(
  data: AggregateJob,
  outcome: EnsembleOutcome,
  modelOf: (provider: string) => string,
  finishedAt: number,
  imageAssetIds: readonly string[],
): StoredDecision {
  const { result, calls } = outcome;
  const answers = new Map<string, ModelAnswer>(result.final_answers.map((answer) => [answer.provider, answer]));
  // The call behind each counted answer (its raw text and model version).
  const voteBehind = (provider: string): Vote | undefined => {
    const round = answers.get(provider)?.round ?? 1;
    return [...calls.values()].find((vote) => vote.provider === provider && (vote.round ?? 1) === round && vote.status !== "skipped");
  };
  const perProvider = <T>(pick: (provider: string) => T): Record<string, T> => Object.fromEntries(data.providers.map((provider) => [provider, pick(provider)]));
  const error_details = Object.fromEntries(
    data.providers.flatMap((provider) => {
      const error = answers.get(provider)?.error;
      return error ? [[provider, error]] : [];
    }),
  );
  const token_usage: Record<string, TokenUsage | null> = perProvider(() => null);
  for (const vote of calls.values()) token_usage[vote.provider] = addUsage(token_usage[vote.provider] ?? null, vote.usage);
  const model_latencies_ms: Record<string, number | null> = perProvider(() => null);
  const model_costs_usd: Record<string, number> = perProvider(() => 0);
  for (const vote of calls.values()) {
    model_costs_usd[vote.provider] = (model_costs_usd[vote.provider] ?? 0) + vote.cost_usd;
    // A skipped vote was not awaited: its call's time is not the model's.
    if (vote.status !== "skipped") model_latencies_ms[vote.provider] = (model_latencies_ms[vote.provider] ?? 0) + vote.latency_ms;
  }
  return {
    id: data.decision_id,
    question: data.question,
    timestamp: new Date(data.received_at),
    categories: data.categories,
    final_decision: result.tally.final_decision,
    vote_counts: result.tally.vote_counts,
    total_votes: result.tally.total_votes,
    context_explanation: result.explanation ?? MESSAGES.noValidDecision,
    individual_responses: perProvider((p) => answers.get(p)?.category ?? null),
    raw_responses: perProvider((p) => voteBehind(p)?.raw_response ?? null),
    confidence_scores: perProvider((p) => (answers.get(p)?.category != null ? (answers.get(p)?.confidence ?? null) : null)),
    rationales: perProvider((p) => (answers.get(p)?.category != null ? (answers.get(p)?.reason ?? null) : null)),
    model_versions: perProvider((p) => voteBehind(p)?.model_version ?? modelOf(p)),
    error_details,
    processing_time_ms: Math.max(0, finishedAt - data.received_at),
    ensemble_mode: data.ensemble_mode,
    ensemble: ensembleRecord(data, outcome),
    is_authenticated: data.is_authenticated,
    user_id: data.user_id,
    user_ip: data.user_ip,
    user_email: data.user_email,
    images: [...imageAssetIds],
    api_key_id: data.api_key_id,
    token_usage,
    cost_usd: [...calls.values()].reduce((sum, vote) => sum + vote.cost_usd, 0),
    model_latencies_ms,
    model_costs_usd,
    rerun_of: data.rerun_of ?? null,
  };
}
