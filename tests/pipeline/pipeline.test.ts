import { randomBytes, randomUUID } from "node:crypto";
import jwt from "jsonwebtoken";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH_MESSAGES, DEFAULT_PROVIDERS, MESSAGES, type AuthResponse, type DecisionResponse } from "@sd/contracts";
import { tablePrice } from "@sd/config";
import { LiveEvents, pendingProgress } from "@sd/live";
import { useEmulator } from "@sd/provider-emulator/testing";
import { DecisionFlow, ImageStash, createRedis, type Redis } from "@sd/queue";
import { aggregateJob } from "@sd/testing/aggregate-job";
import { LiveClient, postJson } from "@sd/testing/client";
import { callApi } from "@sd/testing/history";
import { jobData, keysHolding } from "@sd/testing/redis-inspect";
import { useStackWithMail } from "@sd/testing/stack-with-mail";

const PUBLIC = "/api/ensembled-llm-categorical-decision-public";
const SIGNED_IN = "/api/ensembled-llm-categorical-decision";
const JWT_SECRET = "pipeline-test-secret-0123456789abcdefghijklmn";
const PROVIDERS = ["openai", "gemini", "claude"];
const question = (tag: string) => `Should we ship the ${tag} release this Friday?`;
/** A PNG data URL of random bytes: every image is unique, so its bytes can be looked for anywhere. */
const randomImage = (bytes = 150_000) => `data:image/png;base64,${randomBytes(bytes).toString("base64")}`;
/** A stretch of an image's base64 long enough to be found only where that image is stored. */
const bytesOf = (image: string) => image.slice(2000, 2080);

const emulator = useEmulator();
const stack = useStackWithMail(emulator, {
  VOTE_ATTEMPTS: "3",
  OPENAI_TIMEOUT_MS: "600",
  GEMINI_TIMEOUT_MS: "600",
  CLAUDE_TIMEOUT_MS: "600",
  JWT_SECRET,
});
let redis: Redis;
let prefix: string;

beforeAll(() => {
  prefix = stack.vars.QUEUE_PREFIX!;
  redis = createRedis(stack.vars.REDIS_URL!, "pipeline-test");
});
afterAll(() => {
  redis?.disconnect();
});

const signIn = () => stack.signIn(`pipeline-${randomUUID()}@example.com`);
const decideAs = (token: string, body: unknown) => callApi(stack.url, SIGNED_IN, token, { body });

