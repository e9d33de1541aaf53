import type { TokenUsage } from "@sd/contracts";

export type ProviderErrorKind = "rate_limited" | "server" | "timeout" | "network" | "invalid_answer" | "malformed" | "client" | "auth";

/** Kinds worth another attempt later; the others fail the same way every time. */
const RETRYABLE: ReadonlySet<ProviderErrorKind> = new Set(["rate_limited", "server", "timeout", "network"]);

export interface ProviderErrorDetails {
  retryAfterMs?: number | null;
  status?: number | null;
  raw?: string | null;
  /** Tokens the call used when the vendor answered (and billed) but the answer was unusable. */
  usage?: TokenUsage | null;
  cause?: unknown;
}

/** Every failure of a provider call, classified so the retry loop can decide without vendor knowledge. */
export class ProviderError extends Error {
  override readonly name = "ProviderError";
  readonly kind: ProviderErrorKind;
  readonly retryable: boolean;
  /** Back-off the vendor asked for, when it said. */
  readonly retryAfterMs: number | null;
  readonly status: number | null;
  /** Model output that could not be used, for invalid_answer and malformed. */
  readonly raw: string | null;
  /**
   * Tokens the failed call used: set when the vendor answered, so billed the call, but the answer
   * could not be used (malformed, outside the categories); null for calls that got no answer.
   */
  readonly usage: TokenUsage | null;

  constructor(kind: ProviderErrorKind, message: string, details: ProviderErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.kind = kind;
    this.retryable = RETRYABLE.has(kind);
    this.retryAfterMs = details.retryAfterMs ?? null;
    this.status = details.status ?? null;
    this.raw = details.raw ?? null;
    this.usage = details.usage ?? null;
  }

  /** The same error, carrying the tokens of the answer it was raised about. */
  withUsage(usage: TokenUsage | null): ProviderError {
    if (usage === null || this.usage !== null) return this;
    return new ProviderError(this.kind, this.message, { retryAfterMs: this.retryAfterMs, status: this.status, raw: this.raw, usage, cause: this.cause });
  }
}

/** Classifies an HTTP error status of a vendor API. */
export function errorFromStatus(vendor: string, status: number, message: string, retryAfterMs: number | null, cause?: unknown): ProviderError {
  const text = `${vendor} API error ${status}: ${message}`;
  const details = { status, retryAfterMs, cause };
  if (status === 429) return new ProviderError("rate_limited", text, details);
  if (status >= 500) return new ProviderError("server", text, details);
  // 408 is the server giving up waiting: a timeout, as retryable as ours.
  if (status === 408) return new ProviderError("timeout", text, details);
  if (status === 401 || status === 403) return new ProviderError("auth", text, details);
  return new ProviderError("client", text, details);
}

interface HeaderReader {
  get(name: string): string | null;
}

/** `retry-after-ms` (OpenAI's and Anthropic's extension), else `retry-after` in seconds or as an HTTP date. */
export function retryAfterMsFromHeaders(headers: HeaderReader | null | undefined, now: number = Date.now()): number | null {
  if (!headers) return null;
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "" && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Math.round(Number(ms));
  const value = headers.get("retry-after")?.trim();
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? Math.round(seconds * 1000) : null;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** A caller's abort and the SDK's own timeout both end as kind "timeout". */
export function timeoutError(vendor: string, timeoutMs: number, callerAborted: boolean, cause: unknown): ProviderError {
  const message = callerAborted ? `${vendor} request aborted by the caller` : `${vendor} did not answer within ${timeoutMs} ms`;
  return new ProviderError("timeout", message, { cause });
}

/** Anything a provider call threw, as a ProviderError; an unknown error counts as a retryable network failure. */
export function asProviderError(error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderError("network", `provider call failed: ${message}`, { cause: error });
}
