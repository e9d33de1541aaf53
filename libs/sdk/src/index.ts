/**
 * @smart-decision/sdk: a typed client for the Smart Decision API (see README.md).
 */
export {
  SmartDecision,
  type AcceptedDecision,
  type DecideOptions,
  type DecisionInput,
  type DecisionStatus,
  type EnsembleResult,
  type HistoryDecision,
  type HistoryFilters,
  type HistoryPage,
  type SmartDecisionOptions,
  type SubmitOptions,
  type VoteDetail,
  type VoteEvent,
  type VoteStatus,
  type WaitOptions,
} from "./client";
export {
  BatchListing,
  type Batch,
  type BatchCreated,
  type BatchCreateOptions,
  type BatchInput,
  type BatchLineError,
  type BatchLineInput,
  type BatchListParams,
  type BatchPage,
  type BatchResultLine,
  type BatchStatus,
  type Batches,
  type BatchWaitOptions,
} from "./batches";
export {
  verifyWebhook,
  type BatchCompletedEvent,
  type DecisionCompletedEvent,
  type WebhookEvent,
  type WebhookEventType,
  type WebhookHeaders,
  type WebhookTestEvent,
} from "./webhooks";
export {
  ApiError,
  AuthenticationError,
  BatchValidationError,
  NotFoundError,
  QuotaExceededError,
  RateLimitError,
  SmartDecisionError,
  SpendLimitError,
  TimeoutError,
  ValidationError,
  WebhookVerificationError,
} from "./errors";
