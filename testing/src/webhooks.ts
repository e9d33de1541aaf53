import { WebhookEndpointWithSecretSchema, type WebhookCreateInput, type WebhookEndpointWithSecret } from "@sd/contracts";
import { callApi } from "./history";

/** Adds a webhook endpoint as the token's user through POST /api/webhooks; throws unless it is created. */
export async function createWebhook(baseUrl: string, accessToken: string, body: Partial<WebhookCreateInput> = {}): Promise<WebhookEndpointWithSecret> {
  const request: WebhookCreateInput = { url: "https://example.com/webhooks", events: ["decision.completed"], ...body };
  const answer = await callApi(baseUrl, "/api/webhooks", accessToken, { body: request });
  if (answer.status !== 201) throw new Error(`adding the webhook ${request.url} answered ${answer.status}: ${answer.text}`);
  return WebhookEndpointWithSecretSchema.parse(answer.body);
}
