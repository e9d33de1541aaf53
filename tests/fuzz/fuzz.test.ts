import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { API_KEY_HEADER, ApiKeySchema, DecisionResponseSchema, ImageAssetListResponseSchema } from "@sd/contracts";
import { useEmulator } from "@sd/provider-emulator/testing";
import { createRedis, type Redis } from "@sd/queue";
import { EXAMPLE_IMAGE } from "@sd/contracts/endpoints";
import { startTestOidcProvider, type TestOidcProvider } from "@sd/testing/accounts";
import { POLLUTION_MARKER } from "@sd/testing/fuzz/bad-values";
import { fuzzCatalogue, type FuzzTarget } from "@sd/testing/fuzz/catalogue";
import { closeConnections, problemsWith, send, type WireAnswer } from "@sd/testing/fuzz/http";
import { ERROR_LEVEL, INFO_LEVEL, startLoggedGateway, type GatewayLogLine } from "@sd/testing/fuzz/logged-gateway";
import type { FuzzFixtures, RequestRecipe } from "@sd/testing/fuzz/recipe";
import { refusalOf } from "@sd/testing/fuzz/refusal";
import { takeSnapshot, writesBetween } from "@sd/testing/fuzz/writes";
import { toWire, type WireRequest } from "@sd/testing/fuzz/wire";
import { callApi, storedDecision } from "@sd/testing/history";
import { savePreset } from "@sd/testing/presets";
import { createWebhook } from "@sd/testing/webhooks";
import { useStackWithMail } from "@sd/testing/stack-with-mail";

/**
 * Fuzzes every documented endpoint with requests the contract refuses, under every kind of caller:
 * each must get a 4xx with a JSON `detail`, write nothing, and leave the deployment deciding. Replay
 * a failure with `FUZZ_SEED=<seed> FUZZ_PATH=<path> npx vitest run tests/fuzz/fuzz.test.ts -t "<endpoint>"`.
 */

/** Runs per endpoint: enough for 1,000+ requests in all, in well under a minute. */
const RUNS_WITH_INPUT = 40;
const RUNS_WITHOUT_INPUT = 20;
const JUNK_RUNS = 10;
const MINIMUM_REQUESTS = 1_000;
/** A failure's seed and path, to replay it (fast-check's own random seed otherwise, so every run differs). */
const REPLAY = process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED), path: process.env.FUZZ_PATH } : {};

const ADMIN_EMAIL = "fuzz-admin@example.com";
const PUBLIC_URL = "http://127.0.0.1:3999";
const GOOGLE = { clientId: "smart-decision", clientSecret: "test-client-secret" };
const UNLIMITED = "1000000";

const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();
const { targets, missing } = fuzzCatalogue();

const emulator = useEmulator();
let oidc: TestOidcProvider;
beforeAll(async () => {
  // Google sign-in configured against a real OpenID provider, so its endpoints reach their validation.
  oidc = await startTestOidcProvider({
    ...GOOGLE,
    redirectUri: `${PUBLIC_URL}/auth/callback`,
    account: { sub: "fuzz", email: "fuzz@example.com", email_verified: true, name: "Fuzz", picture: "" },
  });
});
afterAll(async () => {
  await oidc?.close();
});

const stack = useStackWithMail(emulator, () => ({
  PUBLIC_URL,
  ADMIN_EMAILS: ADMIN_EMAIL,
  GOOGLE_ISSUER: oidc.issuer,
  GOOGLE_CLIENT_ID: GOOGLE.clientId,
  GOOGLE_CLIENT_SECRET: GOOGLE.clientSecret,
  // Every limit out of the way: the suite sends well over a thousand requests from one address.
  RATE_LIMIT_PER_MINUTE: UNLIMITED,
  RATE_LIMIT_MB_PER_MINUTE: UNLIMITED,
  FORMS_RATE_LIMIT_PER_HOUR: UNLIMITED,
  MAGIC_LINK_PER_IP_PER_HOUR: UNLIMITED,
  MAGIC_LINK_PER_EMAIL_AND_IP_PER_HOUR: UNLIMITED,
  MAGIC_LINK_PER_EMAIL_PER_HOUR: UNLIMITED,
  API_KEY_RATE_LIMIT_PER_MINUTE: UNLIMITED,
  API_MONTHLY_QUOTA: UNLIMITED,
}));

let gateway: { url: string; logs: GatewayLogLine[]; close(): Promise<void> };
let redis: Redis;
let fixtures: FuzzFixtures;
let sent = 0;

