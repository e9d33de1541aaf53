import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gatewayEnv, loadEnv, providersFromEnv } from "@sd/config";
import {
  API_KEY_HEADER,
  API_KEY_MESSAGES,
  API_KEY_PREFIX,
  ApiKeyListSchema,
  ApiKeySchema,
  DecisionHistoryListResponseSchema,
  HISTORY_MESSAGES,
  MESSAGES,
  UsageSchema,
  V1AcceptedSchema,
  V1DecisionStatusSchema,
  V1EnsembleResponseSchema,
  V1_HEADERS,
  type AuthResponse,
  type V1EnsembleResponse,
} from "@sd/contracts";
import { ENDPOINTS } from "@sd/contracts/endpoints";
import { startGateway, type Gateway } from "@sd/gateway";
import { useEmulator } from "@sd/provider-emulator/testing";
import { createLogger } from "@sd/telemetry";
import { LiveClient } from "@sd/testing/client";
import { callApi, type ApiAnswer } from "@sd/testing/history";
import { useStackWithMail, type StackWithMail } from "@sd/testing/stack-with-mail";

const ENSEMBLE = "/v1/ensemble";
const png = (bytes: number) => `data:image/png;base64,${Buffer.alloc(bytes, 1).toString("base64")}`;

const emulator = useEmulator();
/** A test stack on which many accounts sign in from this one test IP. */
const useStack = (overrides: Record<string, string>) => useStackWithMail(emulator, { MAGIC_LINK_PER_IP_PER_HOUR: "1000", ...overrides });

/**
 * Another gateway replica on the same store and Redis as `stack` (as two pods share MongoDB and
 * Redis), logging into `logs` at the most verbose level.
 */
async function startReplica(stack: StackWithMail, logs: string[] = []): Promise<Gateway> {
  const vars = { ...stack.vars, PORT: "0" };
  const env = loadEnv(gatewayEnv, vars);
  const configs = new Map(providersFromEnv([...new Set([...env.PROVIDERS, env.SUGGESTION_PROVIDER])], vars).map((c) => [c.id, c]));
  const logger = createLogger("gateway-replica", "trace", { write: (line: string) => void logs.push(line) });
  return startGateway(env, stack.store, { deciders: env.PROVIDERS.map((id) => configs.get(id)!), suggester: configs.get(env.SUGGESTION_PROVIDER)! }, logger);
}

/** A signed-in user of `stack` and the helpers a test needs as that user. */
interface Owner {
  auth: AuthResponse;
  /** A new API key's value (and id). */
  newKey(name?: string): Promise<{ id: string; value: string }>;
  bearer(path: string, init?: { method?: string; body?: unknown }): Promise<ApiAnswer>;
}

async function signIn(stack: StackWithMail): Promise<Owner> {
  const auth = await stack.signIn();
  const bearer = (path: string, init: { method?: string; body?: unknown } = {}) => callApi(stack.url, path, auth.tokens.access_token, init);
  return {
    auth,
    bearer,
    async newKey(name = "CI") {
      const answer = await bearer("/api/api-keys", { body: { name } });
      expect(answer.status, answer.text).toBe(201);
      const key = ApiKeySchema.parse(answer.body);
      return { id: key.id, value: key.keyvalue! };
    },
  };
}

