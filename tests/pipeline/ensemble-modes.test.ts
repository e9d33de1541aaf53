import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DecisionResponse, EnsembleRecord, StoredDecision } from "@sd/contracts";
import { emulatorBaseUrl } from "@sd/provider-emulator";
import { useEmulator } from "@sd/provider-emulator/testing";
import { LiveClient } from "@sd/testing/client";
import { testEnv } from "@sd/testing/env";
import { startStack, type InProcessStack } from "@sd/testing/stack";

const PUBLIC = "/api/ensembled-llm-categorical-decision-public";
const emulator = useEmulator();
let stack: InProcessStack;

beforeAll(async () => {
  stack = await startStack(
    testEnv(emulator.url, {
      // The playground's three are the default panel; GPT-5 judges (and may join a panel).
      PROVIDERS: "openai,gemini,claude,gpt5",
      GPT5_API_KEY: "test-key",
      GPT5_BASE_URL: emulatorBaseUrl(emulator.url, "openai"),
      GPT5_TIMEOUT_MS: "2000",
      JUDGE_PROVIDER: "gpt5",
      OPENAI_WEIGHT: "3",
      VOTE_ATTEMPTS: "1",
    }),
  );
});
afterAll(async () => {
  await stack?.close();
});

/** Each vendor's first answer to questions with `tag`, then (gossip's later rounds) its second. */
function script(tag: string, answers: Record<"openai" | "gemini" | "anthropic", [first: string, later?: string]>, latencyMs: Partial<Record<string, number>> = {}) {
  for (const [vendor, [first, later]] of Object.entries(answers) as ["openai" | "gemini" | "anthropic", [string, string?]][]) {
    const model = vendor === "openai" ? "gpt-4o" : undefined;
    emulator.addRules([
      { match: { vendor, model, question_contains: tag }, times: 1, latency_ms: latencyMs[vendor] ?? 0, respond: { kind: "answer", category: first } },
      { match: { vendor, model, question_contains: tag }, respond: { kind: "answer", category: later ?? first } },
    ]);
  }
}

