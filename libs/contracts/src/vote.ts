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
  status: z.enum(["success", "error"]),
  /** The category chosen, exactly as spelled in the request; null when the model failed. */
  category: z.string().nullable(),
  rationale: z.string().nullable(),
  confidence: z.number().min(0).max(1).nullable(),
  /** What the model returned, before normalisation. */
  raw_response: z.string().nullable(),
  model_version: z.string(),
  error: z.string().nullable(),
  /** Weight of this provider's vote (1 unless configured). */
  weight: z.number().positive(),
  latency_ms: z.number().nonnegative(),
  attempts: z.number().int().positive(),
  /** Tokens of the answering call (summed over attempts that reported usage); null when none was reported. */
  usage: TokenUsageSchema.nullable(),
  /** Price of those tokens in US dollars from the configured price table; 0 for simulated answers. */
  cost_usd: z.number().nonnegative(),
});
export type Vote = z.infer<typeof VoteSchema>;
