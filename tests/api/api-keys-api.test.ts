import { randomBytes } from "node:crypto";
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  API_KEY_HEADER,
  API_KEY_MESSAGES,
  API_KEY_PREFIX,
  ApiKeyListSchema,
  ApiKeySchema,
  AUTH_MESSAGES,
  DEFAULT_WORKSPACE,
  FREE_TIER,
  UsageSchema,
  type ApiKey,
  type AuthResponse,
} from "@sd/contracts";
import { useEmulator } from "@sd/provider-emulator/testing";
import { testEnv } from "@sd/testing/env";
import { callApi, storedDecision, type ApiAnswer } from "@sd/testing/history";
import { signInByMail } from "@sd/testing/sign-in";
import { SmtpCapture } from "@sd/testing/smtp-capture";
import { startStack, type InProcessStack } from "@sd/testing/stack";

const KEYS = "/api/api-keys";
const USAGE = "/api/usage";

const emulator = useEmulator();
let smtp: SmtpCapture;
let stack: InProcessStack;

beforeAll(async () => {
  smtp = await SmtpCapture.start();
  // Many accounts sign in from this one test IP.
  stack = await startStack(testEnv(emulator.url, { SMTP_URL: smtp.url, MAGIC_LINK_PER_IP_PER_HOUR: "1000" }));
});
afterAll(async () => {
  await stack?.close();
  await smtp?.close();
});

let n = 0;
const newUser = () => signInByMail(stack.url, smtp, `keys${++n}-${Date.now()}@example.com`);
const api = (user: AuthResponse | null, path: string, init: { method?: string; body?: unknown; rawBody?: string } = {}) =>
  callApi(stack.url, path, user?.tokens.access_token ?? null, init);

async function createKey(user: AuthResponse, body: unknown = { name: "CI", workspace: "Default" }): Promise<ApiKey & { keyvalue: string }> {
  const answer = await api(user, KEYS, { body });
  expect(answer.status, answer.text).toBe(201);
  return ApiKeySchema.required({ keyvalue: true }).parse(answer.body);
}

/** A call through an API key, as an API consumer makes it. */
async function withKey(key: string | null, path: string): Promise<ApiAnswer> {
  const response = await fetch(`${stack.url}${path}`, { headers: key === null ? {} : { [API_KEY_HEADER]: key } });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as Record<string, unknown>, text, headers: response.headers };
}

const listed = async (user: AuthResponse) => ApiKeyListSchema.parse((await api(user, KEYS)).body);
const png = (bytes: number) => `data:image/png;base64,${Buffer.alloc(bytes, 1).toString("base64")}`;

describe("without a valid bearer token", () => {
  it("every key endpoint and /api/usage answer 401 Could not validate credentials", async () => {
    const owner = await newUser();
    const key = await createKey(owner);
    const calls: [string, string, unknown?][] = [
      ["GET", KEYS],
      ["POST", KEYS, { name: "x" }],
      ["PUT", `${KEYS}/${key.id}`, { active_status: false }],
      ["PATCH", `${KEYS}/${key.id}`, { monthly_spend_limit_usd: 5 }],
      ["DELETE", `${KEYS}/${key.id}`],
      ["GET", `${KEYS}/${key.id}/reveal`],
      ["GET", USAGE],
    ];
    for (const token of [null, "not-a-token"]) {
      for (const [method, path, body] of calls) {
        const answer = await callApi(stack.url, path, token, { method, body });
        expect(answer.status, `${method} ${path}`).toBe(401);
        expect(answer.body).toEqual({ detail: AUTH_MESSAGES.invalidCredentials });
      }
    }
    // An API key is not a bearer token: it does not open the owner's key endpoints.
    expect((await callApi(stack.url, KEYS, key.keyvalue)).status).toBe(401);
    expect((await listed(owner)).map((k) => [k.id, k.active_status])).toEqual([[key.id, true]]);
  });
});