interface KeyCall {
  key?: string | null;
  method?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

/** A call as an API consumer makes it: SD-API-KEY, JSON. */
async function call(baseUrl: string, path: string, { key = null, method, body, rawBody, headers = {} }: KeyCall = {}): Promise<ApiAnswer> {
  const sent: Record<string, string> = { ...headers };
  if (key !== null) sent[API_KEY_HEADER] = key;
  if (body !== undefined || rawBody !== undefined) sent["content-type"] = "application/json";
  const response = await fetch(`${baseUrl}${path}`, {
    method: method ?? (body === undefined && rawBody === undefined ? "GET" : "POST"),
    headers: sent,
    body: rawBody ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as Record<string, unknown>, text, headers: response.headers };
}

/** How much later than Claude the two agreeing models answer in `scriptVotes`. */
const AGREEING_LATENCY_MS = 150;

/** The emulator's answers for questions containing `marker`: openai and gemini say Yes, claude says No. */
function scriptVotes(marker: string): void {
  emulator.addRules([
    // The two that agree answer a moment after the dissenter: early quorum (the /v1 default) would
    // otherwise settle on their two votes and skip Claude's whenever it came last.
    { match: { vendor: "openai", question_contains: marker }, latency_ms: AGREEING_LATENCY_MS, respond: { kind: "answer", category: "Yes", confidence: 0.9 } },
    { match: { vendor: "gemini", question_contains: marker }, latency_ms: AGREEING_LATENCY_MS, respond: { kind: "answer", category: "Yes", confidence: 0.8 } },
    { match: { vendor: "anthropic", question_contains: marker }, respond: { kind: "answer", category: "No", confidence: 0.6 } },
  ]);
}

/**
 * An answer without what its calls took and cost: those vary from run to run, so the votes are
 * compared without them (a test of their own checks them against the stored decision).
 */
type VotesOnly = Omit<V1EnsembleResponse, "usage" | "cost_usd" | "vote_details"> & {
  vote_details: Omit<V1EnsembleResponse["vote_details"][number], "latency_ms" | "usage" | "cost_usd">[];
};
function votesOnly(result: V1EnsembleResponse): VotesOnly {
  const { usage: _usage, cost_usd: _cost, vote_details, ...rest } = result;
  return { ...rest, vote_details: vote_details.map(({ latency_ms: _latency, usage: _tokens, cost_usd: _dollars, ...vote }) => vote) };
}

const scriptedResult = (decisionId: string): VotesOnly => ({
  decision_id: decisionId,
  ensemble_decision: "Yes",
  vote_details: [
    { llm_name: "openai", response: "Yes", confidence: 0.9, status: "success" },
    { llm_name: "gemini", response: "Yes", confidence: 0.8, status: "success" },
    { llm_name: "claude", response: "No", confidence: 0.6, status: "success" },
  ],
  total_votes: 3,
  consensus_score: 2 / 3,
});

const byName = (answer: V1EnsembleResponse | VotesOnly) => {
  const result = "cost_usd" in answer ? votesOnly(answer) : answer;
  return { ...result, vote_details: [...result.vote_details].sort((a, b) => a.llm_name.localeCompare(b.llm_name)) };
};

describe("the public API on one deployment", () => {
  const stack = useStack({ API_KEY_RATE_LIMIT_PER_MINUTE: "1000" });
  let replica: Gateway;
  const replicaLogs: string[] = [];
  let alice: Owner;
  let bob: Owner;

  beforeAll(async () => {
    replica = await startReplica(stack, replicaLogs);
    [alice, bob] = [await signIn(stack), await signIn(stack)];
  });
  afterAll(async () => {
    await replica?.close();
  });

  const v1 = (path: string, init?: KeyCall) => call(stack.url, path, init);

  describe("key authentication", () => {
    const paths: [string, string, unknown?][] = [
      ["POST", ENSEMBLE, { prompt: "Tea?", valid_responses: ["Yes", "No"] }],
      ["GET", `/v1/decisions/${randomUUID()}`],
      ["GET", "/v1/decision-history"],
      ["GET", "/decision-history"],
    ];

    it("answers 401 with a detail that says so when the SD-API-KEY header is missing (a bearer token is no substitute)", async () => {
      for (const [method, path, body] of paths) {
        const variants: Record<string, string>[] = [{}, { authorization: `Bearer ${alice.auth.tokens.access_token}` }, { [API_KEY_HEADER]: "  " }];
        for (const headers of variants) {
          const answer = await v1(path, { method, body, headers });
          expect([answer.status, answer.body], `${method} ${path}`).toEqual([401, { detail: API_KEY_MESSAGES.missingKey }]);
        }
      }
      expect(emulator.calls()).toEqual([]);
    });

    it("answers 401 invalid for an unknown key, a malformed one, and another product's", async () => {
      for (const key of [`${API_KEY_PREFIX}${"A".repeat(43)}`, "sd_live_short", "sk-proj-0123456789", `${(await alice.newKey()).value}x`]) {
        for (const [method, path, body] of paths) {
          const answer = await v1(path, { key, method, body });
          expect([answer.status, answer.body], `${method} ${path} with ${key.slice(0, 12)}`).toEqual([401, { detail: API_KEY_MESSAGES.invalidKey }]);
        }
      }
      expect(emulator.calls()).toEqual([]);
    });

    it("refuses a deactivated key at once on every replica, accepts it again once re-activated, and a deleted one never again", async () => {
      const key = await alice.newKey();
      const onBoth = async () => [(await call(stack.url, "/v1/decision-history", { key: key.value })).status, (await call(replica.url, "/v1/decision-history", { key: key.value })).status];
      expect(await onBoth()).toEqual([200, 200]);

      // Switched off through one gateway, then called at once through the other, and through the first.
      expect((await alice.bearer(`/api/api-keys/${key.id}`, { method: "PUT", body: { active_status: false } })).status).toBe(200);
      const refused = await call(replica.url, "/v1/decision-history", { key: key.value });
      expect([refused.status, refused.body]).toEqual([401, { detail: API_KEY_MESSAGES.invalidKey }]);
      expect(await onBoth()).toEqual([401, 401]);

      expect((await alice.bearer(`/api/api-keys/${key.id}`, { method: "PUT", body: { active_status: true } })).status).toBe(200);
      expect(await onBoth()).toEqual([200, 200]);

      expect((await alice.bearer(`/api/api-keys/${key.id}`, { method: "DELETE" })).status).toBe(200);
      expect(await onBoth()).toEqual([401, 401]);
    });

    it("never writes a key to the log, even at the most verbose level", async () => {
      const key = await alice.newKey();
      replicaLogs.length = 0;
      expect((await call(replica.url, "/v1/decision-history", { key: key.value })).status).toBe(200);
      expect((await call(replica.url, "/v1/decision-history", { key: `${key.value}x` })).status).toBe(401);
      const logged = replicaLogs.join("");
      expect(logged).toContain("/v1/decision-history");
      expect(logged).not.toContain(API_KEY_HEADER);
      expect(logged).not.toContain(key.value.slice(API_KEY_PREFIX.length));
    });

    it("records each call's time as the key's last_used_at", async () => {
      const key = await alice.newKey();
      const lastUsed = async () => ApiKeyListSchema.parse((await alice.bearer("/api/api-keys")).body).find((k) => k.id === key.id)!.last_used_at;
      expect(await lastUsed()).toBeNull();
      const before = Date.now();
      expect((await v1("/v1/decision-history", { key: key.value })).status).toBe(200);
      const first = Date.parse((await lastUsed())!);
      expect(first).toBeGreaterThanOrEqual(before);
      expect(first).toBeLessThanOrEqual(Date.now());
      expect((await v1("/v1/decision-history", { key: key.value })).status).toBe(200);
      expect(Date.parse((await lastUsed())!)).toBeGreaterThanOrEqual(first);
    });
  });

  describe("POST /v1/ensemble", () => {
    it("answers the ensemble decision with every model's vote and the consensus score", async () => {
      const key = await alice.newKey();
      scriptVotes("[sync]");
      const answer = await v1(ENSEMBLE, { key: key.value, body: { prompt: "[sync] Ship the release today?", valid_responses: [" Yes ", "No", "Yes"] } });
      expect(answer.status, answer.text).toBe(200);
      const result = V1EnsembleResponseSchema.parse(answer.body);
      expect(byName(result)).toEqual(byName(scriptedResult(result.decision_id)));
      expect(emulator.calls()).toHaveLength(3);
    });

    it("answers each model's latency, tokens and cost and the decision's totals, the very figures the stored decision keeps, also at GET /v1/decisions/{id}", async () => {
      const key = await alice.newKey();
      const tokens = {
        openai: { input_tokens: 1000, output_tokens: 200 },
        gemini: { input_tokens: 800, output_tokens: 100 },
        claude: { input_tokens: 500, output_tokens: 50 },
      };
      emulator.addRules([
        { match: { vendor: "openai", question_contains: "[figures]" }, latency_ms: 120, respond: { kind: "answer", category: "Yes", usage: tokens.openai } },
        { match: { vendor: "gemini", question_contains: "[figures]" }, latency_ms: 60, respond: { kind: "answer", category: "Yes", usage: tokens.gemini } },
        { match: { vendor: "anthropic", question_contains: "[figures]" }, respond: { kind: "answer", category: "No", usage: tokens.claude } },
      ]);
      const answer = await v1(ENSEMBLE, { key: key.value, body: { prompt: "[figures] Ship it?", valid_responses: ["Yes", "No"], early_quorum: false } });
      expect(answer.status, answer.text).toBe(200);
      const result = V1EnsembleResponseSchema.parse(answer.body);
      const stored = (await stack.store.decisions.findById(result.decision_id))!;

      const votes = Object.fromEntries(result.vote_details.map(({ llm_name, latency_ms, usage, cost_usd }) => [llm_name, { latency_ms, usage, cost_usd }]));
      expect(votes).toEqual(
        Object.fromEntries(
          (["openai", "gemini", "claude"] as const).map((provider) => [
            provider,
            { latency_ms: stored.model_latencies_ms[provider], usage: tokens[provider], cost_usd: stored.model_costs_usd[provider] },
          ]),
        ),
      );
      // Real figures: the scripted latency is in it, the listed models are priced.
      expect(votes.openai!.latency_ms).toBeGreaterThanOrEqual(120);
      for (const vote of result.vote_details) expect(vote.cost_usd, vote.llm_name).toBeGreaterThan(0);
      expect(result.usage).toEqual({ input_tokens: 2300, output_tokens: 350 });
      expect(result.cost_usd).toBe(stored.cost_usd);
      expect(result.cost_usd).toBeCloseTo(result.vote_details.reduce((sum, vote) => sum + vote.cost_usd!, 0), 12);

      const polled = V1DecisionStatusSchema.parse((await v1(`/v1/decisions/${result.decision_id}`, { key: key.value })).body);
      expect(polled).toEqual({ decision_id: result.decision_id, status: "complete", result });
    });

    it("sends the rate-limit headers exactly as the API document shows them, and refuses an Idempotency-Key the document's pattern refuses", async () => {
      const key = await alice.newKey();
      const answer = await v1("/v1/decision-history", { key: key.value });
      const documented = ENDPOINTS.createEnsembleDecision.responses[200].headers.shape;
      // Numbers and the partition key differ per caller; everything else is the header's real form.
      const form = (value: string | null | undefined) => value?.replace(/\d+/g, "N").replace(/pk=:[^:]*:/, "pk=:K:");
      for (const name of ["RateLimit", "RateLimit-Policy"] as const) {
        expect(form(answer.headers.get(name)), name).toBe(form(documented[name].meta()?.example as string));
      }
      const pattern = ENDPOINTS.createEnsembleDecision.headers.shape[V1_HEADERS.idempotencyKey];
      for (const idempotencyKey of ["with space", "tab\tinside", "x".repeat(256)]) {
        expect(pattern.safeParse(idempotencyKey).success, idempotencyKey).toBe(false);
        const refused = await v1(ENSEMBLE, { key: key.value, headers: { [V1_HEADERS.idempotencyKey]: idempotencyKey }, body: { prompt: "Tea?", valid_responses: ["Yes", "No"] } });
        expect(refused.status, idempotencyKey).toBe(400);
      }
      expect(pattern.safeParse(randomUUID()).success).toBe(true);
    });

    it("says which vote early quorum skipped (status skipped) and which failed (status error), in the answer and at GET /v1/decisions/{id}", async () => {
      const key = await alice.newKey();
      // Claude would answer only after 10 s: the two fast agreeing votes settle it (early quorum is on by default here).
      emulator.addRules({ match: { vendor: "anthropic", question_contains: "[skip]" }, latency_ms: 10_000, respond: { kind: "answer", category: "No", confidence: 0.6 } });
      scriptVotes("[skip]");
      const skipped = await v1(ENSEMBLE, { key: key.value, body: { prompt: "[skip] Ship the release today?", valid_responses: ["Yes", "No"] } });
      expect(skipped.status, skipped.text).toBe(200);
      const decided = V1EnsembleResponseSchema.parse(skipped.body);
      const expected = {
        ...scriptedResult(decided.decision_id),
        vote_details: [
          { llm_name: "openai", response: "Yes", confidence: 0.9, status: "success" as const },
          { llm_name: "gemini", response: "Yes", confidence: 0.8, status: "success" as const },
          { llm_name: "claude", response: null, confidence: null, status: "skipped" as const },
        ],
        total_votes: 2,
        consensus_score: 1,
      };
      expect(byName(decided)).toEqual(byName(expected));
      // A vote nobody waited for took no time of the decision's.
      expect(decided.vote_details.find((vote) => vote.llm_name === "claude")?.latency_ms).toBeNull();
      const polled = V1DecisionStatusSchema.parse((await v1(`/v1/decisions/${decided.decision_id}`, { key: key.value })).body);
      expect(polled.status === "complete" && byName(polled.result)).toEqual(byName(expected));

      // A model whose call fails is an error, not skipped, also without early quorum.
      emulator.addRules({ match: { vendor: "gemini", question_contains: "[fail]" }, respond: { kind: "error", status: 400, message: "Bad request" } });
      scriptVotes("[fail]");
      const failed = await v1(ENSEMBLE, { key: key.value, body: { prompt: "[fail] Ship the release today?", valid_responses: ["Yes", "No"], early_quorum: false } });
      expect(failed.status, failed.text).toBe(200);
      const withError = V1EnsembleResponseSchema.parse(failed.body);
      expect(byName(withError).vote_details).toEqual([
        { llm_name: "claude", response: "No", confidence: 0.6, status: "success" },
        { llm_name: "gemini", response: null, confidence: null, status: "error" },
        { llm_name: "openai", response: "Yes", confidence: 0.9, status: "success" },
      ]);
    });

    it("stores the decision as the key owner's, with the key, in their history only; the key's cost is the decision's", async () => {
      const owner = await signIn(stack);
      const key = await owner.newKey();
      scriptVotes("[history]");
      const answer = await v1(ENSEMBLE, { key: key.value, body: { prompt: "[history] Hire the candidate?", valid_responses: ["Yes", "No"], images: [png(300)] } });
      expect(answer.status, answer.text).toBe(200);
      const decisionId = answer.body.decision_id as string;

      const history = DecisionHistoryListResponseSchema.parse((await owner.bearer("/api/decision-history")).body);
      expect(history.total).toBe(1);
      const [item] = history.decisions;
      expect(item).toMatchObject({
        id: decisionId,
        question: "[history] Hire the candidate?",
        categories: ["Yes", "No"],
        final_decision: "Yes",
        total_votes: 3,
        is_authenticated: true,
        user_email: owner.auth.user.email,
        images: [`${decisionId}-image1`],
      });
      expect((await stack.store.decisions.findById(decisionId))?.api_key_id).toBe(key.id);
      // Its image is the owner's asset, counted in their storage.
      expect(UsageSchema.parse((await owner.bearer("/api/usage")).body).storage_bytes).toBe(300);

      // Never another user's.
      expect((await bob.bearer("/api/decision-history")).body.decisions).not.toContainEqual(expect.objectContaining({ id: decisionId }));
      expect((await bob.bearer(`/api/decision-history/${decisionId}`)).status).toBe(404);

      const [listedKey] = ApiKeyListSchema.parse((await owner.bearer("/api/api-keys")).body);
      expect(listedKey?.cost).toBeGreaterThan(0);
      expect(listedKey?.cost).toBeCloseTo(item!.cost_usd, 12);
    });

    it.each([
      ["no prompt", { valid_responses: ["Yes", "No"] }, 400, MESSAGES.questionRequired.detail],
      ["a blank prompt", { prompt: "  ", valid_responses: ["Yes", "No"] }, 400, MESSAGES.questionRequired.detail],
      ["one valid response", { prompt: "Tea?", valid_responses: ["Yes"] }, 400, MESSAGES.categoriesRequired.detail],
      ["no valid responses", { prompt: "Tea?" }, 400, MESSAGES.categoriesRequired.detail],
      ["four images", { prompt: "Tea?", valid_responses: ["Yes", "No"], images: [png(4), png(4), png(4), png(4)] }, 400, MESSAGES.maxImages.detail],
      ["an image of 10 MB", { prompt: "Tea?", valid_responses: ["Yes", "No"], images: [png(10 * 1024 * 1024)] }, 413, MESSAGES.imagesTooLarge],
      ["a request_id that is not a UUID", { prompt: "Tea?", valid_responses: ["Yes", "No"], request_id: "abc" }, 400, "request_id must be a UUID."],
    ])("refuses %s with the specification's message, asking no model", async (_case, body, status, detail) => {
      const key = await alice.newKey();
      const answer = await v1(ENSEMBLE, { key: key.value, body });
      expect(answer.status).toBe(status);
      expect(answer.body.detail).toBe(detail);
      expect(emulator.calls()).toEqual([]);
    });

    it("refuses a body that is not JSON", async () => {
      const key = await alice.newKey();
      const answer = await v1(ENSEMBLE, { key: key.value, rawBody: '{"prompt": "Tea?", ' });
      expect([answer.status, answer.body]).toEqual([400, { detail: "The request body is not valid JSON." }]);
    });

    it("streams each model's vote live to a socket that joined the request's room", async () => {
      const key = await alice.newKey();
      const live = new LiveClient(stack.url);
      try {
        expect(await live.join()).toEqual({ ok: true });
        scriptVotes("[live]");
        const answer = await v1(ENSEMBLE, { key: key.value, body: { prompt: "[live] Go?", valid_responses: ["Yes", "No"], request_id: live.requestId } });
        expect(answer.status).toBe(200);
        const final = await live.final();
        expect(final).toMatchObject({ request_id: live.requestId, decision_id: answer.body.decision_id, final_decision: "Yes" });
        expect(live.votes.filter((vote) => vote.status === "success").map((vote) => vote.provider).sort()).toEqual(["claude", "gemini", "openai"]);
      } finally {
        live.close();
      }
    });
  });

  describe("Prefer: respond-async and GET /v1/decisions/{id}", () => {
    it("answers 202 with the decision id and where to poll; the status is pending while the models vote, then complete with the result", async () => {
      const key = await alice.newKey();
      const bobsKey = await bob.newKey();
      // Gemini's first answer hangs until its 2 s timeout (then it is retried): the decision stays pending
      // meanwhile. Added first: the first matching rule answers.
      emulator.addRules({ match: { vendor: "gemini", question_contains: "[async]" }, times: 1, respond: { kind: "hang" } });
      scriptVotes("[async]");
      const live = new LiveClient(stack.url);
      try {
        await live.join();
        const accepted = await v1(ENSEMBLE, {
          key: key.value,
          headers: { Prefer: "respond-async" },
          body: { prompt: "[async] Approve the budget?", valid_responses: ["Yes", "No"], request_id: live.requestId },
        });
        expect(accepted.status).toBe(202);
        const body = V1AcceptedSchema.parse(accepted.body);
        expect(body).toEqual({ decision_id: expect.any(String), status: "pending", status_url: `/v1/decisions/${body.decision_id}` });
        expect(accepted.headers.get("location")).toBe(body.status_url);
        expect(accepted.headers.get("preference-applied")).toBe("respond-async");

        await emulator.waitForCall((c) => c.vendor === "gemini" && c.prompt_text.includes("[async]"));
        const pending = await v1(body.status_url, { key: key.value });
        expect(pending.status).toBe(200);
        expect(V1DecisionStatusSchema.parse(pending.body)).toEqual({ decision_id: body.decision_id, status: "pending", result: null });
        // Another user's key cannot see it, pending or not; nor can it see an unknown id.
        const notFound = [404, { detail: HISTORY_MESSAGES.notFound }];
        const asBob = await v1(body.status_url, { key: bobsKey.value });
        expect([asBob.status, asBob.body]).toEqual(notFound);

        await live.final();
        const complete = await v1(body.status_url, { key: key.value });
        expect(V1DecisionStatusSchema.parse(complete.body)).toMatchObject({ decision_id: body.decision_id, status: "complete" });
        expect(byName((complete.body as { result: V1EnsembleResponse }).result)).toEqual(byName(scriptedResult(body.decision_id)));
        const asBobLater = await v1(body.status_url, { key: bobsKey.value });
        expect([asBobLater.status, asBobLater.body]).toEqual(notFound);
        const unknown = await v1(`/v1/decisions/${randomUUID()}`, { key: key.value });
        expect([unknown.status, unknown.body]).toEqual(notFound);
      } finally {
        live.close();
      }
    });

    it("answers a decision the owner made with another of their keys, or on the web, as complete", async () => {
      const [keyA, keyB] = [await alice.newKey("a"), await alice.newKey("b")];
      const made = await v1(ENSEMBLE, { key: keyA.value, body: { prompt: "Lunch now?", valid_responses: ["Yes", "No"] } });
      const web = await alice.bearer("/api/ensembled-llm-categorical-decision", { body: { question: "Dinner now?", categories: ["Yes", "No"] } });
      for (const id of [made.body.decision_id, web.body.decision_id] as string[]) {
        const status = await v1(`/v1/decisions/${id}`, { key: keyB.value });
        expect(V1DecisionStatusSchema.parse(status.body)).toMatchObject({ decision_id: id, status: "complete" });
      }
    });
  });

  describe("Idempotency-Key", () => {
    const body = (marker: string) => ({ prompt: `${marker} Merge the pull request?`, valid_responses: ["Yes", "No"] });

    it("a retried POST answers the first decision instead of running a second one", async () => {
      const owner = await signIn(stack);
      const key = await owner.newKey();
      scriptVotes("[retry]");
      const headers = { "Idempotency-Key": `retry-${randomUUID()}` };
      const first = await v1(ENSEMBLE, { key: key.value, headers, body: body("[retry]") });
      const again = await v1(ENSEMBLE, { key: key.value, headers, body: body("[retry]") });
      expect(first.status).toBe(200);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
      expect(first.headers.get("idempotent-replayed")).toBeNull();
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(emulator.calls()).toHaveLength(3);
      expect((await owner.bearer("/api/decision-history")).body.total).toBe(1);
    });

    it("two concurrent POSTs with one Idempotency-Key make one decision and both answer it", async () => {
      const owner = await signIn(stack);
      const key = await owner.newKey();
      scriptVotes("[race]");
      const headers = { "Idempotency-Key": randomUUID() };
      const answers = await Promise.all([1, 2, 3].map(() => v1(ENSEMBLE, { key: key.value, headers, body: body("[race]") })));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
      expect(new Set(answers.map((a) => a.body.decision_id)).size).toBe(1);
      expect(answers.filter((a) => a.headers.get("idempotent-replayed") === "true")).toHaveLength(2);
      expect(emulator.calls()).toHaveLength(3);
      expect((await owner.bearer("/api/decision-history")).body.total).toBe(1);
    });

    it("async: a retry answers the same 202; a later synchronous retry waits for that decision's result", async () => {
      const owner = await signIn(stack);
      const key = await owner.newKey();
      scriptVotes("[async-retry]");
      const headers = { "Idempotency-Key": randomUUID(), Prefer: "respond-async" };
      const first = await v1(ENSEMBLE, { key: key.value, headers, body: body("[async-retry]") });
      const again = await v1(ENSEMBLE, { key: key.value, headers, body: body("[async-retry]") });
      expect([first.status, again.status]).toEqual([202, 202]);
      expect(again.body).toEqual(first.body);
      expect(again.headers.get("location")).toBe(first.headers.get("location"));

      const waited = await v1(ENSEMBLE, { key: key.value, headers: { "Idempotency-Key": headers["Idempotency-Key"] }, body: body("[async-retry]") });
      expect(waited.status).toBe(200);
      expect(byName(V1EnsembleResponseSchema.parse(waited.body))).toEqual(byName(scriptedResult(first.body.decision_id as string)));
      expect(emulator.calls()).toHaveLength(3);
      expect((await owner.bearer("/api/decision-history")).body.total).toBe(1);
    });

    it("the same Idempotency-Key with a different body is a 422 that says so, and runs nothing", async () => {
      const key = await alice.newKey();
      const headers = { "Idempotency-Key": randomUUID() };
      expect((await v1(ENSEMBLE, { key: key.value, headers, body: body("[first]") })).status).toBe(200);
      const calls = emulator.calls().length;
      const conflict = await v1(ENSEMBLE, { key: key.value, headers, body: body("[second]") });
      expect(conflict.status).toBe(422);
      expect(conflict.body).toEqual({
        detail: "This Idempotency-Key was already used with a different request body. Send a new Idempotency-Key for a new request.",
      });
      expect(emulator.calls()).toHaveLength(calls);
    });

    it("is per API key: another key with the same Idempotency-Key makes its own decision", async () => {
      const [one, two] = [await alice.newKey("one"), await bob.newKey("two")];
      const headers = { "Idempotency-Key": "order-42" };
      const first = await v1(ENSEMBLE, { key: one.value, headers, body: body("[per-key]") });
      const second = await v1(ENSEMBLE, { key: two.value, headers, body: body("[per-key]") });
      expect([first.status, second.status]).toEqual([200, 200]);
      expect(second.body.decision_id).not.toBe(first.body.decision_id);
      expect(emulator.calls()).toHaveLength(6);
    });

    it.each([
      ["empty", ""],
      ["with a space", "order 42"],
      ["over 255 characters", "k".repeat(256)],
      ["with a character outside visible ASCII", "ordré"],
    ])("refuses an Idempotency-Key that is %s with a 400", async (_case, idempotencyKey) => {
      const key = await alice.newKey();
      const answer = await v1(ENSEMBLE, { key: key.value, headers: { "Idempotency-Key": idempotencyKey }, body: body("[bad-key]") });
      expect([answer.status, answer.body]).toEqual([400, { detail: "Idempotency-Key must be 1 to 255 visible ASCII characters (no spaces), e.g. a UUID." }]);
      expect(emulator.calls()).toEqual([]);
    });
  });

  describe("GET /v1/decision-history and /decision-history", () => {
    let owner: Owner;
    let key: string;
    beforeAll(async () => {
      owner = await signIn(stack);
      key = (await owner.newKey()).value;
      scriptVotes("[listed]");
      for (const prompt of ["[listed] First?", "[listed] Second?", "[listed] Third?"]) {
        expect((await v1(ENSEMBLE, { key, body: { prompt, valid_responses: ["Yes", "No"] } })).status).toBe(200);
      }
      expect((await owner.bearer("/api/ensembled-llm-categorical-decision", { body: { question: "Made on the web?", categories: ["Red", "Blue"] } })).status).toBe(200);
    });

    it("answers exactly what /api/decision-history answers the owner, with the same filters and paging", async () => {
      for (const query of ["", "?limit=2", "?limit=2&offset=2", "?category=Yes", "?question=second", "?hasDecision=true&category=Red", `?dateFrom=${new Date().toISOString().slice(0, 10)}`]) {
        const expected = await owner.bearer(`/api/decision-history${query}`);
        expect(expected.status).toBe(200);
        for (const path of ["/v1/decision-history", "/decision-history"]) {
          const answer = await v1(`${path}${query}`, { key });
          expect(answer.status, `${path}${query}`).toBe(200);
          expect(answer.body, `${path}${query}`).toEqual(expected.body);
        }
      }
      expect((await v1("/v1/decision-history", { key })).body.total).toBe(4);
    });

    it("refuses the same bad parameters with the same 400", async () => {
      for (const query of ["?limit=-1", "?offset=abc", "?category[$ne]=x", "?dateFrom=2024-02-30", "?limit=1&limit=2"]) {
        const expected = await owner.bearer(`/api/decision-history${query}`);
        expect(expected.status).toBe(400);
        const answer = await v1(`/v1/decision-history${query}`, { key });
        expect([answer.status, answer.body]).toEqual([400, expected.body]);
      }
    });

    it("shows another key owner only their own decisions", async () => {
      const other = await bob.newKey();
      const answer = await v1("/decision-history", { key: other.value });
      expect(answer.status).toBe(200);
      expect(JSON.stringify(answer.body)).not.toContain("[listed]");
    });

    it("GET /health answers as before, without a key", async () => {
      const answer = await v1("/health");
      expect([answer.status, answer.body]).toEqual([200, { status: "ok" }]);
    });
  });
});

describe("per-key rate limit and monthly quota", () => {
  const stack = useStack({ API_KEY_RATE_LIMIT_PER_MINUTE: "3", API_MONTHLY_QUOTA: "4" });
  let replica: Gateway;

  beforeAll(async () => {
    replica = await startReplica(stack);
  });
  afterAll(async () => {
    await replica?.close();
  });

  it("counts a key's requests across replicas and answers the 4th in a minute with 429, Retry-After and the RateLimit headers", async () => {
    const owner = await signIn(stack);
    const key = await owner.newKey();
    const policy = /^"3-in-1min"; q=3; w=60; pk=:[A-Za-z0-9+/=]+:$/;
    const urls = [stack.url, replica.url, stack.url];
    for (const [i, url] of urls.entries()) {
      const answer = await call(url, "/v1/decision-history", { key: key.value });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("ratelimit")).toMatch(new RegExp(`^"3-in-1min"; r=${2 - i}; t=([1-9]|[1-5][0-9]|60)$`));
      expect(answer.headers.get("ratelimit-policy")).toMatch(policy);
      expect(answer.headers.get("retry-after")).toBeNull();
    }
    const limited = await call(replica.url, ENSEMBLE, { key: key.value, body: { prompt: "One more?", valid_responses: ["Yes", "No"] } });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ detail: API_KEY_MESSAGES.rateLimited });
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
    expect(limited.headers.get("ratelimit")).toMatch(/^"3-in-1min"; r=0; t=\d+$/);
    expect(limited.headers.get("ratelimit-policy")).toMatch(policy);
    expect(emulator.calls()).toEqual([]);

    // The limit is the key's: the owner's other key is not limited; refused calls used none of the quota.
    const other = await owner.newKey("other");
    expect((await call(stack.url, "/v1/decision-history", { key: other.value })).status).toBe(200);
    expect(UsageSchema.parse((await owner.bearer("/api/usage")).body).api_requests).toBe(4);
  });

