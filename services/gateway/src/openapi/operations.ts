import { z } from "zod";
import {
  ADMIN_MESSAGES,
  adminPeriodQuery,
  QueuesSessionResponseSchema,
  AcknowledgeDamageResponseSchema,
  MESSAGES,
  AdminCheckResponseSchema,
  API_KEY_HEADER,
  ApiKeyCreateSchema,
  ApiKeyDeleteSchema,
  ApiKeyListSchema,
  ApiKeyRevealSchema,
  ApiKeySchema,
  ApiKeyUpdateSchema,
  AUTH_MESSAGES,
  AuthMessageResponseSchema,
  AuthResponseSchema,
  AuthTokensSchema,
  DecisionHistoryDetailResponseSchema,
  DecisionHistoryListResponseSchema,
  DecisionHistoryQuerySchema,
  DecisionRequestSchema,
  DecisionResponseSchema,
  EmailSchema,
  ErrorResponseSchema,
  FREE_TIER,
  GoogleAuthorizationSchema,
  GoogleCallbackSchema,
  HISTORY_MESSAGES,
  IMAGE_ASSET_MESSAGES,
  ImageAssetCreateSchema,
  ImageAssetListQuerySchema,
  ImageAssetListResponseSchema,
  ImageAssetOwnerSchema,
  JOB_APPLICATION_LIMITS,
  JOB_APPLICATION_MESSAGES,
  JobApplicationResponseSchema,
  MagicLinkRequestSchema,
  MagicLinkVerifySchema,
  ProvidersResponseSchema,
  RefreshRequestSchema,
  SuggestionRequestSchema,
  SuggestionResponseSchema,
  UsageSchema,
  V1_HEADERS,
  V1AcceptedSchema,
  V1DecisionStatusSchema,
  V1EnsembleRequestSchema,
  V1EnsembleResponseSchema,
  WaitlistResponseSchema,
  RecentDecisionsResponseSchema,
  SystemHealthSchema,
  UsageStatsResponseSchema,
} from "@sd/contracts";
import {
  EXAMPLE_API_KEY,
  EXAMPLE_CATEGORIES,
  EXAMPLE_EMAIL,
  EXAMPLE_IDS,
  EXAMPLE_IMAGE,
  EXAMPLE_QUESTION,
  exampleApiKey,
  exampleAuthResponse,
  exampleDecisionResponse,
  exampleEnsembleResponse,
  exampleErrors,
  exampleHistoryItem,
  exampleHistoryPage,
  exampleImageAsset,
  exampleImageAssetFailure,
} from "./examples";
import { BODY_MESSAGES, SMALL_BODY_LIMIT_BYTES } from "../http/json-body";

/**
 * Every endpoint the gateway serves to clients, described with the zod schemas the routes
 * validate and answer with (libs/contracts). The OpenAPI document is generated from this list,
 * and the tests check both directions: each mounted route is listed here, and each example
 * validates against its schema.
 */

export type HttpMethod = "get" | "post" | "put" | "delete";

/** Who may call an operation. */
export type Access = "public" | "bearer" | "optional-bearer" | "api-key";

export interface DocumentedExample {
  summary: string;
  value: unknown;
}

export interface DocumentedBody {
  schema: z.ZodType;
  contentType?: "application/json" | "multipart/form-data";
  examples: Record<string, DocumentedExample>;
}

export interface DocumentedResponse {
  description: string;
  body?: DocumentedBody;
  headers?: z.ZodObject;
}

export interface DocumentedOperation {
  method: HttpMethod;
  /** OpenAPI path template (`{id}`, not express's `:id`). */
  path: string;
  tag: Tag;
  operationId: string;
  summary: string;
  description?: string;
  access: Access;
  params?: z.ZodObject;
  query?: z.ZodObject;
  headers?: z.ZodObject;
  body?: DocumentedBody;
  responses: Record<number, DocumentedResponse>;
}

export const TAGS = {
  v1: { name: "Public API", description: `Decisions and history for your own code, authenticated with the ${API_KEY_HEADER} header.` },
  decisions: { name: "Decisions", description: "The web app's decision and suggestion endpoints." },
  history: { name: "Decision history", description: "A signed-in user's stored decisions." },
  imageAssets: { name: "Image assets", description: "The images stored with a signed-in user's decisions." },
  apiKeys: { name: "API keys", description: "Create, reveal, switch off and delete API keys; see this month's usage." },
  auth: { name: "Accounts", description: "Magic-link and Google sign-in, token refresh, logout and the admin check." },
  site: { name: "Site", description: "The models behind the playground, the waitlist and job applications." },
  operations: { name: "Operations", description: "Liveness and readiness probes." },
  admin: { name: "Admin", description: "The admin dashboard's statistics and system health (admins only: ADMIN_EMAILS)." },
} as const;
export type Tag = keyof typeof TAGS;

// ---------------------------------------------------------------- shared pieces

const json = (schema: z.ZodType, examples: Record<string, DocumentedExample>): DocumentedBody => ({ schema, examples });
const one = (summary: string, value: unknown): Record<string, DocumentedExample> => ({ example: { summary, value } });

const error = (description: string, examples: Record<string, DocumentedExample>, headers?: z.ZodObject): DocumentedResponse => ({
  description,
  body: json(ErrorResponseSchema, examples),
  ...(headers ? { headers } : {}),
});

