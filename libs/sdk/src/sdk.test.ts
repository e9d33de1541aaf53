import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { API_KEY_MESSAGES, ApiKeySchema, MESSAGES, type AuthResponse, type VoteEvent } from "@sd/contracts";
import { callApi, useStackWithMail } from "@sd/testing";
import { useEmulator } from "@sd/provider-emulator/testing";
import {
  AuthenticationError,
  NotFoundError,
  QuotaExceededError,
  RateLimitError,
  SmartDecision,
  SmartDecisionError,
  SpendLimitError,
  TimeoutError,
  ValidationError,
  type VoteDetail,
} from "./index";

/**
 * The SDK against the running product over HTTP: the all-in-one stack on real Redis, the provider
 * emulator behind the real vendor SDKs, a user signed in by magic link who creates API keys through
 * POST /api/api-keys, exactly as a developer would.
 */

const RATE_LIMIT = 20;
const QUOTA = 30;
const CATEGORIES = ["Yes", "No", "Wait until Monday"];

const emulator = useEmulator();
const stack = useStackWithMail(emulator, { API_KEY_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT), API_MONTHLY_QUOTA: String(QUOTA) });

/** A new account (each has its own monthly quota). */
const newUser = () => stack.signIn();

/** Creates a key the way the settings page does, and returns its id and secret. */
async function createKey(user: AuthResponse, name = "SDK test"): Promise<{ id: string; secret: string }> {
  const response = await fetch(`${stack.url}/api/api-keys`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${user.tokens.access_token}` },
    body: JSON.stringify({ name }),
  });
  expect(response.status).toBe(201);
  const key = ApiKeySchema.parse(await response.json());
  return { id: key.id, secret: key.keyvalue! };
}

async function newClient(user?: AuthResponse): Promise<{ client: SmartDecision; user: AuthResponse; keyId: string }> {
  const owner = user ?? (await newUser());
  const { id, secret } = await createKey(owner);
  return { client: new SmartDecision({ apiKey: secret, baseUrl: `${stack.url}/` }), user: owner, keyId: id };
}

/** Every model answers `category` for questions containing `marker`. */
function scriptAnswers(marker: string, category: string, latencyMs?: number): void {
  emulator.addRules({ match: { question_contains: marker }, ...(latencyMs === undefined ? {} : { latency_ms: latencyMs }), respond: { kind: "answer", category, confidence: 0.9 } });
}

describe("decide", () => {
  it("answers the combined decision, parsed: three votes, the winner and the consensus score", async () => {
    const { client } = await newClient();
    const marker = randomUUID();
    scriptAnswers(marker, "Wait until Monday");
    // Every vote counted: early quorum (on by default for /v1) would skip the third once two agree.
    const result = await client.decide({ prompt: `Ship on Friday? ${marker}`, valid_responses: CATEGORIES, early_quorum: false });
    expect(result.ensemble_decision).toBe("Wait until Monday");
    expect(result.total_votes).toBe(3);
    expect(result.consensus_score).toBe(1);
    expect(result.vote_details.map((v) => v.llm_name).sort()).toEqual(["claude", "gemini", "openai"]);
    for (const vote of result.vote_details) {
      expect(vote).toMatchObject({ llm_name: vote.llm_name, response: "Wait until Monday", confidence: 0.9, status: "success" });
      // What each model's calls took and cost, typed for the caller; the totals add them up.
      expect(vote.latency_ms).toBeGreaterThanOrEqual(0);
      expect(vote.cost_usd).toBeGreaterThanOrEqual(0);
    }
    expect(result.cost_usd).toBeCloseTo(result.vote_details.reduce((sum, vote) => sum + (vote.cost_usd ?? 0), 0), 12);
    expect(result.usage.input_tokens).toBe(result.vote_details.reduce((sum, vote) => sum + (vote.usage?.input_tokens ?? 0), 0));
  });

  it("by default answers as soon as the votes still to come cannot change the winner (early quorum)", async () => {
    const { client } = await newClient();
    const marker = randomUUID();
    // Claude would answer only after 10 s: the two fast agreeing votes settle it without waiting.
    emulator.addRules({ match: { vendor: "anthropic", question_contains: marker }, latency_ms: 10_000, respond: { kind: "answer", category: "No", confidence: 0.9 } });
    scriptAnswers(marker, "Wait until Monday");
    const started = performance.now();
    const result = await client.decide({ prompt: `Ship on Friday? ${marker}`, valid_responses: CATEGORIES });
    expect(performance.now() - started).toBeLessThan(8000);
    expect(result).toMatchObject({ ensemble_decision: "Wait until Monday", total_votes: 2, consensus_score: 1 });
    // The skipped model is listed without an answer, and says it was skipped (not failed).
    const skipped: VoteDetail | undefined = result.vote_details.find((v) => v.llm_name === "claude");
    expect(skipped).toMatchObject({ llm_name: "claude", response: null, confidence: null, status: "skipped", latency_ms: null });
    expect(result.vote_details.filter((v) => v.status === "success").map((v) => v.llm_name).sort()).toEqual(["gemini", "openai"]);
  });

  it("reports each model's progress live with onVote: pending, then success, before the answer", async () => {
    const { client } = await newClient();
    const marker = randomUUID();
    scriptAnswers(marker, "No");
    const votes: VoteEvent[] = [];
    const result = await client.decide({ prompt: `Ship on Friday? ${marker}`, valid_responses: CATEGORIES }, { onVote: (vote) => votes.push(vote) });
    expect(result.ensemble_decision).toBe("No");
    for (const provider of ["openai", "gemini", "claude"]) {
      const mine = votes.filter((v) => v.provider === provider);
      expect(mine.map((v) => v.status), provider).toEqual(["pending", "success"]);
      expect(mine[1]).toMatchObject({ decision_id: result.decision_id, response: "No", confidence: 0.9 });
    }
  });

  it("with the same Idempotency-Key answers the first decision instead of running a second one", async () => {
    const { client } = await newClient();
    const marker = randomUUID();
    scriptAnswers(marker, "Yes");
    const input = { prompt: `Retry me ${marker}`, valid_responses: CATEGORIES };
    const idempotencyKey = randomUUID();
    const first = await client.decide(input, { idempotencyKey });
    const votes: VoteEvent[] = [];
    const retried = await client.decide(input, { idempotencyKey, onVote: (vote) => votes.push(vote) });
    const again = await client.decide(input, { idempotencyKey, onVote: (vote) => votes.push(vote) });
    const resubmitted = await client.submit(input, { idempotencyKey });
    expect(retried).toEqual(first);
    expect(again).toEqual(first);
    expect(resubmitted.decision_id).toBe(first.decision_id);
    const history = await client.history({ question: marker });
    expect(history.total).toBe(1);

    // A different key runs a new decision.
    const other = await client.decide(input, { idempotencyKey: randomUUID() });
    expect(other.decision_id).not.toBe(first.decision_id);
  });
});

describe("submit, poll and waitFor", () => {
  it("queues the decision at once (202), polls it as pending, then waits for the same result decide would give", async () => {
    const { client } = await newClient();
    const marker = randomUUID();
    // The models take a while, so the decision is still pending right after it is accepted.
    scriptAnswers(marker, "Wait until Monday", 1500);
    const accepted = await client.submit({ prompt: `Later ${marker}`, valid_responses: CATEGORIES, early_quorum: false });
    expect(accepted).toEqual({ decision_id: accepted.decision_id, status: "pending", status_url: `/v1/decisions/${accepted.decision_id}` });
    expect(await client.poll(accepted.decision_id)).toEqual({ decision_id: accepted.decision_id, status: "pending", result: null });

    const result = await client.waitFor(accepted.decision_id, { intervalMs: 200 });
    expect(result).toMatchObject({ decision_id: accepted.decision_id, ensemble_decision: "Wait until Monday", total_votes: 3, consensus_score: 1 });
    expect(await client.poll(accepted.decision_id)).toEqual({ decision_id: accepted.decision_id, status: "complete", result });
  });

  it("waitFor gives up with a TimeoutError while the decision is still pending", async () => {
    const { client } = await newClient();
    const marker = randomUUID();
    scriptAnswers(marker, "Yes", 1500);
    const accepted = await client.submit({ prompt: `Slow ${marker}`, valid_responses: CATEGORIES });
    await expect(client.waitFor(accepted.decision_id, { intervalMs: 100, timeoutMs: 300 })).rejects.toBeInstanceOf(TimeoutError);
    expect((await client.waitFor(accepted.decision_id, { intervalMs: 200 })).ensemble_decision).toBe("Yes");
  });

  it("polling another user's decision is a NotFoundError", async () => {
    const alice = await newClient();
    const bob = await newClient();
    const accepted = await alice.client.submit({ prompt: `Mine ${randomUUID()}`, valid_responses: CATEGORIES });
    const error = await bob.client.poll(accepted.decision_id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404 });
    await alice.client.waitFor(accepted.decision_id, { intervalMs: 200 });
  });
});

describe("history", () => {
  it("lists the key owner's decisions newest first, filtered and paged, as in the web app", async () => {
    const { client, user } = await newClient();
    const marker = randomUUID();
    scriptAnswers(`${marker} a`, "Yes");
    scriptAnswers(`${marker} b`, "No");
    const first = await client.decide({ prompt: `History ${marker} a`, valid_responses: CATEGORIES });
    const second = await client.decide({ prompt: `History ${marker} b`, valid_responses: [...CATEGORIES, "Maybe later"] });

    const all = await client.history({ question: marker });
    expect(all.total).toBe(2);
    expect(all.decisions.map((d) => d.id)).toEqual([second.decision_id, first.decision_id]);
    expect(all.decisions[0]).toMatchObject({ question: `History ${marker} b`, final_decision: "No", user_email: user.user.email });

    const page = await client.history({ question: marker, limit: 1, offset: 1 });
    expect(page.decisions.map((d) => d.id)).toEqual([first.decision_id]);
    expect((await client.history({ question: marker, category: "Maybe later" })).decisions.map((d) => d.id)).toEqual([second.decision_id]);
    expect((await client.history({ question: marker, dateFrom: new Date(Date.now() + 60_000) })).total).toBe(0);

    // The same decisions are the user's history in the web app.
    const web = await callApi(stack.url, `/api/decision-history?question=${marker}`, user.tokens.access_token);
    expect((web.body.decisions as { id: string }[]).map((d) => d.id)).toEqual([second.decision_id, first.decision_id]);
  });
});

describe("typed errors", () => {
  it("refuses to start without an API key", () => {
    const saved = process.env.SD_API_KEY;
    delete process.env.SD_API_KEY;
    try {
      expect(() => new SmartDecision({ baseUrl: stack.url })).toThrow(SmartDecisionError);
    } finally {
      if (saved !== undefined) process.env.SD_API_KEY = saved;
    }
  });

  it("reads the key from SD_API_KEY when none is passed", async () => {
    const user = await newUser();
    const { secret } = await createKey(user);
    process.env.SD_API_KEY = secret;
    try {
      expect((await new SmartDecision({ baseUrl: stack.url }).history()).total).toBe(0);
    } finally {
      delete process.env.SD_API_KEY;
    }
  });

  it("an unknown key, and a key switched off, are AuthenticationErrors with the API's detail", async () => {
    const unknown = new SmartDecision({ apiKey: "sd_live_not-a-real-key", baseUrl: stack.url });
    const error = await unknown.history().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, detail: API_KEY_MESSAGES.invalidKey });

    const { client, user, keyId } = await newClient();
    expect((await client.history()).total).toBe(0);
    const off = await fetch(`${stack.url}/api/api-keys/${keyId}`, {
      method: "PUT",
      headers: { "content-type": "application/json", authorization: `Bearer ${user.tokens.access_token}` },
      body: JSON.stringify({ active_status: false }),
    });
    expect(off.status).toBe(200);
    await expect(client.history()).rejects.toBeInstanceOf(AuthenticationError);
  });

  it("an invalid request is a ValidationError with the specification's message", async () => {
    const { client } = await newClient();
    const error = await client.decide({ prompt: "Only one choice?", valid_responses: ["Yes"] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ status: 400, detail: MESSAGES.categoriesRequired.detail });

    const conflict = await client.submit({ prompt: "First body", valid_responses: CATEGORIES }, { idempotencyKey: "same-key" }).then(() =>
      client.submit({ prompt: "Another body", valid_responses: CATEGORIES }, { idempotencyKey: "same-key" }).catch((e: unknown) => e),
    );
    expect(conflict).toBeInstanceOf(ValidationError);
    expect(conflict).toMatchObject({ status: 422 });
  });

  it("past the per-key rate limit, a RateLimitError says how long to wait", async () => {
    const { client } = await newClient();
    for (let call = 0; call < RATE_LIMIT; call++) await client.history();
    const error = await client.history().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).not.toBeInstanceOf(QuotaExceededError);
    expect(error).toMatchObject({ status: 429, detail: API_KEY_MESSAGES.rateLimited });
    expect((error as RateLimitError).retryAfter).toBeGreaterThan(0);
  });

  it("past the monthly quota, a QuotaExceededError waits until next month", async () => {
    const user = await newUser();
    // Two keys, so the per-key rate limit never answers first.
    const keys = [await newClient(user), await newClient(user)];
    for (let call = 0; call < QUOTA; call++) await keys[call % keys.length]!.client.history();
    const error = await keys[0]!.client.history().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuotaExceededError);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, detail: API_KEY_MESSAGES.quotaExceeded(QUOTA) });
    expect((error as QuotaExceededError).retryAfter).toBeGreaterThan(0);
  });

  it("past the key's monthly spend limit, a SpendLimitError (402) before any model is asked", async () => {
    const { client, user, keyId } = await newClient();
    const marker = randomUUID();
    emulator.addRules({ match: { question_contains: marker }, respond: { kind: "answer", category: "Yes", usage: { input_tokens: 4000, output_tokens: 1000 } } });
    const limited = await fetch(`${stack.url}/api/api-keys/${keyId}`, {
      method: "PATCH",
      headers: { "content-type": "application/json", authorization: `Bearer ${user.tokens.access_token}` },
      body: JSON.stringify({ monthly_spend_limit_usd: 0.01 }),
    });
    expect(limited.status).toBe(200);
    expect((await client.decide({ prompt: `Ship? ${marker}`, valid_responses: CATEGORIES, early_quorum: false })).cost_usd).toBeGreaterThan(0.01);
    const calls = emulator.calls().length;
    const error = await client.decide({ prompt: `Ship again? ${marker}`, valid_responses: CATEGORIES }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpendLimitError);
    expect(error).toMatchObject({ status: 402, detail: expect.stringContaining("monthly spend limit of $0.01") });
    expect(emulator.calls()).toHaveLength(calls);
  });

  it("an unreachable server is a SmartDecisionError naming the call", async () => {
    const client = new SmartDecision({ apiKey: "sd_live_x", baseUrl: "http://127.0.0.1:9", timeoutMs: 2000 });
    const error = await client.history().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SmartDecisionError);
    expect((error as Error).message).toContain("GET http://127.0.0.1:9/v1/decision-history failed");
  });
});
