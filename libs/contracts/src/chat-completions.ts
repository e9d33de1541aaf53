import { z } from "zod";
import { ENSEMBLE_MODES, type EnsembleMode } from "./ensemble";
import { V1VoteDetailSchema } from "./v1";

/**
 * The OpenAI-compatible surface (`POST /v1/chat/completions`, `GET /v1/models`): the subset of
 * OpenAI's Chat Completions wire format a categorical decision needs. Fields OpenAI clients send
 * that do not apply to a vote (temperature, max_tokens, ...) are accepted and ignored.
 */

/** The model id that names the default panel and mode; `<id>/<mode>` names a mode. */
export const CHAT_MODEL = "smart-decision";

export interface ChatModel {
  id: string;
  mode: EnsembleMode | null;
  /** The key owner's panel preset this model id names (`smart-decision/<preset name>`), else null. */
  preset?: string | null;
}

/** Every model id `GET /v1/models` lists, the default first. */
export const CHAT_MODELS: readonly ChatModel[] = [{ id: CHAT_MODEL, mode: null }, ...ENSEMBLE_MODES.map((mode) => ({ id: `${CHAT_MODEL}/${mode}`, mode }))];

const TextPartSchema = z.object({ type: z.literal("text"), text: z.string() });
const ImagePartSchema = z.object({
  type: z.literal("image_url"),
  image_url: z.object({ url: z.string(), detail: z.string().optional() }),
});
/** Other part types (audio, files, refusals) are read as "unsupported" rather than refused by the schema, so the answer can say which. */
const OtherPartSchema = z.looseObject({ type: z.string() });
export const ChatContentPartSchema = z.union([TextPartSchema, ImagePartSchema, OtherPartSchema]);
export type ChatContentPart = z.infer<typeof ChatContentPartSchema>;

export const ChatMessageSchema = z.looseObject({
  role: z.string().meta({ description: "system, developer, user, assistant or tool." }),
  content: z.union([z.string(), z.array(ChatContentPartSchema)]).nullable().optional(),
});
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

export const ChatResponseFormatSchema = z.looseObject({
  type: z.string().meta({ description: "json_schema: the schema's one string enum gives the categories." }),
  json_schema: z
    .looseObject({
      name: z.string().optional(),
      schema: z.record(z.string(), z.unknown()).optional(),
      strict: z.boolean().nullable().optional(),
    })
    .optional(),
});

export const ChatCompletionRequestSchema = z.looseObject({
  model: z.string().meta({
    description: `${CHAT_MODEL} (the default panel and mode), ${CHAT_MODEL}/<mode>, or ${CHAT_MODEL}/<preset name> for one of the key owner's panel presets: see GET /v1/models.`,
    example: CHAT_MODEL,
  }),
  messages: z.array(ChatMessageSchema).meta({ description: "The last user message is the question (its text, and image_url parts as data URLs); system and developer messages are given to every model as context." }),
  response_format: ChatResponseFormatSchema.optional().meta({
    description: 'Required: {type: "json_schema", json_schema: {name, schema}} whose schema has exactly one string property constrained by `enum` (the categories), as the OpenAI SDKs\' zodResponseFormat produces, or a top-level enum.',
  }),
  stream: z.boolean().nullable().optional().meta({
    description: "Server-Sent Events in OpenAI's chunk format: each settled vote as it arrives (in `smart_decision.vote`), then the answer, then `data: [DONE]`.",
  }),
  stream_options: z.looseObject({ include_usage: z.boolean().nullable().optional() }).nullable().optional(),
});
export type ChatCompletionRequest = z.infer<typeof ChatCompletionRequestSchema>;

/** The decision behind a completion, beside OpenAI's fields (plain OpenAI clients ignore it). */
export const SmartDecisionExtensionSchema = z.object({
  decision_id: z.string(),
  ensemble_decision: z.string().nullable(),
  vote_details: z.array(
    V1VoteDetailSchema.extend({
      reason: z.string().nullable().meta({ description: "The model's one-sentence reason for its answer." }),
    }),
  ),
  total_votes: z.number().int().nonnegative(),
  consensus_score: z.number().min(0).max(1),
  cost_usd: z.number().nonnegative().meta({ description: "The decision's price in US dollars: the sum of its models' calls (0 when simulated)." }),
});
export type SmartDecisionExtension = z.infer<typeof SmartDecisionExtensionSchema>;

