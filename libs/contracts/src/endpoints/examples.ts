import {
  API_KEY_MESSAGES,
  AUTH_MESSAGES,
  DEFAULT_ENSEMBLE_MODE,
  DEFAULT_WORKSPACE,
  FREE_TIER,
  HISTORY_MESSAGES,
  IMAGE_ASSET_MESSAGES,
  JOB_APPLICATION_MESSAGES,
  MESSAGES,
  V1_ENSEMBLE_RESPONSE_EXAMPLE,
  V1_HEADERS,
  type ApiKey,
  type DecisionHistoryItem,
  type DecisionResponse,
  type V1EnsembleResponse,
} from "../index";

/**
 * The examples of the OpenAPI document: one coherent story (a release question asked by one user
 * with one key), so the reference reads like a session. Every example is checked against the zod
 * schema it illustrates (services/gateway/src/openapi/openapi.test.ts), so none can drift from
 * what the server accepts and answers.
 */

export const EXAMPLE_IDS = {
  decision: "8f14e45f-ceea-467f-a0e6-4b2d7d1f3c11",
  request: "0b6f1e9c-2f4a-4c1e-9d57-3c8a5e2b7f10",
  user: "c0ffee00-1111-4a2b-8c3d-1234567890ab",
  apiKey: "7d9a4c1e-5b3f-4e2a-9c8d-0f1e2d3c4b5a",
  imageAsset: "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d",
  application: "5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9",
} as const;

export const EXAMPLE_QUESTION = "Should we ship the release on Friday?";
export const EXAMPLE_CATEGORIES = ["Yes", "No", "Wait until Monday"];
export const EXAMPLE_EMAIL = "ada@example.com";
export const EXAMPLE_API_KEY = "sd_live_3q2l7cK9yV0bX4mN8pR1sT6uW5zA2dF7gH9jK3";
/** A 1x1 transparent PNG. */
export const EXAMPLE_IMAGE = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
const TIMESTAMP = "2025-09-08T09:30:12.345Z";

export const exampleDecisionResponse: DecisionResponse = {
  final_decision: "Wait until Monday",
  total_votes: 3,
  vote_counts: { Yes: 0, No: 1, "Wait until Monday": 2 },
  individual_responses: { openai: "Wait until Monday", gemini: "Wait until Monday", claude: "No" },
  context_explanation:
    '"Wait until Monday" won with 2 of 3 valid votes. OpenAI GPT-4o chose "Wait until Monday": a Friday release leaves nobody on hand if something breaks.',
  decision_id: EXAMPLE_IDS.decision,
  question: EXAMPLE_QUESTION,
};

export const exampleEnsembleResponse: V1EnsembleResponse = { ...V1_ENSEMBLE_RESPONSE_EXAMPLE, decision_id: EXAMPLE_IDS.decision };

export const exampleHistoryItem: DecisionHistoryItem = {
  id: EXAMPLE_IDS.decision,
  question: EXAMPLE_QUESTION,
  timestamp: TIMESTAMP,
  categories: EXAMPLE_CATEGORIES,
  final_decision: "Wait until Monday",
  vote_counts: { Yes: 0, No: 1, "Wait until Monday": 2 },
  total_votes: 3,
  context_explanation: exampleDecisionResponse.context_explanation ?? "",
  individual_responses: { openai: "Wait until Monday", gemini: "Wait until Monday", claude: "No" },
  raw_responses: { openai: "Wait until Monday", gemini: "wait until monday", claude: "No" },
  confidence_scores: { openai: 0.86, gemini: 0.78, claude: 0.64 },
  rationales: {
    openai: "A Friday release leaves nobody on hand if something breaks.",
    gemini: "Monday gives a full week to watch the release.",
    claude: "The release is not ready yet.",
  },
  model_versions: { openai: "gpt-4o-2024-08-06", gemini: "gemini-2.5-flash", claude: "claude-sonnet-4-6" },
  error_details: {},
  processing_time_ms: 2140,
  ensemble_mode: DEFAULT_ENSEMBLE_MODE,
  ensemble: {
    mode: DEFAULT_ENSEMBLE_MODE,
    panel: ["openai", "gemini", "claude"],
    weights: {},
    rounds: [
      [
        { provider: "openai", round: 1, category: "Wait until Monday", confidence: 0.86, reason: "A Friday release leaves nobody on hand if something breaks.", error: null },
        { provider: "gemini", round: 1, category: "Wait until Monday", confidence: 0.78, reason: "Monday gives a full week to watch the release.", error: null },
        { provider: "claude", round: 1, category: "No", confidence: 0.64, reason: "The release is not ready yet.", error: null },
      ],
    ],
    judge: null,
    early_quorum: null,
  },
  is_authenticated: true,
  user_ip: "203.0.113.7",
  user_email: EXAMPLE_EMAIL,
  images: [],
  token_usage: {
    openai: { input_tokens: 212, output_tokens: 31 },
    gemini: { input_tokens: 198, output_tokens: 27 },
    claude: { input_tokens: 240, output_tokens: 35 },
  },
  cost_usd: 0.00231,
  model_latencies_ms: { openai: 1180, gemini: 760, claude: 1410 },
  model_costs_usd: { openai: 0.00084, gemini: 0.00016, claude: 0.00131 },
  rerun_of: null,
};

