import { z } from "zod";
import {
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_LIMITS,
  WEBHOOK_MESSAGES,
  WebhookCreateSchema,
  WebhookDeleteSchema,
  WebhookDeliveryListQuerySchema,
  WebhookDeliveryListSchema,
  WebhookEndpointListSchema,
  WebhookEndpointSchema,
  WebhookEndpointWithSecretSchema,
  WebhookQueuedSchema,
  WebhookUpdateSchema,
  type WebhookDelivery,
  type WebhookEndpoint,
} from "../index";
import { json, one, error, unauthorized } from "./shared";
import { defineEndpoint } from "./define";

// ---------------------------------------------------------------- webhooks

export const EXAMPLE_WEBHOOK_ID = "8c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f";
export const EXAMPLE_WEBHOOK_DELIVERY_ID = "5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9";
const EXAMPLE_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw9Bk+Jh3zPm4=";

export const exampleWebhook: WebhookEndpoint = {
  id: EXAMPLE_WEBHOOK_ID,
  url: "https://example.com/webhooks/smart-decision",
  events: ["decision.completed", "batch.completed"],
  description: "Production receiver",
  active: true,
  include_signed_in_decisions: false,
  failing_since: null,
  disabled_reason: null,
  previous_secret_expires_at: null,
  created_at: "2025-09-08T10:00:00.000Z",
  updated_at: "2025-09-08T10:00:00.000Z",
};

const exampleDelivery: WebhookDelivery = {
  id: EXAMPLE_WEBHOOK_DELIVERY_ID,
  event_id: "evt_2b7f4c1e9a8d4f3b",
  event_type: "decision.completed",
  attempt: 1,
  ok: true,
  status_code: 200,
  latency_ms: 84,
  response_excerpt: '{"received":true}',
  error: null,
  next_attempt_at: null,
  created_at: "2025-09-08T10:05:00.000Z",
};

const webhookIdParam = z.object({ id: z.string().meta({ description: "The webhook endpoint's id.", example: EXAMPLE_WEBHOOK_ID }) });
const deliveryParams = webhookIdParam.extend({
  delivery_id: z.string().meta({ description: "The delivery's id (from the endpoint's delivery log).", example: EXAMPLE_WEBHOOK_DELIVERY_ID }),
});
const webhookNotFound = error("No webhook endpoint with this id is the caller's.", one("Unknown id", { detail: WEBHOOK_MESSAGES.notFound }));
const badWebhook = (extra: Record<string, { summary: string; value: unknown }> = {}) =>
  error("The body is invalid, or the URL is not one deliveries may go to: `detail` says what to fix.", {
    badUrl: { summary: "Not an https URL", value: { detail: WEBHOOK_MESSAGES.urlInvalid } },
    unknownEvent: { summary: "An event that does not exist", value: { detail: WEBHOOK_MESSAGES.unknownEvent("decision.started") } },
    privateUrl: { summary: "A private address", value: { detail: "The URL's host resolves to a private address (10.0.0.7); deliveries only go to public addresses." } },
    ...extra,
  });

const secretNote =
  "The signing secret is in this answer only: store it where the receiver verifies deliveries (Standard Webhooks: headers `webhook-id`, `webhook-timestamp`, `webhook-signature`).";

