import { request } from "node:http";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_KEY_HEADER, API_KEY_MESSAGES, ApiKeySchema } from "@sd/contracts";
import { useEmulator } from "@sd/provider-emulator/testing";
import { callApi } from "@sd/testing/history";
import { BODY_ENCODINGS, compress, deeplyNested, manySmallObjects, millionKeys, type BodyEncoding } from "@sd/testing/faults/heavy-bodies";
import { useStackWithMail } from "@sd/testing/stack-with-mail";

/**
 * Request bodies are cheap to refuse (issue 27): nothing reads a body before the checks that can
 * refuse the request without it, compressed bodies are refused unread (415), and a decision body
 * is bounded in nesting and in values before JSON.parse builds it. The stack runs in this process,
 * so a parse that stalls it shows as a stall of this event loop.
 */

const PUBLIC = "/api/ensembled-llm-categorical-decision-public";
const V1 = "/v1/ensemble";
const UNLIMITED = "1000000";
/** Far above what a refusal costs, far below the seconds the bodies below take to parse. */
const MAX_STALL_MS = 1_000;

const compressedMessage = (encoding: string) =>
  `Compressed request bodies are not accepted (Content-Encoding: ${encoding}): send the body uncompressed, without a Content-Encoding header.`;
const TOO_MANY_VALUES = "The request body holds more than 10,000 JSON values: send at most 10,000.";
const TOO_DEEP = "The request body nests arrays and objects more than 20 levels deep: send at most 20.";

const emulator = useEmulator();
const stack = useStackWithMail(emulator, { RATE_LIMIT_PER_MINUTE: UNLIMITED, RATE_LIMIT_MB_PER_MINUTE: UNLIMITED, API_KEY_RATE_LIMIT_PER_MINUTE: UNLIMITED });

let apiKey: string;
let flood: Buffer;
let floodCompressed: Record<BodyEncoding, Buffer>;
let manyKeys: Buffer;
const validDecision = { question: "Tea or coffee?", categories: ["Tea", "Coffee"] };

beforeAll(async () => {
  const user = await stack.signIn();
  const key = await callApi(stack.url, "/api/api-keys", user.tokens.access_token, { body: { name: "bodies" } });
  expect(key.status, key.text).toBe(201);
  apiKey = ApiKeySchema.required({ keyvalue: true }).parse(key.body).keyvalue;
  flood = manySmallObjects();
  floodCompressed = { gzip: compress(flood, "gzip"), deflate: compress(flood, "deflate"), br: compress(flood, "br") };
  manyKeys = millionKeys();
}, 120_000);
afterAll(() => {
  flood = Buffer.alloc(0);
  manyKeys = Buffer.alloc(0);
});

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

async function post(path: string, body: Buffer, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${stack.url}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Runs `work` and tells the longest this event loop (the stack's) was held up meanwhile. */
async function watchingTheLoop<T>(work: () => Promise<T>): Promise<{ result: T; longestStallMs: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  try {
    const result = await work();
    return { result, longestStallMs: histogram.max / 1e6 };
  } finally {
    histogram.disable();
  }
}

describe("compressed bodies", () => {
  it.each(BODY_ENCODINGS)("%s: refused unread on an unknown path, on /v1/ensemble without a key and on the decision route, without stalling the service", async (encoding) => {
    const body = floodCompressed[encoding];
    const headers = { "content-encoding": encoding };
    const { result, longestStallMs } = await watchingTheLoop(() =>
      Promise.all([post("/nope", body, headers), post(V1, body, headers), post(PUBLIC, body, headers), fetch(`${stack.url}/health`).then((r) => r.status)]),
    );
    const [unknown, keyless, decision, health] = result;
    expect(unknown).toEqual({ status: 404, body: { detail: "Not found" } });
    expect(keyless).toEqual({ status: 401, body: { detail: API_KEY_MESSAGES.missingKey } });
    expect(decision).toEqual({ status: 415, body: { detail: compressedMessage(encoding) } });
    expect(health).toBe(200);
    expect(longestStallMs).toBeLessThan(MAX_STALL_MS);
  });

  it("refuses a valid decision sent compressed (415), with a key too, and the same decision uncompressed is answered", async () => {
    const plain = Buffer.from(JSON.stringify({ prompt: "Tea or coffee?", valid_responses: ["Tea", "Coffee"] }));
    const refused = await post(V1, compress(plain, "gzip"), { "content-encoding": "gzip", [API_KEY_HEADER]: apiKey });
    expect(refused).toEqual({ status: 415, body: { detail: compressedMessage("gzip") } });
    const publicRefused = await post(PUBLIC, compress(Buffer.from(JSON.stringify(validDecision)), "deflate"), { "content-encoding": "deflate" });
    expect(publicRefused).toEqual({ status: 415, body: { detail: compressedMessage("deflate") } });
    expect(emulator.calls().filter((call) => call.prompt_text.includes("Tea or coffee?"))).toEqual([]);

    const answered = await post(V1, plain, { [API_KEY_HEADER]: apiKey });
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    expect(["Tea", "Coffee"]).toContain(answered.body.ensemble_decision);
  });

  it("refuses a compressed job application (415) before its form is read", async () => {
    const response = await fetch(`${stack.url}/api/job-application`, {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=x", "content-encoding": "gzip" },
      body: compress(Buffer.from('--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nAda\r\n--x--\r\n'), "gzip"),
    });
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({ detail: compressedMessage("gzip") });
  });
});

describe("the shape and size of JSON bodies", () => {
  it.each([
    ["the public decision route", PUBLIC, {}],
    ["/v1/ensemble with a key", V1, "key"],
  ] as const)("%s refuses a million keys (413) and deep nesting (400) naming the limit, without stalling the service", async (_name, path, auth) => {
    const headers: Record<string, string> = auth === "key" ? { [API_KEY_HEADER]: apiKey } : {};
    const { result, longestStallMs } = await watchingTheLoop(() => Promise.all([post(path, manyKeys, headers), post(path, deeplyNested(100), headers)]));
    const [many, deep] = result;
    expect(many).toEqual({ status: 413, body: { detail: TOO_MANY_VALUES } });
    expect(deep).toEqual({ status: 400, body: { detail: TOO_DEEP } });
    expect(longestStallMs).toBeLessThan(MAX_STALL_MS);
  });

  it("refuses the uncompressed flood body (2.3 million objects) on the decision route without parsing it", async () => {
    const { result, longestStallMs } = await watchingTheLoop(() => post(PUBLIC, flood));
    expect(result).toEqual({ status: 413, body: { detail: TOO_MANY_VALUES } });
    expect(longestStallMs).toBeLessThan(MAX_STALL_MS);
  });

  it("bounds the routes without images at 100 KB (413 naming the limit)", async () => {
    const big = Buffer.from(JSON.stringify({ refresh_token: "r".repeat(200 * 1024) }));
    expect(await post("/api/auth/refresh", big)).toEqual({ status: 413, body: { detail: "The request body is too large: send at most 100 KB." } });
  });

  it("still answers a decision whose body comes without a Content-Length (chunked)", async () => {
    const answer = await new Promise<Answer>((resolve, reject) => {
      const url = new URL(`${stack.url}${PUBLIC}`);
      const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers: { "content-type": "application/json" } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown> }));
      });
      req.on("error", reject);
      const text = JSON.stringify({ question: "Chunked: tea or coffee?", categories: ["Tea", "Coffee"] });
      req.write(text.slice(0, 10));
      req.end(text.slice(10));
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({ total_votes: 3, question: "Chunked: tea or coffee?" });
  });
});