export const exampleHistoryPage = {
  success: true,
  decisions: [exampleHistoryItem],
  message: HISTORY_MESSAGES.listed(1),
  total: 1,
  limit: 50,
  offset: 0,
};

export const exampleApiKey: ApiKey = {
  id: EXAMPLE_IDS.apiKey,
  name: "Release bot",
  workspace: DEFAULT_WORKSPACE,
  created_by: EXAMPLE_EMAIL,
  created_at: "2025-09-01T08:00:00.000Z",
  last_used_at: TIMESTAMP,
  cost: 0.0462,
  active_status: true,
  spend_this_month_usd: 0.0131,
  requests_this_month: 12,
  monthly_spend_limit_usd: 5,
};

export const exampleImageAsset = {
  id: EXAMPLE_IDS.imageAsset,
  user_id: EXAMPLE_IDS.user,
  decisionHistory_id: EXAMPLE_IDS.decision,
  label: "image1",
  image_data: EXAMPLE_IMAGE,
  image_type: "image/png",
  file_size: 68,
  created_at: TIMESTAMP,
};

export const exampleAuthResponse = {
  user: { id: EXAMPLE_IDS.user, email: EXAMPLE_EMAIL, name: null, is_verified: true, avatar_url: null },
  tokens: {
    access_token: "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJjMGZmZWUwMCJ9.c2lnbmF0dXJl",
    refresh_token: "rt_Vb3kq9X2mL7pQ1sT8uW4yZ6aC0dE5fG",
    expires_in: 900,
    token_type: "bearer" as const,
  },
};

/** `{detail}` error answers, by what went wrong. */
export const exampleErrors = {
  invalidCredentials: { detail: AUTH_MESSAGES.invalidCredentials },
  questionRequired: { detail: MESSAGES.questionRequired.detail, title: MESSAGES.questionRequired.title },
  categoriesRequired: { detail: MESSAGES.categoriesRequired.detail, title: MESSAGES.categoriesRequired.title },
  imagesTooLarge: { detail: MESSAGES.imagesTooLarge },
  tooManyRequests: { detail: "Too many requests. Please wait a minute and try again." },
  requestIdReused: { detail: "This request_id was already used. Send a new UUID for each decision." },
  timedOut: { detail: "The models are taking too long to answer. Please try again in a moment." },
  decisionNotFound: { detail: HISTORY_MESSAGES.notFound },
  missingKey: { detail: API_KEY_MESSAGES.missingKey },
  invalidKey: { detail: API_KEY_MESSAGES.invalidKey },
  keyRateLimited: { detail: API_KEY_MESSAGES.rateLimited },
  quotaExceeded: { detail: API_KEY_MESSAGES.quotaExceeded(FREE_TIER.apiRequestsPerMonth) },
  keyNameRequired: { detail: API_KEY_MESSAGES.nameRequired },
  keyNotFound: { detail: API_KEY_MESSAGES.notFound },
  spendLimitReached: { detail: API_KEY_MESSAGES.spendLimitReached(5, 5.0042) },
  spendLimitInvalid: { detail: API_KEY_MESSAGES.spendLimitInvalid },
  invalidMagicLink: { detail: AUTH_MESSAGES.invalidMagicLink },
  invalidRefreshToken: { detail: AUTH_MESSAGES.invalidRefreshToken },
  googleNotConfigured: { detail: AUTH_MESSAGES.googleNotConfigured },
  mailFailed: { detail: AUTH_MESSAGES.magicLinkMailFailed },
  suggestionsFailed: { detail: "Failed to get suggestions" },
  suggestionQuestionRequired: { detail: MESSAGES.suggestionQuestionRequired },
  badHistoryQuery: { detail: "limit must be a whole number from 0 to 200." },
  phoneInvalid: { detail: JOB_APPLICATION_MESSAGES.phoneInvalid },
  resumeTooLarge: { detail: JOB_APPLICATION_MESSAGES.resumeTooLarge },
  idempotencyConflict: {
    detail: `This ${V1_HEADERS.idempotencyKey} was already used with a different request body. Send a new ${V1_HEADERS.idempotencyKey} for a new request.`,
  },
  decisionFailed: { detail: "The decision could not be completed. Please submit it again." },
} as const;

/** Image-asset failures keep the list shape. */
export const exampleImageAssetFailure = (message: string) => ({ success: false, message, imageAssets: [], total: 0 });

export const exampleImageAssetMessages = IMAGE_ASSET_MESSAGES;
