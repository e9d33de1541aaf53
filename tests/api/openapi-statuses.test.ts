import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_KEY_HEADER, ApiKeySchema, ImageAssetListResponseSchema } from "@sd/contracts";
import { ENDPOINT_LIST, EXAMPLE_IMAGE, type Endpoint } from "@sd/contracts/endpoints";
import { useEmulator } from "@sd/provider-emulator/testing";
import { fuzzCatalogue, type FuzzTarget } from "@sd/testing/fuzz/catalogue";
import { closeConnections, send, type WireAnswer } from "@sd/testing/fuzz/http";
import type { MultipartRecipe } from "@sd/testing/fuzz/multipart";
import type { BodyRecipe, Caller, FuzzFixtures, RequestRecipe } from "@sd/testing/fuzz/recipe";
import { Huge } from "@sd/testing/fuzz/tokens";
import { toWire } from "@sd/testing/fuzz/wire";
import { callApi, storedDecision } from "@sd/testing/history";
import { savePreset } from "@sd/testing/presets";
import { useStackWithMail, type StackWithMail } from "@sd/testing/stack-with-mail";

/**
 * The document is the server: every endpoint of ENDPOINT_LIST is sent, built from its definition
 * by the fuzz harness, each refusal the server can give (no or bad credentials, another user's or
 * nobody's object, bad query, headers and body, an oversized and a compressed body, the rate limits
 * and the in-flight limit) and its success; every status the server answered must be documented
 * for that operation, and every answer with Retry-After must document that header.
 */

const { targets, missing } = fuzzCatalogue();
/** Refused requests sampled per endpoint from the fuzz catalogue, with a fixed seed so runs agree. */
const REFUSED_SAMPLES = 40;
const SEED = 29;
const SLOW_PROBES_MS = 300_000;
/** Past every body limit of stack A (BODY_LIMIT_MB=1, the 100 KB small-body limit, the 10 MB resume). */
const OVERSIZED_BYTES = 11 * 1024 * 1024;
/** The limits of stack B: the sign-ins and fixtures fit under them, then each endpoint is sent more often. */
const TINY_LIMIT = 6;
const SENDS_PAST_LIMIT = TINY_LIMIT + 2;
const HUGE_HEADER_BYTES = 20 * 1024;
const HELD = "held for the busy probe";
const ADMIN_EMAIL = "statuses-admin@example.com";

interface Observation {
  status: number;
  retryAfter: boolean;
  what: string;
  text: string;
}
const observed = new Map<Endpoint, Observation[]>();

function record(op: Endpoint, what: string, answer: WireAnswer): void {
  // Status 0: the server closed the connection before answering (an oversized body may do that).
  if (answer.status === 0) return;
  const list = observed.get(op) ?? [];
  list.push({ status: answer.status, retryAfter: answer.headers["retry-after"] !== undefined, what, text: answer.text.slice(0, 200) });
  observed.set(op, list);
}

/** The caller a definition admits. */
function rightfulCaller(op: Endpoint): Caller {
  if (op.access === "api-key") return "apiKey";
  if (op.tag === "admin") return "admin";
  return op.access === "public" ? "anonymous" : "user";
}

function validBody(op: Endpoint): BodyRecipe | undefined {
  const example = Object.values(op.body?.examples ?? {})[0]?.value;
  if (!op.body || example === undefined) return undefined;
  if (op.body.contentType === "multipart/form-data") {
    const form: MultipartRecipe = { parts: Object.entries(example as Record<string, string>).map(([name, value]) => ({ name, value })), damage: "none", cut: 0 };
    return { kind: "multipart", form };
  }
  if (op.body.contentType === "application/jsonl") return { kind: "raw", contentType: "application/jsonl", text: example as string };
  return { kind: "json", value: example };
}

const base = (op: Endpoint, caller = rightfulCaller(op)): RequestRecipe => ({ caller, badParams: {}, query: [], headers: {}, body: validBody(op) });

function oversizedBody(op: Endpoint): BodyRecipe {
  const body = validBody(op);
  if (body?.kind === "multipart") {
    const resume = { name: "resume", value: new Huge("%", OVERSIZED_BYTES, "%PDF-1.4\n"), filename: "resume.pdf", contentType: "application/pdf" };
    return { kind: "multipart", form: { ...body.form, parts: [...body.form.parts, resume] } };
  }
  const value = body?.kind === "json" && typeof body.value === "object" && body.value !== null ? body.value : {};
  return { kind: "raw", contentType: "application/json", text: new Huge("x", OVERSIZED_BYTES, `${JSON.stringify(value).slice(0, -1)}${Object.keys(value).length > 0 ? "," : ""}"padding":"`, '"}') };
}

function compressedBody(op: Endpoint): BodyRecipe {
  const body = validBody(op);
  return { kind: "compressed", encoding: "gzip", text: JSON.stringify(body?.kind === "json" ? body.value : {}) };
}