beforeAll(async () => {
  const user = await stack.signIn();
  const admin = await stack.signIn(ADMIN_EMAIL);
  const token = user.tokens.access_token;
  const decision = storedDecision({ user_id: user.user.id, user_email: user.user.email });
  await stack.store.decisions.insertOnce(decision);
  const asset = await callApi(stack.url, "/api/image-assets", token, { body: { decisionHistory_id: decision.id, label: "image1", image_data: EXAMPLE_IMAGE } });
  expect(asset.status, asset.text).toBe(201);
  const key = await callApi(stack.url, "/api/api-keys", token, { body: { name: "fuzz" } });
  expect(key.status, key.text).toBe(201);
  const apiKey = ApiKeySchema.required({ keyvalue: true }).parse(key.body);
  fixtures = {
    user: { id: user.user.id, accessToken: token },
    admin: { accessToken: admin.tokens.access_token },
    apiKey: { id: apiKey.id, value: apiKey.keyvalue },
    decisionId: decision.id,
    imageAssetId: ImageAssetListResponseSchema.parse(asset.body).imageAssets[0]!.id,
    presetId: (await savePreset(stack.url, token, "fuzz")).id,
    webhookId: (await createWebhook(stack.url, token)).id,
  };
  gateway = await startLoggedGateway(stack);
  redis = createRedis(stack.vars.REDIS_URL!, "fuzz-test");
  // The key's first call creates its monthly counter: refused calls afterwards only count on it.
  const firstUse = await fetch(`${gateway.url}/v1/decision-history`, { headers: { [API_KEY_HEADER]: apiKey.keyvalue } });
  expect(firstUse.status).toBe(200);
});
afterAll(async () => {
  closeConnections();
  await gateway?.close();
  redis?.disconnect();
});

const snapshot = () => takeSnapshot(stack.store, redis, stack.vars.QUEUE_PREFIX!, fixtures.user.id);

const clip = (text: string, max = 300) => (text.length > max ? `${text.slice(0, max)}... (${text.length} characters)` : text);

function whatHappened(wire: WireRequest, answer: WireAnswer, refusal: string | null): string {
  return [
    `${wire.method} ${clip(wire.path)} (${wire.contentType ?? "no body"}, ${wire.body?.length ?? 0} bytes)`,
    refusal ? `refused because: ${refusal}` : "junk the endpoint must ignore",
    `answered ${answer.status}: ${clip(answer.text)}`,
  ].join("\n");
}

/** Sends one generated request and checks its answer; returns false when the contract would accept it (not sent). */
async function exercise(target: FuzzTarget, recipe: RequestRecipe, expectRefusal: boolean): Promise<boolean> {
  const wire = toWire(target.op, target.idKinds, recipe, fixtures);
  const refusal = refusalOf(target.op, recipe, wire);
  if (expectRefusal && refusal === null) return false;
  const answer = await send(gateway.url, wire);
  sent++;
  expect(problemsWith(answer, expectRefusal && target.op.method !== "get"), whatHappened(wire, answer, refusal)).toEqual([]);
  return true;
}

it("has a request generator for every documented operation", () => {
  expect(missing).toEqual([]);
  expect(targets.length).toBeGreaterThan(0);
});

for (const target of targets) {
  const declaresInput = Boolean(target.op.params || target.op.query || target.op.headers || target.op.body);
  it(`${target.title}: no bad input gets a 5xx, a leak or HTML, and the refused ones write nothing`, async () => {
    if (target.refused) {
      const before = await snapshot();
      await fc.assert(
        fc.asyncProperty(target.refused, async (recipe) => {
          fc.pre(await exercise(target, recipe, true));
        }),
        { numRuns: declaresInput ? RUNS_WITH_INPUT : RUNS_WITHOUT_INPUT, examples: target.operatorExamples.map((recipe) => [recipe]), ...REPLAY },
      );
      expect(writesBetween(before, await snapshot())).toEqual([]);
    }
    if (target.junk) {
      await fc.assert(
        fc.asyncProperty(target.junk, async (recipe) => {
          await exercise(target, recipe, false);
        }),
        { numRuns: JUNK_RUNS, ...REPLAY },
      );
    }
    for (const reason of target.notSent) console.log(`fuzz: ${target.title} not called as ${reason}`);
  }, 120_000);
}

it("still makes a valid decision afterwards, with Object.prototype clean and no unhandled error logged", async () => {
  const categories = ["Ship it", "Wait a week"];
  // Through the fuzzed gateway and the stack's own: both on the workers and aggregator that saw it all.
  for (const url of [gateway.url, stack.url]) {
    const answer = await callApi(url, "/api/ensembled-llm-categorical-decision-public", null, { body: { question: "After all that, do we ship?", categories } });
    expect(answer.status, answer.text).toBe(200);
    expect(categories).toContain(DecisionResponseSchema.parse(answer.body).final_decision);
  }

  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBefore);
  expect(({} as Record<string, unknown>)[POLLUTION_MARKER]).toBeUndefined();
  // The log was read (a line per request), and it holds no unhandled error, nor any other error.
  expect(gateway.logs.filter((line) => line.level === INFO_LEVEL).length).toBeGreaterThan(sent / 2);
  expect(gateway.logs.filter((line) => line.msg === "unhandled error")).toEqual([]);
  expect(gateway.logs.filter((line) => line.level >= ERROR_LEVEL)).toEqual([]);

  console.log(`fuzz: ${sent} bad inputs over ${targets.length} endpoints`);
  expect(sent).toBeGreaterThanOrEqual(MINIMUM_REQUESTS);
});
