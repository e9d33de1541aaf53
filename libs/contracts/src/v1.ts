import { z } from "zod";
import { CategoriesSchema, ImagesSchema, QuestionSchema, RequestIdSchema } from "./decision";
import { EnsembleOptionsSchema } from "./ensemble";
import { PresetNameSchema } from "./presets";
import { TokenUsageSchema } from "./vote";

/**
 * The public REST API (`/v1`, header SD-API-KEY).
 * Decisions made through a key are stored as its owner's and appear in their history.
 */

/** Body of POST /v1/ensemble. */
export const V1EnsembleRequestSchema = z.object({
  prompt: QuestionSchema.meta({ description: "The question to decide, up to 4000 characters." }),
  valid_responses: CategoriesSchema.meta({
    description: "The answers the models may give: at least 2, at most 20; trimmed, empty ones and exact duplicates dropped.",
  }),
  images: ImagesSchema.meta({ description: "Up to 3 images as data URLs (data:image/...;base64,...), each under 10MB." }),
  /**
   * Optional: a new UUID per decision, to watch each model's vote live over Socket.IO (emit
   * `decision:join` with it before posting), as the playground does.
   */
  request_id: RequestIdSchema
    .optional()
    .meta({ description: "Optional: a new UUID per decision, to follow each model's vote live (emit decision:join with it first)." }),
  ...EnsembleOptionsSchema.shape,
  // On by default here: an API caller wants the answer as soon as it cannot change.
  early_quorum: EnsembleOptionsSchema.shape.early_quorum.meta({
    description: "Answer as soon as the remaining votes cannot change the winner; their calls are cancelled (majority and weighted modes). Default true.",
  }),
  // A saved panel by name; the options above that the request sets win over the preset's. No example: "Try it out" would pre-fill a name the reader has not saved.
  preset: PresetNameSchema.optional().meta({
    description:
      "Optional: the name of one of the key owner's panel presets (saved on /settings or in the playground). Its mode, models, early quorum, rounds and judge apply; any of those fields also sent in this request override the preset's. An unknown name is a 422.",
  }),
});
export type V1EnsembleRequest = z.input<typeof V1EnsembleRequestSchema>;

/**
 * What became of a model's vote: counted, failed, or not awaited because early quorum had decided.
 * The public API's own list, mapped from the stored vote in use-cases/v1-answer.ts (`voteStatus`), so a new
 * internal status cannot reach clients before this contract names it.
 */
export const V1_VOTE_STATUSES = ["success", "error", "skipped"] as const;
export type V1VoteStatus = (typeof V1_VOTE_STATUSES)[number];

export const V1VoteDetailSchema = z.object({
  /** The model's provider id (e.g. openai). */
  llm_name: z.string().meta({ description: "The model's provider id.", example: "openai" }),
  /** The category it chose, or null when it failed or was skipped. */
  response: z.string().nullable().meta({ description: "The response it chose, or null when its call failed or was skipped (status says which)." }),
  confidence: z.number().min(0).max(1).nullable().meta({ description: "Its confidence, 0 to 1 (null when its call failed or was skipped)." }),
  /**
   * Added after the specification's {llm_name, response, confidence}, which it leaves as they were:
   * `skipped` tells a vote early quorum did not await (the winner was already certain, so its call
   * was cancelled or never made) from one whose call failed (`error`).
   */
  status: z.enum(V1_VOTE_STATUSES).meta({
    description:
      "success: the vote was counted. error: the model's call failed (response and confidence null). skipped: early quorum decided before this vote was needed, so its call was cancelled or never made (response and confidence null).",
    example: "success",
  }),
  // What the model's calls took and cost, as stored with the decision (added after the specification's fields too).
  latency_ms: z.number().nonnegative().nullable().meta({
    description: "Milliseconds the model's calls took (summed over rounds); null when none was awaited (skipped) or the decision predates latencies.",
    example: 1180,
  }),
  usage: TokenUsageSchema.nullable().meta({
    description: "Tokens the model's calls used (input and output, summed over rounds); null when the vendor reported none (simulated answers) or no call was made.",
  }),
  cost_usd: z.number().nonnegative().nullable().meta({
    description: "What the model's calls cost in US dollars, from the configured price table; 0 for simulated answers; null when the decision predates per-model costs.",
    example: 0.00084,
  }),
});
export type V1VoteDetail = z.infer<typeof V1VoteDetailSchema>;

