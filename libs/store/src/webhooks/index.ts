export {
  webhookDeliveriesCollection,
  webhookEndpointsCollection,
  type WebhookDeliveryDocument,
  type WebhookEndpointDocument,
  type WebhookSecretDocument,
} from "./schema";
export {
  createWebhookDeliveryRepository,
  createWebhookEndpointRepository,
  MAX_WEBHOOK_SECRETS,
  type NewWebhookEndpoint,
  type WebhookDeliveryRecord,
  type WebhookDeliveryRepository,
  type WebhookEndpointChange,
  type WebhookEndpointRecord,
  type WebhookEndpointRepository,
  type WebhookSecret,
} from "./repository";
