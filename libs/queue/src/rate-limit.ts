import type { Queue } from "bullmq";

/** The window of a provider's requests per minute (`<ID>_RPM`). */
export const MINUTE_MS = 60_000;

/**
 * Jobs a queue may start per window, counted in Redis for every worker of the queue in every
 * process (BullMQ's limiter: a fixed window that opens with the first job started in it).
 */
export interface RateLimit {
  max: number;
  durationMs: number;
}

/**
 * The limit of a queue that sets none. BullMQ honours a pause (`QueueRateLimited`) only on workers
 * that have a limiter, so every pool has one; this one's window never fills.
 */
export const NO_RATE_LIMIT: RateLimit = { max: 1_000_000_000, durationMs: MINUTE_MS };

/** A provider's requests per minute as its vote queue's limit; null (unset) sets none. */
export function perMinute(rpm: number | null): RateLimit | undefined {
  return rpm === null ? undefined : { max: rpm, durationMs: MINUTE_MS };
}

/**
 * What a processor throws when the service its jobs call refuses every call for `pauseMs` (a 429
 * with Retry-After: the vendor limits the key, not the job). The pool pauses the whole queue, for
 * its workers in every process, and puts the job back to wait without using one of its attempts.
 */
export class QueueRateLimited extends Error {
  override readonly name = "QueueRateLimited";
  readonly pauseMs: number;
  constructor(pauseMs: number, cause?: unknown) {
    super(`rate-limited: the queue pauses for ${Math.round(pauseMs)} ms`, cause === undefined ? undefined : { cause });
    // Redis refuses an expiry of 0 ms; a Retry-After of 0 still means "not this instant".
    this.pauseMs = Math.max(1, Math.ceil(pauseMs));
  }
}

/** Why a queue's workers start no job now, and for how much longer. */
export interface RateLimitState {
  /** `paused`: a processor's `QueueRateLimited`; `full`: the queue's own limit is used up for this window. */
  cause: "paused" | "full";
  msLeft: number;
  /** The limit that is full; null for a pause. */
  max: number | null;
}

/**
 * Reads a queue's limiter in Redis. A pause sets its counter past any limit, so asking with
 * `NO_RATE_LIMIT.max` sees only pauses; asking with the queue's own `max` also sees a full window
 * (without it, a window in which any job started would look limited).
 */
export async function readRateLimit(queue: Queue, max: number | null): Promise<RateLimitState | null> {
  const pausedMs = await queue.getRateLimitTtl(NO_RATE_LIMIT.max);
  if (pausedMs > 0) return { cause: "paused", msLeft: pausedMs, max: null };
  if (max === null) return null;
  const fullMs = await queue.getRateLimitTtl(max);
  return fullMs > 0 ? { cause: "full", msLeft: fullMs, max } : null;
}
