import type { ErrorRequestHandler } from "express";
import type { z } from "zod";
import { IMAGE_TOO_LARGE, MESSAGES } from "@sd/contracts";
import { isRedisRefusingWrites, isRedisUnavailable } from "@sd/queue";
import { StoreUnwritableError } from "@sd/store";
import type { Logger } from "@sd/telemetry";
import { DomainError, type DomainErrorKind } from "../use-cases/errors";
import { closeIfBodyUnread } from "./unread-body";

/** An error with the status and `detail` the client sees (errors are read from `detail`). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly title?: string,
    /** Headers the answer carries, e.g. `Retry-After` on a 503 for overload. */
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(detail);
  }
}

const titles = new Map<string, string>(
  Object.values(MESSAGES).flatMap((m) => (typeof m === "object" ? [[m.detail, m.title] as const] : [])),
);

/** The first validation problem, as the specification words it; an oversized image is a 413. */
export function fromValidation(error: z.ZodError): HttpError {
  const issue = error.issues[0];
  if (!issue) return new HttpError(400, "Invalid request.");
  if (issue.code === "custom" && (issue.params as { reason?: string } | undefined)?.reason === IMAGE_TOO_LARGE) {
    return new HttpError(413, MESSAGES.imagesTooLarge);
  }
  return new HttpError(400, issue.message, titles.get(issue.message));
}

/** The one place a use case's error becomes an HTTP status. */
const STATUS_OF: Readonly<Record<DomainErrorKind, number>> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  "not-found": 404,
  conflict: 409,
  "spend-limit": 402,
  "too-large": 413,
  "key-reused": 422,
  "unknown-reference": 422,
  "rate-limited": 429,
  failed: 500,
  "upstream-failed": 502,
  busy: 503,
  unavailable: 503,
  lost: 503,
  "timed-out": 504,
};

function fromDomain(error: DomainError): HttpError {
  const { title, retryAfterSeconds } = error.details;
  const headers = retryAfterSeconds === undefined ? undefined : { "Retry-After": String(retryAfterSeconds) };
  return new HttpError(STATUS_OF[error.kind], error.message, title, headers);
}

/** Known errors keep their status and text; body-parser failures get ours; Redis outages are 503s; anything else is logged and hidden. */
export function toHttpError(error: unknown, logger: Logger): HttpError {
  const bodyError = error as { type?: string; status?: number };
  if (error instanceof HttpError) return error;
  if (error instanceof DomainError) return fromDomain(error);
  // Redis is down or hung: a clear, retryable 503 (the request path never waits out an outage).
  if (isRedisUnavailable(error)) return new HttpError(503, MESSAGES.serviceUnavailable);
  // Redis refuses writes (maxmemory reached, or it cannot persist): the client can retry later; the operator must act.
  if (isRedisRefusingWrites(error)) {
    logger.error({ err: error }, "Redis refused a write: it is full (maxmemory) or cannot persist");
    return new HttpError(503, MESSAGES.serviceUnavailable);
  }
  // The store's disk is full: 507 Insufficient Storage, at once (the reason is in the log and /ready).
  if (error instanceof StoreUnwritableError) return new HttpError(507, MESSAGES.cannotStore);
  // Any body parser's (the routes' jsonBody, Bull Board's own); their size refusals are worded by jsonBody.
  if (bodyError.type === "entity.parse.failed") return new HttpError(400, "The request body is not valid JSON.");
  if (typeof bodyError.status === "number" && bodyError.status >= 400 && bodyError.status < 500) {
    return new HttpError(bodyError.status, (error as Error).message);
  }
  logger.error({ err: error }, "unhandled error");
  return new HttpError(500, "Internal server error. Please try again.");
}

/** Last middleware: errors are answered as `{detail}` (plus `title` where the playground shows one). */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const http = toHttpError(error, logger);
    if (res.headersSent) return;
    closeIfBodyUnread(req, res);
    if (http.headers) res.set(http.headers);
    res.status(http.status).json(http.title ? { detail: http.detail, title: http.title } : { detail: http.detail });
  };
}
