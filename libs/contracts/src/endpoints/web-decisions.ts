import {
  DecisionHistoryDetailResponseSchema,
  DecisionHistoryListResponseSchema,
  DecisionHistoryQuerySchema,
  DecisionRequestSchema,
  DecisionResponseSchema,
  HISTORY_MESSAGES,
  RerunRequestSchema,
  RerunResponseSchema,
  SuggestionRequestSchema,
  SuggestionResponseSchema,
} from "../index";
import {
  EXAMPLE_CATEGORIES,
  EXAMPLE_IDS,
  EXAMPLE_QUESTION,
  exampleDecisionResponse,
  exampleErrors,
  exampleHistoryItem,
  exampleHistoryPage,
} from "./examples";
import { decisionErrors, json, one, error, tooManyRequests, unauthorized, idParam } from "./shared";
import { defineEndpoint } from "./define";

// ---------------------------------------------------------------- the web app's endpoints (/api)

const decisionRequestExamples = {
  decision: { summary: "A question with three allowed answers", value: { question: EXAMPLE_QUESTION, categories: EXAMPLE_CATEGORIES } },
  live: {
    summary: "Followed live: join the request's Socket.IO room with this request_id first",
    value: { question: EXAMPLE_QUESTION, categories: EXAMPLE_CATEGORIES, request_id: EXAMPLE_IDS.request },
  },
};

export const decisionEndpoints = [
  defineEndpoint({
    method: "post",
    path: "/api/ensembled-llm-categorical-decision-public",
    tag: "decisions",
    operationId: "decidePublic",
    summary: "Make a decision (anyone)",
    description: "The playground's endpoint for visitors: nothing is stored as image assets. Rate limited per address.",
    access: "public",
    body: json(DecisionRequestSchema, decisionRequestExamples),
    responses: { 200: { description: "The combined decision.", body: json(DecisionResponseSchema, one("Two of three models agreed", exampleDecisionResponse)) }, ...decisionErrors("public") },
  }),
  defineEndpoint({
    method: "post",
    path: "/api/ensembled-llm-categorical-decision",
    tag: "decisions",
    operationId: "decide",
    summary: "Make a decision (signed in)",
    description: "The same for a signed-in user: the decision is stored as theirs and its images as their image assets. Rate limited per user.",
    access: "bearer",
    body: json(DecisionRequestSchema, decisionRequestExamples),
    responses: { 200: { description: "The combined decision.", body: json(DecisionResponseSchema, one("Two of three models agreed", exampleDecisionResponse)) }, ...decisionErrors("bearer") },
  }),
  defineEndpoint({
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
  }),
  defineEndpoint({
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
  }),
  defineEndpoint({
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
  }),
  defineEndpoint({
    method: "post",
    path: "/api/decisions/{id}/rerun",
    tag: "decisions",
    operationId: "rerunMyDecision",
    summary: "Re-run one of my decisions",
    description:
      "Asks the models again on a decision's question, categories and images, as a new decision linked to the first (its `rerun_of`). " +
      "Options left out keep the first decision's mode, panel, judge and early quorum. Rate limited per user, as a decision.",
    access: "bearer",
    params: idParam("The id of the decision to re-run."),
    body: json(RerunRequestSchema, {
      judge: { summary: "Ask a judge model this time", value: { ensemble_mode: "judge" } },
      panel: { summary: "Another panel, same mode", value: { models: ["openai", "claude"] } },
    }),
    responses: {
      200: {
        description: "The new decision, linked to the first.",
        body: json(RerunResponseSchema, one("Re-run as a judge decision", { ...exampleDecisionResponse, decision_id: EXAMPLE_IDS.request, rerun_of: EXAMPLE_IDS.decision })),
      },
      ...decisionErrors("bearer"),
      404: error("No decision with this id is the caller's.", one("Unknown id", exampleErrors.decisionNotFound)),
    },
  }),
] as const;
