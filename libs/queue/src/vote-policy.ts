import type { JobsOptions } from "bullmq";
import { retentionJobOptions } from "./job-retention";

/** Backoff type that lets the worker honour a vendor's Retry-After (see `voteBackoff`). */
export const VOTE_BACKOFF_TYPE = "provider";

/** Options of every vote job: bounded attempts; the delay between them is the worker's `voteBackoff`. */
export function voteJobOptions(attempts: number): JobsOptions {
  return {
    attempts,
    backoff: { type: VOTE_BACKOFF_TYPE },
    // A vote that failed for good still lets the decision go on; the aggregator records it as an error.
    ignoreDependencyOnFailure: true,
    ...retentionJobOptions(),
  };
}

/** An error that asks to be retried no sooner than `retryAfterMs`. */
export interface RetryAfterHint {
  retryAfterMs?: number | null;
}

/**
 * Delay before the next attempt: the one the error carries (a `VoteRetry`'s planned delay, or the
 * vendor's Retry-After), otherwise exponential (base, 2x base, 4x base...) with +-20% jitter so
 * retries from many jobs do not arrive together. The vote processor plans its retries with this
 * same function, then checks them against the vote's deadline.
 */
export function voteBackoff(baseMs: number, random: () => number = Math.random) {
  return (attemptsMade: number, _type?: string, err?: Error & RetryAfterHint): number => {
    if (err?.retryAfterMs != null && err.retryAfterMs >= 0) return err.retryAfterMs;
    const exponential = baseMs * 2 ** Math.max(0, attemptsMade - 1);
    return Math.round(exponential * (0.8 + 0.4 * random()));
  };
}

/**
 * Texts of a vote recorded as an error because of its deadline (`VoteJob.vote_deadline_at`): a
 * slow or rate-limited vendor costs its own vote, never the decision.
 */
export const VOTE_DEADLINE_ERRORS = {
  /** The job reached a worker after the deadline (a backlog, or a worker that crashed holding it). */
  notAsked: "not asked: this vote's deadline passed before a worker could ask the model",
  /** The attempt was cut at the deadline. */
  noAnswer: "did not answer before this vote's deadline",
  /** The vendor's Retry-After ends past the deadline. */
  rateLimited: "rate-limited by the vendor past this vote's deadline",
  /** Any other retryable failure whose backoff ends past the deadline. */
  noTimeToRetry: (failure: string) => `${failure} (no time left to retry before this vote's deadline)`,
} as const;

/** The error of a vote whose call was cancelled because the client waiting for the decision went away. */
export const VOTE_CANCELLED_ERROR = "cancelled: the client waiting for this decision went away before the model answered";

/** Ms left until `deadlineAt`; a vote without one (enqueued before deadlines existed) has all the time its attempts take. */
export function msUntilDeadline(deadlineAt: number | undefined, now: number = Date.now()): number {
  return deadlineAt === undefined ? Number.POSITIVE_INFINITY : deadlineAt - now;
}

/**
 * What a vote job throws to be retried after exactly `retryAfterMs` (which `voteBackoff` obeys).
 * The processor plans the delay itself, rather than leaving it to BullMQ's backoff, because it
 * must know when the next attempt would start to compare that with the vote's deadline.
 */
export class VoteRetry extends Error implements RetryAfterHint {
  override readonly name = "VoteRetry";
  constructor(
    message: string,
    readonly retryAfterMs: number,
    cause: unknown,
  ) {
    super(message, { cause });
  }
}
