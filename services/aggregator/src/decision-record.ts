import { MESSAGES, voteJobId, type AggregateJob, type StoredDecision, type Vote } from "@sd/contracts";
import { explainDecision, majorityVote } from "@sd/ensemble";

/**
 * Each provider's vote from the flow's children: the vote a worker returned, or an error vote for
 * a child that failed for good (e.g. its worker crashed too often) or never reported.
 */
export function collectVotes(
  job: AggregateJob,
  childValues: Record<string, Vote>,
  childFailures: Record<string, string>,
  modelOf: (provider: string) => string,
): Vote[] {
  const byJobId = (entries: Record<string, unknown>) =>
    new Map(Object.entries(entries).map(([key, value]) => [key.slice(key.lastIndexOf(":") + 1), value]));
  const values = byJobId(childValues) as Map<string, Vote>;
  const failures = byJobId(childFailures) as Map<string, string>;
  return job.providers.map((provider) => {
    const id = voteJobId(job.decision_id, provider);
    const value = values.get(id);
    if (value) return value;
    return {
      provider,
      status: "error",
      category: null,
      rationale: null,
      confidence: null,
      raw_response: null,
      model_version: modelOf(provider),
      error: failures.get(id) ?? "No vote was received from this model.",
      weight: 1,
      latency_ms: 0,
      attempts: 1,
      // No vote came back, so neither did its tokens: nothing is known to have been billed.
      usage: null,
      cost_usd: 0,
    };
  });
}

/**
 * The decision history item for a finished decision (specification section 3). `imageAssetIds`
 * are the ids of its images stored as the user's image assets (none for an anonymous decision).
 * Its `token_usage` is each model's, and its `cost_usd` the sum of its votes' costs.
 */
export function buildDecisionRecord(
  job: AggregateJob,
  votes: readonly Vote[],
  labelOf: (provider: string) => string,
  finishedAt: number,
  imageAssetIds: readonly string[],
): StoredDecision {
  const valid = votes.filter((v) => v.status === "success" && v.category !== null);
  const tally = majorityVote(
    job.categories,
    valid.map((v) => ({ provider: v.provider, category: v.category!, weight: v.weight, confidence: v.confidence })),
  );
  const perProvider = <T>(pick: (vote: Vote) => T): Record<string, T> =>
    Object.fromEntries(votes.map((vote) => [vote.provider, pick(vote)]));
  const error_details = Object.fromEntries(
    votes.filter((v) => v.error !== null).map((v) => [v.provider, v.error!]),
  );
  return {
    id: job.decision_id,
    question: job.question,
    timestamp: new Date(job.received_at),
    categories: job.categories,
    final_decision: tally.final_decision,
    vote_counts: tally.vote_counts,
    total_votes: tally.total_votes,
    context_explanation: explainDecision(
      tally,
      votes.map((v) => ({ label: labelOf(v.provider), category: v.category, rationale: v.rationale, error: v.error })),
      MESSAGES.noValidDecision,
    ),
    individual_responses: perProvider((v) => v.category),
    raw_responses: perProvider((v) => v.raw_response),
    confidence_scores: perProvider((v) => v.confidence),
    rationales: perProvider((v) => v.rationale),
    model_versions: perProvider((v) => v.model_version),
    error_details,
    processing_time_ms: Math.max(0, finishedAt - job.received_at),
    ensemble_mode: job.ensemble_mode,
    is_authenticated: job.is_authenticated,
    user_id: job.user_id,
    user_ip: job.user_ip,
    user_email: job.user_email,
    images: [...imageAssetIds],
    api_key_id: job.api_key_id,
    token_usage: perProvider((v) => v.usage),
    cost_usd: votes.reduce((sum, vote) => sum + vote.cost_usd, 0),
  };
}
