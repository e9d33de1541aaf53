import { z } from "zod";
import {
  API_KEY_HEADER,
  DecisionHistoryListResponseSchema,
  DecisionHistoryQuerySchema,
  FREE_TIER,
  IDEMPOTENCY_KEY_PATTERN,
  PRESET_MESSAGES,
  V1_HEADERS,
  V1AcceptedSchema,
  V1DecisionStatusSchema,
  V1EnsembleRequestSchema,
  V1EnsembleResponseSchema,
} from "../index";
import {
  EXAMPLE_CATEGORIES,
  EXAMPLE_IDS,
  EXAMPLE_IMAGE,
  EXAMPLE_QUESTION,
  exampleEnsembleResponse,
  exampleErrors,
  exampleHistoryPage,
} from "./examples";
import { busy, storeFull, json, one, error, RATE_LIMIT_HEADERS, REPLAY_HEADERS, ACCEPTED_HEADERS, RETRY_AFTER_HEADERS, idParam } from "./shared";
import { defineEndpoint } from "./define";
import type { DocumentedResponse } from "./define";

// ---------------------------------------------------------------- the public API (/v1)

/** The answers of every call with a key. */
export const apiKeyErrors: Record<number, DocumentedResponse> = {
  401: error(`No ${API_KEY_HEADER} header, or a key that is unknown, deleted or switched off.`, {
    missingKey: { summary: "No key", value: exampleErrors.missingKey },
    invalidKey: { summary: "Unknown or inactive key", value: exampleErrors.invalidKey },
  }),
  429: error(
    `Too many requests for this key (per-key rate limit), or the monthly quota of ${FREE_TIER.apiRequestsPerMonth.toLocaleString("en-US")} requests is used up.`,
    {
      rateLimited: { summary: "Rate limited", value: exampleErrors.keyRateLimited },
      quotaExceeded: { summary: "Monthly quota used up", value: exampleErrors.quotaExceeded },
    },
    RETRY_AFTER_HEADERS,
  ),
};

/** The key owner's history list, served at two paths. */
function keyHistoryEndpoint<const P extends string, const Id extends string>(path: P, operationId: Id, summary: string) {
  return defineEndpoint({
    method: "get",
    path,
    tag: "v1",
    operationId,
    summary,
    description:
      "The key owner's decisions, newest first, with the filters and paging of the web app's history. `total` counts every match; `limit` (default 50) and `offset` page through them.",
    access: "api-key",
    query: DecisionHistoryQuerySchema,
    responses: {
      200: { description: "A page of decisions.", body: json(DecisionHistoryListResponseSchema, one("One decision", exampleHistoryPage)), headers: RATE_LIMIT_HEADERS },
      400: error("A filter is invalid.", one("Bad limit", exampleErrors.badHistoryQuery)),
      ...apiKeyErrors,
    },
  });
}