describe("POST /api/api-keys", () => {
  it("creates an active, unused key and answers its value once, with every field of an API key", async () => {
    const owner = await newUser();
    const before = Date.now();
    const answer = await api(owner, KEYS, { body: { name: "  Release bot  ", workspace: "  Team A " } });
    expect(answer.status).toBe(201);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    const key = ApiKeySchema.parse(answer.body);
    expect(key).toEqual({
      id: expect.any(String),
      name: "Release bot",
      workspace: "Team A",
      created_by: owner.user.email,
      created_at: expect.any(String),
      last_used_at: null,
      cost: 0,
      active_status: true,
      keyvalue: expect.stringMatching(/^sd_live_[0-9A-Za-z]{43}$/),
      spend_this_month_usd: 0,
      requests_this_month: 0,
      monthly_spend_limit_usd: null,
    });
    expect(Date.parse(key.created_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(key.created_at)).toBeLessThanOrEqual(Date.now());

    // Listed afterwards without its value.
    const [only] = await listed(owner);
    expect(only).toEqual({ ...key, keyvalue: undefined });
    expect(JSON.stringify(await listed(owner))).not.toContain(key.keyvalue!);
  });

  it("puts a key in the 'Default' workspace when none (or a blank one) is given, and every key is different", async () => {
    const owner = await newUser();
    const a = await createKey(owner, { name: "a" });
    const b = await createKey(owner, { name: "b", workspace: "   " });
    expect([a.workspace, b.workspace]).toEqual([DEFAULT_WORKSPACE, DEFAULT_WORKSPACE]);
    expect(a.keyvalue).not.toBe(b.keyvalue);
    expect(a.id).not.toBe(b.id);
  });

  it.each([
    ["no name", { workspace: "Default" }, API_KEY_MESSAGES.nameRequired],
    ["an empty name", { name: "" }, API_KEY_MESSAGES.nameRequired],
    ["a blank name", { name: "   " }, API_KEY_MESSAGES.nameRequired],
    ["a name that is not text", { name: 42 }, API_KEY_MESSAGES.nameRequired],
    ["a name over 100 characters", { name: "n".repeat(101) }, "API key name must be at most 100 characters."],
    ["a workspace over 100 characters", { name: "ok", workspace: "w".repeat(101) }, "workspace must be at most 100 characters."],
  ])("refuses %s with a 400 that says why, creating nothing", async (_case, body, detail) => {
    const owner = await newUser();
    const answer = await api(owner, KEYS, { body });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ detail });
    expect(await listed(owner)).toEqual([]);
  });

  it("refuses a body that is not JSON", async () => {
    const owner = await newUser();
    const answer = await api(owner, KEYS, { rawBody: '{"name": ' });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ detail: "The request body is not valid JSON." });
  });
});

describe("GET /api/api-keys", () => {
  it("answers an empty list for a user without keys, and a user's keys newest first", async () => {
    const owner = await newUser();
    expect((await api(owner, KEYS)).body).toEqual([]);
    const first = await createKey(owner, { name: "first" });
    const second = await createKey(owner, { name: "second" });
    const third = await createKey(owner, { name: "third" });
    const keys = await listed(owner);
    expect(keys.map((k) => k.name)).toEqual(["third", "second", "first"]);
    expect(keys.map((k) => k.id)).toEqual([third.id, second.id, first.id]);
    for (const key of keys) expect(key.keyvalue).toBeUndefined();
  });
});

describe("a key's cost", () => {
  it("is the sum of its decisions' cost_usd, in the list and in the PUT answer: no other key's, no web decision's, no other user's", async () => {
    const owner = await newUser();
    const other = await newUser();
    const [first, second, unused] = [await createKey(owner, { name: "first" }), await createKey(owner, { name: "second" }), await createKey(owner, { name: "unused" })];
    const decided = (user: AuthResponse, api_key_id: string | null, cost_usd: number) =>
      stack.store.decisions.insertOnce(storedDecision({ user_id: user.user.id, api_key_id, cost_usd }));
    await decided(owner, first.id, 0.0125);
    await decided(owner, first.id, 0.5);
    await decided(owner, second.id, 0.25);
    await decided(owner, null, 3);
    // Another user's decision naming the owner's key never counts for it.
    await decided(other, first.id, 7);

    const costs = Object.fromEntries((await listed(owner)).map((key) => [key.id, key.cost]));
    expect(Object.keys(costs).sort()).toEqual([first.id, second.id, unused.id].sort());
    expect(costs[first.id]).toBeCloseTo(0.5125, 12);
    expect(costs[second.id]).toBeCloseTo(0.25, 12);
    expect(costs[unused.id]).toBe(0);
    const off = await api(owner, `${KEYS}/${first.id}`, { method: "PUT", body: { active_status: false } });
    expect(ApiKeySchema.parse(off.body)).toMatchObject({ id: first.id, active_status: false });
    expect(ApiKeySchema.parse(off.body).cost).toBeCloseTo(0.5125, 12);
  });
});

