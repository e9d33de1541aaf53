import type { z } from "zod";
import { retryAfterSeconds as retryAfterOf } from "../lib/retry-after";

/** Shown when a 2xx answer cannot be read. */
export const INVALID_RESPONSE_TEXT = "Server returned an invalid response. Please try again.";

/**
 * Where an ApiError's text comes from, so a caller can keep its own fallback when the server did
 * not explain (the sign-in calls read only `detail`; the waitlist and the careers form word a body
 * that is not JSON their own way):
 * - "detail" / "message": that field of the JSON error answer;
 * - "status": a JSON answer with neither, so the text is 'HTTP {status}';
 * - "unreadable": an answer whose body is not JSON, text 'HTTP {status}';
 * - "client": written by the web app itself (a signed-out session, an invalid 2xx answer).
 */
export type ErrorSource = "detail" | "message" | "status" | "unreadable" | "client";

export interface ApiErrorDetails {
  /** The answer's `title`, when it gave one. */
  title?: string;
  source?: ErrorSource;
  /** The HTTP reason phrase ('Bad Gateway'), when there is one. */
  statusText?: string;
  /** A refusal's wait before trying again (Retry-After / RateLimit headers), in seconds; null when not said. */
  retryAfterSeconds?: number | null;
}

/** An HTTP failure with the server's explanation (`detail`, else `message`), as the UI shows it. */
export class ApiError extends Error {
  readonly title: string | undefined;
  readonly source: ErrorSource;
  readonly statusText: string;
  readonly retryAfterSeconds: number | null;

  constructor(
    readonly status: number,
    message: string,
    { title, source = "client", statusText = "", retryAfterSeconds = null }: ApiErrorDetails = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.title = title;
    this.source = source;
    this.statusText = statusText;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** True when the text is the server's own explanation (its `detail` or `message`). */
  get explained(): boolean {
    return this.source === "detail" || this.source === "message";
  }
}

/** A 2xx answer whose body is not JSON, or not of the shape the shared schema describes. */
export class InvalidResponseError extends ApiError {
  constructor(status: number, statusText = "") {
    super(status, INVALID_RESPONSE_TEXT, { statusText });
    this.name = "InvalidResponseError";
  }
}

const said = (value: unknown): value is string => typeof value === "string" && value.trim() !== "";

/** The one place server errors are read: `detail`, else `message`, else 'HTTP {status}'. */
export async function readError(response: Response): Promise<ApiError> {
  const fallback = `HTTP ${response.status}`;
  const { status, statusText } = response;
  const retryAfterSeconds = retryAfterOf(response.headers, Date.now());
  let body: unknown;
  try {
    body = JSON.parse(await response.text());
  } catch {
    return new ApiError(status, fallback, { source: "unreadable", statusText, retryAfterSeconds });
  }
  const fields: { detail?: unknown; message?: unknown; title?: unknown } = typeof body === "object" && body !== null ? body : {};
  const title = said(fields.title) ? fields.title : undefined;
  if (said(fields.detail)) return new ApiError(status, fields.detail, { title, source: "detail", statusText, retryAfterSeconds });
  if (said(fields.message)) return new ApiError(status, fields.message, { title, source: "message", statusText, retryAfterSeconds });
  return new ApiError(status, fallback, { title, source: "status", statusText, retryAfterSeconds });
}

export interface ApiRequest<S extends z.ZodType> {
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Sent as JSON; a FormData is sent as multipart (the browser writes its content type and boundary). */
  body?: unknown;
  /** Query parameters; undefined values are left out. */
  query?: Record<string, string | number | boolean | undefined>;
  /** The shared contract schema the answer must match. */
  schema: S;
  /** Extra fetch options (e.g. the authorization header from `withAuthorization`). */
  init?: RequestInit;
}

function withQuery(path: string, query: ApiRequest<z.ZodType>["query"]): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) params.set(key, String(value));
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

function encodeBody(body: unknown, headers: Headers): BodyInit | undefined {
  if (body === undefined) return undefined;
  if (body instanceof FormData) return body;
  headers.set("content-type", "application/json");
  return JSON.stringify(body);
}

/**
 * Every call the web app makes to the server goes through here: a non-2xx answer throws ApiError
 * with the server's explanation; a 2xx answer is parsed with the shared zod schema, and one that is
 * not JSON or does not match throws InvalidResponseError. A network failure rejects as fetch does
 * (a TypeError), so callers can tell "no answer" from "the server said no".
 */
export async function apiRequest<S extends z.ZodType>(path: string, { method = "GET", body, query, schema, init = {} }: ApiRequest<S>): Promise<z.infer<S>> {
  const headers = new Headers(init.headers);
  const response = await fetch(withQuery(path, query), { ...init, method, headers, body: encodeBody(body, headers) });
  if (!response.ok) throw await readError(response);
  let json: unknown;
  try {
    json = JSON.parse(await response.text());
  } catch {
    throw new InvalidResponseError(response.status, response.statusText);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new InvalidResponseError(response.status, response.statusText);
  return parsed.data;
}