export const v1Endpoints = [
  defineEndpoint({
    method: "post",
    path: "/v1/ensemble",
    tag: "v1",
    operationId: "createEnsembleDecision",
    summary: "Make a decision",
    description: [
      "Asks every configured model the prompt, allowing only `valid_responses`, and combines the votes by majority.",
      "The decision is stored as the key owner's and appears in their history.",
      "",
      "`consensus_score` is the winning response's share of the valid vote weight, from 0 to 1: 1 when every valid vote agreed, 0 when no valid vote was cast.",
      "Each vote carries what its model's calls took and cost (`latency_ms`, `usage` in tokens, `cost_usd`), and the answer the decision's totals (`usage`, `cost_usd`).",
      "",
      "A key with a monthly spend limit (set in Settings or with `PATCH /api/api-keys/{id}`) is refused with 402 once its decisions this month have cost that much, before any model is asked.",
      "",
      `Send \`${V1_HEADERS.prefer}: ${V1_HEADERS.respondAsync}\` to get \`202 Accepted\` with the decision id at once, then poll \`GET /v1/decisions/{id}\`.`,
      `Send an \`${V1_HEADERS.idempotencyKey}\` to make retries safe: a repeated POST with the same key and body returns the first decision instead of running a second one.`,
      "",
      "To watch the votes arrive, connect a Socket.IO client, emit `decision:join` with a new `request_id` (UUID), then send the same `request_id` in the body.",
      "",
      "Send `preset` with the name of one of the key owner's panel presets to use its mode, models, early quorum, rounds and judge. Fields sent explicitly in the request override the preset's: `{\"preset\": \"Fast triage\", \"ensemble_mode\": \"judge\"}` takes the preset's models with the judge mode.",
    ].join("\n"),
    access: "api-key",
    headers: z.object({
      [V1_HEADERS.prefer]: z
        .string()
        .optional()
        // No example: "Try it out" would pre-fill it, and every try would answer 202 instead of the decision.
        .meta({ description: `Send \`${V1_HEADERS.respondAsync}\` to get 202 at once instead of waiting for the votes; leave empty to wait for the decision.` }),
      [V1_HEADERS.idempotencyKey]: z
        .string()
        .regex(IDEMPOTENCY_KEY_PATTERN)
        .optional()
        // No example: a pre-filled key would make every later try with another body a 422.
        .meta({
          description:
            "Optional. A new unique string (a UUID is a good choice) for each decision, sent again only when retrying that same request: the retry answers the first decision instead of running a second one. 1 to 255 visible ASCII characters, no spaces.",
        }),
    }),
    body: json(V1EnsembleRequestSchema, {
      decision: { summary: "A question with three allowed answers", value: { prompt: EXAMPLE_QUESTION, valid_responses: EXAMPLE_CATEGORIES } },
      withImage: {
        summary: "With an image (up to 3, each a data URL under 10MB)",
        value: { prompt: "Is this chart trending up?", valid_responses: ["Up", "Down", "Flat"], images: [EXAMPLE_IMAGE] },
      },
    }),
    responses: {
      200: { description: "The combined decision.", body: json(V1EnsembleResponseSchema, one("Two of three models agreed", exampleEnsembleResponse)), headers: REPLAY_HEADERS },
      202: {
        description: `Accepted (with \`${V1_HEADERS.prefer}: ${V1_HEADERS.respondAsync}\`): poll \`status_url\` for the result.`,
        body: json(V1AcceptedSchema, one("Queued", { decision_id: EXAMPLE_IDS.decision, status: "pending", status_url: `/v1/decisions/${EXAMPLE_IDS.decision}` })),
        headers: ACCEPTED_HEADERS,
      },
      400: error("The request is invalid: `detail` says what to fix.", {
        questionRequired: { summary: "No prompt", value: exampleErrors.questionRequired },
        categoriesRequired: { summary: "Fewer than 2 valid responses", value: exampleErrors.categoriesRequired },
      }),
      ...apiKeyErrors,
      402: error(
        "The key's monthly spend limit is reached: raise or remove it, or wait for the first day of next month (UTC). Not a wait-and-retry case, so no Retry-After.",
        one("Spend limit reached", exampleErrors.spendLimitReached),
      ),
      409: error("The request_id was already used: send a new UUID for each decision.", one("Reused request_id", exampleErrors.requestIdReused)),
      413: error("The images are too large.", one("Images too large", exampleErrors.imagesTooLarge)),
      422: error(`The ${V1_HEADERS.idempotencyKey} was already used with a different request body, or \`preset\` names no preset of the key's owner.`, {
        ...one("Key reused", exampleErrors.idempotencyConflict),
        unknownPreset: { summary: "Unknown preset", value: { detail: PRESET_MESSAGES.unknownPreset("Fast triage") } },
      }),
      503: busy,
      504: error(
        `The models took too long; the decision still completes and is stored (use \`${V1_HEADERS.prefer}: ${V1_HEADERS.respondAsync}\` for long decisions).`,
        one("Timed out", exampleErrors.timedOut),
      ),
      507: storeFull,
    },
  }),
  defineEndpoint({
    method: "get",
    path: "/v1/decisions/{id}",
    tag: "v1",
    operationId: "getEnsembleDecision",
    summary: "Get a decision's state and result",
    description: "`pending` while the models vote, then `complete` with the same result `POST /v1/ensemble` answers. Only decisions made with the key owner's keys are found.",
    access: "api-key",
    params: idParam("The `decision_id` from `POST /v1/ensemble`."),
    responses: {
      200: {
        description: "The decision's state.",
        body: json(V1DecisionStatusSchema, {
          pending: { summary: "Still voting", value: { decision_id: EXAMPLE_IDS.decision, status: "pending", result: null } },
          complete: { summary: "Decided", value: { decision_id: EXAMPLE_IDS.decision, status: "complete", result: exampleEnsembleResponse } },
        }),
        headers: RATE_LIMIT_HEADERS,
      },
      ...apiKeyErrors,
      404: error("No decision with this id belongs to the key's owner.", one("Unknown id", exampleErrors.decisionNotFound)),
      500: error("The decision failed for good: submit it again.", one("Failed", exampleErrors.decisionFailed)),
    },
  }),
  keyHistoryEndpoint("/v1/decision-history", "listDecisionHistory", "List the key owner's decisions"),
  keyHistoryEndpoint("/decision-history", "listDecisionHistoryExternal", "List the key owner's decisions (same as /v1/decision-history)"),
] as const;