/**
 * The answer of POST /v1/ensemble and the result of GET /v1/decisions/{id}.
 * `consensus_score`: the winning category's share of the valid vote weight, 0 to 1 (1 = every valid
 * vote agreed; 0 when no valid vote was cast).
 */
export const V1EnsembleResponseSchema = z.object({
  decision_id: z.string().meta({ description: "The decision's id: GET /v1/decisions/{id}, and its id in the history." }),
  ensemble_decision: z.string().nullable().meta({ description: "The winning response (majority vote), or null when no model gave a valid vote." }),
  vote_details: z.array(V1VoteDetailSchema).meta({ description: "Each model's vote, one per model of the panel, with what became of it (status)." }),
  total_votes: z.number().int().nonnegative().meta({ description: "The number of valid votes." }),
  consensus_score: z
    .number()
    .min(0)
    .max(1)
    .meta({ description: "The winning response's share of the valid vote weight, 0 to 1: 1 when every valid vote agreed, 0 when none was cast." }),
  usage: TokenUsageSchema.meta({ description: "Tokens of every model call the decision made, input and output summed (calls whose vendor reported none count 0)." }),
  cost_usd: z.number().nonnegative().meta({
    description: "What the decision cost in US dollars: the sum of its model calls' costs (0 when simulated). Counted against the key's monthly spend limit.",
    example: 0.00231,
  }),
});
export type V1EnsembleResponse = z.infer<typeof V1EnsembleResponseSchema>;

/** 202 answer of POST /v1/ensemble with `Prefer: respond-async`. */
export const V1AcceptedSchema = z.object({
  decision_id: z.string(),
  status: z.literal("pending"),
  /** Where to poll: /v1/decisions/{decision_id}. */
  status_url: z.string().meta({ description: "Where to poll: /v1/decisions/{decision_id}." }),
});
export type V1Accepted = z.infer<typeof V1AcceptedSchema>;

/** GET /v1/decisions/{id}: pending while the models vote, then complete with the result. */
export const V1DecisionStatusSchema = z.discriminatedUnion("status", [
  z.object({ decision_id: z.string(), status: z.literal("pending"), result: z.null() }),
  z.object({ decision_id: z.string(), status: z.literal("complete"), result: V1EnsembleResponseSchema }),
]);
export type V1DecisionStatus = z.infer<typeof V1DecisionStatusSchema>;

/** Every error answer: `{detail}`. */
export const ErrorResponseSchema = z.object({ detail: z.string(), title: z.string().optional() });
export type ErrorResponse = z.infer<typeof ErrorResponseSchema>;

/** Headers of the public API. */
export const V1_HEADERS = {
  idempotencyKey: "Idempotency-Key",
  prefer: "Prefer",
  respondAsync: "respond-async",
} as const;

/** What the server accepts as an Idempotency-Key: 1 to 255 visible ASCII characters (no spaces), e.g. a UUID. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** The winning category's share of the valid vote weight (see V1EnsembleResponseSchema). */
export function consensusScore(finalDecision: string | null, voteCounts: Readonly<Record<string, number>>): number {
  if (finalDecision === null) return 0;
  const total = Object.values(voteCounts).reduce((sum, count) => sum + count, 0);
  return total > 0 ? Math.min(1, (voteCounts[finalDecision] ?? 0) / total) : 0;
}

/** One complete answer of POST /v1/ensemble, shown by the OpenAPI document and the developers page alike. */
export const V1_ENSEMBLE_RESPONSE_EXAMPLE: V1EnsembleResponse = {
  decision_id: "8f14e45f-ceea-467f-a0e6-4b2d7d1f3c11",
  ensemble_decision: "Wait until Monday",
  vote_details: [
    { llm_name: "openai", response: "Wait until Monday", confidence: 0.86, status: "success", latency_ms: 1180, usage: { input_tokens: 212, output_tokens: 31 }, cost_usd: 0.00084 },
    { llm_name: "gemini", response: "Wait until Monday", confidence: 0.78, status: "success", latency_ms: 760, usage: { input_tokens: 198, output_tokens: 27 }, cost_usd: 0.00016 },
    { llm_name: "claude", response: "No", confidence: 0.64, status: "success", latency_ms: 1410, usage: { input_tokens: 240, output_tokens: 35 }, cost_usd: 0.00131 },
  ],
  total_votes: 3,
  consensus_score: 0.6667,
  usage: { input_tokens: 650, output_tokens: 93 },
  cost_usd: 0.00231,
};
