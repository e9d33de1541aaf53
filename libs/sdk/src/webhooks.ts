import { z } from "zod";
import { Webhook, WebhookVerificationError as SignatureError } from "standardwebhooks";
import { BatchSchema, V1EnsembleResponseSchema } from "@sd/contracts";
import { SmartDecisionError, WebhookVerificationError } from "./errors";

/**
 * The deliveries' body: the Standard Webhooks envelope `{type, timestamp, data}`. decision.completed
 * carries the decision as GET /v1/decisions/{id} answers it once complete; batch.completed the batch
 * as GET /v1/batches/{id} answers it once completed or cancelled; webhook.test (the "Send test event"
 * button, whatever the endpoint subscribes to) the endpoint's id and a message.
 */
const WebhookEventSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("decision.completed"),
    timestamp: z.string(),
    data: z.object({ decision_id: z.string(), status: z.literal("complete"), result: V1EnsembleResponseSchema }),
  }),
  z.object({ type: z.literal("batch.completed"), timestamp: z.string(), data: BatchSchema }),
  z.object({ type: z.literal("webhook.test"), timestamp: z.string(), data: z.object({ endpoint_id: z.string(), message: z.string() }) }),
]);

/** A verified webhook event. Switch on `type`: its `data` is typed accordingly. */
export type WebhookEvent = z.infer<typeof WebhookEventSchema>;
export type WebhookEventType = WebhookEvent["type"];
export type DecisionCompletedEvent = Extract<WebhookEvent, { type: "decision.completed" }>;
export type BatchCompletedEvent = Extract<WebhookEvent, { type: "batch.completed" }>;
export type WebhookTestEvent = Extract<WebhookEvent, { type: "webhook.test" }>;

/** Request headers as fetch's `Request` has them, or as Node's `IncomingMessage.headers` (express, Fastify, Next.js API routes). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/** The three Standard Webhooks headers, whatever form the framework hands them in. */
function signatureHeaders(headers: WebhookHeaders): Record<string, string> {
  const read = (name: string): string => {
    if (headers instanceof Headers) return headers.get(name) ?? "";
    const value = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
    // Repeated headers: signatures are space-separated in one header, so several headers' values join the same way.
    return Array.isArray(value) ? value.join(" ") : (value ?? "");
  };
  return { "webhook-id": read("webhook-id"), "webhook-timestamp": read("webhook-timestamp"), "webhook-signature": read("webhook-signature") };
}

/**
 * Checks that a webhook delivery comes from Smart Decision and answers its event. Pass the body
 * exactly as received (the raw text or bytes: a re-serialized JSON object no longer matches its
 * signature), the request's headers, and the endpoint's signing secret (`whsec_...`, shown once when
 * the endpoint was created or its secret rotated).
 *
 * Throws a `WebhookVerificationError` when no signature matches (a tampered body, another secret),
 * a webhook header is missing, or the timestamp is more than 5 minutes from now (a replay).
 *
 * ```ts
 * app.post("/webhooks", express.raw({ type: "application/json" }), (req, res) => {
 *   const event = verifyWebhook(req.body, req.headers, process.env.SD_WEBHOOK_SECRET!);
 *   if (event.type === "batch.completed") console.log(event.data.id, event.data.request_counts);
 *   res.sendStatus(204);
 * });
 * ```
 */
export function verifyWebhook(payload: string | Uint8Array, headers: WebhookHeaders, secret: string): WebhookEvent {
  let webhook: Webhook;
  try {
    webhook = new Webhook(secret);
  } catch (error) {
    // A configuration mistake, not a forged delivery: a distinct error, so it is not answered as a bad request.
    throw new SmartDecisionError("The webhook secret is not a signing secret: copy the whole `whsec_...` value shown when the endpoint was created.", { cause: error });
  }
  // The package signs text; bytes (Node's Buffer included) are the body's UTF-8.
  const body = typeof payload === "string" ? payload : new TextDecoder().decode(payload);
  let event: unknown;
  try {
    event = webhook.verify(body, signatureHeaders(headers));
  } catch (error) {
    if (error instanceof SignatureError) throw new WebhookVerificationError(`The webhook delivery is not authentic: ${error.message}.`, { cause: error });
    // Signed, yet not JSON: the signature proves it came from the server, so this is no forgery.
    throw new SmartDecisionError(`The webhook delivery is signed but is not JSON: ${(error as Error).message}`, { cause: error });
  }
  const parsed = WebhookEventSchema.safeParse(event);
  if (!parsed.success) {
    const type = (event as { type?: unknown } | null)?.type;
    throw new SmartDecisionError(
      `The webhook event ${typeof type === "string" ? `"${type}" ` : ""}is not one this SDK knows (${parsed.error.issues[0]?.message ?? "invalid"}): update @smart-decision/sdk.`,
    );
  }
  return parsed.data;
}
