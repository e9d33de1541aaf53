import { API_KEY_MESSAGES, BATCH_MESSAGES, BatchRejectedSchema, type BatchLineError } from "@sd/contracts";

/** Every error the SDK throws is one of these, so `catch (e) { if (e instanceof SmartDecisionError) ... }` sees them all. */
export class SmartDecisionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** The API answered with an error status; `detail` is its explanation (errors are `{detail}`). */
export class ApiError extends SmartDecisionError {
  constructor(
    readonly status: number,
    readonly detail: string,
    /** The answer's body as received (parsed JSON, or text). */
    readonly body: unknown,
    readonly headers: Headers,
  ) {
    super(`${detail} (HTTP ${status})`);
  }
}

/** 401: no API key was sent, or it is unknown, deleted or switched off. */
export class AuthenticationError extends ApiError {}

/** 400, 413 or 422: the request was refused as it is (`detail` says what to fix). */
export class ValidationError extends ApiError {}

/**
 * 422 of `batches.create`: invalid lines refused the whole batch (nothing was started). `lines` lists
 * the first 100 with their line number (from 1), custom_id when readable, and the same text
 * /v1/ensemble would answer; `errorCount` counts every invalid line.
 */
export class BatchValidationError extends ValidationError {
  readonly lines: BatchLineError[];
  readonly errorCount: number;
  constructor(status: number, detail: string, body: { errors: BatchLineError[]; error_count: number }, headers: Headers) {
    super(status, detail, body, headers);
    this.lines = body.errors;
    this.errorCount = body.error_count;
  }
}

/** 404: no such decision among the key owner's. */
export class NotFoundError extends ApiError {}

/** 429: too many requests for this key; `retryAfter` is how many seconds to wait (from Retry-After), when known. */
export class RateLimitError extends ApiError {
  readonly retryAfter: number | null;
  constructor(status: number, detail: string, body: unknown, headers: Headers) {
    super(status, detail, body, headers);
    const seconds = Number(headers.get("retry-after"));
    this.retryAfter = headers.has("retry-after") && Number.isFinite(seconds) ? seconds : null;
  }
}

/**
 * 429 because the month's API request quota is used up (or a batch has more decisions than remain of it);
 * `retryAfter` runs to the first day of next month (UTC).
 */
export class QuotaExceededError extends RateLimitError {}

/**
 * 402: the key's monthly spend limit is reached (`detail` says the limit and what was spent). Waiting
 * a moment does not help: raise or remove the limit in Settings, or wait for the next month (UTC).
 */
export class SpendLimitError extends ApiError {}

/** `waitFor` gave up before the decision was complete (the decision itself goes on and is stored). */
export class TimeoutError extends SmartDecisionError {}

/**
 * `webhooks.verify` refused a delivery: a signature that matches none made with the secret (a
 * tampered body, another secret), missing webhook headers, or a timestamp more than 5 minutes off.
 */
export class WebhookVerificationError extends SmartDecisionError {}

/** The start of the quota text, whatever the configured limit (the limit is in its parentheses). */
const QUOTA_TEXT = API_KEY_MESSAGES.quotaExceeded(0).split(" (")[0]!;
/** The start of a batch's refusal for being larger than what remains of the quota (the counts follow). */
const BATCH_QUOTA_TEXT = BATCH_MESSAGES.quotaExceeded(0, 0).split("0")[0]!;

/** The typed error for an error answer. */
export function errorFor(status: number, detail: string, body: unknown, headers: Headers): ApiError {
  if (status === 401) return new AuthenticationError(status, detail, body, headers);
  if (status === 402) return new SpendLimitError(status, detail, body, headers);
  if (status === 429) {
    const quota = detail.startsWith(QUOTA_TEXT) || detail.startsWith(BATCH_QUOTA_TEXT);
    return quota ? new QuotaExceededError(status, detail, body, headers) : new RateLimitError(status, detail, body, headers);
  }
  if (status === 422) {
    // A batch refused for its lines lists them; other 422s (an Idempotency-Key reused with another body) do not.
    const rejected = BatchRejectedSchema.safeParse(body);
    if (rejected.success) return new BatchValidationError(status, detail, rejected.data, headers);
  }
  if (status === 400 || status === 413 || status === 422) return new ValidationError(status, detail, body, headers);
  if (status === 404) return new NotFoundError(status, detail, body, headers);
  return new ApiError(status, detail, body, headers);
}