/** Logout and the DELETEs take away what later probes use: their successes go last. */
const destroys = (op: Endpoint) => op.method === "delete" || op.operationId === "logout";
const inSafeOrder = (list: readonly FuzzTarget[]) => [...list.filter((t) => !destroys(t.op)), ...list.filter((t) => destroys(t.op))];

async function fixturesOf(stack: StackWithMail, withAsset: boolean): Promise<FuzzFixtures> {
  const user = await stack.signIn();
  const admin = await stack.signIn(ADMIN_EMAIL);
  const token = user.tokens.access_token;
  const decision = storedDecision({ user_id: user.user.id, user_email: user.user.email });
  await stack.store.decisions.insertOnce(decision);
  let imageAssetId: string = randomUUID();
  if (withAsset) {
    const asset = await callApi(stack.url, "/api/image-assets", token, { body: { decisionHistory_id: decision.id, label: "image1", image_data: EXAMPLE_IMAGE } });
    expect(asset.status, asset.text).toBe(201);
    imageAssetId = ImageAssetListResponseSchema.parse(asset.body).imageAssets[0]!.id;
  }
  const key = await callApi(stack.url, "/api/api-keys", token, { body: { name: "statuses" } });
  expect(key.status, key.text).toBe(201);
  const apiKey = ApiKeySchema.required({ keyvalue: true }).parse(key.body);
  const preset = await savePreset(stack.url, token, "statuses");
  const batch = await callApi(stack.url, "/v1/batches", null, {
    rawBody: '{"custom_id":"statuses","prompt":"Which status?","valid_responses":["200","404"]}\n',
    headers: { [API_KEY_HEADER]: apiKey.keyvalue, "content-type": "application/jsonl" },
  });
  expect(batch.status, batch.text).toBe(202);
  return {
    user: { id: user.user.id, accessToken: token },
    admin: { accessToken: admin.tokens.access_token },
    apiKey: { id: apiKey.id, value: apiKey.keyvalue },
    decisionId: decision.id,
    imageAssetId,
    presetId: preset.id,
    batchId: batch.body.id as string,
  };
}

async function probe(stack: StackWithMail, target: FuzzTarget, what: string, recipe: RequestRecipe, fixtures: FuzzFixtures): Promise<WireAnswer> {
  const answer = await send(stack.url, toWire(target.op, target.idKinds, recipe, fixtures));
  // An empty path parameter makes another path (`/api/image-assets/decision/` is `/api/image-assets/{id}`): its answer is that route's.
  if (!Object.values(recipe.badParams).includes("")) record(target.op, what, answer);
  return answer;
}

const emulator = useEmulator();

describe("stack A: every refusal but the rate limits", () => {
  const stack = useStackWithMail(emulator, () => ({
    ADMIN_EMAILS: ADMIN_EMAIL,
    MAX_IN_FLIGHT_DECISIONS: "1",
    OVERLOAD_RETRY_AFTER_SECONDS: "2",
    BODY_LIMIT_MB: "1",
    API_KEY_RATE_LIMIT_PER_MINUTE: "1000000",
    API_MONTHLY_QUOTA: "1000000",
    MAGIC_LINK_PER_IP_PER_HOUR: "1000000",
    MAGIC_LINK_PER_EMAIL_AND_IP_PER_HOUR: "1000000",
    MAGIC_LINK_PER_EMAIL_PER_HOUR: "1000000",
  }));
  let mine: FuzzFixtures;
  let theirs: FuzzFixtures;
  beforeAll(async () => {
    mine = await fixturesOf(stack, true);
    theirs = await fixturesOf(stack, true);
  });

  it("sends each endpoint the refused requests of the fuzz catalogue, another user's objects, an oversized and a compressed body", async () => {
    for (const target of targets) {
      const samples = target.refused ? fc.sample(target.refused, { numRuns: REFUSED_SAMPLES, seed: SEED }) : [];
      for (const recipe of [...target.operatorExamples, ...samples]) await probe(stack, target, `refused (${recipe.caller})`, recipe, mine);
      for (const caller of ["anonymous", "badCredential"] as const) {
        await probe(stack, target, caller, { ...base(target.op, caller), credentials: { authorization: "Bearer not-a-token", apiKey: "sd_live_not-a-key" } }, mine);
      }
      // Past Node's 16 KB limit on request headers.
      await probe(stack, target, "huge header", { ...base(target.op), headers: { "x-padding": new Huge("x", HUGE_HEADER_BYTES) } }, mine);
      if (target.op.body?.contentType !== "multipart/form-data" && target.op.method !== "get") {
        await probe(stack, target, "body not JSON", { ...base(target.op), body: { kind: "raw", contentType: "application/json", text: "{not json" } }, mine);
      }
      if (Object.keys(target.idKinds).length > 0) {
        for (const bad of ["%ZZ"]) await probe(stack, target, `path parameter ${JSON.stringify(bad)}`, { ...base(target.op), badParams: Object.fromEntries(Object.keys(target.idKinds).map((name) => [name, bad])) }, mine);
        // My credentials, another user's objects.
        await probe(stack, target, "another user's object", base(target.op), { ...theirs, user: mine.user, admin: mine.admin, apiKey: { ...theirs.apiKey, value: mine.apiKey.value } });
        await probe(stack, target, "nobody's object", { ...base(target.op), badParams: Object.fromEntries(Object.keys(target.idKinds).map((name) => [name, randomUUID()])) }, mine);
      }
      if (target.op.method !== "get") {
        await probe(stack, target, "oversized body", { ...base(target.op), body: oversizedBody(target.op) }, mine);
        await probe(stack, target, "compressed body", { ...base(target.op), body: compressedBody(target.op) }, mine);
      }
    }
  }, SLOW_PROBES_MS);

  it("sends each POST while the one decision allowed in flight is held (503 busy)", async () => {
    emulator.addRules({ match: { question_contains: HELD }, latency_ms: 4000, respond: { kind: "answer", category: "Yes" } });
    const held = callApi(stack.url, "/api/ensembled-llm-categorical-decision-public", null, { body: { question: `Is this ${HELD}?`, categories: ["Yes", "No"] } });
    await emulator.waitForCall((call) => call.prompt_text.includes(HELD));
    let done = false;
    void held.then(() => (done = true));
    const busy: string[] = [];
    for (const target of targets.filter((t) => t.op.method === "post" && !destroys(t.op))) {
      const answer = await probe(stack, target, "busy", base(target.op), mine);
      if (answer.status === 503 && answer.headers["retry-after"] !== undefined) busy.push(target.title);
    }
    // The probe must have met the limit, or it proves nothing.
    expect(busy).toContain("POST /v1/ensemble");
    // Were the held decision done, the probes above would not have met a full gateway.
    expect(done).toBe(false);
    expect((await held).status).toBe(200);
  });

  it("sends each endpoint its success", async () => {
    for (const target of inSafeOrder(targets)) await probe(stack, target, "success", base(target.op), mine);
  });
});