  it("refuses the owner's calls past the monthly quota with a 429 that says so, through any key, until next month", async () => {
    const [owner, neighbour] = [await signIn(stack), await signIn(stack)];
    const [one, two] = [await owner.newKey("one"), await owner.newKey("two")];
    for (const key of [one, one, two]) expect((await call(stack.url, "/v1/decision-history", { key: key.value })).status).toBe(200);
    expect((await call(replica.url, ENSEMBLE, { key: two.value, body: { prompt: "Within quota?", valid_responses: ["Yes", "No"] } })).status).toBe(200);
    const callsBefore = emulator.calls().length;

    const over = await call(replica.url, ENSEMBLE, { key: two.value, body: { prompt: "Over quota?", valid_responses: ["Yes", "No"] } });
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ detail: API_KEY_MESSAGES.quotaExceeded(4) });
    expect(over.body.detail).toBe("Monthly API request quota reached (4 requests). It resets on the first day of next month (UTC).");
    const now = new Date();
    const untilNextMonth = (Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) - now.getTime()) / 1000;
    expect(Math.abs(Number(over.headers.get("retry-after")) - untilNextMonth)).toBeLessThan(60);
    expect(emulator.calls()).toHaveLength(callsBefore);
    const history = await call(stack.url, "/decision-history", { key: one.value });
    expect([history.status, history.body]).toEqual([429, { detail: API_KEY_MESSAGES.quotaExceeded(4) }]);

    expect(UsageSchema.parse((await owner.bearer("/api/usage")).body)).toMatchObject({ api_requests: 4, api_request_limit: 4 });
    // Another user's quota is their own.
    expect((await call(stack.url, "/v1/decision-history", { key: (await neighbour.newKey()).value })).status).toBe(200);
    // The web app is not an API request: the owner still decides there.
    expect((await owner.bearer("/api/ensembled-llm-categorical-decision", { body: { question: "On the web?", categories: ["Yes", "No"] } })).status).toBe(200);
  });
});
