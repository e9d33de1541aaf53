export { startWebhookWorker, type WebhookWorker } from "./service";
export { DISABLE_AFTER_FAILING_MS, createDeliveryProcessor, type DeliveryProcessorDeps } from "./delivery-processor";
