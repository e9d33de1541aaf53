import { vi } from "vitest";
import { ApiKeySchema, BatchSchema, TERMINAL_BATCH_STATUSES, V1_HEADERS, voteQueueName, type AuthResponse } from "@sd/contracts";
import { BATCH_CUSTOM_ID, type OwnedObjects } from "./access-table";
import { send, type Credential } from "./http";
import { encodeJwt, hs256, payloadOf } from "./jwt";

/** The part of `useStackWithMail` the security suite needs. */
export interface SignInStack {
  readonly url: string;
  signIn(email?: string): Promise<AuthResponse>;
}

/** Someone calling the API: a signed-in user with an API key and a queue-view cookie, or no one. */
export interface Caller {
  role: "owner" | "other" | "admin" | "anonymous";
  session: AuthResponse | null;
  apiKey: { id: string; keyvalue: string } | null;
  /** `name=value` of a queue-view session: the admin's real one, and one signed correctly for each non-admin. */
  queueCookie: string | null;
}

export interface Callers {
  owner: Caller;
  other: Caller;
  admin: Caller;
  anonymous: Caller;
  /** The admin's queue-view session token (the cookie's value). */
  adminQueueSession: string;
}

const bearerOf = (session: AuthResponse): Credential => ({ bearer: session.tokens.access_token });

async function createKey(stack: SignInStack, session: AuthResponse, name: string): Promise<{ id: string; keyvalue: string }> {
  const created = await send(stack.url, { method: "post", path: "/api/api-keys", body: { name } }, bearerOf(session));
  if (created.status !== 201) throw new Error(`creating an API key answered ${created.status}: ${created.text}`);
  const { id, keyvalue } = ApiKeySchema.required({ keyvalue: true }).parse(created.body);
  return { id, keyvalue };
}

/**
 * The owner, another user and an admin (`adminEmail` must be in ADMIN_EMAILS), each signed in by
 * magic link with an API key, plus no one. The admin gets a real queue-view session; the others a
 * session cookie that is correctly signed with `jwtSecret` (as if they had been admins once), so the
 * queue view's own role check is what refuses them.
 */
export async function signInCallers(stack: SignInStack, adminEmail: string, jwtSecret: string): Promise<Callers> {
  const [owner, other, admin] = await Promise.all([stack.signIn(), stack.signIn(), stack.signIn(adminEmail)]);
  const [ownerKey, otherKey, adminKey] = await Promise.all([createKey(stack, owner, "owner"), createKey(stack, other, "other"), createKey(stack, admin, "admin")]);
  const minted = await send(stack.url, { method: "post", path: "/api/admin/queues-session" }, bearerOf(admin));
  const adminCookie = minted.headers.get("set-cookie")?.split(";")[0];
  if (minted.status !== 200 || !adminCookie) throw new Error(`the admin's queue-view session answered ${minted.status}: ${minted.text}`);
  const [cookieName, adminQueueSession] = adminCookie.split("=") as [string, string];
  const cookieFor = (session: AuthResponse) => {
    const { sub, email, sid } = payloadOf(session.tokens.access_token);
    return `${cookieName}=${encodeJwt({ alg: "HS256", typ: "JWT" }, { ...payloadOf(adminQueueSession), sub, email, sid }, hs256(jwtSecret))}`;
  };
  return {
    owner: { role: "owner", session: owner, apiKey: ownerKey, queueCookie: cookieFor(owner) },
    other: { role: "other", session: other, apiKey: otherKey, queueCookie: cookieFor(other) },
    admin: { role: "admin", session: admin, apiKey: adminKey, queueCookie: adminCookie },
    anonymous: { role: "anonymous", session: null, apiKey: null, queueCookie: null },
    adminQueueSession,
  };
}

const png = (fill: number) => `data:image/png;base64,${Buffer.alloc(300, fill).toString("base64")}`;

/**
 * The owner's objects, made through the API as a user makes them: a signed-in decision with two
 * images (so image assets exist), the caller's API key, and a /v1 decision made with it under an
 * Idempotency-Key (answered in full, so nothing of the owner's is still running afterwards).
 */