/** Resolves once every live event published before the call has reached `client` (events share one ordered Redis channel). */
async function settled(client: LiveClient): Promise<void> {
  const room = randomUUID();
  await client.join(room);
  const sentinel = `sentinel-${randomUUID()}`;
  const arrived = client.voteFrom(sentinel);
  new LiveEvents(redis, prefix).modelProgress(pendingProgress({ request_id: room, decision_id: "-" }, sentinel));
  await arrived;
}

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
      // "Why this decision?": the outcome, then one line per model with its answer and its reason.
      expect(String(body.context_explanation).split("\n")).toEqual([
        "Yes won with 2 of 3 votes.",
        "OpenAI GPT-4o: Yes — Tests are green.",
        "Google Gemini 2.5 Flash: Yes — Low risk.",
        `${DEFAULT_PROVIDERS.claude.label}: No — Fridays are risky.`,
      ]);

      const final = await client.final();
      expect(final).toMatchObject({ decision_id: body.decision_id, final_decision: "Yes", request_id: client.requestId });
      for (const provider of ["openai", "gemini", "claude"]) {
        const statuses = client.votes.filter((v) => v.provider === provider).map((v) => v.status);
        expect(statuses).toEqual(["pending", "success"]);
      }
      // Each model's row shows its answer, confidence and reason as it lands.
      const claude = client.votes.find((v) => v.provider === "claude" && v.status === "success");
      expect(claude).toMatchObject({ response: "No", rationale: "Fridays are risky.", confidence: expect.any(Number) });
      expect(client.votes.filter((v) => v.status === "pending").map((v) => v.rationale)).toEqual([null, null, null]);
      const stored = await stack.store.decisions.findById(body.decision_id as string);
      expect(stored?.rationales).toEqual({ openai: "Tests are green.", gemini: "Low risk.", claude: "Fridays are risky." });
    } finally {
      client.close();
    }
  });

  it("stores the decision history item with every field of the specification", async () => {
    const image = randomImage(2000);
    const assetsBefore = await stack.store.imageAssets.count();
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
      // An anonymous decision keeps no image, neither in the decision nor as assets.
      images: [],
    });
    expect(await stack.store.imageAssets.count()).toBe(assetsBefore);
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
      // The simulated reason names the model's own answer.
      expect(stored!.rationales[provider]).toContain(stored!.individual_responses[provider]!);
    }
    // Every model saw the image.
    expect(emulator.calls().filter((c) => c.prompt_text.includes("stored")).map((c) => c.image_count)).toEqual([1, 1, 1]);
    // Each model's reported tokens, priced by the table for its model; no API key was used.
    expect(stored!.api_key_id).toBeNull();
    let expectedCost = 0;
    for (const provider of ["openai", "gemini", "claude"] as const) {
      const usage = stored!.token_usage[provider];
      expect(usage?.input_tokens).toBeGreaterThan(0);
      expect(usage?.output_tokens).toBeGreaterThan(0);
      const price = tablePrice(DEFAULT_PROVIDERS[provider].model)!;
      expectedCost += (usage!.input_tokens * price.inputUsdPerMTok + usage!.output_tokens * price.outputUsdPerMTok) / 1_000_000;
    }
    expect(stored!.cost_usd).toBeGreaterThan(0);
    expect(stored!.cost_usd).toBeCloseTo(expectedCost, 12);
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
      expect(String(body.context_explanation).split("\n")).toContainEqual(expect.stringMatching(new RegExp(`^${DEFAULT_PROVIDERS.claude.label}: no valid vote \\(.*500`)));
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

