export * from "./redis";
export * from "./vote-policy";
export * from "./decision-flow";
export * from "./decision-lanes";
export { BatchQueue, createBatchWorker, type BatchJob, type BatchWorker, type BatchWorkerSettings } from "./batch-queue";
// The outcome channel's encoding stays inside libs/queue (DecisionFlow hears it); the aggregator only needs its worker.
export { createAggregateWorker, type AggregateProcessor } from "./decision-outcomes";
export { DecisionSteps, type AggregateRun, type NextCall } from "./decision-steps";
export * from "./quorum-board";
export * from "./call-cancels";
export * from "./image-stash";
// Processors get plain data (see createVoteWorker, createAggregateWorker) and listeners plain events: BullMQ's job stays in here.
export type { WorkerPool, WorkerSettings } from "./workers";
export * from "./vote-worker";
export { MINUTE_MS, NO_RATE_LIMIT, QueueRateLimited, perMinute, type RateLimit, type RateLimitState } from "./rate-limit";
export { TokenBudget } from "./token-budget";
export * from "./queue-depth";
export type { Redis } from "ioredis";
export * from "./throughput";
export * from "./queue-board";
export * from "./queue-keys";
export * from "./usage-period";
export { ApiKeyUsage, type ApiKeyMonth } from "./api-key-usage";
export {
  WEBHOOK_QUEUE,
  WebhookDispatch,
  createWebhookWorker,
  webhookEnvelope,
  type LoggedWebhookDelivery,
  type WebhookAttemptPlan,
  type WebhookDeliveryJob,
  type WebhookEndpointDirectory,
  type WebhookEvent,
  type WebhookTarget,
  type WebhookWorkerSettings,
} from "./webhook-queue";
