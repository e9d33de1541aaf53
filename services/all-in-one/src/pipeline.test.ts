import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES, type DecisionResponse } from "@sd/contracts";
import { useEmulator } from "@sd/provider-emulator/testing";
import { LiveClient, postJson } from "./testing/client";
import { testEnv } from "./testing/env";
import { startStack, type InProcessStack } from "./testing/stack";

/** A 1x1 PNG. */
const TINY_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const PUBLIC = "/api/ensembled-llm-categorical-decision-public";
const question = (tag: string) => `Should we ship the ${tag} release this Friday?`;

const emulator = useEmulator();
let stack: InProcessStack;

beforeAll(async () => {
  stack = await startStack(
    testEnv(emulator.url, { VOTE_ATTEMPTS: "3", OPENAI_TIMEOUT_MS: "600", GEMINI_TIMEOUT_MS: "600", CLAUDE_TIMEOUT_MS: "600" }),
  );
});
afterAll(async () => {
  await stack?.close();
});

const decide = (body: unknown) => postJson(`${stack.url}${PUBLIC}`, body);
const callsFor = (vendor: string, tag: string) =>
  emulator.calls().filter((c) => c.vendor === vendor && c.prompt_text.includes(tag));

describe("a decision through the queue", () => {
  it("answers with the decision response entity and streams each model's progress", async () => {
    emulator.addRules([
      { match: { vendor: "openai" }, respond: { kind: "answer", category: "Yes", rationale: "Tests are green." } },
      { match: { vendor: "gemini" }, respond: { kind: "answer", category: "Yes", rationale: "Low risk." } },
      { match: { vendor: "anthropic" }, respond: { kind: "answer", category: "No", rationale: "Fridays are risky." } },
    ]);
    const client = new LiveClient(stack.url);
    try {
      expect(await client.join()).toEqual({ ok: true });
      const { status, body } = await decide({
        question: question("happy"),
        categories: [" Yes", "No ", "Yes", ""],
        request_id: client.requestId,
      });
      expect(status).toBe(200);
      expect(Object.keys(body).sort()).toEqual(
        ["context_explanation", "decision_id", "final_decision", "individual_responses", "question", "total_votes", "vote_counts"].sort(),
      );
      expect(body).toMatchObject({
        final_decision: "Yes",
        total_votes: 3,
        vote_counts: { Yes: 2, No: 1 },
        individual_responses: { openai: "Yes", gemini: "Yes", claude: "No" },
        question: question("happy"),
      });
      expect(body.context_explanation).toContain("Tests are green.");
      expect(body.context_explanation).toContain("Fridays are risky.");

      const final = await client.final();
      expect(final).toMatchObject({ decision_id: body.decision_id, final_decision: "Yes", request_id: client.requestId });
      for (const provider of ["openai", "gemini", "claude"]) {
        const statuses = client.votes.filter((v) => v.provider === provider).map((v) => v.status);
        expect(statuses).toEqual(["pending", "success"]);
      }
      expect(client.votes.find((v) => v.provider === "claude" && v.status === "success")?.response).toBe("No");
    } finally {
      client.close();
    }
  });

  it("stores the decision history item with every field of the specification", async () => {
    const image = `data:image/png;base64,${TINY_PNG}`;
    const { body } = await decide({ question: question("stored"), categories: ["Ship", "Wait"], images: [image] });
    const stored = await stack.store.decisions.findById(body.decision_id as string);
    expect(stored).toMatchObject({
      id: body.decision_id,
      question: question("stored"),
      categories: ["Ship", "Wait"],
      final_decision: body.final_decision,
      vote_counts: body.vote_counts,
      total_votes: 3,
      context_explanation: body.context_explanation,
      individual_responses: body.individual_responses,
      error_details: {},
      ensemble_mode: "majority_voting",
      is_authenticated: false,
      user_id: null,
      user_email: null,
      user_ip: expect.stringContaining("127.0.0.1"),
      images: [image],
    });
    expect(stored!.timestamp).toBeInstanceOf(Date);
    expect(stored!.processing_time_ms).toBeGreaterThan(0);
    expect(stored!.model_versions).toEqual({
      openai: expect.stringContaining("gpt-4o"),
      gemini: expect.stringContaining("gemini"),
      claude: expect.stringContaining("claude"),
    });
    for (const provider of ["openai", "gemini", "claude"]) {
      expect(stored!.confidence_scores[provider]).toBeGreaterThanOrEqual(0);
      expect(stored!.confidence_scores[provider]).toBeLessThanOrEqual(1);
      expect(stored!.raw_responses[provider]).toContain(stored!.individual_responses[provider]!);
    }
    // Every model saw the image.
    expect(emulator.calls().filter((c) => c.prompt_text.includes("stored")).map((c) => c.image_count)).toEqual([1, 1, 1]);
  });

  it("still decides when one model fails, and records the failure", async () => {
    emulator.addRules([
      { match: { vendor: "anthropic" }, respond: { kind: "error", status: 500, message: "overloaded" } },
      { match: { vendor: "openai" }, respond: { kind: "answer", category: "Wait" } },
      { match: { vendor: "gemini" }, respond: { kind: "answer", category: "Wait" } },
    ]);
    const client = new LiveClient(stack.url);
    try {
      await client.join();
      const { status, body } = await decide({ question: question("one-fails"), categories: ["Ship", "Wait"], request_id: client.requestId });
      expect(status).toBe(200);
      expect(body).toMatchObject({
        final_decision: "Wait",
        total_votes: 2,
        vote_counts: { Ship: 0, Wait: 2 },
        individual_responses: { openai: "Wait", gemini: "Wait", claude: null },
      });
      expect(body.context_explanation).toMatch(/Claude.*gave no valid vote/);
      // 500 is retried until the attempts run out: three calls, then the error vote.
      expect(callsFor("anthropic", "one-fails")).toHaveLength(3);
      await client.final();
      const claude = client.votes.filter((v) => v.provider === "claude");
      expect(claude.map((v) => v.status)).toEqual(["pending", "error"]);
      expect(claude[1]?.error).toMatch(/500/);
    } finally {
      client.close();
    }
  });

  it("has no decision, and says why, when every model fails", async () => {
    emulator.addRules({ respond: { kind: "error", status: 503 } });
    const { status, body } = await decide({ question: question("all-fail"), categories: ["Ship", "Wait"] });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      final_decision: null,
      total_votes: 0,
      individual_responses: { openai: null, gemini: null, claude: null },
      context_explanation: MESSAGES.noValidDecision,
    });
  });
});

