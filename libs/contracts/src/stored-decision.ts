import { z } from "zod";
import { EnsembleModeSchema, EnsembleRecordSchema, type EnsembleMode, type EnsembleRecord } from "./ensemble";
import type { DecisionResponse } from "./decision";
import { TokenUsageSchema, type TokenUsage } from "./vote";

/** Decision history item as the store keeps it. */
export interface StoredDecision {
  id: string;
  question: string;
  timestamp: Date;
  categories: string[];
  final_decision: string | null;
  vote_counts: Record<string, number>;
  total_votes: number;
  context_explanation: string;
  individual_responses: Record<string, string | null>;
  raw_responses: Record<string, string | null>;
  confidence_scores: Record<string, number | null>;
  /** Each model's one-sentence reason for its vote (null when it gave none). */
  rationales: Record<string, string | null>;
  model_versions: Record<string, string>;
  error_details: Record<string, string>;
  processing_time_ms: number;
  ensemble_mode: EnsembleMode;
  /** How the ensemble decided: panel, weights, every round, the judge, early quorum (absent on decisions stored before modes existed). */
  ensemble?: EnsembleRecord | null;
  is_authenticated: boolean;
  user_id: string | null;
  user_ip: string | null;
  user_email: string | null;
  /**
   * Ids of the decision's image assets, in label order. Image bytes are stored once, as assets
   * (a signed-in user's); a decision never carries them, and an anonymous one keeps none.
   */
  images: string[];
  /** The API key the decision was made with (a `/v1` call), else null. */
  api_key_id: string | null;
  /** Per model, the tokens its call used (null when not reported). */
  token_usage: Record<string, TokenUsage | null>;
  /** The decision's price in US dollars: the sum of its models' costs (0 when simulated). */
  cost_usd: number;
  /**
   * Per model, milliseconds its calls took, summed over its rounds; null when no call of it was
   * awaited (skipped by early quorum). {} on decisions stored before latencies were kept.
   */
  model_latencies_ms: Record<string, number | null>;
  /** Per model, what its calls cost in US dollars (they add up to `cost_usd`). {} on decisions stored before. */
  model_costs_usd: Record<string, number>;
  /** The decision this one re-runs (same question, another mode or panel); null or absent when it is not a re-run. */
  rerun_of?: string | null;
}

/** Names that reach an object's prototype: MongoDB field names may not be one (nor may mongoose map keys). */
const PROTOTYPE_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** A provider id as a key of a stored per-model map: a valid MongoDB field name (no "." anywhere, no leading "$"). */
const StoredFieldNameSchema = z.string().refine((key) => !key.startsWith("$") && !key.includes(".") && !PROTOTYPE_KEYS.has(key), {
  error: "must not start with $, contain a dot or be __proto__, constructor or prototype",
});

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * A record whose every own key and value is checked, `__proto__` included (`z.record` skips that
 * key without checking it), rebuilt with own properties only (so such a key stays data).
 */
function ownRecord<V extends z.ZodType>(key: z.ZodType<string, string>, value: V) {
  return z
    .custom<Record<string, unknown>>(isPlainObject, { error: "expected an object" })
    .transform((record) => new Map(Object.entries(record)))
    .pipe(z.map(key, value))
    .transform((entries) => Object.fromEntries(entries));
}

/**
 * A finished decision as it is written to the store: the same rules as the store's decisions
 * schema (libs/store/src/decisions/schema.ts), so a record that passes here is stored as built,
 * without a second check by the database layer. Stricter only on numbers (no NaN or Infinity).
 */
export const StoredDecisionSchema = z.object({
  id: z.string().min(1),
  question: z.string().min(1),
  timestamp: z.date(),
  categories: z.array(z.string()),
  final_decision: z.string().nullable(),
  // Category names are user text: any non-empty string, "." "$" and "__proto__" included (stored as pairs).
  vote_counts: ownRecord(z.string().min(1), z.number().nonnegative()),
  total_votes: z.number().nonnegative(),
  context_explanation: z.string(),
  individual_responses: ownRecord(StoredFieldNameSchema, z.string().nullable()),
  raw_responses: ownRecord(StoredFieldNameSchema, z.string().nullable()),
  confidence_scores: ownRecord(StoredFieldNameSchema, z.number().min(0).max(1).nullable()),
  rationales: ownRecord(StoredFieldNameSchema, z.string().nullable()),
  model_versions: ownRecord(StoredFieldNameSchema, z.string()),
  error_details: ownRecord(StoredFieldNameSchema, z.string()),
  processing_time_ms: z.number().nonnegative(),
  ensemble_mode: EnsembleModeSchema,
  ensemble: EnsembleRecordSchema.nullable().optional(),
  is_authenticated: z.boolean(),
  user_id: z.string().nullable(),
  user_ip: z.string().nullable(),
  user_email: z.string().nullable(),
  images: z.array(z.string()),
  api_key_id: z.string().nullable(),
  token_usage: ownRecord(StoredFieldNameSchema, TokenUsageSchema.nullable()),
  cost_usd: z.number().nonnegative(),
  model_latencies_ms: ownRecord(StoredFieldNameSchema, z.number().nonnegative().nullable()),
  model_costs_usd: ownRecord(StoredFieldNameSchema, z.number().nonnegative()),
  rerun_of: z.string().nullable().optional(),
}) satisfies z.ZodType<StoredDecision>;

/** The decision response entity of a stored decision. */
export function toDecisionResponse(decision: StoredDecision): DecisionResponse {
  return {
    final_decision: decision.final_decision,
    total_votes: decision.total_votes,
    vote_counts: decision.vote_counts,
    individual_responses: decision.individual_responses,
    context_explanation: decision.context_explanation,
    decision_id: decision.id,
    question: decision.question,
  };
}