describe("PUT /api/api-keys/{id}", () => {
  it("deactivates and activates the key, answering the updated key", async () => {
    const owner = await newUser();
    const key = await createKey(owner);
    const off = await api(owner, `${KEYS}/${key.id}`, { method: "PUT", body: { active_status: false } });
    expect(off.status).toBe(200);
    expect(ApiKeySchema.parse(off.body)).toEqual({ ...key, keyvalue: undefined, active_status: false });
    expect((await listed(owner))[0]?.active_status).toBe(false);
    const on = await api(owner, `${KEYS}/${key.id}`, { method: "PUT", body: { active_status: true } });
    expect(on.body).toMatchObject({ id: key.id, active_status: true });
    expect((await listed(owner))[0]?.active_status).toBe(true);
  });

  it.each([
    ["no active_status", {}],
    ["a string", { active_status: "false" }],
    ["null", { active_status: null }],
  ])("refuses %s with a 400, changing nothing", async (_case, body) => {
    const owner = await newUser();
    const key = await createKey(owner);
    const answer = await api(owner, `${KEYS}/${key.id}`, { method: "PUT", body });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ detail: "active_status must be true or false." });
    expect((await listed(owner))[0]?.active_status).toBe(true);
  });
});

describe("PATCH /api/api-keys/{id}: the monthly spend limit", () => {
  const setLimit = (user: AuthResponse, id: string, monthly_spend_limit_usd: unknown) =>
    api(user, `${KEYS}/${id}`, { method: "PATCH", body: { monthly_spend_limit_usd } });

  it("sets the limit in whole cents, changes and removes it, answering and listing the updated key", async () => {
    const owner = await newUser();
    const key = await createKey(owner);
    const other = await createKey(owner, { name: "other" });
    const set = await setLimit(owner, key.id, 5);
    expect(set.status, set.text).toBe(200);
    expect(ApiKeySchema.parse(set.body)).toEqual({ ...key, keyvalue: undefined, monthly_spend_limit_usd: 5 });
    expect(ApiKeySchema.parse((await setLimit(owner, key.id, 12.345)).body).monthly_spend_limit_usd).toBe(12.35);
    expect((await listed(owner)).map((k) => [k.name, k.monthly_spend_limit_usd])).toEqual([
      ["other", null],
      ["CI", 12.35],
    ]);
    // Switching the key off and on keeps its limit.
    await api(owner, `${KEYS}/${key.id}`, { method: "PUT", body: { active_status: false } });
    expect((await listed(owner)).find((k) => k.id === key.id)).toMatchObject({ active_status: false, monthly_spend_limit_usd: 12.35 });
    const removed = await setLimit(owner, key.id, null);
    expect([removed.status, ApiKeySchema.parse(removed.body).monthly_spend_limit_usd]).toEqual([200, null]);
    expect((await listed(owner)).map((k) => k.monthly_spend_limit_usd)).toEqual([null, null]);
    expect(other.monthly_spend_limit_usd).toBeNull();
  });

  it.each([
    ["zero", 0],
    ["less than a cent", 0.004],
    ["a negative amount", -5],
    ["more than a million dollars", 1_000_001],
    ["a string", "5"],
    ["nothing", undefined],
  ])("refuses %s with a 400 that says what a limit is, changing nothing", async (_case, limit) => {
    const owner = await newUser();
    const key = await createKey(owner);
    await setLimit(owner, key.id, 7);
    const answer = await setLimit(owner, key.id, limit);
    expect([answer.status, answer.body]).toEqual([400, { detail: API_KEY_MESSAGES.spendLimitInvalid }]);
    expect((await listed(owner))[0]?.monthly_spend_limit_usd).toBe(7);
  });

  it("answers another user's key exactly as an unknown one (404), changing nothing", async () => {
    const [alice, bob] = [await newUser(), await newUser()];
    const key = await createKey(alice);
    const onAlices = await setLimit(bob, key.id, 1);
    const onUnknown = await setLimit(bob, "00000000-0000-4000-8000-000000000000", 1);
    expect([onAlices.status, onAlices.body]).toEqual([404, { detail: API_KEY_MESSAGES.notFound }]);
    expect(onAlices.text).toBe(onUnknown.text);
    expect((await listed(alice))[0]?.monthly_spend_limit_usd).toBeNull();
  });
});

