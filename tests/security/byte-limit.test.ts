import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useEmulator } from "@sd/provider-emulator/testing";
import { createRedis } from "@sd/queue";
import { testEnv } from "@sd/testing/env";
import { keysHolding } from "@sd/testing/redis-inspect";
import { startStack, type InProcessStack } from "@sd/testing/stack";

const PUBLIC = "/api/ensembled-llm-categorical-decision-public";
const emulator = useEmulator();
let stack: InProcessStack;
const redis = createRedis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", "byte-limit-test");

beforeAll(async () => {
  // One megabyte of request bodies per minute per IP; many requests (the request count is not what stops them).
  stack = await startStack(testEnv(emulator.url, { RATE_LIMIT_MB_PER_MINUTE: "1", RATE_LIMIT_PER_MINUTE: "100" }));
});
afterAll(async () => {
  await stack.close();
  redis.disconnect();
});

/** A decision with one image of `bytes` random bytes (about 4/3 of that on the wire). */
async function decideWithImage(tag: string, bytes: number) {
  const response = await fetch(`${stack.url}${PUBLIC}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      question: `Is this picture fine? ${tag}`,
      categories: ["Yes", "No"],
      images: [`data:image/png;base64,${randomBytes(bytes).toString("base64")}`],
    }),
  });
  return { status: response.status, retryAfter: response.headers.get("retry-after"), body: (await response.json()) as Record<string, unknown> };
}

describe("per-IP request-body budget (RATE_LIMIT_MB_PER_MINUTE)", () => {
  it("counts the bytes of decision requests: past the budget a request is refused with 429 before anything reaches Redis", async () => {
    const [first, second] = [`first-${randomUUID()}`, `second-${randomUUID()}`];
    const allowed = await decideWithImage(first, 450_000);
    expect(allowed.status).toBe(200);
    expect(allowed.body).toMatchObject({ total_votes: 3 });

    const refused = await decideWithImage(second, 450_000);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ detail: "Too many requests. Please wait a minute and try again." });
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(60);
    // No job, no image, no request-id claim: the refused decision left nothing in Redis.
    expect(await keysHolding(redis, stack.vars.QUEUE_PREFIX!, second)).toEqual([]);
    expect(emulator.calls().filter((call) => call.prompt_text.includes(second))).toEqual([]);

    // A small request (no image) still fits what is left of the budget.
    const small = await fetch(`${stack.url}${PUBLIC}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ question: "Text only?", categories: ["Yes", "No"] }),
    });
    expect(small.status).toBe(200);
  });
});

describe("per-IP request-body budget, for a body sent without a Content-Length", () => {
  let chunked: InProcessStack;
  beforeAll(async () => {
    chunked = await startStack(testEnv(emulator.url, { RATE_LIMIT_MB_PER_MINUTE: "1", RATE_LIMIT_PER_MINUTE: "100" }));
  });
  afterAll(() => chunked.close());

  it("counts a chunked body once read: the same body again, past the budget, is refused with 429", async () => {
    const body = JSON.stringify({
      question: `Chunked picture? ${randomUUID()}`,
      categories: ["Yes", "No"],
      images: [`data:image/png;base64,${randomBytes(450_000).toString("base64")}`],
    });
    // A stream has no length known in advance: fetch sends it chunked.
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(body));
        controller.close();
      },
    });
    const read = await fetch(`${chunked.url}${PUBLIC}`, { method: "POST", headers: { "content-type": "application/json" }, body: stream, duplex: "half" } as RequestInit);
    expect(read.status).toBe(200);

    const next = await fetch(`${chunked.url}${PUBLIC}`, { method: "POST", headers: { "content-type": "application/json" }, body });
    expect(next.status).toBe(429);
    expect(await next.json()).toEqual({ detail: "Too many requests. Please wait a minute and try again." });
  });
});
