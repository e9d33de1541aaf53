import { QueueKeys } from "bullmq";

/**
 * The Redis list of a queue's waiting jobs (`<prefix>:<queue>:wait` today), as BullMQ names it:
 * what an external autoscaler (KEDA's redis trigger) measures, so the manifests can be checked
 * against the real key instead of a copy of BullMQ's layout.
 */
export function waitingJobsKey(prefix: string, queueName: string): string {
  return new QueueKeys(prefix).getKeys(queueName).wait!;
}

/** The Redis list of a queue's running jobs (`<prefix>:<queue>:active`), for the same autoscaler. */
export function activeJobsKey(prefix: string, queueName: string): string {
  return new QueueKeys(prefix).getKeys(queueName).active!;
}

/** The Redis hash of a provider's tokens-per-minute budget (see TokenBudget). */
export function tokenBudgetKey(prefix: string, provider: string): string {
  return `${prefix}:token-budget:${provider}`;
}

/** The Redis string that ties a `request_id` (a live-event room) to the one decision that may use it. */
export function requestIdClaimKey(prefix: string, requestId: string): string {
  return `${prefix}:request:${requestId}`;
}