export const ChatUsageSchema = z.object({
  prompt_tokens: z.number().int().nonnegative(),
  completion_tokens: z.number().int().nonnegative(),
  total_tokens: z.number().int().nonnegative(),
});
export type ChatUsage = z.infer<typeof ChatUsageSchema>;

export const ChatCompletionSchema = z.object({
  id: z.string(),
  object: z.literal("chat.completion"),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      message: z.object({
        role: z.literal("assistant"),
        content: z.string().nullable().meta({ description: "JSON valid against the request's schema, with the winning category in the enum's place; null when no model gave a valid vote." }),
        refusal: z.string().nullable().meta({ description: "Why there is no answer when no model gave a valid vote." }),
      }),
      finish_reason: z.literal("stop"),
      logprobs: z.null(),
    }),
  ),
  usage: ChatUsageSchema.meta({ description: "Tokens summed over the panel's calls." }),
  smart_decision: SmartDecisionExtensionSchema,
});
export type ChatCompletion = z.infer<typeof ChatCompletionSchema>;

export const ChatModelListSchema = z.object({
  object: z.literal("list"),
  data: z.array(z.object({ id: z.string(), object: z.literal("model"), created: z.number().int(), owned_by: z.string() })),
});
export type ChatModelList = z.infer<typeof ChatModelListSchema>;

/** OpenAI's error answer, which every error of the OpenAI-compatible routes uses. */
export const OpenAiErrorSchema = z.object({
  error: z.object({
    message: z.string(),
    type: z.string(),
    param: z.string().nullable(),
    code: z.string().nullable(),
  }),
});
export type OpenAiError = z.infer<typeof OpenAiErrorSchema>;

/** OpenAI's `type` and `code` for each status, so clients' error classes and retry rules apply. */
const OPENAI_ERROR_KINDS: Readonly<Record<number, { type: string; code: string | null }>> = {
  400: { type: "invalid_request_error", code: null },
  401: { type: "invalid_request_error", code: "invalid_api_key" },
  403: { type: "invalid_request_error", code: "permission_denied" },
  404: { type: "invalid_request_error", code: "not_found" },
  409: { type: "invalid_request_error", code: "conflict" },
  413: { type: "invalid_request_error", code: "request_too_large" },
  415: { type: "invalid_request_error", code: "unsupported_media_type" },
  422: { type: "invalid_request_error", code: null },
  429: { type: "requests", code: "rate_limit_exceeded" },
};

/** Our `{detail}` error as OpenAI words one; `param` names the request field at fault when known. */
export function toOpenAiError(status: number, message: string, overrides: { param?: string | null; code?: string | null; type?: string } = {}): OpenAiError {
  const kind = OPENAI_ERROR_KINDS[status] ?? { type: status >= 500 ? "server_error" : "invalid_request_error", code: null };
  return { error: { message, type: overrides.type ?? kind.type, param: overrides.param ?? null, code: overrides.code === undefined ? kind.code : overrides.code } };
}

/** One model's settled vote, streamed as it arrives. */
export const ChatVoteSchema = z.object({
  llm_name: z.string(),
  round: z.number().int().min(0).meta({ description: "1 unless gossip asks again in later rounds; 0 for a judge's verdict." }),
  status: z.enum(["success", "error", "skipped"]),
  response: z.string().nullable(),
  confidence: z.number().nullable(),
  reason: z.string().nullable(),
  latency_ms: z.number().nullable(),
  cost_usd: z.number().nullable(),
});
export type ChatVote = z.infer<typeof ChatVoteSchema>;

/** One Server-Sent Event of a streamed completion (`stream: true`). */
export const ChatCompletionChunkSchema = z.object({
  id: z.string(),
  object: z.literal("chat.completion.chunk"),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      delta: z.object({ role: z.literal("assistant").optional(), content: z.string().nullable().optional(), refusal: z.string().nullable().optional() }),
      finish_reason: z.literal("stop").nullable(),
      logprobs: z.null(),
    }),
  ),
  usage: ChatUsageSchema.optional(),
  smart_decision: z
    .union([z.object({ decision_id: z.string().meta({ description: "The decision this vote belongs to (GET /v1/decisions/{id} reads it later)." }), vote: ChatVoteSchema }), SmartDecisionExtensionSchema])
    .optional(),
});
export type ChatCompletionChunk = z.infer<typeof ChatCompletionChunkSchema>;
