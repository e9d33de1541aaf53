import { QueueKeys } from "bullmq";

// Every Redis key and channel of the product, built here so a rename cannot miss one. Changing a
// key's text strands a deployment's data: queue-keys.test.ts pins each one.

// --- Queues (BullMQ's own layout) ---

/** A queue's waiting jobs, as BullMQ names the list: what an external autoscaler (KEDA) measures. */
export function waitingJobsKey(prefix: string, queueName: string): string {
  return new QueueKeys(prefix).getKeys(queueName).wait!;
}

/** A queue's running jobs, as BullMQ names the list, for the same autoscaler. */
export function activeJobsKey(prefix: string, queueName: string): string {
  return new QueueKeys(prefix).getKeys(queueName).active!;
}

/** Matches every key of a deployment, for a scan. */
export function allKeysPattern(prefix: string): string {
  return `${prefix}:*`;
}

// --- Decisions in flight ---

/** The string that ties a `request_id` (a live-event room) to the one decision that may use it. */
export function requestIdClaimKey(prefix: string, requestId: string): string {
  return `${prefix}:request:${requestId}`;
}

/** The pub/sub channel on which every model's progress reaches the gateways that stream it (chat completions, MCP). */
export function decisionVotesChannel(prefix: string): string {
  return `${prefix}:decision-votes`;
}

/** The pub/sub channel on which aggregators tell gateways each decision's outcome. */
export function decisionOutcomesChannel(prefix: string): string {
  return `${prefix}:decision-outcomes`;
}

/** The start of every stashed image's key: a key without it is not the stash's to delete. */
export function imageKeyBase(prefix: string): string {
  return `${prefix}:images:`;
}

/** One stashed image of a decision, by its position in the request. */
export function imageKey(prefix: string, decisionId: string, position: number): string {
  return `${imageKeyBase(prefix)}${decisionId}:${position}`;
}

/** Early quorum: the answers a decision's votes have reported so far. */
export function quorumAnswersKey(prefix: string, decisionId: string): string {
  return `${prefix}:quorum:${decisionId}:answers`;
}

/** Early quorum: set once a decision is settled, with the providers it did not need. */
export function quorumSettledKey(prefix: string, decisionId: string): string {
  return `${prefix}:quorum:${decisionId}:settled`;
}

/** Early quorum: the pub/sub channel that cancels the calls of settled decisions. */
export function quorumCancelChannel(prefix: string): string {
  return `${prefix}:quorum:cancel`;
}

/** Set when the client that waited for a decision went away: its calls not yet made are not made. */
export function decisionCancelledKey(prefix: string, decisionId: string): string {
  return `${prefix}:cancelled:${decisionId}`;
}

/** The pub/sub channel that cancels the running calls of decisions whose client went away. */
export function decisionCancelChannel(prefix: string): string {
  return `${prefix}:decision-cancel`;
}

// --- Providers ---

/** A provider's tokens-per-minute budget (see TokenBudget). */
export function tokenBudgetKey(prefix: string, provider: string): string {
  return `${prefix}:token-budget:${provider}`;
}

// --- Live figures and events ---

/** The count of decisions written in one unix second. */
export function throughputFinishedKey(prefix: string, second: number): string {
  return `${prefix}:throughput:finished:${second}`;
}

/** A provider's finished votes of the last window, scored by time. */
export function throughputVotesKey(prefix: string, provider: string): string {
  return `${prefix}:throughput:votes:${provider}`;
}

/** The channel prefix shared by the gateways' Socket.IO adapter and every emitter: they must agree. */
export function socketIoKey(prefix: string): string {
  return `${prefix}:socket.io`;
}

// --- Gateway: rate limits, API keys, sign-in ---

/** The start of a named per-IP or per-key request limit's counters (the limiter appends the client). */
export function rateLimitKeyPrefix(prefix: string, name: string): string {
  return `${prefix}:rate:${name}:`;
}

/** The start of the request-body byte budget's counters (rate-limiter-flexible adds `:` and the IP). */
export function byteRateLimitKeyPrefix(prefix: string): string {
  return `${prefix}:rate:bytes`;
}

/** An API key owner's decisions in one usage period (`YYYY-MM`). */
export function monthlyQuotaKey(prefix: string, userId: string, period: string): string {
  return `${prefix}:api-quota:${userId}:${period}`;
}

/** One API key's month (`YYYY-MM`): a hash of its requests and its decisions' spend (see ApiKeyUsage). */
export function apiKeyUsageKey(prefix: string, apiKeyId: string, period: string): string {
  return `${prefix}:api-key-usage:${apiKeyId}:${period}`;
}

/** A replayable answer for an API key's `Idempotency-Key` (its SHA-256, so no client text lands in a key). */
export function idempotencyKey(prefix: string, apiKeyId: string, idempotencyKeyHash: string): string {
  return `${prefix}:idempotency:${apiKeyId}:${idempotencyKeyHash}`;
}

/** A signed-out session, refused until its tokens would have expired. */
export function endedSessionKey(prefix: string, sessionId: string): string {
  return `${prefix}:auth:ended-session:${sessionId}`;
}

/** A Google sign-in's `state`, kept until the callback uses it. */
export function googleStateKey(prefix: string, state: string): string {
  return `${prefix}:auth:google-state:${state}`;
}

/** An unused magic link, by the hash of its token. */
export function magicLinkKey(prefix: string, tokenHash: string): string {
  return `${prefix}:auth:magic-link:${tokenHash}`;
}

/** An address a user signed in from (hash of email and IP), so a known one is not warned about again. */
export function signedInFromKey(prefix: string, emailAndIpHash: string): string {
  return `${prefix}:auth:signed-in-from:${emailAndIpHash}`;
}
