import type { JobsOptions } from "bullmq";

/** Backoff type that lets the worker honour a vendor's Retry-After (see `voteBackoff`). */
export const VOTE_BACKOFF_TYPE = "provider";

/** Options of every vote job: bounded attempts; the delay between them is the worker's `voteBackoff`. */
export function voteJobOptions(attempts: number): JobsOptions {
  return {
    attempts,
    backoff: { type: VOTE_BACKOFF_TYPE },
    // A vote that failed for good still lets the decision go on; the aggregator records it as an error.
    ignoreDependencyOnFailure: true,
    removeOnComplete: { age: 3600, count: 5000 },
    removeOnFail: { age: 24 * 3600 },
  };
}

/** An error that asks to be retried no sooner than `retryAfterMs`. */
export interface RetryAfterHint {
  retryAfterMs?: number | null;
}

/**
 * Delay before the next attempt: the vendor's Retry-After when it sent one, otherwise exponential
 * (base, 2x base, 4x base...) with +-20% jitter so retries from many jobs do not arrive together.
 */
export function voteBackoff(baseMs: number, random: () => number = Math.random) {
  return (attemptsMade: number, _type?: string, err?: Error & RetryAfterHint): number => {
    if (err?.retryAfterMs != null && err.retryAfterMs >= 0) return err.retryAfterMs;
    const exponential = baseMs * 2 ** Math.max(0, attemptsMade - 1);
    return Math.round(exponential * (0.8 + 0.4 * random()));
  };
}
