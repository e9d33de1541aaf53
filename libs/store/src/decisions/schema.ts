import { DEFAULT_ENSEMBLE_MODE, ENSEMBLE_MODES, type StoredDecision } from "@sd/contracts";
import { Schema } from "mongoose";
import type { BaseDocument } from "../collection";
import { defineCollection } from "../collection-spec";

/**
 * One category's vote count. Stored as an array of pairs, not a map: category names are user
 * text and may contain "." or start with "$", which MongoDB field names (and mongoose Maps) reject.
 */
export interface VoteCountEntry {
  category: string;
  count: number;
}

/**
 * A decision as stored: `StoredDecision` with `_id` instead of `id` and vote counts as pairs.
 * The per-model maps are keyed by provider ids (ours, never user text), so they stay maps.
 */
export interface DecisionDocument extends BaseDocument, Omit<StoredDecision, "id" | "vote_counts"> {
  vote_counts: VoteCountEntry[];
}

const nullableString = { type: String, default: null };
const providerMap = <Of>(of: Of) => ({ type: Map, of, default: {} });

/** A model call's tokens; the whole entry is null when the vendor reported none. */
const tokenUsageSchema = new Schema(
  {
    input_tokens: { type: Number, required: true, min: 0, validate: Number.isInteger },
    output_tokens: { type: Number, required: true, min: 0, validate: Number.isInteger },
  },
  { _id: false, strict: "throw" },
);

const voteCountSchema = new Schema(
  {
    category: { type: String, required: true },
    count: { type: Number, required: true, min: 0 },
  },
  { _id: false, strict: "throw" },
);

export const decisionSchema = new Schema(
  {
    _id: { type: String, required: true },
    question: { type: String, required: true },
    timestamp: { type: Date, required: true },
    categories: { type: [String], default: [] },
    final_decision: nullableString,
    vote_counts: { type: [voteCountSchema], default: [] },
    total_votes: { type: Number, default: 0, min: 0 },
    context_explanation: { type: String, default: "" },
    individual_responses: providerMap({ type: String, default: null }),
    raw_responses: providerMap({ type: String, default: null }),
    confidence_scores: providerMap({ type: Number, default: null, min: 0, max: 1 }),
    rationales: providerMap({ type: String, default: null }),
    model_versions: providerMap(String),
    error_details: providerMap(String),
    processing_time_ms: { type: Number, default: 0, min: 0 },
    ensemble_mode: { type: String, enum: [...ENSEMBLE_MODES], default: DEFAULT_ENSEMBLE_MODE },
    // How the ensemble decided (EnsembleRecord, checked by its zod schema when the aggregator builds
    // it): category names are values here, never keys. Null on decisions stored before modes existed.
    ensemble: { type: Schema.Types.Mixed, default: null },
    is_authenticated: { type: Boolean, default: false },
    user_id: nullableString,
    user_ip: nullableString,
    user_email: nullableString,
    // Ids of the decision's image assets (the bytes live once, in image_assets), in label order.
    images: { type: [String], default: [] },
    // The API key a /v1 decision was made with; null for the web endpoints (and decisions stored before keys existed).
    api_key_id: nullableString,
    // Per model, its call's tokens (null when not reported); {} for decisions stored before usage was recorded.
    token_usage: providerMap({ type: tokenUsageSchema, default: null }),
    // US dollars: the sum of the models' costs; 0 when simulated, and for decisions stored before costs were recorded.
    cost_usd: { type: Number, default: 0, min: 0 },
    // Per model, its calls' milliseconds (null when none was awaited) and dollars; {} for decisions stored before they were kept.
    model_latencies_ms: providerMap({ type: Number, default: null, min: 0 }),
    model_costs_usd: providerMap({ type: Number, required: true, min: 0 }),
    // The decision this one re-runs (another mode or panel on the same question); null when it is not a re-run.
    rerun_of: nullableString,
  },
  {
    collection: "decisions",
    versionKey: false,
    // Keep empty maps ({}) instead of dropping the field.
    minimize: false,
    // Unknown fields are an error, not silently dropped.
    strict: "throw",
    id: false,
  },
);

// A user's history, newest first (_id breaks timestamp ties, for stable paging). Every history
// query pins user_id and reads newest first, often within a date range: user, then time. The other
// filters (category, question, hasDecision) are evaluated on that one user's decisions only, so
// they get no index of their own (one led by them would tempt MongoDB's planner to scan a popular
// category across every user).
decisionSchema.index({ user_id: 1, timestamp: -1, _id: -1 });
// The whole history, newest first (list() without a user).
decisionSchema.index({ timestamp: -1, _id: -1 });
// A decision's re-runs, newest first (its detail page links them); most decisions are none, and
// only the owner's are read, so the user id comes second.
decisionSchema.index({ rerun_of: 1, user_id: 1, timestamp: -1 });

export const decisionsCollection = defineCollection<DecisionDocument>("decisions", decisionSchema);
