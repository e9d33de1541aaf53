import type { WebhookCreateInput, WebhookDeliveryList, WebhookEndpoint, WebhookEndpointWithSecret, WebhookQueued, WebhookUpdate } from "@sd/contracts";
import { ENDPOINTS } from "@sd/contracts/endpoints";
import type { AuthorizationSource } from "../api/authorized";
import { callEndpoint } from "../api/endpoint";

/** The Webhooks section's calls (/api/webhooks), as the signed-in user, each through its endpoint definition. */

/** TanStack Query keys, with the user id so the next user on the device never sees the previous user's endpoints. */
export const webhookKeys = {
  all: (userId: string) => ["webhooks", userId] as const,
  list: (userId: string) => ["webhooks", userId, "list"] as const,
  deliveries: (userId: string, endpointId: string) => ["webhooks", userId, "deliveries", endpointId] as const,
};

export const fetchWebhooks = (session: AuthorizationSource): Promise<WebhookEndpoint[]> => callEndpoint(ENDPOINTS.listWebhooks, {}, session);

/** POST /api/webhooks: the endpoint and its signing secret, the only answer that carries it. */
export const createWebhook = (body: WebhookCreateInput, session: AuthorizationSource): Promise<WebhookEndpointWithSecret> => callEndpoint(ENDPOINTS.createWebhook, { body }, session);

export const updateWebhook = (id: string, body: WebhookUpdate, session: AuthorizationSource): Promise<WebhookEndpoint> =>
  callEndpoint(ENDPOINTS.updateWebhook, { params: { id }, body }, session);

export const deleteWebhook = async (id: string, session: AuthorizationSource): Promise<void> => {
  await callEndpoint(ENDPOINTS.deleteWebhook, { params: { id } }, session);
};

/** POST /api/webhooks/{id}/rotate-secret: the new secret, shown once; the previous one keeps signing for 24 h. */
export const rotateWebhookSecret = (id: string, session: AuthorizationSource): Promise<WebhookEndpointWithSecret> =>
  callEndpoint(ENDPOINTS.rotateWebhookSecret, { params: { id } }, session);

export const fetchDeliveries = (id: string, limit: number, session: AuthorizationSource): Promise<WebhookDeliveryList> =>
  callEndpoint(ENDPOINTS.listWebhookDeliveries, { params: { id }, query: { limit } }, session);

export const sendTestEvent = (id: string, session: AuthorizationSource): Promise<WebhookQueued> => callEndpoint(ENDPOINTS.sendWebhookTest, { params: { id } }, session);

export const resendDelivery = (id: string, deliveryId: string, session: AuthorizationSource): Promise<WebhookQueued> =>
  callEndpoint(ENDPOINTS.resendWebhookDelivery, { params: { id, delivery_id: deliveryId } }, session);
