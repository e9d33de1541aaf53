import { API_KEY_HEADER } from "@sd/contracts";
import { callApi, type ApiAnswer } from "../history";

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
  /** Sent as written (give its Content-Type in `headers`). */
  rawBody?: string;
  headers?: Record<string, string>;
}

/** One request with any credential and extra headers, through `callApi`. */
export function send(baseUrl: string, request: HttpRequest, credential: Credential = {}): Promise<ApiAnswer> {
  const headers: Record<string, string> = { ...request.headers };
  if (credential.apiKey !== undefined) headers[API_KEY_HEADER] = credential.apiKey;
  if (credential.cookie !== undefined) headers.cookie = credential.cookie;
  return callApi(baseUrl, request.path, credential.bearer ?? null, { method: request.method, body: request.body, rawBody: request.rawBody, headers });
}
