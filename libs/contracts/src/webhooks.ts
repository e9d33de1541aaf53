import { z } from "zod";
import { pageQuery } from "./history";

/** The events an endpoint can subscribe to. */
export const WEBHOOK_EVENT_TYPES = ["decision.completed", "batch.completed"] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Bounds of webhook endpoints and their delivery log. */
export const WEBHOOK_LIMITS = {
  maxPerUser: 10,
  maxUrlLength: 2000,
  maxDescriptionLength: 200,
  /** Random bytes of a signing secret (Standard Webhooks asks for 24 to 64). */
  secretBytes: 32,
  /** How long a rotated-out secret keeps signing beside the new one, so receivers can switch without dropping deliveries. */
  rotationOverlapMs: 24 * 60 * 60_000,
  /** How long delivery log rows are kept. */
  deliveryRetentionMs: 30 * 24 * 60 * 60_000,
  deliveryPageSize: 20,
  maxDeliveryPageSize: 100,
  maxDeliveryOffset: 10_000,
} as const;

/** Texts of webhooks (the endpoints, /settings and the delivery worker's notice). */
export const WEBHOOK_MESSAGES = {
  urlRequired: "Give the endpoint's URL.",
  urlInvalid: "The URL must be a full https address, e.g. https://example.com/webhooks.",
  urlTooLong: `A webhook URL can have at most ${WEBHOOK_LIMITS.maxUrlLength} characters.`,
  urlCredentials: "Leave the user name and password out of the URL: receivers verify deliveries by their signature.",
  eventsRequired: `Choose at least one event: ${WEBHOOK_EVENT_TYPES.join(" or ")}.`,
  unknownEvent: (event: string) => `Unknown event "${event}". Choose from ${WEBHOOK_EVENT_TYPES.join(", ")}.`,
  duplicateEvent: "Name each event once.",
  descriptionTooLong: `A description can have at most ${WEBHOOK_LIMITS.maxDescriptionLength} characters.`,
  tooMany: `You can keep at most ${WEBHOOK_LIMITS.maxPerUser} webhook endpoints. Delete one to add another.`,
  notFound: "Webhook endpoint not found",
  deliveryNotFound: "Delivery not found",
  nothingToChange: "Send at least one of url, events, description, active or include_signed_in_decisions.",
  created: "Webhook endpoint added. Copy its signing secret now: it is not shown again.",
  rotated: "New signing secret created. Copy it now: it is not shown again. The previous secret keeps signing for 24 hours.",
  deleted: "Webhook endpoint deleted",
  testQueued: "Test event queued: it appears in the delivery log once sent.",
  resendQueued: "Delivery queued again: it appears in the delivery log once sent.",
  /** The notice the delivery worker leaves on an endpoint it switched off. */
  disabledAfterFailures: (lastError: string) => `Disabled after failing for 24 hours: ${lastError}`,
  fetchFailed: "Failed to load your webhook endpoints",
  saveFailed: "Failed to save the webhook endpoint",
  deleteFailed: "Failed to delete the webhook endpoint",
  emptyState: "No webhook endpoints yet. Add one to be told when decisions and batches complete.",
} as const;

/** The URL's shape (the address it reaches is checked apart, against the server's private-URL setting). */
export const WebhookUrlSchema = z
  .string({ error: WEBHOOK_MESSAGES.urlRequired })
  .trim()
  .min(1, WEBHOOK_MESSAGES.urlRequired)
  .max(WEBHOOK_LIMITS.maxUrlLength, WEBHOOK_MESSAGES.urlTooLong)
  .superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: "custom", message: WEBHOOK_MESSAGES.urlInvalid });
      return;
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") ctx.addIssue({ code: "custom", message: WEBHOOK_MESSAGES.urlInvalid });
    else if (url.username !== "" || url.password !== "") ctx.addIssue({ code: "custom", message: WEBHOOK_MESSAGES.urlCredentials });
  })
  .meta({ description: "Where deliveries are POSTed: https (plain http only on servers that allow private URLs), without user name or password.", example: "https://example.com/webhooks/smart-decision" });

export const WebhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES, {
  error: (issue) => WEBHOOK_MESSAGES.unknownEvent(typeof issue.input === "string" ? issue.input : String(issue.input)),
});

const WebhookEventsSchema = z
  .array(WebhookEventTypeSchema, { error: WEBHOOK_MESSAGES.eventsRequired })
  .min(1, WEBHOOK_MESSAGES.eventsRequired)
  .max(WEBHOOK_EVENT_TYPES.length, WEBHOOK_MESSAGES.duplicateEvent)
  .refine((events) => new Set(events).size === events.length, WEBHOOK_MESSAGES.duplicateEvent)
  .meta({ description: "The events delivered to this endpoint." });

const WebhookDescriptionSchema = z
  .string({ error: WEBHOOK_MESSAGES.descriptionTooLong })
  .trim()
  .max(WEBHOOK_LIMITS.maxDescriptionLength, WEBHOOK_MESSAGES.descriptionTooLong);

