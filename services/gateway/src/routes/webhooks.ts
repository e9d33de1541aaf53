import type { RequestHandler, Router } from "express";
import { WEBHOOK_MESSAGES } from "@sd/contracts";
import { ENDPOINTS } from "@sd/contracts/endpoints";
import { signedInUser } from "../auth";
import { EndpointRouter } from "../http/endpoint-router";
import type { WebhookUseCases } from "../use-cases/webhooks";

/** The signed-in user's webhook endpoints and their delivery logs (bearer); every one is the caller's own. */
export function webhookRoutes(webhooks: WebhookUseCases, requireUser: RequestHandler): Router {
  const user = (res: Parameters<typeof signedInUser>[0]) => signedInUser(res).userId;
  return new EndpointRouter("/api", { bearer: requireUser })
    .mount(ENDPOINTS.listWebhooks, {
      handler: async ({ res }) => ({ status: 200, body: await webhooks.list(user(res)) }),
    })
    .mount(ENDPOINTS.createWebhook, {
      handler: async ({ body, res }) => ({ status: 201, body: await webhooks.create(user(res), body) }),
    })
    .mount(ENDPOINTS.getWebhook, {
      handler: async ({ params, res }) => ({ status: 200, body: await webhooks.get(user(res), params.id) }),
    })
    .mount(ENDPOINTS.updateWebhook, {
      handler: async ({ params, body, res }) => ({ status: 200, body: await webhooks.update(user(res), params.id, body) }),
    })
    .mount(ENDPOINTS.deleteWebhook, {
      handler: async ({ params, res }) => {
        await webhooks.delete(user(res), params.id);
        return { status: 200, body: { success: true as const, message: WEBHOOK_MESSAGES.deleted } };
      },
    })
    .mount(ENDPOINTS.rotateWebhookSecret, {
      handler: async ({ params, res }) => ({ status: 200, body: await webhooks.rotateSecret(user(res), params.id) }),
    })
    .mount(ENDPOINTS.listWebhookDeliveries, {
      handler: async ({ params, query, res }) => ({ status: 200, body: await webhooks.deliveries(user(res), params.id, query) }),
    })
    .mount(ENDPOINTS.sendWebhookTest, {
      handler: async ({ params, res }) => ({ status: 202, body: await webhooks.sendTest(user(res), params.id) }),
    })
    .mount(ENDPOINTS.resendWebhookDelivery, {
      handler: async ({ params, res }) => ({ status: 202, body: await webhooks.resend(user(res), params.id, params.delivery_id) }),
    }).router;
}
