/**
 * When a failed delivery is tried again. Attempt 1 is the first delivery; after it fail, attempts 2..8 follow these delays
 * (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: ~27.6 h in all). The endpoint is disabled by the worker on the first failed
 * attempt once it has been failing for 24 h, so the last attempts of a still-failing event are what trip it.
 */
export const RETRY_DELAYS_MS: readonly number[] = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** ±20 %: spreads the retries of many events that failed together (one receiver outage) instead of a thundering herd. */
export const JITTER_RATIO = 0.2;
/** A receiver's Retry-After is honoured up to the longest step of the schedule, so a typo of a year does not park the event forever. */
export const MAX_RETRY_AFTER_MS = Math.max(...RETRY_DELAYS_MS);

/** What one attempt produced, as far as the retry decision needs it. */
export interface AttemptOutcome {
  /** null when no HTTP answer came (timeout, refused connection, DNS, refused address). */
  status_code: number | null;
  /** The receiver's Retry-After, already in milliseconds (see parseRetryAfter). */
  retry_after_ms: number | null;
}

export interface RetrySchedule {
  /** Multiplies every delay (and the Retry-After cap): 1 in production; tests use a tiny scale to see retries without waiting. */
  scale?: number;
  /** Uniform in [0, 1); injectable so the schedule is pure. */
  random?: () => number;
}

export function isSuccess(statusCode: number | null): boolean {
  return statusCode !== null && statusCode >= 200 && statusCode < 300;
}

/**
 * Whether the failure is worth trying again: no answer, 5xx and 429 are (the receiver may recover); any other 4xx is the
 * receiver refusing this payload, and a 3xx is a redirect we never follow — repeating either cannot succeed.
 */
export function isRetryable(outcome: AttemptOutcome): boolean {
  const status = outcome.status_code;
  return status === null || status >= 500 || status === 429;
}

/**
 * The delay before attempt `attempt + 1`, or null when there is none (success, a final failure, or the schedule is used up).
 * A Retry-After from the receiver replaces the backoff (capped), without jitter: the receiver asked for that moment.
 */
export function nextRetryDelayMs(attempt: number, outcome: AttemptOutcome, schedule: RetrySchedule = {}): number | null {
  if (isSuccess(outcome.status_code) || !isRetryable(outcome)) return null;
  if (attempt < 1 || attempt >= MAX_ATTEMPTS) return null;
  const scale = schedule.scale ?? 1;
  if (outcome.retry_after_ms !== null) return Math.min(Math.max(0, outcome.retry_after_ms), MAX_RETRY_AFTER_MS * scale);
  const base = RETRY_DELAYS_MS[attempt - 1]! * scale;
  const random = schedule.random ?? Math.random;
  return Math.round(base * (1 - JITTER_RATIO + 2 * JITTER_RATIO * random()));
}

/** Retry-After as delta-seconds or an HTTP date (RFC 9110 §10.2.3), in ms from `now`; null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: Date = new Date()): number | null {
  if (value === null || value === undefined) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date always names its weekday and month; without letters Date.parse would read "-5" as a year.
  const at = /[a-z]/i.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now.getTime());
}
