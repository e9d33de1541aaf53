import { DEFAULT_ENSEMBLE_MODE, EnsembleRecordSchema, type EnsembleRecord, type StoredDecision, type TokenUsage } from "@sd/contracts";
import type { DecisionDocument } from "./schema";

/**
 * `StoredDecision` -> stored document (`id` becomes `_id`, vote counts become pairs), in exactly the
 * form the decisions schema's cast gives a valid decision: every field, in schema order, no absent
 * ensemble (null, the schema's default). So a decision checked by `StoredDecisionSchema` can be
 * inserted as it is (`insertOnePrevalidated`); the store's tests compare both ways byte for byte.
 */
export function toDecisionDocument(decision: StoredDecision): DecisionDocument {
  return {
    _id: decision.id,
    question: decision.question,
    timestamp: decision.timestamp,
    categories: [...decision.categories],
    final_decision: decision.final_decision,
    vote_counts: Object.entries(decision.vote_counts).map(([category, count]) => ({ category, count })),
    total_votes: decision.total_votes,
    context_explanation: decision.context_explanation,
    individual_responses: { ...decision.individual_responses },
    raw_responses: { ...decision.raw_responses },
    confidence_scores: { ...decision.confidence_scores },
    rationales: { ...decision.rationales },
    model_versions: { ...decision.model_versions },
    error_details: { ...decision.error_details },
    processing_time_ms: decision.processing_time_ms,
    ensemble_mode: decision.ensemble_mode,
    ensemble: decision.ensemble ?? null,
    is_authenticated: decision.is_authenticated,
    user_id: decision.user_id,
    user_ip: decision.user_ip,
    user_email: decision.user_email,
    images: [...decision.images],
    api_key_id: decision.api_key_id,
    token_usage: Object.fromEntries(Object.entries(decision.token_usage).map(([provider, usage]) => [provider, copyUsage(usage)])),
    cost_usd: decision.cost_usd,
    model_latencies_ms: { ...decision.model_latencies_ms },
    model_costs_usd: { ...decision.model_costs_usd },
    rerun_of: decision.rerun_of ?? null,
  };
}

/** Stored document -> plain `StoredDecision` (no `_id`, no driver artefacts). Missing fields get their defaults. */
export function fromDecisionDocument(doc: DecisionDocument): StoredDecision {
  return {
    id: doc._id,
    question: doc.question,
    timestamp: doc.timestamp,
    categories: [...(doc.categories ?? [])],
    final_decision: doc.final_decision ?? null,
    // Object.fromEntries defines own properties, so even a "__proto__" category is kept as data.
    vote_counts: Object.fromEntries((doc.vote_counts ?? []).map((entry) => [entry.category, entry.count])),
    total_votes: doc.total_votes ?? 0,
    context_explanation: doc.context_explanation ?? "",
    individual_responses: copyRecord(doc.individual_responses),
    raw_responses: copyRecord(doc.raw_responses),
    confidence_scores: copyRecord(doc.confidence_scores),
    // Decisions stored before rationales existed have none.
    rationales: copyRecord(doc.rationales),
    model_versions: copyRecord(doc.model_versions),
    error_details: copyRecord(doc.error_details),
    processing_time_ms: doc.processing_time_ms ?? 0,
    ensemble_mode: doc.ensemble_mode ?? DEFAULT_ENSEMBLE_MODE,
    // Decisions stored before ensemble modes existed keep no record of how they were combined.
    ...withEnsemble(doc.ensemble),
    is_authenticated: doc.is_authenticated ?? false,
    user_id: doc.user_id ?? null,
    user_ip: doc.user_ip ?? null,
    user_email: doc.user_email ?? null,
    images: [...(doc.images ?? [])],
    // Decisions stored before API keys and token usage were recorded: no key, no usage, no cost.
    api_key_id: doc.api_key_id ?? null,
    token_usage: Object.fromEntries(Object.entries(doc.token_usage ?? {}).map(([provider, usage]) => [provider, copyUsage(usage)])),
    cost_usd: doc.cost_usd ?? 0,
    // Decisions stored before per-model latencies and costs were kept have none.
    model_latencies_ms: copyRecord(doc.model_latencies_ms),
    model_costs_usd: copyRecord(doc.model_costs_usd),
    rerun_of: doc.rerun_of ?? null,
  };
}

/** Only the two counts: a stored subdocument may bring driver artefacts along. */
function copyUsage(usage: TokenUsage | null | undefined): TokenUsage | null {
  return usage ? { input_tokens: usage.input_tokens, output_tokens: usage.output_tokens } : null;
}

function copyRecord<V>(record: Record<string, V> | undefined): Record<string, V> {
  return Object.fromEntries(Object.entries(record ?? {}));
}

/** The stored ensemble record, parsed by its schema (a copy without driver artefacts); nothing when absent or unreadable. */
function withEnsemble(stored: unknown): { ensemble?: EnsembleRecord } {
  if (stored == null) return {};
  const parsed = EnsembleRecordSchema.safeParse(stored);
  return parsed.success ? { ensemble: parsed.data } : {};
}
