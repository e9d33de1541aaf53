import { randomBytes, randomUUID } from "node:crypto";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiKeyListSchema, type AggregateJob, type AuthResponse, type StoredDecision, type Vote } from "@sd/contracts";
import { loadEnv, providersFromEnv, tablePrice, workerEnv } from "@sd/config";
import { emulatorBaseUrl } from "@sd/provider-emulator";
import { useEmulator } from "@sd/provider-emulator/testing";
import { startProviderWorkers } from "@sd/provider-worker";
import { DecisionFlow, createRedis, type Redis } from "@sd/queue";
import { createLogger, logLevelNumber } from "@sd/telemetry";
import { aggregateJob } from "@sd/testing/aggregate-job";
import { testEnv } from "@sd/testing/env";
import { callApi, storedDecision } from "@sd/testing/history";
import { useStackWithMail } from "@sd/testing/stack-with-mail";

/**
 * Token usage and cost on real Redis, with the provider emulator reporting usage: OpenAI priced
 * by the table (gpt-4o), Claude by the environment's override, Gemini simulated (no API key: 0
 * whatever it reports) and Llama a model the table does not know (0).
 */
const PROVIDERS = ["openai", "gemini", "claude", "llama"];
const CLAUDE_PRICE = { input: 4, output: 20 };
const GPT_4O = tablePrice("gpt-4o")!;
const dollars = (usage: { input_tokens: number; output_tokens: number }, price: { input: number; output: number }) =>
  (usage.input_tokens * price.input + usage.output_tokens * price.output) / 1_000_000;
const gpt4o = { input: GPT_4O.inputUsdPerMTok, output: GPT_4O.outputUsdPerMTok };

const emulator = useEmulator();
const stack = useStackWithMail(emulator, () => ({
  PROVIDERS: PROVIDERS.join(","),
  PANEL: PROVIDERS.join(","),
  // No key: answered by the built-in emulator, so simulated.
  GEMINI_API_KEY: "",
  SIMULATED_LATENCY_MS: "0",
  CLAUDE_PRICE_INPUT_PER_MTOK: String(CLAUDE_PRICE.input),
  CLAUDE_PRICE_OUTPUT_PER_MTOK: String(CLAUDE_PRICE.output),
  LLAMA_VENDOR: "openai-compatible",
  LLAMA_MODEL: "llama3.1",
  LLAMA_API_KEY: "test-key",
  LLAMA_BASE_URL: emulatorBaseUrl(emulator.url, "openai-compatible"),
  LLAMA_TIMEOUT_MS: "2000",
}));
let redis: Redis;
let owner: AuthResponse;

beforeAll(async () => {
  redis = createRedis(stack.vars.REDIS_URL!, "cost-test");
  owner = await stack.signIn(`cost-${randomUUID()}@example.com`);
});
afterAll(() => {
  redis?.disconnect();
});

/** A stored key of the owner's, as the key endpoints would create it. */
const newKey = () =>
  stack.store.apiKeys.create({
    user_id: owner.user.id,
    name: "cost test",
    workspace: "Default",
    created_by: owner.user.email,
    created_at: new Date(),
    active_status: true,
    key_hash: randomBytes(32).toString("hex"),
    key_ciphertext: "not-used-here",
  });
/** The key's cost as the owner's settings table gets it: GET /api/api-keys. */
async function keyCost(id: string): Promise<number> {
  const { status, body } = await callApi(stack.url, "/api/api-keys", owner.tokens.access_token);
  expect(status).toBe(200);
  const key = ApiKeyListSchema.parse(body).find((listed) => listed.id === id);
  expect(key, `key ${id} listed`).toBeDefined();
  return key!.cost;
}
/** The sum of the key's decisions' cost_usd, read from the owner's history. */
async function decisionsCost(id: string): Promise<number> {
  const { body } = await callApi(stack.url, "/api/decision-history?limit=100", owner.tokens.access_token);
  const decisions = body.decisions as { id: string }[];
  const stored = await Promise.all(decisions.map((decision) => stack.store.decisions.findById(decision.id)));
  return stored.filter((decision) => decision?.api_key_id === id).reduce((sum, decision) => sum + decision!.cost_usd, 0);
}

