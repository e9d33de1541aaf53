import { randomUUID } from "node:crypto";
import type { StoredDecision } from "@sd/contracts";
import { sampleDecision } from "@sd/store/testing/sample-decision";

/**
 * A complete stored decision of `user_id`, for seeding a history with exact timestamps through
 * `stack.store.decisions.insertOnce`; override any field.
 */
export function storedDecision(overrides: Partial<StoredDecision> & Pick<StoredDecision, "user_id">): StoredDecision {
  const signedIn = overrides.user_id !== null;
  return sampleDecision({
    id: randomUUID(),
    context_explanation: "openai: TypeScript fits the team.\ngemini: TypeScript fits the team.\nclaude: Go is simpler.",
    rationales: { openai: "TypeScript fits the team.", gemini: "TypeScript fits the team.", claude: "Go is simpler." },
    is_authenticated: signedIn,
    user_email: signedIn ? "user@example.com" : null,
    ...overrides,
  });
}

/** An HTTP answer as a test reads it: status, parsed JSON body, and the raw text and headers. */
export interface ApiAnswer {
  status: number;
  body: Record<string, unknown>;
  text: string;
  headers: Headers;
}

/**
 * Calls the gateway with an optional bearer token and any other headers (an API key, a cookie).
 * `body` is sent as JSON, `rawBody` as written; the path's query string reaches the server
 * unchanged (repeated and bracketed names included). A JSON answer is parsed into `body`; any
 * other (the queue view's HTML) leaves `body` empty, and `text` always holds what came back.
 */
export async function callApi(
  baseUrl: string,
  path: string,
  token: string | null,
  init: { method?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<ApiAnswer> {
  const headers: Record<string, string> = { ...init.headers };
  // A Content-Type the caller gives wins (a JSONL body); anything else sent is JSON.
  const typed = Object.keys(headers).some((name) => name.toLowerCase() === "content-type");
  if ((init.body !== undefined || init.rawBody !== undefined) && !typed) headers["content-type"] = "application/json";
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${baseUrl}${path}`, {
    method: (init.method ?? (init.body === undefined && init.rawBody === undefined ? "GET" : "POST")).toUpperCase(),
    headers,
    body: init.rawBody ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
  });
  const text = await response.text();
  // JSON, not JSONL (a batch's results: one JSON value per line).
  const json = /json\s*(;|$)/.test(response.headers.get("content-type") ?? "");
  return { status: response.status, body: json ? (JSON.parse(text) as Record<string, unknown>) : {}, text, headers: response.headers };
}
