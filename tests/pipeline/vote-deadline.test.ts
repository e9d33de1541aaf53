import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DecisionResponse } from "@sd/contracts";
import { useEmulator } from "@sd/provider-emulator/testing";
import { DecisionFlow, QueueInspector, createRedis, type Redis } from "@sd/queue";
import { LiveClient, postJson } from "@sd/testing/client";
import { aggregateJob } from "@sd/testing/aggregate-job";
import { testEnv } from "@sd/testing/env";
import { jobData } from "@sd/testing/redis-inspect";
import { startStack, type InProcessStack } from "@sd/testing/stack";

/**
 * Issue 11, defect 3: a vote has a total deadline. One model that is rate-limited for long, or
 * hangs, costs its own vote, never the decision: the decision is made from the others within the
 * deadline, instead of waiting out the vendor's Retry-After or every attempt's timeout.
 */

const PUBLIC = "/api/ensembled-llm-categorical-decision-public";
const PROVIDERS = ["openai", "gemini", "claude"];
/** Short, so the tests finish fast; the HTTP wait (DECISION_TIMEOUT_MS) stays testEnv's 20 s. */
const DEADLINE_MS = 3000;
/** Time after the deadline for the last vote to land, the aggregator to write the decision and the answer to arrive. */
const MARGIN_MS = 1500;

const RATE_LIMITED = "rate-limited by the vendor past this vote's deadline";
const NO_ANSWER = "did not answer before this vote's deadline";
const NOT_ASKED = "not asked: this vote's deadline passed before a worker could ask the model";

const emulator = useEmulator();
let stack: InProcessStack;
let redis: Redis;
let prefix: string;

beforeAll(async () => {
  // Three attempts of 2 s each: without the deadline a hanging model holds a decision over 6 s.
  stack = await startStack(testEnv(emulator.url, { VOTE_DEADLINE_MS: String(DEADLINE_MS), VOTE_ATTEMPTS: "3" }));
  prefix = stack.vars.QUEUE_PREFIX!;
  redis = createRedis(stack.vars.REDIS_URL!, "vote-deadline-test");
});
afterAll(async () => {
  redis?.disconnect();
  await stack?.close();
});

const question = (tag: string) => `Should we ship the ${tag} release this Friday?`;
const callsFor = (vendor: string, tag: string) => emulator.calls().filter((c) => c.vendor === vendor && c.prompt_text.includes(tag));
/** The other two models answer "Ship" at once. */
const othersAnswer = (tag: string) =>
  emulator.addRules([
    { match: { vendor: "gemini", question_contains: tag }, respond: { kind: "answer", category: "Ship" } },
    { match: { vendor: "anthropic", question_contains: tag }, respond: { kind: "answer", category: "Ship" } },
  ]);

/** Makes a decision as the playground does (live, in its request's room) and times the HTTP answer. */
async function decideLive(tag: string) {
  const client = new LiveClient(stack.url);
  try {
    await client.join();
    const sent = performance.now();
    const { status, body } = await postJson(`${stack.url}${PUBLIC}`, { question: question(tag), categories: ["Ship", "Wait"], request_id: client.requestId });
    const tookMs = performance.now() - sent;
    expect(status).toBe(200);
    await client.final();
    const decision = body as unknown as DecisionResponse;
    const stored = await stack.store.decisions.findById(decision.decision_id);
    return { decision, stored: stored!, tookMs, votes: client.votes };
  } finally {
    client.close();
  }
}

