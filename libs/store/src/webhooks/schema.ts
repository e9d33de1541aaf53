import { WEBHOOK_EVENT_TYPES, WEBHOOK_LIMITS, type WebhookEventType } from "@sd/contracts";
import { Schema } from "mongoose";
import type { BaseDocument } from "../collection";
import { defineCollection } from "../collection-spec";

/** A signing secret; `expires_at` is set on the previous one after a rotation (its overlap window). */
export interface WebhookSecretDocument {
  secret: string;
  expires_at: Date | null;
}

/** A user's webhook endpoint. `secrets` is newest first: the first one is current, the others are rotated out and expire. */
export interface WebhookEndpointDocument extends BaseDocument {
  user_id: string;
  url: string;
  events: WebhookEventType[];
  description: string;
  active: boolean;
  include_signed_in_decisions: boolean;
  secrets: WebhookSecretDocument[];
  /** Since when every delivery failed; null while the last one succeeded. */
  failing_since: Date | null;
  /** Why the delivery worker switched the endpoint off; null otherwise. */
  disabled_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

const secretSchema = new Schema<WebhookSecretDocument>(
  {
    secret: { type: String, required: true, minlength: 1 },
    expires_at: { type: Date, default: null },
  },
  { _id: false, strict: "throw" },
);

export const webhookEndpointSchema = new Schema<WebhookEndpointDocument>(
  {
    _id: { type: String, required: true },
    user_id: { type: String, required: true, minlength: 1 },
    url: { type: String, required: true, minlength: 1, maxlength: WEBHOOK_LIMITS.maxUrlLength },
    events: { type: [{ type: String, enum: [...WEBHOOK_EVENT_TYPES] }], required: true },
    description: { type: String, default: "", maxlength: WEBHOOK_LIMITS.maxDescriptionLength },
    active: { type: Boolean, required: true },
    include_signed_in_decisions: { type: Boolean, required: true },
    secrets: { type: [secretSchema], required: true },
    failing_since: { type: Date, default: null },
    disabled_reason: { type: String, default: null },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { collection: "webhook_endpoints", versionKey: false, strict: "throw", id: false },
);
// The owner's list (oldest first) and the emitter's look-up of a user's active endpoints.
webhookEndpointSchema.index({ user_id: 1, created_at: 1, _id: 1 });

export const webhookEndpointsCollection = defineCollection<WebhookEndpointDocument>("webhook_endpoints", webhookEndpointSchema);

/** One delivery attempt, as the delivery worker logs it. */
export interface WebhookDeliveryDocument extends BaseDocument {
  endpoint_id: string;
  user_id: string;
  event_id: string;
  event_type: string;
  /** The exact JSON body sent, so a resend sends the same bytes. */
  payload: string;
  attempt: number;
  status_code: number | null;
  ok: boolean;
  latency_ms: number | null;
  response_excerpt: string | null;
  error: string | null;
  next_attempt_at: Date | null;
  created_at: Date;
}

export const webhookDeliverySchema = new Schema<WebhookDeliveryDocument>(
  {
    _id: { type: String, required: true },
    endpoint_id: { type: String, required: true, minlength: 1 },
    user_id: { type: String, required: true, minlength: 1 },
    event_id: { type: String, required: true, minlength: 1 },
    event_type: { type: String, required: true, minlength: 1 },
    payload: { type: String, required: true },
    attempt: { type: Number, required: true, min: 1 },
    status_code: { type: Number, default: null },
    ok: { type: Boolean, required: true },
    latency_ms: { type: Number, default: null, min: 0 },
    response_excerpt: { type: String, default: null },
    error: { type: String, default: null },
    next_attempt_at: { type: Date, default: null },
    created_at: { type: Date, required: true },
  },
  { collection: "webhook_deliveries", versionKey: false, strict: "throw", id: false },
);
// An endpoint's log, newest first (_id makes the order total).
webhookDeliverySchema.index({ endpoint_id: 1, created_at: -1, _id: 1 });
// The purge of rows past their 30 days.
webhookDeliverySchema.index({ created_at: 1 });

export const webhookDeliveriesCollection = defineCollection<WebhookDeliveryDocument>("webhook_deliveries", webhookDeliverySchema);
