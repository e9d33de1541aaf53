import { Agent, request, type IncomingHttpHeaders } from "node:http";
import { POLLUTION_MARKER } from "./bad-values";
import type { WireRequest } from "./wire";

/** What came back: status 0 when the server closed the connection without an answer. */
export interface WireAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The socket error when there was no answer. */
  error?: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 4 });

/**
 * Sends a request as written, through node:http rather than fetch: fetch would normalise `..` in
 * paths, refuse a body on GET and re-encode what the suite writes on purpose.
 */
export function send(baseUrl: string, wire: WireRequest): Promise<WireAnswer> {
  const url = new URL(baseUrl);
  return new Promise((resolve) => {
    const headers: Record<string, string | string[]> = { ...wire.headers };
    if (wire.body !== null) headers["content-length"] = String(wire.body.length);
    let req;
    let answer: (() => void) | null = null;
    try {
      req = request({ host: url.hostname, port: url.port, method: wire.method, path: wire.path, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        const answered = () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") });
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", answered);
        res.on("error", (error) => resolve({ status: 0, headers: {}, text: "", error: error.message }));
        // A server that answers before reading a body it refuses (Node's own 431 for oversized headers)
        // closes the connection while the body is still being sent: the answer came, then the reset.
        answer = answered;
      });
    } catch (error) {
      // Node's own checks of what a client may write (a bug in a generator, not in the product).
      throw new Error(`the fuzz suite wrote a request node:http refuses to send: ${(error as Error).message}`, { cause: error });
    }
    req.on("error", (error) => (answer ? answer() : resolve({ status: 0, headers: {}, text: "", error: error.message })));
    req.end(wire.body ?? undefined);
  });
}

export function closeConnections(): void {
  agent.destroy();
}

/** What an answer must never show: a stack trace, a source path, or an error as Node prints it. */
const LEAKS: readonly [RegExp, string][] = [
  [/ {4}at /, "a stack frame"],
  [/\.ts:/, "a TypeScript source location"],
  [/\/work\//, "a path on the server"],
  [/node_modules/, "a dependency path"],
  [/(^|["\s])([A-Z][A-Za-z]*)?Error: /, "an error as Node prints it"],
];

function keysOf(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((item) => keysOf(item, found));
  else if (typeof value === "object" && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      found.push(key);
      keysOf(child, found);
    }
  }
  return found;
}

/**
 * Everything wrong with an answer to a bad request: a 5xx (a 503 too: Redis is up), no answer, a
 * body that is not JSON, an error without a `detail` (or `message`), a leak, a polluted object,
 * or, when `mustRefuse`, an accepted request.
 */
export function problemsWith(answer: WireAnswer, mustRefuse: boolean): string[] {
  const problems: string[] = [];
  if (answer.status === 0) return [`no answer (${answer.error ?? "connection closed"})`];
  if (answer.status >= 500) problems.push(`status ${answer.status}`);
  if (mustRefuse && answer.status < 400) problems.push(`accepted (status ${answer.status}) a request the contract refuses`);
  for (const [pattern, what] of LEAKS) if (pattern.test(answer.text)) problems.push(`${what} in the answer`);
  if (answer.text.length === 0) return problems;
  // Downloads (the history export's CSV, a batch's JSONL results) are the successes that are not JSON; their errors still are.
  if (answer.status < 300 && /^(text\/csv|application\/jsonl)/.test(String(answer.headers["content-type"] ?? ""))) return problems;
  if (!String(answer.headers["content-type"] ?? "").startsWith("application/json")) {
    problems.push(`a ${answer.headers["content-type"] ?? "untyped"} body instead of JSON`);
    return problems;
  }
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return [...problems, "a body that does not parse as JSON"];
  }
  if (keysOf(body).some((key) => key === POLLUTION_MARKER || key === "__proto__")) problems.push("an answer that echoes a prototype-pollution payload as an object key");
  if (answer.status >= 400) {
    // `{detail}`, the image assets' `{message}`, or OpenAI's `{error: {message}}` on the OpenAI-compatible routes.
    const { detail, message, error } = (body ?? {}) as { detail?: unknown; message?: unknown; error?: { message?: unknown } };
    const said = typeof detail === "string" ? detail : (message ?? error?.message);
    if (typeof said !== "string" || said.trim() === "") problems.push("an error answer without a detail");
  }
  return problems;
}
