import { API_KEY_HEADER } from "@sd/contracts";
import type { ApiAnswer } from "../history";

/** What a caller presents: a bearer token, an API key (SD-API-KEY), a cookie, each optional. */
export interface Credential {
  bearer?: string;
  apiKey?: string;
  /** A `name=value` Cookie header, as a browser sends it back. */
  cookie?: string;
}

export interface HttpRequest {
  method: string;
  /** Path and query, sent unchanged. */
  path: string;
  /** Sent as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * One request with any credential and extra headers (`callApi` sends a bearer token only). The
 * body of a non-JSON answer (the queue view's HTML) is `{}`; `text` always holds what came back.
 */
export async function send(baseUrl: string, request: HttpRequest, credential: Credential = {}): Promise<ApiAnswer> {
  const headers: Record<string, string> = { ...request.headers };
  if (request.body !== undefined) headers["content-type"] = "application/json";
  if (credential.bearer !== undefined) headers.authorization = `Bearer ${credential.bearer}`;
  if (credential.apiKey !== undefined) headers[API_KEY_HEADER] = credential.apiKey;
  if (credential.cookie !== undefined) headers.cookie = credential.cookie;
  const response = await fetch(`${baseUrl}${request.path}`, {
    method: request.method.toUpperCase(),
    headers,
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
  });
  const text = await response.text();
  let body: Record<string, unknown> = {};
  if ((response.headers.get("content-type") ?? "").includes("json")) body = JSON.parse(text) as Record<string, unknown>;
  return { status: response.status, body, text, headers: response.headers };
}