const RATE_LIMIT_HEADERS = z.object({
  "RateLimit-Policy": z.string().meta({
    description: "The limit that applies (IETF draft-ietf-httpapi-ratelimit-headers-08): `q` requests per `w` seconds.",
    example: '"default";q=60;w=60',
  }),
  RateLimit: z.string().meta({
    description: "What is left of it: `r` requests for the next `t` seconds.",
    example: '"default";r=59;t=60',
  }),
});

const REPLAY_HEADERS = RATE_LIMIT_HEADERS.extend({
  "Idempotent-Replayed": z
    .literal("true")
    .optional()
    .meta({ description: `Sent when the ${V1_HEADERS.idempotencyKey} was seen before: this is the first request's decision.`, example: "true" }),
});

const ACCEPTED_HEADERS = REPLAY_HEADERS.extend({
  Location: z.string().meta({ description: "Where to poll: the same as `status_url`.", example: `/v1/decisions/${EXAMPLE_IDS.decision}` }),
  "Preference-Applied": z.literal(V1_HEADERS.respondAsync).meta({ description: "The `Prefer` preference that was honoured (RFC 7240).", example: V1_HEADERS.respondAsync }),
});

const RETRY_AFTER_HEADERS = RATE_LIMIT_HEADERS.extend({
  "Retry-After": z.string().meta({ description: "Seconds to wait before the next request (for the monthly quota: until the first day of next month, UTC).", example: "42" }),
});

const tooManyRequests = error("Too many requests from this address or account: wait as Retry-After says.", one("Rate limited", exampleErrors.tooManyRequests), RETRY_AFTER_HEADERS);

const unauthorized = error("Missing, malformed, expired or revoked bearer token.", one("Bad token", exampleErrors.invalidCredentials));

const idParam = (description: string) => z.object({ id: z.string().meta({ description, example: EXAMPLE_IDS.decision }) });

function decisionErrors(access: Access): Record<number, DocumentedResponse> {
  const errors: Record<number, DocumentedResponse> = {
    400: error("The request is invalid: `detail` says what to fix (the web app also shows `title`).", {
      questionRequired: { summary: "No question", value: exampleErrors.questionRequired },
      categoriesRequired: { summary: "Fewer than 2 categories", value: exampleErrors.categoriesRequired },
    }),
  };
  if (access === "bearer") errors[401] = unauthorized;
  return {
    ...errors,
    409: error("The request_id was already used: send a new UUID for each decision.", one("Reused request_id", exampleErrors.requestIdReused)),
    413: error("The images are too large.", one("Images too large", exampleErrors.imagesTooLarge)),
    429: tooManyRequests,
    504: error("The models took too long; the decision still completes and is stored.", one("Timed out", exampleErrors.timedOut)),
    507: error("The store's disk is full: decisions are refused at once until there is room again (/ready says why).", one("Disk full", { detail: MESSAGES.cannotStore })),
  };
}

// ---------------------------------------------------------------- the public API (/v1)