export const webhookEndpoints = [
  defineEndpoint({
    method: "get",
    path: "/api/webhooks",
    tag: "webhooks",
    operationId: "listWebhooks",
    summary: "List my webhook endpoints",
    description: "The caller's webhook endpoints, oldest first, without their secrets.",
    access: "bearer",
    responses: { 200: { description: "The caller's endpoints.", body: json(WebhookEndpointListSchema, one("One endpoint", [exampleWebhook])) }, 401: unauthorized },
  }),
  defineEndpoint({
    method: "post",
    path: "/api/webhooks",
    tag: "webhooks",
    operationId: "createWebhook",
    summary: "Add a webhook endpoint",
    description: `Adds an endpoint that receives ${WEBHOOK_EVENT_TYPES.join(" and ")} events as signed POSTs. A user keeps at most ${WEBHOOK_LIMITS.maxPerUser}. ${secretNote}`,
    access: "bearer",
    body: json(WebhookCreateSchema, one("Both events", { url: exampleWebhook.url, events: exampleWebhook.events, description: exampleWebhook.description })),
    responses: {
      201: {
        description: "The endpoint and its signing secret (shown once).",
        body: json(WebhookEndpointWithSecretSchema, one("Added", { ...exampleWebhook, secret: EXAMPLE_SECRET, message: WEBHOOK_MESSAGES.created })),
      },
      400: badWebhook({ tooMany: { summary: "Too many endpoints", value: { detail: WEBHOOK_MESSAGES.tooMany } } }),
      401: unauthorized,
    },
  }),
  defineEndpoint({
    method: "get",
    path: "/api/webhooks/{id}",
    tag: "webhooks",
    operationId: "getWebhook",
    summary: "Get one of my webhook endpoints",
    access: "bearer",
    params: webhookIdParam,
    responses: { 200: { description: "The endpoint, without its secrets.", body: json(WebhookEndpointSchema, one("Found", exampleWebhook)) }, 401: unauthorized, 404: webhookNotFound },
  }),
  defineEndpoint({
    method: "patch",
    path: "/api/webhooks/{id}",
    tag: "webhooks",
    operationId: "updateWebhook",
    summary: "Change a webhook endpoint",
    description: "Any of url, events, description, active and include_signed_in_decisions. `active: true` re-enables an endpoint the server switched off and clears its notice.",
    access: "bearer",
    params: webhookIdParam,
    body: json(WebhookUpdateSchema, {
      reenable: { summary: "Re-enable", value: { active: true } },
      events: { summary: "Only batches", value: { events: ["batch.completed"] } },
    }),
    responses: {
      200: { description: "The updated endpoint.", body: json(WebhookEndpointSchema, one("Updated", { ...exampleWebhook, events: ["batch.completed"], updated_at: "2025-09-09T08:00:00.000Z" })) },
      400: badWebhook({ nothing: { summary: "Nothing to change", value: { detail: WEBHOOK_MESSAGES.nothingToChange } } }),
      401: unauthorized,
      404: webhookNotFound,
    },
  }),
  defineEndpoint({
    method: "delete",
    path: "/api/webhooks/{id}",
    tag: "webhooks",
    operationId: "deleteWebhook",
    summary: "Delete a webhook endpoint",
    description: "Deletes the endpoint and its delivery log; deliveries still queued for it are dropped.",
    access: "bearer",
    params: webhookIdParam,
    responses: {
      200: { description: "Deleted.", body: json(WebhookDeleteSchema, one("Deleted", { success: true, message: WEBHOOK_MESSAGES.deleted })) },
      401: unauthorized,
      404: webhookNotFound,
    },
  }),
  defineEndpoint({
    method: "post",
    path: "/api/webhooks/{id}/rotate-secret",
    tag: "webhooks",
    operationId: "rotateWebhookSecret",
    summary: "Rotate a webhook endpoint's signing secret",
    description: `Creates a new signing secret. For the next 24 hours deliveries carry signatures by both the new and the previous secret, so the receiver can switch without dropping any. ${secretNote}`,
    access: "bearer",
    params: webhookIdParam,
    responses: {
      200: {
        description: "The endpoint and its new signing secret (shown once).",
        body: json(
          WebhookEndpointWithSecretSchema,
          one("Rotated", { ...exampleWebhook, previous_secret_expires_at: "2025-09-10T08:00:00.000Z", updated_at: "2025-09-09T08:00:00.000Z", secret: EXAMPLE_SECRET, message: WEBHOOK_MESSAGES.rotated }),
        ),
      },
      401: unauthorized,
      404: webhookNotFound,
    },
  }),
  defineEndpoint({
    method: "get",
    path: "/api/webhooks/{id}/deliveries",
    tag: "webhooks",
    operationId: "listWebhookDeliveries",
    summary: "An endpoint's delivery log",
    description: "Every delivery attempt of the last 30 days, newest first: status, latency, attempt and the start of the receiver's answer.",
    access: "bearer",
    params: webhookIdParam,
    query: WebhookDeliveryListQuerySchema,
    responses: {
      200: { description: "A page of the log.", body: json(WebhookDeliveryListSchema, one("One delivery", { deliveries: [exampleDelivery], total: 1, limit: WEBHOOK_LIMITS.deliveryPageSize, offset: 0 })) },
      400: error("A paging parameter is invalid.", one("Bad limit", { detail: `limit must be a whole number from 0 to ${WEBHOOK_LIMITS.maxDeliveryPageSize}.` })),
      401: unauthorized,
      404: webhookNotFound,
    },
  }),
  defineEndpoint({
    method: "post",
    path: "/api/webhooks/{id}/test",
    tag: "webhooks",
    operationId: "sendWebhookTest",
    summary: "Send a test event",
    description: "Queues a signed test event to the endpoint; the attempt appears in its delivery log.",
    access: "bearer",
    params: webhookIdParam,
    responses: {
      202: { description: "Queued.", body: json(WebhookQueuedSchema, one("Queued", { event_id: "evt_test_4f3b2b7f4c1e9a8d", message: WEBHOOK_MESSAGES.testQueued })) },
      401: unauthorized,
      404: webhookNotFound,
    },
  }),
  defineEndpoint({
    method: "post",
    path: "/api/webhooks/{id}/deliveries/{delivery_id}/resend",
    tag: "webhooks",
    operationId: "resendWebhookDelivery",
    summary: "Resend a delivery",
    description: "Queues the delivery's event again, with the same body and `webhook-id`, so receivers that deduplicate see it once.",
    access: "bearer",
    params: deliveryParams,
    responses: {
      202: { description: "Queued.", body: json(WebhookQueuedSchema, one("Queued", { event_id: exampleDelivery.event_id, message: WEBHOOK_MESSAGES.resendQueued })) },
      401: unauthorized,
      404: error("No webhook endpoint with this id is the caller's, or the delivery is not one of its.", {
        endpoint: { summary: "Unknown endpoint", value: { detail: WEBHOOK_MESSAGES.notFound } },
        delivery: { summary: "Unknown delivery", value: { detail: WEBHOOK_MESSAGES.deliveryNotFound } },
      }),
    },
  }),
] as const;