export async function createOwnedObjects(stack: SignInStack, caller: Caller): Promise<OwnedObjects> {
  const { session: owner, apiKey } = caller;
  if (!owner || !apiKey) throw new Error("the owner is a signed-in caller with an API key");
  const decided = await send(
    stack.url,
    { method: "post", path: "/api/ensembled-llm-categorical-decision", body: { question: "Security suite: which plan?", categories: ["A", "B"], images: [png(1), png(2)] } },
    bearerOf(owner),
  );
  if (decided.status !== 200) throw new Error(`the owner's decision answered ${decided.status}: ${decided.text}`);
  const decisionId = decided.body.decision_id as string;
  const assets = await send(stack.url, { method: "get", path: `/api/image-assets/decision/${decisionId}` }, bearerOf(owner));
  const assetIds = (assets.body.imageAssets as { id: string }[]).map((asset) => asset.id);
  if (assetIds.length !== 2) throw new Error(`the owner's decision has ${assetIds.length} image assets, not 2: ${assets.text}`);
  const idempotencyKey = `security-${decisionId}`;
  const v1Body = { prompt: "Security suite: which region?", valid_responses: ["EU", "US"] };
  const v1 = await send(stack.url, { method: "post", path: "/v1/ensemble", body: v1Body, headers: { [V1_HEADERS.idempotencyKey]: idempotencyKey } }, { apiKey: apiKey.keyvalue });
  if (v1.status !== 200) throw new Error(`the owner's /v1 decision answered ${v1.status}: ${v1.text}`);
  const shared = await send(stack.url, { method: "post", path: `/api/decisions/${decisionId}/share`, body: {} }, bearerOf(owner));
  if (shared.status !== 201) throw new Error(`the owner's share link answered ${shared.status}: ${shared.text}`);
  const shareToken = shared.body.token as string;
  const preset = await send(stack.url, { method: "post", path: "/api/presets", body: { name: "Security suite preset", settings: { ensemble_mode: "judge" } } }, bearerOf(owner));
  if (preset.status !== 201) throw new Error(`the owner's preset answered ${preset.status}: ${preset.text}`);
  const presetId = preset.body.id as string;
  const batchId = await finishedBatch(stack, apiKey.keyvalue);
  const webhook = await deliveredWebhook(stack, owner);
  return {
    owner,
    decisionId,
    assetIds,
    apiKey,
    v1DecisionId: v1.body.decision_id as string,
    idempotencyKey,
    v1Body,
    queueName: voteQueueName("openai"),
    shareToken,
    presetId,
    batchId,
    webhookId: webhook.id,
    webhookDeliveryId: webhook.deliveryId,
  };
}

/** Longest the owner's test event may take to be delivered and logged. */
const WEBHOOK_DELIVERY_MS = 30_000;

/**
 * A webhook endpoint of the owner with one delivery in its log: a test event sent to the stack's own
 * unknown path (a loopback URL, allowed in tests), answered 404, which is logged and not retried.
 */
async function deliveredWebhook(stack: SignInStack, owner: AuthResponse): Promise<{ id: string; deliveryId: string }> {
  const created = await send(stack.url, { method: "post", path: "/api/webhooks", body: { url: `${stack.url}/security-suite-webhook-sink`, events: ["decision.completed"] } }, bearerOf(owner));
  if (created.status !== 201) throw new Error(`the owner's webhook answered ${created.status}: ${created.text}`);
  const id = created.body.id as string;
  const test = await send(stack.url, { method: "post", path: `/api/webhooks/${id}/test` }, bearerOf(owner));
  if (test.status !== 202) throw new Error(`the owner's test event answered ${test.status}: ${test.text}`);
  const deliveryId = await vi.waitFor(
    async () => {
      const log = await send(stack.url, { method: "get", path: `/api/webhooks/${id}/deliveries` }, bearerOf(owner));
      const first = (log.body.deliveries as { id: string }[] | undefined)?.[0];
      if (!first) throw new Error(`the owner's test event is not in the delivery log yet: ${log.text}`);
      return first.id;
    },
    { timeout: WEBHOOK_DELIVERY_MS, interval: 100 },
  );
  return { id, deliveryId };
}

/** Longest the owner's batch may take to finish once cancelled (its one line, if already running, completes). */
const BATCH_FINISH_MS = 30_000;

/**
 * A one-line batch of the owner's, cancelled and waited for until it is finished, so nothing the
 * runner does changes it while the table runs (other callers' calls must leave it as it is).
 */
async function finishedBatch(stack: SignInStack, key: string): Promise<string> {
  const created = await send(
    stack.url,
    { method: "post", path: "/v1/batches", rawBody: `${JSON.stringify({ custom_id: BATCH_CUSTOM_ID, prompt: "Security suite: which batch?", valid_responses: ["A", "B"] })}\n`, headers: { "content-type": "application/jsonl" } },
    { apiKey: key },
  );
  if (created.status !== 202) throw new Error(`the owner's batch answered ${created.status}: ${created.text}`);
  const batchId = created.body.id as string;
  const cancelled = await send(stack.url, { method: "post", path: `/v1/batches/${batchId}/cancel` }, { apiKey: key });
  // 409: its line was decided already and the batch completed.
  if (cancelled.status !== 200 && cancelled.status !== 409) throw new Error(`cancelling the owner's batch answered ${cancelled.status}: ${cancelled.text}`);
  await vi.waitFor(
    async () => {
      const read = await send(stack.url, { method: "get", path: `/v1/batches/${batchId}` }, { apiKey: key });
      if (!TERMINAL_BATCH_STATUSES.includes(BatchSchema.parse(read.body).status)) throw new Error(`the owner's batch is not finished: ${read.text}`);
    },
    { timeout: BATCH_FINISH_MS, interval: 100 },
  );
  return batchId;
}
