import { Webhook } from "standardwebhooks";

/** The three Standard Webhooks headers for one delivery attempt. */
export interface SignatureHeaders {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
}

/**
 * Signs a body per Standard Webhooks with every given secret (`whsec_…`, newest first). During a rotation overlap both the new
 * and the previous secret sign, space-separated (`v1,a v1,b`) as the spec allows, so a receiver holding either one verifies.
 */
export function signWebhook(input: { messageId: string; timestamp: Date; body: string; secrets: readonly string[] }): SignatureHeaders {
  if (input.secrets.length === 0) throw new Error("A webhook delivery needs at least one signing secret");
  // The header carries whole seconds; signing the same truncated instant keeps header and signature consistent.
  const seconds = Math.floor(input.timestamp.getTime() / 1000);
  const at = new Date(seconds * 1000);
  const signatures = input.secrets.map((secret) => new Webhook(secret).sign(input.messageId, at, input.body));
  return {
    "webhook-id": input.messageId,
    "webhook-timestamp": String(seconds),
    "webhook-signature": signatures.join(" "),
  };
}