describe("retries against each vendor", () => {
  const vendors = [
    ["openai", "openai"],
    ["gemini", "gemini"],
    ["anthropic", "claude"],
  ] as const;

  it.each(vendors)("%s: a 429 is retried after the Retry-After delay and then succeeds", async (vendor, provider) => {
    const tag = `rate-limited-${vendor}`;
    emulator.addRules([
      { match: { vendor }, times: 1, respond: { kind: "error", status: 429, retry_after_s: 1 } },
      { match: { vendor }, respond: { kind: "answer", category: "Ship" } },
    ]);
    const { body } = await decide({ question: question(tag), categories: ["Ship", "Wait"] });
    expect((body as DecisionResponse).individual_responses[provider]).toBe("Ship");
    const calls = callsFor(vendor, tag);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it.each(vendors)("%s: a 500 on every attempt ends as an error vote after the last attempt", async (vendor, provider) => {
    const tag = `exhausted-${vendor}`;
    emulator.addRules({ match: { vendor }, respond: { kind: "error", status: 500 } });
    const { body } = await decide({ question: question(tag), categories: ["Ship", "Wait"] });
    expect((body as DecisionResponse).individual_responses[provider]).toBeNull();
    expect((body as DecisionResponse).total_votes).toBe(2);
    expect(callsFor(vendor, tag)).toHaveLength(3);
  });

  it.each(vendors)("%s: a model that does not answer in time is retried, then recorded as failed", async (vendor, provider) => {
    const tag = `timeout-${vendor}`;
    emulator.addRules({ match: { vendor }, respond: { kind: "hang" } });
    const { body } = await decide({ question: question(tag), categories: ["Ship", "Wait"] });
    expect((body as DecisionResponse).individual_responses[provider]).toBeNull();
    expect(callsFor(vendor, tag)).toHaveLength(3);
  });

  it.each(vendors)("%s: an answer outside the categories is an invalid vote, not retried", async (vendor, provider) => {
    const tag = `invalid-${vendor}`;
    emulator.addRules({ match: { vendor }, respond: { kind: "answer", category: "Definitely not listed" } });
    const { body } = await decide({ question: question(tag), categories: ["Ship", "Wait"] });
    const decision = body as DecisionResponse;
    expect(decision.individual_responses[provider]).toBeNull();
    expect(decision.vote_counts).not.toHaveProperty("Definitely not listed");
    expect(callsFor(vendor, tag)).toHaveLength(1);
  });
});
