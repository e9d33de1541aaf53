import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SystemHealthSchema, voteJobId, voteQueueName, type AuthResponse, type DecisionResponse, type SystemHealth, type Vote } from "@sd/contracts";
import { useEmulator } from "@sd/provider-emulator/testing";
import { createRedis, tokenBudgetKey, type Redis } from "@sd/queue";
import { postJson } from "@sd/testing/client";
import { callApi } from "@sd/testing/history";
import { useStackWithMail, type StackWithMail } from "@sd/testing/stack-with-mail";

/**
 * Per-provider rate limits shared by every worker: a vendor's 429 with Retry-After pauses that
 * provider's queue for all its workers (the vote is retried after the pause without using an
 * attempt), `<ID>_RPM` caps the calls a queue starts per minute, and system health names a
 * provider held by either. The models are the real SDKs, answered by the provider emulator.
 */

const PUBLIC = "/api/ensembled-llm-categorical-decision-public";
const ADMIN_EMAIL = "admin@example.com";
/** Between the emulator logging the 429 and the worker setting the pause, and clock rounding. */
const SLACK_MS = 25;

const emulator = useEmulator();

const question = (tag: string) => `Should we ship the ${tag} release this Friday?`;
const callsFor = (vendor: string, tag: string) => emulator.calls().filter((c) => c.vendor === vendor && c.prompt_text.includes(tag));

/** The admin's view of system health, and a decision as the playground asks for it. */
function clientOf(stack: StackWithMail) {
  let admin: AuthResponse;
  beforeAll(async () => {
    admin = await stack.signIn(ADMIN_EMAIL);
  });
  return {
    async health(): Promise<SystemHealth> {
      const answer = await callApi(stack.url, "/api/admin/system-health", admin.tokens.access_token);
      expect(answer.status, answer.text).toBe(200);
      return SystemHealthSchema.parse(answer.body);
    },
    async decide(tag: string): Promise<DecisionResponse> {
      const { status, body } = await postJson(`${stack.url}${PUBLIC}`, { question: question(tag), categories: ["Ship", "Wait"] });
      expect(status).toBe(200);
      return body as unknown as DecisionResponse;
    },
  };
}