describe("a key's month: requests, spend and the spend limit on POST /v1/ensemble", () => {
  // Tokens enough for every default model's answer to cost over a cent at its list price.
  const usage = { input_tokens: 4000, output_tokens: 1000 };
  const ensemble = (key: string, prompt: string) =>
    fetch(`${stack.url}/v1/ensemble`, {
      method: "POST",
      headers: { [API_KEY_HEADER]: key, "content-type": "application/json" },
      body: JSON.stringify({ prompt, valid_responses: ["Yes", "No"], early_quorum: false }),
    }).then(async (response) => ({ status: response.status, body: (await response.json()) as Record<string, unknown>, headers: response.headers }));

  it("shows the key's calls and its decisions' spend this month; past its limit a new decision is a 402 asked of no model, until the limit is raised", async () => {
    const owner = await newUser();
    const key = await createKey(owner, { name: "limited" });
    const spare = await createKey(owner, { name: "spare" });
    expect((await api(owner, `${KEYS}/${key.id}`, { method: "PATCH", body: { monthly_spend_limit_usd: 0.01 } })).status).toBe(200);
    emulator.addRules({ match: { question_contains: "[spend]" }, respond: { kind: "answer", category: "Yes", usage } });

    // Under the limit (nothing spent yet): decided, and its whole cost counted for the key.
    const first = await ensemble(key.keyvalue, "[spend] Ship it?");
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const cost = (await stack.store.decisions.findById(first.body.decision_id as string))!.cost_usd;
    expect(cost).toBeGreaterThan(0.01);
    expect(first.body.cost_usd).toBe(cost);
    const month = async (id: string) => (await listed(owner)).find((k) => k.id === id)!;
    expect(await month(key.id)).toMatchObject({ requests_this_month: 1, monthly_spend_limit_usd: 0.01 });
    expect((await month(key.id)).spend_this_month_usd).toBeCloseTo(cost, 9);
    expect((await month(key.id)).cost).toBeCloseTo(cost, 12);

    // Over it: refused before the body is read or any model is asked, with what was spent.
    const calls = emulator.calls().length;
    const refused = await ensemble(key.keyvalue, "[spend] Ship it again?");
    expect(refused.status).toBe(402);
    expect(refused.body).toEqual({ detail: API_KEY_MESSAGES.spendLimitReached(0.01, (await month(key.id)).spend_this_month_usd) });
    expect(refused.body.detail).toMatch(/^This API key has reached its monthly spend limit of \$0\.01 \(\$0\.\d+ spent this month\)\./);
    expect(refused.headers.get("retry-after")).toBeNull();
    expect(emulator.calls()).toHaveLength(calls);
    expect((await api(owner, "/api/decision-history")).body.total).toBe(1);

    // Results and history stay readable; the owner's other key is not limited.
    expect((await withKey(key.keyvalue, `/v1/decisions/${first.body.decision_id as string}`)).status).toBe(200);
    expect((await withKey(key.keyvalue, "/v1/decision-history")).status).toBe(200);
    expect((await ensemble(spare.keyvalue, "[spend] With the other key?")).status).toBe(200);
    const spent = await month(spare.id);
    expect(spent.requests_this_month).toBe(1);
    expect(spent.spend_this_month_usd).toBeGreaterThan(0.01);

    // Raised above what was spent: the key decides again; removed: no limit at all.
    expect((await api(owner, `${KEYS}/${key.id}`, { method: "PATCH", body: { monthly_spend_limit_usd: 1 } })).status).toBe(200);
    expect((await ensemble(key.keyvalue, "[spend] Now?")).status).toBe(200);
    expect((await api(owner, `${KEYS}/${key.id}`, { method: "PATCH", body: { monthly_spend_limit_usd: null } })).status).toBe(200);
    expect((await ensemble(key.keyvalue, "[spend] And now?")).status).toBe(200);
    // Every call made with the key counts, the refused one too (it got past authentication).
    expect((await month(key.id)).requests_this_month).toBe(6);
  });
});