describe("images, stored once and passed by reference", () => {
  it("keeps a signed-in user's three images as three assets, whose ids are the decision's images", async () => {
    const owner = await signIn();
    const images = [randomImage(), randomImage(), randomImage()];
    const { status, body } = await decideAs(owner.tokens.access_token, { question: question("three-images"), categories: ["Ship", "Wait"], images });
    expect(status).toBe(200);
    const decisionId = body.decision_id as string;

    const stored = await stack.store.decisions.findById(decisionId);
    const assets = await stack.store.imageAssets.listForDecision(decisionId, owner.user.id);
    expect(stored!.images).toHaveLength(3);
    expect(assets.map((a) => a.id)).toEqual(stored!.images);
    expect(assets.map((a) => ({ label: a.label, image_data: a.image_data, image_type: a.image_type, file_size: a.file_size }))).toEqual(
      images.map((image, i) => ({ label: `image${i + 1}`, image_data: image, image_type: "image/png", file_size: 150_000 })),
    );
    expect(assets.every((a) => a.user_id === owner.user.id && a.decisionHistory_id === decisionId)).toBe(true);
    // Every model saw all three images.
    expect(emulator.calls().filter((c) => c.prompt_text.includes("three-images")).map((c) => c.image_count)).toEqual([3, 3, 3]);

    // The decision's jobs (the aggregate and one vote per model) carry references, not bytes...
    const jobs = [...(await jobData(redis, prefix))].filter(([key]) => key.includes(decisionId));
    expect(jobs).toHaveLength(1 + PROVIDERS.length);
    for (const [, data] of jobs) {
      expect((JSON.parse(data) as { images: unknown }).images).toEqual(
        images.map((_, i) => ({ key: expect.any(String), label: `image${i + 1}`, image_type: "image/png", file_size: 150_000 })),
      );
      expect(data.length).toBeLessThan(2000);
    }
    // ...and once the decision is written its images are nowhere in Redis (not in a job, not in a key).
    for (const image of images) expect(await keysHolding(redis, prefix, bytesOf(image))).toEqual([]);
  });

  it("keeps no image of an anonymous decision: no asset, no key left in Redis", async () => {
    const images = [randomImage(), randomImage()];
    const assetsBefore = await stack.store.imageAssets.count();
    const { status, body } = await decide({ question: question("anonymous-images"), categories: ["Ship", "Wait"], images });
    expect(status).toBe(200);
    expect((await stack.store.decisions.findById(body.decision_id as string))!.images).toEqual([]);
    expect(await stack.store.imageAssets.count()).toBe(assetsBefore);
    expect(emulator.calls().filter((c) => c.prompt_text.includes("anonymous-images")).map((c) => c.image_count)).toEqual([2, 2, 2]);
    for (const image of images) expect(await keysHolding(redis, prefix, bytesOf(image))).toEqual([]);
  });

  it("records an error vote, and no crash, when a decision's image expired before the models read it", async () => {
    const owner = await signIn();
    const flow = new DecisionFlow(redis, prefix, 3);
    const client = new LiveClient(stack.url);
    try {
      await flow.ready();
      await client.join();
      // Images whose life ran out: stored by the stash, then gone from Redis before any worker read them.
      const decisionId = randomUUID();
      const stash = new ImageStash(redis, prefix);
      const refs = await stash.put(decisionId, [randomImage(1000)], 60);
      await stash.delete(refs);
      await flow.enqueue(
        aggregateJob({
          decision_id: decisionId,
          request_id: client.requestId,
          question: question("expired-image"),
          images: refs,
          providers: PROVIDERS,
          is_authenticated: true,
          user_id: owner.user.id,
          user_email: owner.user.email,
        }),
      );
      const result = await flow.waitForDecision(decisionId, 20_000);
      expect(result).toMatchObject({ final_decision: null, total_votes: 0, context_explanation: MESSAGES.noValidDecision });
      const expired = "The decision's image (image1) expired before this model could read it. Please send the decision again.";
      const stored = await stack.store.decisions.findById(decisionId);
      expect(stored!.error_details).toEqual({ openai: expired, gemini: expired, claude: expired });
      expect(stored!.images).toEqual([]);
      expect(await stack.store.imageAssets.listForDecision(decisionId, owner.user.id)).toEqual([]);
      // Each model's row turns into the error live; no model was called (nothing to show it).
      await client.final();
      expect(client.votes.filter((v) => v.status === "error").map((v) => [v.provider, v.error])).toEqual(
        expect.arrayContaining(PROVIDERS.map((p) => [p, expired])),
      );
      expect(emulator.calls().filter((c) => c.prompt_text.includes("expired-image"))).toEqual([]);
      // The workers carry on with the next decision.
      const next = await decide({ question: question("after-expiry"), categories: ["Ship", "Wait"], images: [randomImage(1000)] });
      expect(next.body).toMatchObject({ total_votes: 3 });
    } finally {
      client.close();
      await flow.close();
    }
  });
});