/** A decision of the owner's straight onto the queue, as the gateway enqueues one. */
const ownersJob = (overrides: Partial<AggregateJob>): AggregateJob =>
  aggregateJob({ providers: PROVIDERS, is_authenticated: true, user_id: owner.user.id, user_email: owner.user.email, ...overrides });

describe("token usage and cost of a decision", () => {
  it("records each model's tokens and prices them: the table's price, the override's, and 0 for a simulated or unpriced model", async () => {
    const openai = { input_tokens: 1000, output_tokens: 200 };
    const claude = { input_tokens: 500, output_tokens: 100 };
    const llama = { input_tokens: 800, output_tokens: 100 };
    emulator.addRules([
      { match: { model: "gpt-4o" }, times: 1, respond: { kind: "answer", category: "Ship", usage: openai } },
      { match: { vendor: "anthropic" }, times: 1, respond: { kind: "answer", category: "Ship", usage: claude } },
      { match: { model: "llama3.1" }, times: 1, respond: { kind: "answer", category: "Wait", usage: llama } },
    ]);
    const { status, body } = await callApi(stack.url, "/api/ensembled-llm-categorical-decision", owner.tokens.access_token, {
      body: { question: "Should we ship the billing release on Friday?", categories: ["Ship", "Wait"] },
    });
    expect(status).toBe(200);
    const stored = (await stack.store.decisions.findById(body.decision_id as string))!;

    expect(stored.token_usage).toEqual({
      openai,
      claude,
      llama,
      // The simulated model's usage is the emulator's estimate: recorded, but nobody was paid for it.
      gemini: { input_tokens: expect.any(Number), output_tokens: expect.any(Number) },
    });
    expect(stored.token_usage.gemini!.input_tokens).toBeGreaterThan(0);
    expect(stored.cost_usd).toBeCloseTo(dollars(openai, gpt4o) + dollars(claude, CLAUDE_PRICE), 12);
    expect(stored.cost_usd).toBeCloseTo(0.0085, 12);
    expect(stored.api_key_id).toBeNull();

    // The owner's history shows them, in the list and in the detail.
    const list = await callApi(stack.url, "/api/decision-history?limit=100", owner.tokens.access_token);
    const item = (list.body.decisions as { id: string; token_usage: unknown; cost_usd: number }[]).find((d) => d.id === stored.id);
    expect(item).toMatchObject({ token_usage: stored.token_usage, cost_usd: stored.cost_usd });
    const detail = await callApi(stack.url, `/api/decision-history/${stored.id}`, owner.tokens.access_token);
    expect(detail.body.decision).toMatchObject({ token_usage: stored.token_usage, cost_usd: stored.cost_usd });
  });

  it("stores, for a decision made through a key, the sum of its votes' costs, failed votes included; the key's cost is the sum of its decisions'", async () => {
    const key = await newKey();
    const wasted = { input_tokens: 300, output_tokens: 20 };
    emulator.addRules([
      // No answer: nothing billed.
      { match: { model: "gpt-4o" }, times: 1, respond: { kind: "error", status: 500 } },
      // An answer outside the categories is no vote, but the vendor billed it.
      { match: { vendor: "anthropic" }, times: 1, respond: { kind: "answer", category: "Purple", usage: wasted } },
      // A server that reports no usage.
      { match: { model: "llama3.1" }, times: 1, respond: { kind: "answer", category: "Ship", usage: null } },
    ]);
    const flow = new DecisionFlow(redis, stack.vars.QUEUE_PREFIX!, 1);
    try {
      await flow.ready();
      const decisionId = await flow.enqueue(ownersJob({ api_key_id: key.id }));
      await flow.waitForDecision(decisionId, 20_000);
      const votes = [...(await flow.finishedCalls<Vote>(decisionId)).returned.values()];
      const byProvider = Object.fromEntries(votes.map((vote) => [vote.provider, vote]));
      expect(byProvider.openai).toMatchObject({ status: "error", usage: null, cost_usd: 0 });
      expect(byProvider.claude).toMatchObject({ status: "error", usage: wasted });
      expect(byProvider.claude!.cost_usd).toBeCloseTo(dollars(wasted, CLAUDE_PRICE), 12);
      expect(byProvider.llama).toMatchObject({ status: "success", usage: null, cost_usd: 0 });
      expect(byProvider.gemini).toMatchObject({ status: "success", cost_usd: 0 });

      const stored = (await stack.store.decisions.findById(decisionId))!;
      expect(stored.api_key_id).toBe(key.id);
      expect(stored.token_usage).toEqual(Object.fromEntries(votes.map((vote) => [vote.provider, vote.usage])));
      expect(stored.cost_usd).toBeCloseTo(votes.reduce((sum, vote) => sum + vote.cost_usd, 0), 12);
      expect(stored.cost_usd).toBeCloseTo(0.0016, 12);
      expect(await keyCost(key.id)).toBeCloseTo(stored.cost_usd, 12);

      // A second decision through the key: the key's cost is now the two decisions' sum.
      emulator.addRules({ match: { model: "gpt-4o" }, times: 1, respond: { kind: "answer", category: "Ship", usage: { input_tokens: 100, output_tokens: 10 } } });
      const second = await flow.enqueue(ownersJob({ api_key_id: key.id }));
      await flow.waitForDecision(second, 20_000);
      const secondCost = (await stack.store.decisions.findById(second))!.cost_usd;
      expect(secondCost).toBeGreaterThan(0);
      expect(await keyCost(key.id)).toBeCloseTo(stored.cost_usd + secondCost, 12);
      expect(await keyCost(key.id)).toBeCloseTo(await decisionsCost(key.id), 12);
    } finally {
      await flow.close();
    }
  });

  it("a rerun of an already stored decision (after a crash) cannot count it twice: the decision is written once", async () => {
    const key = await newKey();
    const already: StoredDecision = storedDecision({ user_id: owner.user.id, api_key_id: key.id, cost_usd: 0.25 });
    expect(await stack.store.decisions.insertOnce(already)).toBe(true);
    const flow = new DecisionFlow(redis, stack.vars.QUEUE_PREFIX!, 1);
    try {
      await flow.ready();
      const decisionId = await flow.enqueue(ownersJob({ decision_id: already.id, api_key_id: key.id }));
      expect(await flow.waitForDecision(decisionId, 20_000)).toMatchObject({ decision_id: already.id, question: already.question });
      expect(await stack.store.decisions.findById(already.id)).toEqual(already);
      expect(await keyCost(key.id)).toBeCloseTo(0.25, 12);
      expect(await keyCost(key.id)).toBeCloseTo(await decisionsCost(key.id), 12);
    } finally {
      await flow.close();
    }
  });
});

describe("a model without a price", () => {
  it("is said once, when the workers start, with the variables that would price it", async () => {
    const lines: { level: number; msg: string; provider?: string }[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as (typeof lines)[number]);
        done();
      },
    });
    const vars = testEnv(emulator.url, {
      LLAMA_VENDOR: "openai-compatible",
      LLAMA_MODEL: "llama3.1",
      LLAMA_API_KEY: "test-key",
      // Simulated: costs 0 anyway, so nothing to say about its price.
      MISTRAL_VENDOR: "openai-compatible",
      MISTRAL_MODEL: "mistral-small",
    });
    const providers = providersFromEnv(["openai", "llama", "mistral"], vars);
    const workers = await startProviderWorkers(loadEnv(workerEnv, vars), providers, createLogger("cost-test", "info", sink));
    await workers.close();
    const warnings = lines.filter((line) => line.level === logLevelNumber("warn"));
    expect(warnings).toEqual([
      expect.objectContaining({
        provider: "llama",
        msg: 'no price is known for model "llama3.1": its calls are recorded as costing 0 US dollars; set LLAMA_PRICE_INPUT_PER_MTOK and LLAMA_PRICE_OUTPUT_PER_MTOK',
      }),
    ]);
  });
});