describe("DELETE /api/api-keys/{id}", () => {
  it("deletes the key once: then it is gone from the list, cannot be revealed, and stops working", async () => {
    const owner = await newUser();
    const kept = await createKey(owner, { name: "kept" });
    const doomed = await createKey(owner, { name: "doomed" });
    expect((await withKey(doomed.keyvalue, "/v1/decision-history")).status).toBe(200);

    const deleted = await api(owner, `${KEYS}/${doomed.id}`, { method: "DELETE" });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true, message: API_KEY_MESSAGES.deleted });
    expect((await listed(owner)).map((k) => k.id)).toEqual([kept.id]);

    const notFound = { detail: API_KEY_MESSAGES.notFound };
    for (const [method, path, body] of [
      ["DELETE", `${KEYS}/${doomed.id}`],
      ["GET", `${KEYS}/${doomed.id}/reveal`],
      ["PUT", `${KEYS}/${doomed.id}`, { active_status: true }],
    ] as const) {
      const answer = await api(owner, path, { method, body });
      expect([answer.status, answer.body], `${method} ${path}`).toEqual([404, notFound]);
    }
    const refused = await withKey(doomed.keyvalue, "/v1/decision-history");
    expect([refused.status, refused.body]).toEqual([401, { detail: API_KEY_MESSAGES.invalidKey }]);
    expect((await withKey(kept.keyvalue, "/v1/decision-history")).status).toBe(200);
  });
});

describe("GET /api/api-keys/{id}/reveal", () => {
  it("answers the key's value as it was created, not to be cached", async () => {
    const owner = await newUser();
    const key = await createKey(owner);
    const other = await createKey(owner, { name: "other" });
    const revealed = await api(owner, `${KEYS}/${key.id}/reveal`);
    expect(revealed.status).toBe(200);
    expect(revealed.body).toEqual({ api_key: key.keyvalue });
    expect(revealed.headers.get("cache-control")).toBe("no-store");
    expect((await api(owner, `${KEYS}/${other.id}/reveal`)).body).toEqual({ api_key: other.keyvalue });
  });

  it("reveals an inactive key too (its owner may want to switch it back on)", async () => {
    const owner = await newUser();
    const key = await createKey(owner);
    await api(owner, `${KEYS}/${key.id}`, { method: "PUT", body: { active_status: false } });
    expect((await api(owner, `${KEYS}/${key.id}/reveal`)).body).toEqual({ api_key: key.keyvalue });
  });
});

describe("BOLA: every key endpoint is the owner's only", () => {
  let alice: AuthResponse;
  let bob: AuthResponse;
  let aliceKey: ApiKey & { keyvalue: string };
  beforeAll(async () => {
    [alice, bob] = [await newUser(), await newUser()];
    aliceKey = await createKey(alice, { name: "alice's" });
    await createKey(bob, { name: "bob's" });
  });

  it("Bob's read, update, reveal and delete of Alice's key answer exactly as for an unknown id, and change nothing", async () => {
    const unknownId = "00000000-0000-4000-8000-000000000000";
    for (const [method, path, body] of [
      ["GET", (id: string) => `${KEYS}/${id}/reveal`],
      ["PUT", (id: string) => `${KEYS}/${id}`, { active_status: false }],
      ["DELETE", (id: string) => `${KEYS}/${id}`],
    ] as const) {
      const onAlices = await api(bob, path(aliceKey.id), { method, body });
      const onUnknown = await api(bob, path(unknownId), { method, body });
      expect(onAlices.status, `${method} on Alice's key`).toBe(404);
      expect(onAlices.body).toEqual({ detail: API_KEY_MESSAGES.notFound });
      expect([onAlices.status, onAlices.text]).toEqual([onUnknown.status, onUnknown.text]);
      expect(onAlices.text).not.toContain(aliceKey.keyvalue);
    }
    // Bob's list holds only his own key; Alice's is untouched and still works.
    expect((await listed(bob)).map((k) => k.name)).toEqual(["bob's"]);
    expect(await listed(alice)).toEqual([{ ...aliceKey, keyvalue: undefined }]);
    expect((await withKey(aliceKey.keyvalue, "/v1/decision-history")).status).toBe(200);
  });

  it("a key's id from a URL is taken literally (no operator or pattern matches someone else's key)", async () => {
    for (const id of ["%7B%22%24ne%22%3A%22x%22%7D", ".*", "%24ne"]) {
      const answer = await api(bob, `${KEYS}/${id}/reveal`);
      expect([answer.status, answer.body]).toEqual([404, { detail: API_KEY_MESSAGES.notFound }]);
    }
  });
});