async function decide(body: Record<string, unknown>): Promise<{ status: number; body: DecisionResponse & { detail?: string } }> {
  const response = await fetch(`${stack.url}${PUBLIC}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as DecisionResponse & { detail?: string } };
}

async function stored(decisionId: string): Promise<StoredDecision & { ensemble: EnsembleRecord }> {
  const decision = await stack.store.decisions.findById(decisionId);
  expect(decision?.ensemble, "the decision keeps its ensemble record").toBeTruthy();
  return decision as StoredDecision & { ensemble: EnsembleRecord };
}

const categories = ["Yes", "No"];

describe("ensemble modes through the pipeline", () => {
  it("majority voting (the default) counts one vote per model, whatever the configured weights", async () => {
    const tag = `majority-${randomUUID()}`;
    script(tag, { openai: ["Yes"], gemini: ["No"], anthropic: ["No"] });
    const { status, body } = await decide({ question: `Ship? ${tag}`, categories });
    expect(status).toBe(200);
    expect(body).toMatchObject({ final_decision: "No", vote_counts: { Yes: 1, No: 2 } });
    const decision = await stored(body.decision_id);
    expect(decision.ensemble_mode).toBe("majority_voting");
    expect(decision.ensemble).toMatchObject({ mode: "majority_voting", panel: ["openai", "gemini", "claude"], weights: {}, judge: null, early_quorum: null });
  });

  it("weighted voting counts each vote with its model's weight and says which weights decided", async () => {
    const tag = `weighted-${randomUUID()}`;
    script(tag, { openai: ["Yes"], gemini: ["No"], anthropic: ["No"] });
    const { status, body } = await decide({ question: `Ship? ${tag}`, categories, ensemble_mode: "weighted_voting" });
    expect(status).toBe(200);
    // GPT-4o weighs 3: Yes 3 against No 2.
    expect(body.final_decision).toBe("Yes");
    const decision = await stored(body.decision_id);
    expect(decision.ensemble.weights).toEqual({ openai: 3, gemini: 1, claude: 1 });
    expect(decision.context_explanation).toMatch(/3\.00/);
  });

  it("judge: the panel votes, then the judge picks the category from their answers; the record says so", async () => {
    const tag = `judge-${randomUUID()}`;
    script(tag, { openai: ["Yes"], gemini: ["No"], anthropic: ["No"] });
    emulator.addRules({ match: { model: "gpt-5", question_contains: tag }, respond: { kind: "answer", category: "Yes", rationale: "The strongest reason was for Yes." } });
    const client = new LiveClient(stack.url);
    try {
      await client.join();
      const { status, body } = await decide({ question: `Ship? ${tag}`, categories, ensemble_mode: "judge", request_id: client.requestId });
      expect(status).toBe(200);
      expect(body.final_decision).toBe("Yes");
      const decision = await stored(body.decision_id);
      expect(decision.ensemble.judge).toEqual({ provider: "gpt5", category: "Yes", reason: "The strongest reason was for Yes.", error: null, fallback: false });
      // The judge was shown every panel answer.
      const judged = emulator.calls().find((call) => call.model === "gpt-5" && call.prompt_text.includes(tag));
      expect(judged?.prompt_text).toContain("Panel answers:");
      await client.final();
      expect(client.votes.filter((vote) => vote.provider === "gpt5").map((vote) => [vote.round, vote.status])).toEqual([
        [0, "pending"],
        [0, "success"],
      ]);
    } finally {
      client.close();
    }
  });

  it("a failed judge falls back to the majority vote, and the record says so", async () => {
    const tag = `judge-fails-${randomUUID()}`;
    script(tag, { openai: ["Yes"], gemini: ["No"], anthropic: ["No"] });
    emulator.addRules({ match: { model: "gpt-5", question_contains: tag }, respond: { kind: "error", status: 500 } });
    const { status, body } = await decide({ question: `Ship? ${tag}`, categories, ensemble_mode: "judge" });
    expect(status).toBe(200);
    expect(body.final_decision).toBe("No");
    const decision = await stored(body.decision_id);
    expect(decision.ensemble.judge).toMatchObject({ provider: "gpt5", category: null, fallback: true });
    expect(decision.context_explanation).toMatch(/majority vote decided/);
  });

  it("gossip: models see each other's answers, change their minds, and stop once they agree; every round is kept and streamed", async () => {
    const tag = `gossip-${randomUUID()}`;
    script(tag, { openai: ["Yes", "No"], gemini: ["No"], anthropic: ["No"] });
    const client = new LiveClient(stack.url);
    try {
      await client.join();
      const { status, body } = await decide({ question: `Ship? ${tag}`, categories, ensemble_mode: "gossip", request_id: client.requestId });
      expect(status).toBe(200);
      expect(body).toMatchObject({ final_decision: "No", vote_counts: { Yes: 0, No: 3 } });
      const decision = await stored(body.decision_id);
      expect(decision.ensemble.rounds.map((round) => round.map((answer) => answer.category))).toEqual([
        ["Yes", "No", "No"],
        ["No", "No", "No"],
      ]);
      const secondRound = emulator.calls().filter((call) => call.prompt_text.includes(tag) && call.prompt_text.includes("Other models' answers:"));
      expect(secondRound).toHaveLength(3);
      await client.final();
      expect(client.votes.filter((vote) => vote.round === 2 && vote.status === "success")).toHaveLength(3);
    } finally {
      client.close();
    }
  });

  it("gossip stops at the round cap when the models never agree, and tallies the last round", async () => {
    const tag = `gossip-cap-${randomUUID()}`;
    script(tag, { openai: ["Yes"], gemini: ["No"], anthropic: ["Yes"] });
    const { status, body } = await decide({ question: `Ship? ${tag}`, categories, ensemble_mode: "gossip", max_rounds: 2 });
    expect(status).toBe(200);
    expect(body.final_decision).toBe("Yes");
    expect((await stored(body.decision_id)).ensemble.rounds).toHaveLength(2);
  });

  it("early quorum answers as soon as the rest cannot change the winner, cancels the slow call, and never counts it", async () => {
    const tag = `quorum-${randomUUID()}`;
    // Claude would answer No after 10 s: two Yes already decide it.
    script(tag, { openai: ["Yes"], gemini: ["Yes"], anthropic: ["No"] }, { anthropic: 10_000 });
    const started = performance.now();
    const { status, body } = await decide({ question: `Ship? ${tag}`, categories, early_quorum: true });
    const tookMs = performance.now() - started;
    expect(status).toBe(200);
    expect(tookMs).toBeLessThan(8000);
    expect(body).toMatchObject({ final_decision: "Yes", total_votes: 2, vote_counts: { Yes: 2, No: 0 } });
    const decision = await stored(body.decision_id);
    expect(decision.ensemble.early_quorum).toEqual({ skipped: ["claude"], calls_saved: 1 });
    expect(decision.individual_responses.claude).toBeNull();
    // The call was cut on the wire, not left to finish.
    const claude = await emulator.waitForCallEnd((call) => call.vendor === "anthropic" && call.prompt_text.includes(tag));
    expect(claude.outcome).toBe("dropped");
  });

  it("a request names its panel; an unknown model or a bad option is a 400 that names it", async () => {
    const tag = `panel-${randomUUID()}`;
    script(tag, { openai: ["Yes", "Yes"], gemini: ["No"], anthropic: ["No"] });
    emulator.addRules({ match: { model: "gpt-5", question_contains: tag }, respond: { kind: "answer", category: "Yes" } });
    const { status, body } = await decide({ question: `Ship? ${tag}`, categories, models: ["gpt5", "openai"] });
    expect(status).toBe(200);
    expect(Object.keys(body.individual_responses)).toEqual(["gpt5", "openai"]);
    expect(body).toMatchObject({ final_decision: "Yes", total_votes: 2 });
    expect(emulator.calls().filter((call) => call.prompt_text.includes(tag) && call.vendor !== "openai")).toEqual([]);

    const unknown = await decide({ question: "Ship?", categories, models: ["openai", "nope"] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.detail).toMatch(/^Unknown model: nope\. Choose from openai, gemini, claude, gpt5\.$/);
    const rounds = await decide({ question: "Ship?", categories, ensemble_mode: "gossip", max_rounds: 9 });
    expect(rounds.status).toBe(400);
    expect(rounds.body.detail).toBe("max_rounds must be a whole number from 1 to 5.");
    const empty = await decide({ question: "Ship?", categories, models: [] });
    expect(empty).toMatchObject({ status: 400, body: { detail: "Choose at least one model." } });
  });
});
