export { WebhookUrlError, checkWebhookUrl, isForbiddenAddress, parseWebhookUrl, type UrlSafetyOptions } from "./url-safety";
export { signWebhook, type SignatureHeaders } from "./sign";
export { RESPONSE_EXCERPT_BYTES, WEBHOOK_USER_AGENT, WebhookDeliverer, guardedLookup, type DeliveryResult, type DeliverySettings } from "./deliver";
export {
  JITTER_RATIO,
  MAX_ATTEMPTS,
  MAX_RETRY_AFTER_MS,
  RETRY_DELAYS_MS,
  isRetryable,
  isSuccess,
  nextRetryDelayMs,
  parseRetryAfter,
  type AttemptOutcome,
  type RetrySchedule,
} from "./retry";
