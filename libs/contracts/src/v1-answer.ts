import type { StoredDecision } from "./stored-decision";
import { consensusScore, type V1DecisionStatus, type V1EnsembleResponse, type V1VoteStatus } from "./v1";
import type { TokenUsage } from "./vote";

/**
 * What became of a model's vote: skipped when early quorum did not await it (its record lists it;
 * a skipped vote is never counted, even if its answer came in), else success when it gave a
 * response, else error (its call failed, or it answered outside the categories).
 */
function voteStatus(decision: StoredDecision, provider: string): V1VoteStatus {
  if (decision.ensemble?.early_quorum?.skipped.includes(provider)) return "skipped";
  return decision.individual_responses[provider] != null ? "success" : "error";
}

/** Every call's tokens added up; a call whose vendor reported none adds nothing. */
function totalUsage(usages: Iterable<TokenUsage | null>): TokenUsage {
  const total = { input_tokens: 0, output_tokens: 0 };
  for (const usage of usages) {
    total.input_tokens += usage?.input_tokens ?? 0;
    total.output_tokens += usage?.output_tokens ?? 0;
  }
  return total;
}

/**
 * A stored decision as the public API answers it, with what each model's calls took and cost as
 * the decision keeps them, so POST /v1/ensemble and GET /v1/decisions/{id} answer the same figures.
 * A decision stored before per-model figures were kept answers null for them, never a made-up 0.
 */
export function toV1EnsembleResponse(decision: StoredDecision): V1EnsembleResponse {
  return {
    decision_id: decision.id,
    ensemble_decision: decision.final_decision,
    vote_details: Object.entries(decision.individual_responses).map(([llm_name, response]) => ({
      llm_name,
      response,
      confidence: decision.confidence_scores[llm_name] ?? null,
      status: voteStatus(decision, llm_name),
      latency_ms: decision.model_latencies_ms[llm_name] ?? null,
      usage: decision.token_usage[llm_name] ?? null,
      cost_usd: decision.model_costs_usd[llm_name] ?? null,
    })),
    total_votes: decision.total_votes,
    consensus_score: consensusScore(decision.final_decision, decision.vote_counts),
    usage: totalUsage(Object.values(decision.token_usage)),
    cost_usd: decision.cost_usd,
  };
}

/** A stored decision as GET /v1/decisions/{id} answers it once complete; also the `data` of a `decision.completed` webhook. */
export function toV1CompleteStatus(decision: StoredDecision): V1DecisionStatus {
  return { decision_id: decision.id, status: "complete", result: toV1EnsembleResponse(decision) };
}