const IncludeSignedInSchema = z.boolean({ error: "include_signed_in_decisions must be true or false." }).meta({
  description: "decision.completed also for the decisions the user makes signed in on the website, not only those made with the user's API keys.",
});
const ActiveSchema = z.boolean({ error: "active must be true or false." }).meta({
  description: "Whether deliveries are sent. Setting it to true again also clears a disabled notice.",
});

/** A webhook endpoint as the endpoints answer it: never its secrets. */
export const WebhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(WebhookEventTypeSchema),
  description: z.string(),
  active: z.boolean(),
  include_signed_in_decisions: z.boolean(),
  failing_since: z.string().nullable().meta({ description: "Since when every delivery failed (ISO 8601); null while the last one succeeded." }),
  disabled_reason: z.string().nullable().meta({ description: "Why the server switched the endpoint off (after failing for 24 hours); null otherwise." }),
  previous_secret_expires_at: z
    .string()
    .nullable()
    .meta({ description: "After a rotation: until when the previous secret still signs beside the new one (ISO 8601); null otherwise." }),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;

/** The answer of creation and of rotation: the endpoint and its new signing secret, shown this once. */
export const WebhookEndpointWithSecretSchema = WebhookEndpointSchema.extend({
  secret: z.string().meta({ description: "The signing secret (`whsec_` and base64), for verifying deliveries as Standard Webhooks describes. Shown only in this answer." }),
  message: z.string(),
});
export type WebhookEndpointWithSecret = z.infer<typeof WebhookEndpointWithSecretSchema>;

/** GET /api/webhooks: the caller's endpoints, oldest first. */
export const WebhookEndpointListSchema = z.array(WebhookEndpointSchema);

/** POST /api/webhooks. */
export const WebhookCreateSchema = z
  .object({
    url: WebhookUrlSchema,
    events: WebhookEventsSchema,
    description: WebhookDescriptionSchema.default(""),
    active: ActiveSchema.default(true),
    include_signed_in_decisions: IncludeSignedInSchema.default(false),
  })
  .strict();
export type WebhookCreate = z.output<typeof WebhookCreateSchema>;
export type WebhookCreateInput = z.input<typeof WebhookCreateSchema>;

/** PATCH /api/webhooks/{id}: any of the fields; `active: true` also clears a disabled notice. */
export const WebhookUpdateSchema = z
  .object({
    url: WebhookUrlSchema.optional(),
    events: WebhookEventsSchema.optional(),
    description: WebhookDescriptionSchema.optional(),
    active: ActiveSchema.optional(),
    include_signed_in_decisions: IncludeSignedInSchema.optional(),
  })
  .strict()
  .refine((update) => Object.values(update).some((value) => value !== undefined), WEBHOOK_MESSAGES.nothingToChange);
export type WebhookUpdate = z.output<typeof WebhookUpdateSchema>;

/** DELETE /api/webhooks/{id}. */
export const WebhookDeleteSchema = z.object({ success: z.literal(true), message: z.string() });

/** One delivery attempt in an endpoint's log. */
export const WebhookDeliverySchema = z.object({
  id: z.string(),
  event_id: z.string().meta({ description: "The event's id, sent as the `webhook-id` header: the same on every attempt and resend of the event." }),
  event_type: z.string(),
  attempt: z.number().int().min(1),
  ok: z.boolean(),
  status_code: z.number().int().nullable().meta({ description: "The receiver's HTTP status; null when none came (timeout, connection refused)." }),
  latency_ms: z.number().nonnegative().nullable(),
  response_excerpt: z.string().nullable().meta({ description: "The start of the receiver's answer (at most 4 KB)." }),
  error: z.string().nullable(),
  next_attempt_at: z.string().nullable().meta({ description: "When the next attempt is due after this failure (ISO 8601); null when none will be made." }),
  created_at: z.string(),
});
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

/** GET /api/webhooks/{id}/deliveries: newest first, `limit` and `offset` as the history's. */
export const WebhookDeliveryListQuerySchema = z.object(
  pageQuery({ pageSize: WEBHOOK_LIMITS.deliveryPageSize, maxPageSize: WEBHOOK_LIMITS.maxDeliveryPageSize, maxOffset: WEBHOOK_LIMITS.maxDeliveryOffset }),
);
export type WebhookDeliveryListQuery = z.output<typeof WebhookDeliveryListQuerySchema>;

export const WebhookDeliveryListSchema = z.object({
  deliveries: z.array(WebhookDeliverySchema),
  total: z.number().int().nonnegative(),
  limit: z.number().int().nonnegative(),
  offset: z.number().int().nonnegative(),
});
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryListSchema>;

/** 202 of "Send test event" and "Resend": the event that was queued. */
export const WebhookQueuedSchema = z.object({
  event_id: z.string(),
  message: z.string(),
});
export type WebhookQueued = z.infer<typeof WebhookQueuedSchema>;