describe("a vote's total deadline", () => {
  it("a model rate-limited with Retry-After 100 s costs its own vote: the decision is made from the others at once, and that model is not called again", async () => {
    const tag = `retry-after-100-${randomUUID()}`;
    emulator.addRules({ match: { vendor: "openai", question_contains: tag }, respond: { kind: "error", status: 429, retry_after_s: 100 } });
    othersAnswer(tag);

    const { decision, stored, tookMs, votes } = await decideLive(tag);

    expect(tookMs).toBeLessThan(DEADLINE_MS);
    expect(decision).toMatchObject({ final_decision: "Ship", total_votes: 2, individual_responses: { openai: null, gemini: "Ship", claude: "Ship" } });
    // The history and the live row both say why the model has no vote.
    expect(stored.error_details).toEqual({ openai: RATE_LIMITED });
    expect(votes.filter((v) => v.provider === "openai").map((v) => [v.status, v.error])).toEqual([
      ["pending", null],
      ["error", RATE_LIMITED],
    ]);
    // One call, and none scheduled: no retry waits in the queue to call the vendor after the deadline.
    expect(callsFor("openai", tag)).toHaveLength(1);
    const queues = new QueueInspector(redis, prefix, PROVIDERS);
    try {
      expect((await queues.counts())["vote-openai"]).toMatchObject({ delayed: 0, waiting: 0, active: 0, failed: 0 });
    } finally {
      await queues.close();
    }
  });

  it("a model that hangs is cut at the deadline: the decision takes the deadline, not attempts x timeout", async () => {
    const tag = `hang-${randomUUID()}`;
    emulator.addRules({ match: { vendor: "anthropic", question_contains: tag }, respond: { kind: "hang" } });
    emulator.addRules([
      { match: { vendor: "gemini", question_contains: tag }, respond: { kind: "answer", category: "Wait" } },
      { match: { vendor: "openai", question_contains: tag }, respond: { kind: "answer", category: "Wait" } },
    ]);

    const { decision, stored, tookMs, votes } = await decideLive(tag);

    // Without the deadline: three 2 s attempts plus backoff, over 6 s.
    expect(tookMs).toBeLessThan(DEADLINE_MS + MARGIN_MS);
    expect(decision).toMatchObject({ final_decision: "Wait", total_votes: 2, individual_responses: { claude: null } });
    expect(stored.error_details).toEqual({ claude: NO_ANSWER });
    expect(votes.find((v) => v.provider === "claude" && v.status === "error")?.error).toBe(NO_ANSWER);
    // The first attempt ended at the 2 s timeout, the retry at the deadline: a third was never started.
    expect(callsFor("anthropic", tag).length).toBeLessThanOrEqual(2);
  });

  it("the deadline is the decision's, not each attempt's: a retry within it is made, the next past it is not", async () => {
    const tag = `retry-after-1.5-${randomUUID()}`;
    // Every answer is a 429 with Retry-After 1.5 s: the first retry starts before the 3 s deadline, the second would start after it.
    emulator.addRules({ match: { vendor: "gemini", question_contains: tag }, respond: { kind: "error", status: 429, retry_after_s: 1.5 } });
    emulator.addRules([
      { match: { vendor: "openai", question_contains: tag }, respond: { kind: "answer", category: "Ship" } },
      { match: { vendor: "anthropic", question_contains: tag }, respond: { kind: "answer", category: "Wait" } },
    ]);

    const { decision, stored, tookMs } = await decideLive(tag);

    expect(tookMs).toBeLessThan(DEADLINE_MS);
    expect(decision).toMatchObject({ total_votes: 2, individual_responses: { gemini: null, openai: "Ship", claude: "Wait" } });
    expect(stored.error_details).toEqual({ gemini: RATE_LIMITED });
    const calls = callsFor("gemini", tag);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(1450);
  });

  it("still retries a 429 with Retry-After 1 s and uses the answer that follows", async () => {
    const tag = `retry-after-1-${randomUUID()}`;
    emulator.addRules([
      { match: { vendor: "openai", question_contains: tag }, times: 1, respond: { kind: "error", status: 429, retry_after_s: 1 } },
      { match: { vendor: "openai", question_contains: tag }, respond: { kind: "answer", category: "Wait" } },
    ]);
    othersAnswer(tag);

    const { decision, stored, tookMs, votes } = await decideLive(tag);

    expect(tookMs).toBeLessThan(DEADLINE_MS);
    expect(decision).toMatchObject({ total_votes: 3, vote_counts: { Ship: 2, Wait: 1 }, individual_responses: { openai: "Wait" } });
    expect(stored.error_details).toEqual({});
    expect(votes.filter((v) => v.provider === "openai").map((v) => v.status)).toEqual(["pending", "success"]);
    const calls = callsFor("openai", tag);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it("a vote job that reaches a worker after its decision's deadline asks no model and is recorded as an error at once", async () => {
    // As a job handed on by a crashed worker, or stuck behind a backlog, would: its deadline travels in the job.
    const tag = `late-${randomUUID()}`;
    const flow = new DecisionFlow(redis, prefix, 3);
    try {
      await flow.ready();
      const decisionId = randomUUID();
      const receivedAt = Date.now() - 2 * DEADLINE_MS;
      await flow.enqueue(
        aggregateJob({ decision_id: decisionId, question: question(tag), providers: PROVIDERS, received_at: receivedAt, vote_deadline_at: receivedAt + DEADLINE_MS }),
      );
      const result = await flow.waitForDecision(decisionId, 20_000);
      expect(result).toMatchObject({ final_decision: null, total_votes: 0 });
      const stored = await stack.store.decisions.findById(decisionId);
      expect(stored!.error_details).toEqual({ openai: NOT_ASKED, gemini: NOT_ASKED, claude: NOT_ASKED });
      expect(emulator.calls().filter((c) => c.prompt_text.includes(tag))).toEqual([]);
    } finally {
      await flow.close();
    }
  });
});

describe("VOTE_DEADLINE_MS", () => {
  it("refuses to start when it is not below DECISION_TIMEOUT_MS, naming the variable", async () => {
    await expect(startStack(testEnv(emulator.url, { DECISION_TIMEOUT_MS: "20000", VOTE_DEADLINE_MS: "20000" }))).rejects.toThrow(
      /^VOTE_DEADLINE_MS: must be below DECISION_TIMEOUT_MS \(20000\)/,
    );
  });

  it("unset, is 30 s with the default 90 s wait, stamped once on the decision and carried by each of its votes", async () => {
    const vars = testEnv(emulator.url, { DECISION_TIMEOUT_MS: "90000" });
    delete vars.VOTE_DEADLINE_MS; // testEnv sets one; this test is about the default
    const own = await startStack(vars);
    try {
      const { status, body } = await postJson(`${own.url}${PUBLIC}`, { question: question("default-deadline"), categories: ["Ship", "Wait"] });
      expect(status).toBe(200);
      const jobs = [...(await jobData(redis, own.vars.QUEUE_PREFIX!))]
        .filter(([key]) => key.includes(body.decision_id as string))
        .map(([, data]) => JSON.parse(data) as { received_at?: number; vote_deadline_at: number });
      const aggregate = jobs.find((job) => job.received_at !== undefined)!;
      expect(aggregate.vote_deadline_at - aggregate.received_at!).toBe(30_000);
      expect(jobs).toHaveLength(1 + PROVIDERS.length);
      for (const job of jobs) expect(job.vote_deadline_at).toBe(aggregate.vote_deadline_at);
    } finally {
      await own.close();
    }
  });
});
