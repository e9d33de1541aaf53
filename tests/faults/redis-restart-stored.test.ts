import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { useEmulator } from "@sd/provider-emulator/testing";
import { LiveClient, postJson } from "@sd/testing/client";
import { testEnv } from "@sd/testing/env";
import { storedDecision } from "@sd/testing/history";
import { PrivateRedis } from "@sd/testing/private-redis";
import { startStack, type InProcessStack } from "@sd/testing/stack";

const emulator = useEmulator();
let redis: PrivateRedis;
let stack: InProcessStack;

beforeAll(async () => {
  redis = await PrivateRedis.start();
  stack = await startStack(testEnv(emulator.url, { REDIS_URL: redis.url, DECISION_TIMEOUT_MS: "60000", VOTE_DEADLINE_MS: "50000" }));
});
afterAll(async () => {
  await stack?.close();
  await redis?.close();
});

it("a decision written just before a Redis restart without persistence is answered from the store, not reported lost", async () => {
  const tag = `written-then-lost-${randomUUID()}`;
  // Claude never answers in time: the flow is still waiting when Redis loses it.
  emulator.addRules([
    { match: { vendor: "anthropic", question_contains: tag }, latency_ms: 55_000, respond: { kind: "answer", category: "Yes" } },
    { match: { question_contains: tag }, respond: { kind: "answer", category: "Yes" } },
  ]);
  const client = new LiveClient(stack.url);
  try {
    await client.join();
    const answer = postJson(`${stack.url}/api/ensembled-llm-categorical-decision-public`, { question: `Ship? ${tag}`, categories: ["Yes", "No"], request_id: client.requestId });
    const { decision_id } = await client.voteFrom("claude");
    await emulator.waitForCall((call) => call.vendor === "anthropic" && call.prompt_text.includes(tag));
    // As if the aggregator had written it a moment before Redis went down (the completion never reached the gateway).
    await stack.store.decisions.insertOnce(storedDecision({ id: decision_id, user_id: null, question: `Ship? ${tag}`, final_decision: "Go" }));
    await redis.restart("SIGKILL");
    const { status, body } = await answer;
    expect(status).toBe(200);
    expect(body).toMatchObject({ decision_id, final_decision: "Go" });
  } finally {
    client.close();
  }
});
