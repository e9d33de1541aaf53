import { z } from "zod";

/** Tokens a model call used, as its vendor reported them. */
export const TokenUsageSchema = z.object({
  input_tokens: z.number().int().nonnegative(),
  output_tokens: z.number().int().nonnegative(),
});
export type TokenUsage = z.infer<typeof TokenUsageSchema>;

/** One model's outcome for one decision, as a provider worker reports it. */
export const VoteSchema = z.object({
  provider: z.string(),
  /** `skipped`: early quorum decided before this model's answer was needed; its call was not made or was cancelled. */
  status: z.enum(["success", "error", "skipped"]),
  /** The category chosen, exactly as spelled in the request; null when the model failed. */
  category: z.string().nullable(),
  rationale: z.string().nullable(),
  confidence: z.number().min(0).max(1).nullable(),
  /** What the model returned, before normalisation. */
  raw_response: z.string().nullable(),
  model_version: z.string(),
  error: z.string().nullable(),
  /** Weight of this provider's vote (1 unless configured); learned weights may be 0 for a model at chance. */
  weight: z.number().nonnegative(),
  /** The round it was cast in (gossip); 1 when absent. */
  round: z.number().int().min(1).optional(),
  latency_ms: z.number().nonnegative(),
  attempts: z.number().int().positive(),
  /** Tokens of the answering call (summed over attempts that reported usage); null when none was reported. */
  usage: TokenUsageSchema.nullable(),
  /** Price of those tokens in US dollars from the configured price table; 0 for simulated answers. */
  cost_usd: z.number().nonnegative(),
});
export type Vote = z.infer<typeof VoteSchema>;

/**
 * A vote that carries no answer: an error (`error` says why) or a vote early quorum skipped. What
 * is not given is what such a vote has when nothing else is known: no raw text, weight 1, no
 * latency, one attempt, no tokens and so no cost.
 */
export function voteWithoutAnswer(
  fields: Pick<Vote, "provider" | "model_version"> & { status: "error"; error: string } & Partial<Omit<Vote, "status" | "category" | "rationale" | "confidence" | "error">>,
): Vote;
export function voteWithoutAnswer(
  fields: Pick<Vote, "provider" | "model_version"> & { status: "skipped" } & Partial<Omit<Vote, "status" | "category" | "rationale" | "confidence" | "error">>,
): Vote;
export function voteWithoutAnswer(fields: Pick<Vote, "provider" | "model_version" | "status"> & Partial<Vote>): Vote {
  return {
    raw_response: null,
    weight: 1,
    latency_ms: 0,
    attempts: 1,
    usage: null,
    cost_usd: 0,
    ...fields,
    category: null,
    rationale: null,
    confidence: null,
    error: fields.error ?? null,
  };
}