describe("a vendor's 429 with Retry-After", () => {
  const stack = useStackWithMail(emulator, { ADMIN_EMAILS: ADMIN_EMAIL });
  const client = clientOf(stack);
  let redis: Redis;
  beforeAll(() => {
    redis = createRedis(stack.vars.REDIS_URL!, "provider-rate-limits-test");
  });
  afterAll(() => redis?.disconnect());

  /** A vote job's counted attempts, started runs and result, as BullMQ keeps them. */
  async function voteJob(decisionId: string, provider: string) {
    const key = `${stack.vars.QUEUE_PREFIX}:${voteQueueName(provider)}:${voteJobId(decisionId, provider)}`;
    const [attemptsMade, attemptsStarted, result] = await redis.hmget(key, "atm", "ats", "returnvalue");
    return { attemptsMade: Number(attemptsMade), attemptsStarted: Number(attemptsStarted), vote: JSON.parse(result ?? "null") as Vote | null };
  }

  it("pauses that provider's queue for every worker: its votes wait for the pause (the others' do not), then succeed without using an attempt; system health names it meanwhile", async () => {
    const RETRY_AFTER_MS = 2000;
    const first = `limited-${randomUUID()}`;
    const during = `during-${randomUUID()}`;
    emulator.addRules([
      { match: { vendor: "openai", question_contains: first }, times: 1, respond: { kind: "error", status: 429, retry_after_s: RETRY_AFTER_MS / 1000 } },
      { respond: { kind: "answer", category: "Ship" } },
    ]);
    expect((await client.health()).health_checks.rate_limits).toEqual({ status: "healthy", value: 0, message: "No provider is rate-limited" });

    const firstDecision = client.decide(first);
    const limited = await emulator.waitForCall((call) => call.vendor === "openai" && call.prompt_text.includes(first));
    // The worker sets the pause once the SDK has the 429: health shows it from then on.
    await expect.poll(async () => (await client.health()).health_checks.rate_limits?.status).toBe("warning");
    const meanwhile = (await client.health()).health_checks.rate_limits;
    expect(meanwhile).toMatchObject({ status: "warning", value: 1 });
    expect(meanwhile?.message).toMatch(/^Rate-limited: openai paused \(the vendor's Retry-After, or its <ID>_TPM spent\) for [12] s more$/);
    // A decision made during the pause: its OpenAI vote waits in the queue, its other votes do not.
    const [decided, decidedDuring] = await Promise.all([firstDecision, client.decide(during)]);

    for (const decision of [decided, decidedDuring]) {
      expect(decision).toMatchObject({ total_votes: 3, individual_responses: { openai: "Ship", gemini: "Ship", claude: "Ship" } });
    }
    const pauseEnds = limited.at + RETRY_AFTER_MS - SLACK_MS;
    const [, retried] = callsFor("openai", first);
    expect(callsFor("openai", first)).toHaveLength(2);
    expect(retried!.at).toBeGreaterThanOrEqual(pauseEnds);
    expect(callsFor("openai", during)).toHaveLength(1);
    expect(callsFor("openai", during)[0]!.at).toBeGreaterThanOrEqual(pauseEnds);
    expect(callsFor("gemini", during)[0]!.at).toBeLessThan(pauseEnds);
    expect(callsFor("anthropic", during)[0]!.at).toBeLessThan(pauseEnds);
    // The paused call was not an attempt: the vote succeeded on its first, in its second run.
    const job = await voteJob(decided.decision_id, "openai");
    expect(job).toMatchObject({ attemptsMade: 1, attemptsStarted: 2, vote: { status: "success", attempts: 1 } });
    expect((await client.health()).health_checks.rate_limits?.status).toBe("healthy");
  });
});

describe("<ID>_RPM", () => {
  const stack = useStackWithMail(emulator, { ADMIN_EMAILS: ADMIN_EMAIL, OPENAI_RPM: "2" });
  const client = clientOf(stack);

  it("caps the calls the provider's queue starts per minute; system health names the provider while its minute is used up", async () => {
    const tag = `rpm-${randomUUID()}`;
    emulator.addRules({ respond: { kind: "answer", category: "Wait" } });
    await client.decide(`${tag}-1`);
    expect((await client.health()).health_checks.rate_limits?.status).toBe("healthy");
    await client.decide(`${tag}-2`);
    const full = (await client.health()).health_checks.rate_limits;
    expect(full).toMatchObject({ status: "warning", value: 1 });
    expect(full?.message).toMatch(/^Rate-limited: openai used up its 2 requests per minute, \d+ s left in the window$/);
  });
});

describe("<ID>_TPM", () => {
  const TPM = 60_000;
  const stack = useStackWithMail(emulator, { ADMIN_EMAILS: ADMIN_EMAIL, OPENAI_TPM: String(TPM) });
  const client = clientOf(stack);

  it("charges the provider's shared token budget what each call reported using", async () => {
    emulator.addRules({ respond: { kind: "answer", category: "Ship" } });
    const decided = await client.decide(`tpm-${randomUUID()}`);
    const redis = createRedis(stack.vars.REDIS_URL!, "provider-tpm-test");
    try {
      const key = `${stack.vars.QUEUE_PREFIX}:${voteQueueName("openai")}:${voteJobId(decided.decision_id, "openai")}`;
      const vote = JSON.parse((await redis.hget(key, "returnvalue"))!) as Vote;
      const used = vote.usage!.input_tokens + vote.usage!.output_tokens;
      expect(used).toBeGreaterThan(0);
      // The estimate taken before the call was settled to the reported use once it answered; the
      // budget refills at 1,000 tokens a second, so it may have regained what the call's time allows.
      const left = Number(await redis.hget(tokenBudgetKey(stack.vars.QUEUE_PREFIX!, "openai"), "tokens"));
      expect(left).toBeGreaterThanOrEqual(TPM - used);
      expect(left).toBeLessThanOrEqual(TPM - used + (vote.latency_ms + 100) * (TPM / 60_000));
    } finally {
      redis.disconnect();
    }
  });
});
