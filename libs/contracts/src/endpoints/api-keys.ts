import { z } from "zod";
import {
  ApiKeyCreateSchema,
  ApiKeyDeleteSchema,
  ApiKeyListSchema,
  ApiKeyRevealSchema,
  ApiKeySchema,
  ApiKeySpendLimitSchema,
  ApiKeyUpdateSchema,
  FREE_TIER,
  UsageSchema,
} from "../index";
import {
  EXAMPLE_API_KEY,
  EXAMPLE_IDS,
  exampleApiKey,
  exampleErrors,
} from "./examples";
import { json, one, error, tooManyRequests, unauthorized } from "./shared";
import { defineEndpoint } from "./define";

// ---------------------------------------------------------------- API keys and usage

const keyIdParam = z.object({ id: z.string().meta({ description: "The API key's id.", example: EXAMPLE_IDS.apiKey }) });
const keyNotFound = error("No API key with this id is the caller's.", one("Unknown id", exampleErrors.keyNotFound));

export const apiKeyEndpoints = [
  defineEndpoint({
    method: "get",
    path: "/api/api-keys",
    tag: "apiKeys",
    operationId: "listApiKeys",
    summary: "List my API keys",
    description:
      "Newest first, without the secret (read it with the reveal call). `cost` is in US dollars, all time; `spend_this_month_usd` and `requests_this_month` count since the first of the month (UTC); `monthly_spend_limit_usd` is the limit set with PATCH, or null.",
    access: "bearer",
    responses: { 200: { description: "The caller's keys.", body: json(ApiKeyListSchema, one("One key", [exampleApiKey])) }, 401: unauthorized },
  }),
  defineEndpoint({
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
        body: json(
          ApiKeySchema,
          one("Created", { ...exampleApiKey, last_used_at: null, cost: 0, spend_this_month_usd: 0, requests_this_month: 0, monthly_spend_limit_usd: null, keyvalue: EXAMPLE_API_KEY }),
        ),
      },
      400: error("No name.", one("No name", exampleErrors.keyNameRequired)),
      401: unauthorized,
      429: tooManyRequests,
    },
  }),
  defineEndpoint({
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
  }),
  defineEndpoint({
    method: "patch",
    path: "/api/api-keys/{id}",
    tag: "apiKeys",
    operationId: "setApiKeySpendLimit",
    summary: "Set or remove an API key's monthly spend limit",
    description: [
      "`monthly_spend_limit_usd`: the most the key's decisions may cost per calendar month (UTC), in US dollars, rounded to whole cents; `null` removes the limit.",
      "Once the key's decisions this month have cost the limit, `POST /v1/ensemble` with it answers 402 before any model is asked, until the limit is raised or removed or the month ends.",
      "A decision's cost is counted when it finishes, so decisions already running when the limit is reached still finish: the limit can be passed by at most their cost.",
    ].join("\n"),
    access: "bearer",
    params: keyIdParam,
    body: json(ApiKeySpendLimitSchema, {
      set: { summary: "At most $5 a month", value: { monthly_spend_limit_usd: 5 } },
      remove: { summary: "No limit", value: { monthly_spend_limit_usd: null } },
    }),
    responses: {
      200: { description: "The updated key.", body: json(ApiKeySchema, one("Limited to $5 a month", exampleApiKey)) },
      400: error("The limit is not a number from 0.01 to 1,000,000, nor null.", one("Not a limit", exampleErrors.spendLimitInvalid)),
      401: unauthorized,
      404: keyNotFound,
    },
  }),
  defineEndpoint({
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
  }),
  defineEndpoint({
    method: "get",
    path: "/api/api-keys/{id}/reveal",
    tag: "apiKeys",
    operationId: "revealApiKey",
    summary: "Reveal an API key's secret",
    access: "bearer",
    params: keyIdParam,
    responses: { 200: { description: "The secret.", body: json(ApiKeyRevealSchema, one("Revealed", { api_key: EXAMPLE_API_KEY })) }, 401: unauthorized, 404: keyNotFound, 429: tooManyRequests },
  }),
  defineEndpoint({
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
  }),
] as const;