describe("stack B: tiny rate limits", () => {
  const limit = String(TINY_LIMIT);
  const stack = useStackWithMail(emulator, () => ({
    ADMIN_EMAILS: ADMIN_EMAIL,
    RATE_LIMIT_PER_MINUTE: limit,
    RATE_LIMIT_MB_PER_MINUTE: "1",
    FORMS_RATE_LIMIT_PER_HOUR: limit,
    MAGIC_LINK_PER_IP_PER_HOUR: limit,
    MAGIC_LINK_PER_EMAIL_AND_IP_PER_HOUR: limit,
    MAGIC_LINK_PER_EMAIL_PER_HOUR: limit,
    API_KEY_RATE_LIMIT_PER_MINUTE: limit,
    API_MONTHLY_QUOTA: String(TINY_LIMIT * 2),
  }));
  let mine: FuzzFixtures;
  beforeAll(async () => {
    mine = await fixturesOf(stack, false);
  });

  it("sends each endpoint its success until the limits refuse it", async () => {
    const limited = new Set<string>();
    for (const target of inSafeOrder(targets)) {
      for (let i = 0; i < SENDS_PAST_LIMIT; i++) {
        const answer = await probe(stack, target, "past the rate limit", base(target.op), mine);
        if (answer.status === 429) limited.add(target.title);
      }
    }
    // Each kind of limit was met: per IP on the public decisions, per key on /v1, per user, forms and magic links.
    expect([...limited]).toEqual(expect.arrayContaining(["POST /v1/ensemble", "POST /api/ensembled-llm-categorical-decision-public", "POST /api/api-keys", "POST /api/email-request", "POST /api/auth/magic-link/request"]));
  });
});

afterAll(() => {
  closeConnections();
});

describe("the document", () => {
  it("has a request generator for every endpoint", () => {
    expect(missing).toEqual([]);
    expect(targets.map((t) => t.op)).toEqual([...ENDPOINT_LIST]);
  });

  it("lists every status the server answered, with Retry-After where it was sent", () => {
    const problems: string[] = [];
    for (const op of ENDPOINT_LIST) {
      const seen = observed.get(op) ?? [];
      const title = `${op.method.toUpperCase()} ${op.path}`;
      if (seen.length === 0) problems.push(`${title}: never answered`);
      const byStatus = new Map<number, Observation>();
      for (const o of seen) if (!byStatus.has(o.status) || o.retryAfter) byStatus.set(o.status, o);
      for (const [status, o] of byStatus) {
        const documented = op.responses[status];
        if (!documented) problems.push(`${title}: answered ${status} (${o.what}: ${o.text || "no body"}), not documented`);
        else if (o.retryAfter && !documented.headers?.shape["Retry-After"]) problems.push(`${title}: answered ${status} with Retry-After (${o.what}), header not documented`);
      }
    }
    expect(problems).toEqual([]);
  });
});