describe("the user's history room", () => {
  let owner: AuthResponse;
  let other: AuthResponse;
  beforeAll(async () => {
    [owner, other] = [await signIn(), await signIn()];
  });

  /** A token with a real one's claims, signed as the test says. */
  const forge = (real: string, { secret = JWT_SECRET, exp }: { secret?: string; exp?: number } = {}) => {
    const claims = jwt.decode(real) as { sub: string; email: string; sid: string };
    return jwt.sign({ email: claims.email, sid: claims.sid, ...(exp === undefined ? {} : { exp }) }, secret, {
      algorithm: "HS256",
      subject: claims.sub,
      issuer: "smart-decision",
      audience: "smart-decision-api",
      ...(exp === undefined ? { expiresIn: 300 } : {}),
    });
  };

  it("tells the owner's open dashboards, and only theirs, that a decision of theirs was stored", async () => {
    const ownerTab = new LiveClient(stack.url);
    const ownerOtherTab = new LiveClient(stack.url);
    const otherTab = new LiveClient(stack.url);
    try {
      for (const [tab, session] of [[ownerTab, owner], [ownerOtherTab, owner], [otherTab, other]] as const) {
        expect(await tab.watchHistory(session.tokens.access_token)).toEqual({ ok: true });
      }
      const { body } = await decideAs(owner.tokens.access_token, { question: question("history-owner"), categories: ["Ship", "Wait"] });
      const stored = await stack.store.decisions.findById(body.decision_id as string);
      const expected = { decision_id: stored!.id, timestamp: stored!.timestamp.toISOString() };
      expect(await ownerTab.historyEvent()).toEqual(expected);
      expect(await ownerOtherTab.historyEvent()).toEqual(expected);

      // The other user hears about their own decision, never about the owner's; anonymous decisions tell no one.
      const theirs = await decideAs(other.tokens.access_token, { question: question("history-other"), categories: ["Ship", "Wait"] });
      await decide({ question: question("history-anonymous"), categories: ["Ship", "Wait"] });
      await Promise.all([ownerTab, ownerOtherTab, otherTab].map(settled));
      expect(ownerTab.history).toEqual([expected]);
      expect(ownerOtherTab.history).toEqual([expected]);
      expect(otherTab.history.map((e) => e.decision_id)).toEqual([theirs.body.decision_id]);
    } finally {
      for (const tab of [ownerTab, ownerOtherTab, otherTab]) tab.close();
    }
  });

  it("refuses a forged, an expired or a signed-out token with 'Could not validate credentials', and such a socket hears nothing", async () => {
    const signedOut = await signIn();
    expect((await callApi(stack.url, "/api/auth/logout", signedOut.tokens.access_token, { body: {} })).status).toBe(200);
    const refused = { ok: false, error: AUTH_MESSAGES.invalidCredentials };
    const tokens = {
      forged: forge(owner.tokens.access_token, { secret: "not-the-server-secret-0123456789abcdefghijkl" }),
      expired: forge(owner.tokens.access_token, { exp: Math.floor(Date.now() / 1000) - 60 }),
      signedOut: signedOut.tokens.access_token,
      garbage: "not-a-token",
    };
    const tabs = Object.keys(tokens).map(() => new LiveClient(stack.url));
    const ownerTab = new LiveClient(stack.url);
    try {
      for (const [i, token] of Object.values(tokens).entries()) expect(await tabs[i]!.watchHistory(token)).toEqual(refused);
      expect(await ownerTab.watchHistory(owner.tokens.access_token)).toEqual({ ok: true });
      const { body } = await decideAs(owner.tokens.access_token, { question: question("history-refused"), categories: ["Ship", "Wait"] });
      await ownerTab.historyEvent((e) => e.decision_id === body.decision_id);
      await Promise.all(tabs.map(settled));
      for (const tab of tabs) expect(tab.history).toEqual([]);
    } finally {
      for (const tab of [...tabs, ownerTab]) tab.close();
    }
  });

  it("stops a socket whose token is refused, and lets it back in with a refreshed token", async () => {
    const session = await signIn();
    const tab = new LiveClient(stack.url);
    try {
      expect(await tab.watchHistory(session.tokens.access_token)).toEqual({ ok: true });
      expect(await tab.watchHistory(forge(session.tokens.access_token, { exp: Math.floor(Date.now() / 1000) - 1 }))).toMatchObject({ ok: false });
      const missed = await decideAs(session.tokens.access_token, { question: question("history-missed"), categories: ["Ship", "Wait"] });
      expect(missed.status).toBe(200);
      await settled(tab);
      expect(tab.history).toEqual([]);

      const refreshed = await postJson(`${stack.url}/api/auth/refresh`, { refresh_token: session.tokens.refresh_token });
      expect(await tab.watchHistory(refreshed.body.access_token)).toEqual({ ok: true });
      const seen = await decideAs(refreshed.body.access_token as string, { question: question("history-seen"), categories: ["Ship", "Wait"] });
      expect(await tab.historyEvent()).toMatchObject({ decision_id: seen.body.decision_id });
    } finally {
      tab.close();
    }
  });
});
