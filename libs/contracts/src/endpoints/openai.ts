import { z } from "zod";
import {
  API_KEY_HEADER,
  CHAT_MODEL,
  CHAT_MODELS,
  ChatCompletionRequestSchema,
  ChatCompletionSchema,
  ChatModelListSchema,
  IDEMPOTENCY_KEY_PATTERN,
  V1_HEADERS,
  type ChatCompletion,
} from "../index";
import { EXAMPLE_CATEGORIES, EXAMPLE_IDS, EXAMPLE_QUESTION, exampleEnsembleResponse, exampleErrors } from "./examples";
import { busy, error, json, one, RATE_LIMIT_HEADERS, RETRY_AFTER_HEADERS, storeFull } from "./shared";
import { defineEndpoint } from "./define";

// ---------------------------------------------------------------- OpenAI-compatible (/v1/chat/completions, /v1/models)

const CATEGORIES_SCHEMA = {
  type: "object",
  properties: { answer: { type: "string", enum: EXAMPLE_CATEGORIES } },
  required: ["answer"],
  additionalProperties: false,
};

function withoutTokenTotal({ usage: _usage, ...decision }: typeof exampleEnsembleResponse) {
  return decision;
}

const exampleCompletion: ChatCompletion = {
  id: `chatcmpl-${EXAMPLE_IDS.decision}`,
  object: "chat.completion",
  created: 1_767_225_600,
  model: CHAT_MODEL,
  choices: [
    { index: 0, message: { role: "assistant", content: JSON.stringify({ answer: exampleEnsembleResponse.ensemble_decision }), refusal: null }, finish_reason: "stop", logprobs: null },
  ],
  usage: { prompt_tokens: 612, completion_tokens: 96, total_tokens: 708 },
  smart_decision: {
    // The /v1 answer's token total is this completion's `usage`, in OpenAI's form.
    ...withoutTokenTotal(exampleEnsembleResponse),
    vote_details: exampleEnsembleResponse.vote_details.map((vote) => ({ ...vote, reason: vote.response === "No" ? "Friday deploys leave no one to watch them." : "A Monday release has the whole team at hand." })),
    cost_usd: 0.0042,
  },
};

const keyErrors = {
  401: error(`No API key (send \`Authorization: Bearer <key>\` or ${API_KEY_HEADER}), or one that is unknown, deleted or switched off.`, {
    missingKey: { summary: "No key", value: exampleErrors.missingKey },
    invalidKey: { summary: "Unknown or inactive key", value: exampleErrors.invalidKey },
  }),
  429: error(
    "Too many requests for this key (per-key rate limit), or its monthly quota is used up.",
    { rateLimited: { summary: "Rate limited", value: exampleErrors.keyRateLimited }, quotaExceeded: { summary: "Monthly quota used up", value: exampleErrors.quotaExceeded } },
    RETRY_AFTER_HEADERS,
  ),
};

export const openAiEndpoints = [
  defineEndpoint({
    method: "post",
    path: "/v1/chat/completions",
    tag: "openai",
    operationId: "createChatCompletion",
    summary: "Make a decision as an OpenAI chat completion",
    description: [
      "The ensemble as a drop-in model for OpenAI clients: point an OpenAI SDK's `baseURL` at `/v1` of this server and use an API key as its key.",
      `\`model\` is \`${CHAT_MODEL}\` (the default panel and mode), \`${CHAT_MODEL}/<mode>\` or \`${CHAT_MODEL}/<preset name>\` (one of the key owner's panel presets); \`GET /v1/models\` lists them.`,
      "The last user message is the question (text, and `image_url` parts as data URLs); system and developer messages are given to every model ahead of it.",
      "The categories are the one string `enum` of `response_format.json_schema.schema` (what `zodResponseFormat(z.object({answer: z.enum([...])}))` sends).",
      "`choices[0].message.content` is JSON of that schema with the winning category in the enum's place; `smart_decision` carries the votes, reasons, consensus and cost.",
      "With `stream: true`, each settled vote is a chunk (in `smart_decision`, with the decision id) as it arrives. A client that goes away cancels the models still thinking; the decision is stored from the votes that were in.",
      "Errors use OpenAI's shape, `{error: {message, type, param, code}}`. The decision is stored as the key owner's, with the same limits, quota and history as `POST /v1/ensemble`.",
    ].join("\n"),
    access: "api-key",
    errorShape: "openai",
    headers: z.object({
      [V1_HEADERS.idempotencyKey]: z
        .string()
        .regex(IDEMPOTENCY_KEY_PATTERN)
        .optional()
        .meta({ description: "Optional, as for POST /v1/ensemble: a retry with the same key and body answers the first decision." }),
    }),
    body: json(ChatCompletionRequestSchema, {
      decision: {
        summary: "A question with three allowed answers",
        value: {
          model: CHAT_MODEL,
          messages: [{ role: "user", content: EXAMPLE_QUESTION }],
          response_format: { type: "json_schema", json_schema: { name: "decision", strict: true, schema: CATEGORIES_SCHEMA } },
        },
      },
    }),
    responses: {
      200: { description: "The decision as a chat completion.", body: json(ChatCompletionSchema, one("Two of three models agreed", exampleCompletion)), headers: RATE_LIMIT_HEADERS },
      400: error("The request cannot be a decision: `error.message` says what to fix (no categories, no user message, an image that is not a data URL, ...).", {
        noCategories: { summary: "No categories", value: { detail: "No categories were given. Give the allowed answers as response_format {...}." } },
        questionRequired: { summary: "No question", value: { detail: "The last user message has no text: it is the question." } },
      }),
      ...keyErrors,
      404: error("No such model: see GET /v1/models.", one("Unknown model", { detail: `The model 'gpt-4o' does not exist. Use ${CHAT_MODEL} or ${CHAT_MODEL}/<mode>: GET /v1/models lists them.` })),
      409: error("The request_id was already used.", one("Reused request_id", exampleErrors.requestIdReused)),
      413: error("The images are too large.", one("Images too large", exampleErrors.imagesTooLarge)),
      422: error(`The ${V1_HEADERS.idempotencyKey} was already used with a different request body.`, one("Key reused", exampleErrors.idempotencyConflict)),
      503: busy,
      504: error("The models took too long; the decision still completes and is stored.", one("Timed out", exampleErrors.timedOut)),
      507: storeFull,
    },
  }),
  defineEndpoint({
    method: "get",
    path: "/v1/models",
    tag: "openai",
    operationId: "listChatModels",
    summary: "List the models for chat completions",
    description: `OpenAI's model list: \`${CHAT_MODEL}\`, one id per ensemble mode, then one per panel preset of the key's owner.`,
    access: "api-key",
    errorShape: "openai",
    responses: {
      200: {
        description: "The model ids.",
        body: json(ChatModelListSchema, one("Every model", { object: "list", data: CHAT_MODELS.map(({ id }) => ({ id, object: "model", created: 1_767_225_600, owned_by: "smart-decision" })) })),
        headers: RATE_LIMIT_HEADERS,
      },
      ...keyErrors,
    },
  }),
] as const;
