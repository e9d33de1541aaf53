import type { FinalEvent, HistoryDecisionEvent, StoredDecision, Vote, VoteEvent, DecisionResponse } from "@sd/contracts";

/** The decision a progress event belongs to, and the request room that watches it. */
export interface ProgressTarget {
  request_id: string;
  decision_id: string;
}

/** A model's row before it answers. */
export function pendingProgress(target: ProgressTarget, provider: string, round = 1): VoteEvent {
  return { ...target, provider, round, status: "pending", response: null, confidence: null, rationale: null, model_version: null, error: null };
}

/** A model's row once its vote is in: its answer, confidence and reason, or its error; and what its call took and cost. */
export function voteProgress(target: ProgressTarget, vote: Vote): VoteEvent {
  return {
    ...target,
    provider: vote.provider,
    round: vote.round ?? 1,
    status: vote.status,
    response: vote.category,
    confidence: vote.confidence,
    rationale: vote.rationale,
    model_version: vote.model_version,
    error: vote.error,
    latency_ms: vote.latency_ms,
    usage: vote.usage,
    cost_usd: vote.cost_usd,
  };
}

/** The final decision, for the request's room. */
export function finalEvent(requestId: string, response: DecisionResponse): FinalEvent {
  return { ...response, request_id: requestId };
}

/** "One of your decisions was stored", for the owner's history room. */
export function historyDecisionEvent(decision: Pick<StoredDecision, "id" | "timestamp">): HistoryDecisionEvent {
  return { decision_id: decision.id, timestamp: decision.timestamp.toISOString() };
}