const apiKeyErrors: Record<number, DocumentedResponse> = {
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

const v1Operations: DocumentedOperation[] = [
  {
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
      "",
      `Send \`${V1_HEADERS.prefer}: ${V1_HEADERS.respondAsync}\` to get \`202 Accepted\` with the decision id at once, then poll \`GET /v1/decisions/{id}\`.`,
      `Send an \`${V1_HEADERS.idempotencyKey}\` to make retries safe: a repeated POST with the same key and body returns the first decision instead of running a second one.`,
      "",
      "To watch the votes arrive, connect a Socket.IO client, emit `decision:join` with a new `request_id` (UUID), then send the same `request_id` in the body.",
    ].join("\n"),
    access: "api-key",
    headers: z.object({
      [V1_HEADERS.prefer]: z
        .string()
        .optional()
        .meta({ description: `\`${V1_HEADERS.respondAsync}\` answers 202 at once instead of waiting for the votes.`, example: V1_HEADERS.respondAsync }),
      [V1_HEADERS.idempotencyKey]: z
        .string()
        .max(255)
        .optional()
        .meta({ description: "Any unique string (a UUID is a good choice) that makes retrying this POST safe.", example: EXAMPLE_IDS.request }),
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
      409: error("The request_id was already used: send a new UUID for each decision.", one("Reused request_id", exampleErrors.requestIdReused)),
      413: error("The images are too large.", one("Images too large", exampleErrors.imagesTooLarge)),
      422: error(`The ${V1_HEADERS.idempotencyKey} was already used with a different request body.`, one("Key reused", exampleErrors.idempotencyConflict)),
      504: error(
        `The models took too long; the decision still completes and is stored (use \`${V1_HEADERS.prefer}: ${V1_HEADERS.respondAsync}\` for long decisions).`,
        one("Timed out", exampleErrors.timedOut),
      ),
    },
  },
  {
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
  },
  ...["/v1/decision-history", "/decision-history"].map(
    (path): DocumentedOperation => ({
      method: "get",
      path,
      tag: "v1",
      operationId: path === "/decision-history" ? "listDecisionHistoryExternal" : "listDecisionHistory",
      summary: path === "/decision-history" ? "List the key owner's decisions (same as /v1/decision-history)" : "List the key owner's decisions",
      description:
        "The key owner's decisions, newest first, with the filters and paging of the web app's history. `total` counts every match; `limit` (default 50) and `offset` page through them.",
      access: "api-key",
      query: DecisionHistoryQuerySchema,
      responses: {
        200: { description: "A page of decisions.", body: json(DecisionHistoryListResponseSchema, one("One decision", exampleHistoryPage)), headers: RATE_LIMIT_HEADERS },
        400: error("A filter is invalid.", one("Bad limit", exampleErrors.badHistoryQuery)),
        ...apiKeyErrors,
      },
    }),
  ),
];

// ---------------------------------------------------------------- the web app's endpoints (/api)

const decisionRequestExamples = {
  decision: { summary: "A question with three allowed answers", value: { question: EXAMPLE_QUESTION, categories: EXAMPLE_CATEGORIES } },
  live: {
    summary: "Followed live: join the request's Socket.IO room with this request_id first",
    value: { question: EXAMPLE_QUESTION, categories: EXAMPLE_CATEGORIES, request_id: EXAMPLE_IDS.request },
  },
};

const decisionOperations: DocumentedOperation[] = [
  {
    method: "post",
    path: "/api/ensembled-llm-categorical-decision-public",
    tag: "decisions",
    operationId: "decidePublic",
    summary: "Make a decision (anyone)",
    description: "The playground's endpoint for visitors: nothing is stored as image assets. Rate limited per address.",
    access: "public",
    body: json(DecisionRequestSchema, decisionRequestExamples),
    responses: { 200: { description: "The combined decision.", body: json(DecisionResponseSchema, one("Two of three models agreed", exampleDecisionResponse)) }, ...decisionErrors("public") },
  },
  {
    method: "post",
    path: "/api/ensembled-llm-categorical-decision",
    tag: "decisions",
    operationId: "decide",
    summary: "Make a decision (signed in)",
    description: "The same for a signed-in user: the decision is stored as theirs and its images as their image assets. Rate limited per user.",
    access: "bearer",
    body: json(DecisionRequestSchema, decisionRequestExamples),
    responses: { 200: { description: "The combined decision.", body: json(DecisionResponseSchema, one("Two of three models agreed", exampleDecisionResponse)) }, ...decisionErrors("bearer") },
  },
  {
    method: "post",
    path: "/api/smart-suggestion-public",
    tag: "decisions",
    operationId: "suggestCategories",
    summary: "Suggest answer categories",
    description: "One fast model proposes categories for a question; those matching `existing_choices` (ignoring case) are left out.",
    access: "public",
    body: json(SuggestionRequestSchema, one("Two choices already", { question: EXAMPLE_QUESTION, images: [], existing_choices: ["Yes", "No"] })),
    responses: {
      200: {
        description: "The suggestions, each with a confidence from 0 to 1.",
        body: json(SuggestionResponseSchema, one("Two suggestions", { suggestions: [{ category: "Wait until Monday", confidence: 0.82 }, { category: "Ship behind a feature flag", confidence: 0.64 }] })),
      },
      400: error("No question.", one("No question", exampleErrors.suggestionQuestionRequired)),
      413: error("The images are too large.", one("Images too large", exampleErrors.imagesTooLarge)),
      429: tooManyRequests,
      502: error("The model could not be asked.", one("Model failed", exampleErrors.suggestionsFailed)),
    },
  },
  {
    method: "get",
    path: "/api/decision-history",
    tag: "history",
    operationId: "listMyDecisions",
    summary: "List my decisions",
    description: "The signed-in user's decisions, newest first. Dates are a day (YYYY-MM-DD, whole UTC day) or an ISO 8601 instant; both bounds are inclusive.",
    access: "bearer",
    query: DecisionHistoryQuerySchema,
    responses: {
      200: { description: "A page of decisions.", body: json(DecisionHistoryListResponseSchema, one("One decision", exampleHistoryPage)) },
      400: error("A filter is invalid.", one("Bad limit", exampleErrors.badHistoryQuery)),
      401: unauthorized,
    },
  },
  {
    method: "get",
    path: "/api/decision-history/{id}",
    tag: "history",
    operationId: "getMyDecision",
    summary: "Get one of my decisions",
    access: "bearer",
    params: idParam("The decision's id."),
    responses: {
      200: { description: "The decision.", body: json(DecisionHistoryDetailResponseSchema, one("Found", { success: true, decision: exampleHistoryItem, message: HISTORY_MESSAGES.found })) },
      401: unauthorized,
      404: error("No decision with this id is the caller's.", one("Unknown id", exampleErrors.decisionNotFound)),
    },
  },
];

// ---------------------------------------------------------------- image assets

const assetList = (description: string, message: string, assets: unknown[], total = assets.length): DocumentedResponse => ({
  description,
  body: json(ImageAssetListResponseSchema, one(message, { success: true, message, imageAssets: assets, total })),
});
const assetFailure = (description: string, message: string): DocumentedResponse => ({
  description,
  body: json(ImageAssetListResponseSchema, one(message, exampleImageAssetFailure(message))),
});
const assetAuthFailures = {
  401: assetFailure("A write without a bearer token, or a bad or expired token.", IMAGE_ASSET_MESSAGES.signInRequired),
  403: assetFailure("A `user_id` that names another user.", IMAGE_ASSET_MESSAGES.otherUser),
};
const ownerQuery = ImageAssetOwnerSchema;
const userIdParam = z.object({ userId: z.string().meta({ description: "The caller's own user id.", example: EXAMPLE_IDS.user }) });

const imageAssetOperations: DocumentedOperation[] = [
  {
    method: "post",
    path: "/api/image-assets",
    tag: "imageAssets",
    operationId: "storeImageAsset",
    summary: "Store an image of my decision",
    description: "`image_type` and `file_size` are derived from `image_data`; values sent for them must agree.",
    access: "optional-bearer",
    body: json(ImageAssetCreateSchema, one("The first image", { decisionHistory_id: EXAMPLE_IDS.decision, label: "image1", image_data: EXAMPLE_IMAGE })),
    responses: {
      201: assetList("Stored.", IMAGE_ASSET_MESSAGES.created, [exampleImageAsset]),
      400: assetFailure("The body is invalid.", "label must be image1, image2, ..."),
      ...assetAuthFailures,
      404: assetFailure("No decision with this id is the caller's.", IMAGE_ASSET_MESSAGES.decisionNotFound),
      409: assetFailure("The decision already has an image with this label.", IMAGE_ASSET_MESSAGES.labelTaken),
      413: assetFailure("The image is too large.", exampleErrors.imagesTooLarge.detail),
    },
  },
  {
    method: "get",
    path: "/api/image-assets/decision/{id}",
    tag: "imageAssets",
    operationId: "listDecisionImageAssets",
    summary: "List a decision's images",
    description: "Without a bearer token the list is empty.",
    access: "optional-bearer",
    params: idParam("The decision's id."),
    query: ownerQuery,
    responses: { 200: assetList("The decision's images, by label.", IMAGE_ASSET_MESSAGES.listed(1), [exampleImageAsset]), ...assetAuthFailures },
  },
  {
    method: "get",
    path: "/api/image-assets/user/{userId}",
    tag: "imageAssets",
    operationId: "listMyImageAssets",
    summary: "List my images",
    description: "Newest first. Without a bearer token the list is empty.",
    access: "optional-bearer",
    params: userIdParam,
    query: ImageAssetListQuerySchema,
    responses: {
      200: assetList("The caller's images.", IMAGE_ASSET_MESSAGES.listed(1), [exampleImageAsset]),
      400: assetFailure("The limit is invalid.", "limit must be a whole number from 1 to 200."),
      ...assetAuthFailures,
    },
  },
  {
    method: "get",
    path: "/api/image-assets/{id}",
    tag: "imageAssets",
    operationId: "getImageAsset",
    summary: "Get one image",
    access: "optional-bearer",
    params: z.object({ id: z.string().meta({ description: "The image asset's id.", example: EXAMPLE_IDS.imageAsset }) }),
    query: ownerQuery,
    responses: {
      200: assetList("The image.", IMAGE_ASSET_MESSAGES.found, [exampleImageAsset]),
      ...assetAuthFailures,
      404: assetFailure("No image with this id is the caller's (always without a token).", IMAGE_ASSET_MESSAGES.notFound),
    },
  },
  {
    method: "delete",
    path: "/api/image-assets/decision/{id}",
    tag: "imageAssets",
    operationId: "deleteDecisionImageAssets",
    summary: "Delete all images of my decision",
    description: "The deleted images are not sent back: `total` counts them.",
    access: "optional-bearer",
    params: idParam("The decision's id."),
    body: json(ownerQuery, one("Optional: the caller's own user id", { user_id: EXAMPLE_IDS.user })),
    responses: {
      200: assetList("Deleted.", IMAGE_ASSET_MESSAGES.deletedForDecision(1), [], 1),
      ...assetAuthFailures,
      404: assetFailure("No decision with this id is the caller's.", IMAGE_ASSET_MESSAGES.decisionNotFound),
    },
  },
  {
    method: "delete",
    path: "/api/image-assets/{id}",
    tag: "imageAssets",
    operationId: "deleteImageAsset",
    summary: "Delete one image",
    access: "optional-bearer",
    params: z.object({ id: z.string().meta({ description: "The image asset's id.", example: EXAMPLE_IDS.imageAsset }) }),
    body: json(ownerQuery, one("Optional: the caller's own user id", { user_id: EXAMPLE_IDS.user })),
    responses: {
      200: assetList("Deleted.", IMAGE_ASSET_MESSAGES.deleted, [exampleImageAsset]),
      ...assetAuthFailures,
      404: assetFailure("No image with this id is the caller's.", IMAGE_ASSET_MESSAGES.notFound),
    },
  },
];

// ---------------------------------------------------------------- API keys and usage

const keyIdParam = z.object({ id: z.string().meta({ description: "The API key's id.", example: EXAMPLE_IDS.apiKey }) });
const keyNotFound = error("No API key with this id is the caller's.", one("Unknown id", exampleErrors.keyNotFound));

const apiKeyOperations: DocumentedOperation[] = [
  {
    method: "get",
    path: "/api/api-keys",
    tag: "apiKeys",
    operationId: "listApiKeys",
    summary: "List my API keys",
    description: "Newest first, without the secret (read it with the reveal call). `cost` is in US dollars.",
    access: "bearer",
    responses: { 200: { description: "The caller's keys.", body: json(ApiKeyListSchema, one("One key", [exampleApiKey])) }, 401: unauthorized },
  },
  {
    method: "post",
    path: "/api/api-keys",
    tag: "apiKeys",
    operationId: "createApiKey",
    summary: "Create an API key",
    description: "The name is trimmed and required; the workspace defaults to 'Default'. The answer carries the secret in `keyvalue`.",
    access: "bearer",
    body: json(ApiKeyCreateSchema, one("A key for a bot", { name: "Release bot", workspace: "Default" })),
    responses: {
      201: {
        description: "The new key, with its secret.",
        body: json(ApiKeySchema, one("Created", { ...exampleApiKey, last_used_at: null, cost: 0, keyvalue: EXAMPLE_API_KEY })),
      },
      400: error("No name.", one("No name", exampleErrors.keyNameRequired)),
      401: unauthorized,
      429: tooManyRequests,
    },
  },
  {
    method: "put",
    path: "/api/api-keys/{id}",
    tag: "apiKeys",
    operationId: "updateApiKey",
    summary: "Switch an API key on or off",
    description: "A key switched off stops working at once.",
    access: "bearer",
    params: keyIdParam,
    body: json(ApiKeyUpdateSchema, one("Switch off", { active_status: false })),
    responses: {
      200: { description: "The updated key.", body: json(ApiKeySchema, one("Switched off", { ...exampleApiKey, active_status: false })) },
      400: error("active_status is not a boolean.", one("Not a boolean", { detail: "active_status must be true or false." })),
      401: unauthorized,
      404: keyNotFound,
    },
  },
  {
    method: "delete",
    path: "/api/api-keys/{id}",
    tag: "apiKeys",
    operationId: "deleteApiKey",
    summary: "Delete an API key",
    description: "A deleted key stops working at once.",
    access: "bearer",
    params: keyIdParam,
    responses: {
      200: { description: "Deleted.", body: json(ApiKeyDeleteSchema, one("Deleted", { success: true, message: "API key deleted successfully" })) },
      401: unauthorized,
      404: keyNotFound,
    },
  },
  {
    method: "get",
    path: "/api/api-keys/{id}/reveal",
    tag: "apiKeys",
    operationId: "revealApiKey",
    summary: "Reveal an API key's secret",
    access: "bearer",
    params: keyIdParam,
    responses: { 200: { description: "The secret.", body: json(ApiKeyRevealSchema, one("Revealed", { api_key: EXAMPLE_API_KEY })) }, 401: unauthorized, 404: keyNotFound, 429: tooManyRequests },
  },
  {
    method: "get",
    path: "/api/usage",
    tag: "apiKeys",
    operationId: "getUsage",
    summary: "This month's API requests and image storage",
    description: `API requests through the caller's keys since the first of the month (UTC), against ${FREE_TIER.apiRequestsPerMonth.toLocaleString("en-US")}; stored image bytes against 1 GB.`,
    access: "bearer",
    responses: {
      200: {
        description: "Usage and limits.",
        body: json(UsageSchema, one("Early in the month", { period_start: "2025-09-01T00:00:00.000Z", api_requests: 42, api_request_limit: FREE_TIER.apiRequestsPerMonth, storage_bytes: 68, storage_limit_bytes: FREE_TIER.storageBytes })),
      },
      401: unauthorized,
    },
  },
];

// ---------------------------------------------------------------- accounts

const authOperations: DocumentedOperation[] = [
  {
    method: "post",
    path: "/api/auth/magic-link/request",
    tag: "auth",
    operationId: "requestMagicLink",
    summary: "Email a sign-in link",
    description: "The same answer whether or not the address has an account.",
    access: "public",
    body: json(MagicLinkRequestSchema, one("An address", { email: EXAMPLE_EMAIL })),
    responses: {
      200: { description: "Sent.", body: json(AuthMessageResponseSchema, one("Sent", { message: AUTH_MESSAGES.magicLinkSent })) },
      400: error("The email is missing or invalid.", one("No email", { detail: AUTH_MESSAGES.emailRequired, title: "Email required" })),
      429: tooManyRequests,
      503: error("The mail could not be sent.", one("Mail failed", exampleErrors.mailFailed)),
    },
  },
  {
    method: "post",
    path: "/api/auth/magic-link/verify",
    tag: "auth",
    operationId: "verifyMagicLink",
    summary: "Sign in with a magic-link token",
    access: "public",
    body: json(MagicLinkVerifySchema, one("The token from the link", { token: "mlt_9fK2pQ7xV1bN4sR8tY3wZ6aC0dE5gH" })),
    responses: {
      200: { description: "Signed in.", body: json(AuthResponseSchema, one("Signed in", exampleAuthResponse)) },
      400: error("The link is invalid, used or expired.", one("Bad link", exampleErrors.invalidMagicLink)),
      429: tooManyRequests,
    },
  },
  {
    method: "get",
    path: "/api/auth/google/authorize",
    tag: "auth",
    operationId: "authorizeGoogle",
    summary: "Start Google sign-in",
    description: "Send the browser to `authorization_url`; Google comes back to /auth/callback with `code` and `state`.",
    access: "public",
    responses: {
      200: {
        description: "Where to send the browser.",
        body: json(GoogleAuthorizationSchema, one("Authorization", { state: "st_4kP9qX2vB7nM1sT8", authorization_url: "https://accounts.google.com/o/oauth2/v2/auth?client_id=...&state=st_4kP9qX2vB7nM1sT8" })),
      },
      429: tooManyRequests,
      503: error("Google sign-in is not configured.", one("Not configured", exampleErrors.googleNotConfigured)),
    },
  },
  {
    method: "post",
    path: "/api/auth/google/callback",
    tag: "auth",
    operationId: "completeGoogleSignIn",
    summary: "Finish Google sign-in",
    access: "public",
    body: json(GoogleCallbackSchema, one("The callback's parameters", { code: "4/0AX4XfWh-example", state: "st_4kP9qX2vB7nM1sT8" })),
    responses: {
      200: { description: "Signed in.", body: json(AuthResponseSchema, one("Signed in", { ...exampleAuthResponse, user: { ...exampleAuthResponse.user, name: "Ada Lovelace" } })) },
      400: error("The attempt is invalid or expired.", one("Bad state", { detail: AUTH_MESSAGES.invalidGoogleState })),
      429: tooManyRequests,
      503: error("Google sign-in is not configured.", one("Not configured", exampleErrors.googleNotConfigured)),
    },
  },
  {
    method: "post",
    path: "/api/auth/refresh",
    tag: "auth",
    operationId: "refreshTokens",
    summary: "Exchange a refresh token for new tokens",
    description: "Refresh tokens rotate: each is used once.",
    access: "public",
    body: json(RefreshRequestSchema, one("A refresh token", { refresh_token: exampleAuthResponse.tokens.refresh_token })),
    responses: {
      200: { description: "New tokens.", body: json(AuthTokensSchema, one("Refreshed", exampleAuthResponse.tokens)) },
      401: error("The refresh token is invalid, used or expired.", one("Expired", exampleErrors.invalidRefreshToken)),
      429: tooManyRequests,
    },
  },
  {
    method: "post",
    path: "/api/auth/logout",
    tag: "auth",
    operationId: "logout",
    summary: "Sign out",
    access: "bearer",
    responses: { 200: { description: "Signed out.", body: json(AuthMessageResponseSchema, one("Signed out", { message: AUTH_MESSAGES.signedOut })) }, 401: unauthorized },
  },
  {
    method: "get",
    path: "/api/auth/admin-check",
    tag: "auth",
    operationId: "adminCheck",
    summary: "Am I an admin?",
    access: "bearer",
    responses: { 200: { description: "The caller's role.", body: json(AdminCheckResponseSchema, one("Not an admin", { is_admin: false })) }, 401: unauthorized },
  },
];

// ---------------------------------------------------------------- site

/**
 * The job-application form as it travels (multipart). Its rules are the form's plain functions in
 * libs/contracts (`validateJobApplication`, `targetError`, `resumeError`); this schema describes
 * the fields and their bounds for the reference.
 */
const JobApplicationFormSchema = z.object({
  name: z.string().max(JOB_APPLICATION_LIMITS.maxNameLength).meta({ description: JOB_APPLICATION_MESSAGES.nameRequired }),
  email: z.string().max(JOB_APPLICATION_LIMITS.maxEmailLength).meta({ description: JOB_APPLICATION_MESSAGES.emailRequired }),
  phone: z.string().max(JOB_APPLICATION_LIMITS.maxPhoneLength).meta({ description: "An optional +, a digit 1-9, then up to 15 more digits (spaces, dashes and parentheses are ignored)." }),
  linkedin: z.string().max(JOB_APPLICATION_LIMITS.maxLinkedinLength).meta({ description: "A LinkedIn profile URL." }),
  accomplishment: z.string().max(JOB_APPLICATION_LIMITS.maxAccomplishmentLength).meta({ description: "Most incredible accomplishment, at most 100 characters." }),
  position: z.string().max(JOB_APPLICATION_LIMITS.maxPositionLength),
  department: z.string().max(JOB_APPLICATION_LIMITS.maxDepartmentLength),
  resume: z
    .unknown()
    .optional()
    .meta({ description: "Optional PDF resume, at most 10 MB.", override: { type: "string", format: "binary", contentMediaType: "application/pdf" } }),
});

const siteOperations: DocumentedOperation[] = [
  {
    method: "get",
    path: "/api/providers",
    tag: "site",
    operationId: "listProviders",
    summary: "The models a decision may ask",
    description:
      "Every configured model a request's `models` (its panel) may name, the default panel (the playground's rows) and the default judge; `simulated` is true when the provider emulator answers because no vendor key is configured.",
    access: "public",
    responses: {
      200: {
        description: "The models.",
        body: json(
          ProvidersResponseSchema,
          one("Four models, the playground's three by default", {
            providers: [
              { id: "openai", label: "OpenAI GPT-4o", model: "gpt-4o", simulated: false },
              { id: "gemini", label: "Google Gemini 2.5 Flash", model: "gemini-2.5-flash", simulated: false },
              { id: "claude", label: "Anthropic Claude Sonnet 3.5", model: "claude-sonnet-4-6", simulated: false },
              { id: "gpt5", label: "OpenAI GPT-5", model: "gpt-5", simulated: false },
            ],
            default_panel: ["openai", "gemini", "claude"],
            default_judge: "gpt5",
            default_rounds: 3,
          }),
        ),
      },
    },
  },
  {
    method: "post",
    path: "/api/email-request",
    tag: "site",
    operationId: "joinWaitlist",
    summary: "Join the waitlist",
    description: "Answers `{success, message}`, also for a refused address (status 400).",
    access: "public",
    body: json(z.object({ email: EmailSchema }), one("An address", { email: EXAMPLE_EMAIL })),
    responses: {
      200: { description: "On the list.", body: json(WaitlistResponseSchema, one("Joined", { success: true, message: "Thanks for joining the waitlist! We'll email you as soon as your access is ready." })) },
      400: { description: "The email is missing or invalid.", body: json(WaitlistResponseSchema, one("No email", { success: false, message: AUTH_MESSAGES.emailRequired })) },
      429: tooManyRequests,
    },
  },
  {
    method: "post",
    path: "/api/job-application",
    tag: "site",
    operationId: "applyForJob",
    summary: "Apply for a position",
    description: "A multipart form; the hiring team is emailed and answers within 2-3 business days.",
    access: "public",
    body: {
      schema: JobApplicationFormSchema,
      contentType: "multipart/form-data",
      examples: one("An application", {
        name: "Ada Lovelace",
        email: EXAMPLE_EMAIL,
        phone: "+1 (650) 555-0100",
        linkedin: "https://www.linkedin.com/in/ada-lovelace",
        accomplishment: "Wrote the first program for the Analytical Engine.",
        position: "Software Engineers",
        department: "Engineering",
      }),
    },
    responses: {
      200: { description: "Received.", body: json(JobApplicationResponseSchema, one("Submitted", { message: JOB_APPLICATION_MESSAGES.submitted, application_id: EXAMPLE_IDS.application })) },
      400: error("A field is missing or invalid: `detail` names the first problem.", one("Bad phone", exampleErrors.phoneInvalid)),
      413: error("The resume is larger than 10 MB.", one("Too large", exampleErrors.resumeTooLarge)),
      429: tooManyRequests,
    },
  },
];

// ---------------------------------------------------------------- operations

const healthOperations: DocumentedOperation[] = [
  {
    method: "get",
    path: "/health",
    tag: "operations",
    operationId: "health",
    summary: "Is the process up?",
    access: "public",
    responses: { 200: { description: "Up.", body: json(z.object({ status: z.literal("ok") }), one("Up", { status: "ok" })) } },
  },
  {
    method: "get",
    path: "/ready",
    tag: "operations",
    operationId: "ready",
    summary: "Can it serve? (Redis and the store answer, and the store can write)",
    access: "public",
    responses: {
      200: {
        description: "Ready; or degraded (still serving) while journal damage kept at start is not acknowledged, `detail` naming the files.",
        body: json(z.object({ status: z.enum(["ready", "degraded"]), detail: z.string().optional() }), one("Ready", { status: "ready" })),
      },
      503: {
        description: "Redis or the store does not answer, or the store's disk is full (`detail` says why).",
        body: json(z.object({ status: z.literal("unavailable"), detail: z.string() }), one("Redis down", { status: "unavailable", detail: "Connection is closed." })),
      },
    },
  },
];

// ---------------------------------------------------------------- the admin dashboard (/api/admin)

const forbiddenForNonAdmins = error("Signed in, but not an admin (the email is not in ADMIN_EMAILS).", one("Not an admin", { detail: ADMIN_MESSAGES.forbidden }));
const badPeriod = error("period is not day, week or month (or is repeated).", one("Bad period", { detail: ADMIN_MESSAGES.badPeriod }));
const exampleNow = "2025-01-01T12:00:00.000Z";

const adminOperations: DocumentedOperation[] = [
  {
    method: "get",
    path: "/api/admin/usage-stats",
    tag: "admin",
    operationId: "adminUsageStats",
    summary: "Usage statistics of a period",
    description:
      "Decisions in [now - period, now] (a month is 30 days): totals, errors (any model error), results (a final decision and no error), users and IPs, processing time, the top 5 final decisions, the last 7 UTC days, the most active users (plus one row for all anonymous decisions) and the IPs of anonymous decisions.",
    access: "bearer",
    query: adminPeriodQuery("month"),
    responses: {
      200: {
        description: "The period's statistics.",
        body: json(
          UsageStatsResponseSchema,
          one("A month", {
            success: true,
            stats: {
              period: "month",
              summary: {
                total_decisions: 4,
                recent_activity: 1,
                decisions_with_errors: 1,
                decisions_with_results: 3,
                error_rate_percentage: 25,
                unique_authenticated_users: 1,
                unique_ips: 2,
                authenticated_decisions: 3,
                anonymous_decisions: 1,
              },
              performance: { avg_processing_time_ms: 1500, total_processing_time_seconds: 6 },
              categories: { top_categories: [{ category: "TypeScript", count: 3 }] },
              trends: { daily_usage: [{ date: "2025-01-01", count: 4 }] },
              active_users: [
                { user_id: EXAMPLE_IDS.user, display_name: "ada", is_authenticated: true, decision_count: 3 },
                { user_id: "anonymous", display_name: "Anonymous", is_authenticated: false, decision_count: 1 },
              ],
              active_ips: [{ ip: "203.0.113.7", count: 1 }],
            },
          }),
        ),
      },
      400: badPeriod,
      401: unauthorized,
      403: forbiddenForNonAdmins,
    },
  },
  {
    method: "get",
    path: "/api/admin/recent-decisions",
    tag: "admin",
    operationId: "adminRecentDecisions",
    summary: "The period's latest decisions (at most 100, newest first)",
    access: "bearer",
    query: adminPeriodQuery("day"),
    responses: {
      200: {
        description: "Newest first.",
        body: json(
          RecentDecisionsResponseSchema,
          one("One decision", {
            success: true,
            period: "day",
            decisions: [
              {
                id: EXAMPLE_IDS.decision,
                question: EXAMPLE_QUESTION,
                timestamp: exampleNow,
                user_email: EXAMPLE_EMAIL,
                user_ip: "203.0.113.7",
                ensemble_mode: "majority_voting",
                processing_time_ms: 1234,
                categories: EXAMPLE_CATEGORIES,
                final_decision: EXAMPLE_CATEGORIES[0],
                error_details: {},
              },
            ],
          }),
        ),
      },
      400: badPeriod,
      401: unauthorized,
      403: forbiddenForNonAdmins,
    },
  },
  {
    method: "get",
    path: "/api/admin/system-health",
    tag: "admin",
    operationId: "adminSystemHealth",
    summary: "System health from measured facts",
    description:
      "Each check (database, redis, workers, queue_backlog, queue_age, rate_limits, error_rate, activity) with its status, measured value and message; the overall status is the worst check's. rate_limits warns while a provider's vote queue is paused by the vendor's Retry-After or its spent tokens per minute (<ID>_TPM), or has used up its requests per minute (<ID>_RPM), naming the providers and the seconds left. Probes are bounded (2 s), so an outage answers quickly as critical.",
    access: "bearer",
    query: adminPeriodQuery("day"),
    responses: {
      200: {
        description: "The status and its checks.",
        body: json(
          SystemHealthSchema,
          one("Healthy", {
            status: "healthy",
            timestamp: exampleNow,
            period: "day",
            period_hours: 24,
            metrics: { decisions_in_period: 12, decisions_last_hour: 2, avg_processing_time_ms: 1480.5 },
            health_checks: {
              database: { status: "healthy", value: true, message: "Database reachable" },
              activity: { status: "healthy", value: 2, message: "2 decisions in the last hour" },
            },
          }),
        ),
      },
      400: badPeriod,
      401: unauthorized,
      403: forbiddenForNonAdmins,
    },
  },
  {
    method: "post",
    path: "/api/admin/storage/acknowledge-damage",
    tag: "admin",
    operationId: "adminAcknowledgeStorageDamage",
    summary: "Acknowledge journal damage kept at start",
    description:
      "Renames each `<journal>.damaged` file in DATA_DIR (the bytes a start dropped from a journal's end) to `<file>.acknowledged-<UTC time>`: nothing is deleted, and /ready and the storage check of system health stop saying degraded, also after a restart. Moving the files out of DATA_DIR does the same.",
    access: "bearer",
    responses: {
      200: {
        description: "The files renamed (none when there was no damage).",
        body: json(AcknowledgeDamageResponseSchema, one("One file", { success: true, acknowledged: ["/data/decisions.journal.jsonl.damaged.acknowledged-2025-01-01T12-00-00.000Z"] })),
      },
      401: unauthorized,
      403: forbiddenForNonAdmins,
    },
  },
  {
    method: "post",
    path: "/api/admin/queues-session",
    tag: "admin",
    operationId: "adminQueuesSession",
    summary: "Open the queue view (Bull Board)",
    description:
      "Sets the short-lived session cookie the queue view at /admin/queues needs (a page navigation cannot send a bearer token): HttpOnly, SameSite=Strict, Path=/admin/queues, Secure over https, valid for at most 10 minutes and never longer than the access token it was made from. The view re-checks the session and the admin role on every request.",
    access: "bearer",
    responses: {
      200: {
        description: "The cookie is set; open `url` within `expires_in` seconds.",
        body: json(QueuesSessionResponseSchema, one("Ten minutes", { url: "/admin/queues/", expires_in: 600 })),
        headers: z.object({
          "Set-Cookie": z.string().meta({
            description: "The queue view's session.",
            example: "sd_queues_session=<token>; Max-Age=600; Path=/admin/queues; HttpOnly; SameSite=Strict",
          }),
        }),
      },
      401: unauthorized,
      403: forbiddenForNonAdmins,
    },
  },
];

// ---------------------------------------------------------------- what every body is refused for (http/json-body.ts)

const DECISION_BODIES: readonly z.ZodType[] = [DecisionRequestSchema, V1EnsembleRequestSchema];

/** Adds an example to a documented answer (a copy: the answers are shared between operations). */
function withExample(response: DocumentedResponse, name: string, example: DocumentedExample): DocumentedResponse {
  return { ...response, body: response.body && { ...response.body, examples: { ...response.body.examples, [name]: example } } };
}

/**
 * Every operation with a body refuses a compressed one (415); the JSON ones without images are
 * bounded at 100 KB (413), and the decision bodies in nesting (400) and in values (413).
 */
function withBodyRefusals(op: DocumentedOperation): DocumentedOperation {
  if (!op.body) return op;
  const assets = op.path.startsWith("/api/image-assets");
  const refusal = (description: string, summary: string, detail: string) => (assets ? assetFailure(description, detail) : error(description, one(summary, { detail })));
  const responses = { ...op.responses };
  responses[415] = refusal("The body is compressed (a Content-Encoding other than identity): send it uncompressed.", "Compressed body", BODY_MESSAGES.compressed("gzip"));
  if (op.body.contentType !== "multipart/form-data" && responses[413] === undefined) {
    responses[413] = refusal(`The body is larger than ${SMALL_BODY_LIMIT_BYTES / 1024} KB.`, "Body too large", BODY_MESSAGES.tooLarge(SMALL_BODY_LIMIT_BYTES));
  }
  if (DECISION_BODIES.includes(op.body.schema)) {
    responses[400] = withExample(responses[400]!, "tooDeep", { summary: "Nested too deep", value: { detail: BODY_MESSAGES.tooDeep } });
    responses[413] = withExample(responses[413]!, "tooManyValues", { summary: "Too many JSON values", value: { detail: BODY_MESSAGES.tooManyValues } });
  }
  return { ...op, responses };
}

export const OPERATIONS: readonly DocumentedOperation[] = [
  ...v1Operations,
  ...decisionOperations,
  ...imageAssetOperations,
  ...apiKeyOperations,
  ...authOperations,
  ...siteOperations,
  ...healthOperations,
  ...adminOperations,
].map(withBodyRefusals);
