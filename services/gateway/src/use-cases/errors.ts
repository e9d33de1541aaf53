/**
 * What went wrong in a use case, in the product's words and without HTTP: each adapter (the REST
 * routes, and later chat completions and MCP) maps the kind to its own status in one place.
 */
export type DomainErrorKind =
  /** The input breaks a rule the caller can fix. */
  | "invalid"
  /** No credentials, or credentials that are not (or no longer) valid. */
  | "unauthenticated"
  /** Known caller, but not allowed (e.g. a `user_id` naming someone else, a non-admin). */
  | "forbidden"
  /** Unknown, or someone else's: the same answer, so ids cannot be probed. */
  | "not-found"
  /** The request clashes with what exists (a reused request_id, a taken label). */
  | "conflict"
  /** A retry key reused with another request. */
  | "key-reused"
  /** The request is well formed but names something the caller does not have (an unknown preset). */
  | "unknown-reference"
  /** The input is larger than allowed. */
  | "too-large"
  /** A spending limit the owner set is reached: paying more (a higher limit) or a new period lets it through, waiting a moment does not. */
  | "spend-limit"
  /** A limit or quota is used up for now. */
  | "rate-limited"
  /** Too much in flight: come back after `retryAfterSeconds`. */
  | "busy"
  /** A dependency is down or not configured. */
  | "unavailable"
  /** The decision was lost with its queue state. */
  | "lost"
  /** The models took longer than the wait; the work still completes. */
  | "timed-out"
  /** A model or identity provider the use case relies on failed. */
  | "upstream-failed"
  /** The work failed for good. */
  | "failed";

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    readonly details: { title?: string; retryAfterSeconds?: number; param?: string; code?: string } = {},
  ) {
    super(message);
    this.name = "DomainError";
  }
}
