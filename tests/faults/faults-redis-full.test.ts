import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES, REQUEST_ID_NOT_RANDOM } from "@sd/contracts";
import { requestIdClaimKey } from "@sd/queue";
import { useEmulator } from "@sd/provider-emulator/testing";
import { testEnv } from "@sd/testing/env";
import { callApi } from "@sd/testing/history";
import { PrivateRedis } from "@sd/testing/private-redis";
import { ServiceProcess } from "@sd/testing/processes";

/**
 * Issue 27: what a decision leaves in Redis is bounded (a request id's claim lasts about as long as
 * its decision), and a Redis at `maxmemory` (noeviction, as BullMQ requires) refuses the write of a
 * decision's images. The client gets a retryable 503, and the product's log, read from the real
 * process's output, holds neither the image nor a line longer than a few KB (ioredis keeps every
 * argument of a refused transaction on its error).
 */

const PUBLIC = "/api/ensembled-llm-categorical-decision-public";
const MAX_LINE = 4096;

const emulator = useEmulator();
let redis: PrivateRedis;
let service: ServiceProcess;
let url: string;
let env: Record<string, string>;

beforeAll(async () => {
  redis = await PrivateRedis.start();
  env = testEnv(emulator.url, { REDIS_URL: redis.url, WORKER_PROCESSES: "0" });
  service = ServiceProcess.start("all-in-one", env);
  url = await service.gatewayUrl();
}, 60_000);
afterAll(async () => {
  await service?.stop("SIGKILL");
  await redis?.close();
});

/** Caps Redis a little above what it holds now, then writes filler until it refuses: a full Redis. */
async function fillRedis(): Promise<void> {
  await redis.command(async (client) => {
    const used = Number((await redis.info("memory")).used_memory);
    await client.config("SET", "maxmemory-policy", "noeviction");
    await client.config("SET", "maxmemory", String(used + 2 * 1024 * 1024));
    const filler = "f".repeat(256 * 1024);
    for (let i = 0; ; i++) {
      const refused = await client.set(`filler:${i}`, filler).then(
        () => false,
        (error: Error) => error.message.startsWith("OOM"),
      );
      if (refused) return;
    }
  });
}

describe("a request_id's claim", () => {
  it("lasts DECISION_TIMEOUT_MS plus a minute, not a day", async () => {
    const requestId = randomUUID();
    const answer = await callApi(url, PUBLIC, null, { body: { question: "Ship it?", categories: ["Yes", "No"], request_id: requestId } });
    expect(answer.status, answer.text).toBe(200);
    const ttlMs = await redis.command((client) => client.pttl(requestIdClaimKey(env.QUEUE_PREFIX!, requestId)));
    const timeoutMs = Number(env.DECISION_TIMEOUT_MS);
    expect(ttlMs).toBeGreaterThan(timeoutMs);
    expect(ttlMs).toBeLessThanOrEqual(timeoutMs + 60_000);
  });

  it("refuses the nil and max UUIDs, which every careless client would share (400, saying why)", async () => {
    for (const shared of ["00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff"]) {
      const answer = await callApi(url, PUBLIC, null, { body: { question: "Ship it?", categories: ["Yes", "No"], request_id: shared } });
      expect(answer.status, shared).toBe(400);
      expect(answer.body).toEqual({ detail: REQUEST_ID_NOT_RANDOM });
    }
  });
});

// Last: it leaves this file's Redis full.
describe("Redis at maxmemory", () => {
  it("a decision with an image is a 503 'temporarily unavailable', and no log line holds the image or exceeds 4 KB", async () => {
    const imageBase64 = randomBytes(480_000).toString("base64");
    await fillRedis();

    const answer = await callApi(url, PUBLIC, null, {
      body: { question: `Ship while Redis is full ${randomUUID()}?`, categories: ["Yes", "No"], images: [`data:image/png;base64,${imageBase64}`] },
    });
    expect(answer.status, answer.text).toBe(503);
    expect(answer.body).toEqual({ detail: MESSAGES.serviceUnavailable });

    // The refusal is logged for the operator (the request line and the reason) before the answer leaves.
    await service.waitForLog((line) => typeof line.msg === "string" && line.msg.startsWith("Redis refused a write"), "the refusal was logged");
    const sample = imageBase64.slice(1000, 1064);
    for (const line of service.lines) {
      const text = JSON.stringify(line);
      expect(text.length, text.slice(0, 300)).toBeLessThanOrEqual(MAX_LINE);
      expect(text.includes(sample), text.slice(0, 300)).toBe(false);
    }
    expect(service.stderr).not.toContain(sample);
  }, 60_000);
});