describe("the store never holds a key in plain text", () => {
  it("neither the journal files under DATA_DIR nor the collection contain any part of a created key", async () => {
    const owner = await newUser();
    const keys = [await createKey(owner, { name: "one" }), await createKey(owner, { name: "two" })];
    // Use, reveal and deactivate them: every write the store sees.
    for (const key of keys) {
      expect((await withKey(key.keyvalue, "/v1/decision-history")).status).toBe(200);
      expect((await api(owner, `${KEYS}/${key.id}/reveal`)).body).toEqual({ api_key: key.keyvalue });
    }
    await api(owner, `${KEYS}/${keys[0]!.id}`, { method: "PUT", body: { active_status: false } });

    const secrets = keys.flatMap((key) => [key.keyvalue, key.keyvalue.slice(API_KEY_PREFIX.length), key.keyvalue.slice(-20)]);
    const dataDir = stack.vars.DATA_DIR!;
    // Every file, in subdirectories too (the image assets' files).
    const files = (await readdir(dataDir, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name).slice(dataDir.length + 1));
    expect(files).toContain("api_keys.journal.jsonl");
    for (const file of files) {
      const content = await readFile(join(dataDir, file), "utf8");
      for (const secret of secrets) expect(content.includes(secret), `${file} holds a key`).toBe(false);
    }
    const stored = await stack.store.apiKeys.listForUser(owner.user.id);
    expect(stored).toHaveLength(2);
    for (const secret of secrets) expect(JSON.stringify(stored)).not.toContain(secret);
    // What is stored instead: the SHA-256 and the AES-256-GCM ciphertext.
    for (const record of stored) {
      expect(record.key_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(record.key_ciphertext).toMatch(/^v1\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/);
    }
  });
});

describe("GET /api/usage", () => {
  it("starts at zero against the free tier's limits for the current month (UTC)", async () => {
    const owner = await newUser();
    const answer = await api(owner, USAGE);
    expect(answer.status).toBe(200);
    const now = new Date();
    expect(UsageSchema.parse(answer.body)).toEqual({
      period_start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString(),
      api_requests: 0,
      api_request_limit: FREE_TIER.apiRequestsPerMonth,
      storage_bytes: 0,
      storage_limit_bytes: FREE_TIER.storageBytes,
    });
  });

  it("counts the user's real API requests through any of their keys, and only theirs", async () => {
    const [owner, other] = [await newUser(), await newUser()];
    const [one, two] = [await createKey(owner, { name: "one" }), await createKey(owner, { name: "two" })];
    const otherKey = await createKey(other);
    for (const [key, path] of [
      [one, "/v1/decision-history"],
      [one, "/decision-history"],
      [two, "/v1/decision-history?limit=1"],
      [otherKey, "/v1/decision-history"],
    ] as const) {
      expect((await withKey(key.keyvalue, path)).status).toBe(200);
    }
    // Refused calls are not requests of the user: a missing or unknown key counts for nobody.
    expect((await withKey(null, "/v1/decision-history")).status).toBe(401);
    expect((await withKey(`${API_KEY_PREFIX}${"0".repeat(43)}`, "/v1/decision-history")).status).toBe(401);
    expect((await api(owner, USAGE)).body).toMatchObject({ api_requests: 3 });
    expect((await api(other, USAGE)).body).toMatchObject({ api_requests: 1 });
  });

  it("measures image storage as the sum of the user's stored image sizes", async () => {
    const [owner, other] = [await newUser(), await newUser()];
    const decided = await api(owner, "/api/ensembled-llm-categorical-decision", {
      body: { question: "Which photo is sharper?", categories: ["Left", "Right"], images: [png(1500), png(2500)] },
    });
    expect(decided.status, decided.text).toBe(200);
    expect((await api(owner, USAGE)).body).toMatchObject({ storage_bytes: 4000, storage_limit_bytes: FREE_TIER.storageBytes });
    expect((await api(other, USAGE)).body).toMatchObject({ storage_bytes: 0 });

    // Deleting the images frees the storage.
    const deleted = await api(owner, `/api/image-assets/decision/${decided.body.decision_id as string}`, { method: "DELETE" });
    expect(deleted.status, deleted.text).toBe(200);
    expect((await api(owner, USAGE)).body).toMatchObject({ storage_bytes: 0 });
  });
});

describe("the encryption key of stored keys", () => {
  it("is generated under DATA_DIR (mode 0600) when API_KEY_ENCRYPTION_KEY is unset, so keys stay revealable after a restart", async () => {
    const vars = testEnv(emulator.url, { SMTP_URL: smtp.url });
    const first = await startStack(vars);
    let owner: AuthResponse;
    let key: ApiKey & { keyvalue: string };
    try {
      owner = await signInByMail(first.url, smtp, `restart-${Date.now()}@example.com`);
      const created = await callApi(first.url, KEYS, owner.tokens.access_token, { body: { name: "survives" } });
      key = ApiKeySchema.required({ keyvalue: true }).parse(created.body);
    } finally {
      await first.close();
    }
    const secrets = JSON.parse(await readFile(join(vars.DATA_DIR!, "secrets.json"), "utf8")) as Record<string, string>;
    expect(secrets.api_key_encryption_key).toMatch(/^[\w-]{64}$/);
    expect((await stat(join(vars.DATA_DIR!, "secrets.json"))).mode & 0o777).toBe(0o600);

    const again = await startStack(vars);
    try {
      expect((await callApi(again.url, `${KEYS}/${key.id}/reveal`, owner.tokens.access_token)).body).toEqual({ api_key: key.keyvalue });
      const used = await fetch(`${again.url}/v1/decision-history`, { headers: { [API_KEY_HEADER]: key.keyvalue } });
      expect(used.status).toBe(200);
    } finally {
      await again.close();
    }

    // Under another encryption key the stored ciphertext no longer opens: reveal says so, the key still works.
    const rotated = await startStack({ ...vars, API_KEY_ENCRYPTION_KEY: randomBytes(32).toString("base64") });
    try {
      const reveal = await callApi(rotated.url, `${KEYS}/${key.id}/reveal`, owner.tokens.access_token);
      expect(reveal.status).toBe(409);
      expect(reveal.body).toEqual({ detail: "This API key can no longer be revealed (the server's encryption key changed). Create a new key." });
      const used = await fetch(`${rotated.url}/v1/decision-history`, { headers: { [API_KEY_HEADER]: key.keyvalue } });
      expect(used.status).toBe(200);
    } finally {
      await rotated.close();
    }
  });

  it("is required in production: the gateway refuses to start without API_KEY_ENCRYPTION_KEY, naming it", async () => {
    const production = { NODE_ENV: "production", JWT_SECRET: "production-secret-0123456789abcdefghijklmnopqrstuvwxyz" };
    await expect(startStack(testEnv(emulator.url, production))).rejects.toThrow(/API_KEY_ENCRYPTION_KEY: required in production/);
  });

  it.each([
    ["16 bytes", randomBytes(16).toString("base64")],
    ["not base64", "this is not a key at all, it has spaces and is long"],
  ])("refuses to start with an API_KEY_ENCRYPTION_KEY of %s, naming the variable", async (_case, value) => {
    await expect(startStack(testEnv(emulator.url, { API_KEY_ENCRYPTION_KEY: value }))).rejects.toThrow(/API_KEY_ENCRYPTION_KEY: must be 32 random bytes in base64/);
  });
});
