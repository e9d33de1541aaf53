import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  API_KEY_HEADER,
  ApiKeySchema,
  V1DecisionStatusSchema,
  WEBHOOK_MESSAGES,
  WebhookEndpointWithSecretSchema,
  type AuthResponse,
  type V1DecisionStatus,
  type WebhookEndpointWithSecret,
} from "@sd/contracts";
import { useEmulator } from "@sd/provider-emulator/testing";
import { WebhookDispatch, createRedis, type Redis } from "@sd/queue";
import { openRedisMonitor } from "@sd/queue/testing";
import type { WebhookDeliveryRecord } from "@sd/store";
import { callApi } from "@sd/testing/history";
import { useStackWithMail } from "@sd/testing/stack-with-mail";
import { WebhookReceiver, type ReceiverReply } from "@sd/testing/webhook-receiver";
import { createWebhook } from "@sd/testing/webhooks";
import { RESPONSE_EXCERPT_BYTES, WEBHOOK_USER_AGENT } from "@sd/webhooks";

// Real stack, real Redis, a real HTTP receiver on loopback. The retry schedule is scaled down
// (5 s → 5 ms, 5 min → 300 ms) so retries are seen at once; a receiver's Retry-After is honoured as sent.
const RESPONSE_TIMEOUT_MS = 3000;
const emulator = useEmulator();
const stack = useStackWithMail(emulator, {
  MAGIC_LINK_PER_IP_PER_HOUR: "1000",
  API_KEY_RATE_LIMIT_PER_MINUTE: "1000",
  WEBHOOK_RETRY_DELAY_SCALE: "0.001",
  WEBHOOK_CONNECT_TIMEOUT_MS: "2000",
  WEBHOOK_RESPONSE_TIMEOUT_MS: String(RESPONSE_TIMEOUT_MS),
});

let receiver: WebhookReceiver;
let user: AuthResponse;
let apiKey: string;
let redis: Redis;
let dispatch: WebhookDispatch;

beforeAll(async () => {
  receiver = await WebhookReceiver.start();
  user = await stack.signIn();
  const key = await callApi(stack.url, "/api/api-keys", user.tokens.access_token, { body: { name: "webhooks" } });
  expect(key.status, key.text).toBe(201);
  apiKey = ApiKeySchema.parse(key.body).keyvalue!;
  redis = createRedis(stack.vars.REDIS_URL!, "webhook-test");
  dispatch = new WebhookDispatch(redis, stack.vars.QUEUE_PREFIX!);
});
afterAll(async () => {
  await dispatch?.close();
  redis?.disconnect();
  await receiver?.close();
});

let paths = 0;
/** A fresh receiver path with its script, and an endpoint of `owner` pointing at it. */
async function endpointAnswering(replies: ReceiverReply[], owner: AuthResponse = user, events: ("decision.completed" | "batch.completed")[] = ["batch.completed"]) {
  const path = `/hook-${++paths}`;
  const endpoint = await createWebhook(stack.url, owner.tokens.access_token, { url: receiver.script(path, replies), events });
  return { path, endpoint };
}

async function sendTest(endpoint: WebhookEndpointWithSecret): Promise<string> {
  const answer = await callApi(stack.url, `/api/webhooks/${endpoint.id}/test`, user.tokens.access_token, { method: "POST" });
  expect(answer.status, answer.text).toBe(202);
  return String(answer.body.event_id);
}

async function decide(key: string, prompt: string): Promise<string> {
  const response = await fetch(`${stack.url}/v1/ensemble`, {
    method: "POST",
    headers: { [API_KEY_HEADER]: key, "content-type": "application/json" },
    body: JSON.stringify({ prompt, valid_responses: ["Yes", "No"] }),
  });
  const body = (await response.json()) as { decision_id: string };
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body.decision_id;
}

async function deliveries(endpointId: string, count: number): Promise<WebhookDeliveryRecord[]> {
  let rows: WebhookDeliveryRecord[] = [];
  await vi.waitFor(
    async () => {
      rows = await stack.store.webhookDeliveries.listForEndpoint(endpointId, { limit: 50 });
      expect(rows.length).toBeGreaterThanOrEqual(count);
    },
    { timeout: 15_000, interval: 50 },
  );
  return [...rows].sort((a, b) => a.attempt - b.attempt || a.created_at.getTime() - b.created_at.getTime());
}

const headersOf = WebhookReceiver.signatureHeaders;

describe("webhook delivery", () => {
  it("delivers a decision made with an API key, signed so the receiver's Standard Webhooks library verifies it", async () => {
    const { path, endpoint } = await endpointAnswering([{ status: 200, body: '{"received":true}' }], user, ["decision.completed"]);
    const decisionId = await decide(apiKey, "Deliver this decision to my webhook?");

    const [request] = await receiver.received(path, 1);
    expect(request!.headers["content-type"]).toBe("application/json");
    expect(request!.headers["user-agent"]).toBe(WEBHOOK_USER_AGENT);
    expect(request!.headers["webhook-id"]).toBe(`evt_decision_${decisionId}`);
    const verified = new Webhook(endpoint.secret).verify(request!.body, headersOf(request!)) as { type: string; timestamp: string; data: V1DecisionStatus };
    expect(verified.type).toBe("decision.completed");
    expect(Number.isNaN(Date.parse(verified.timestamp))).toBe(false);
    // The data is exactly what GET /v1/decisions/{id} answers.
    const status = await fetch(`${stack.url}/v1/decisions/${decisionId}`, { headers: { [API_KEY_HEADER]: apiKey } });
    expect(V1DecisionStatusSchema.parse(verified.data)).toEqual(await status.json());

    // Tampered with, or verified with another secret, the same request is rejected by the library.
    const tampered = request!.body.replace(decisionId, `${decisionId}x`);
    expect(() => new Webhook(endpoint.secret).verify(tampered, headersOf(request!))).toThrow(WebhookVerificationError);
    const other = await createWebhook(stack.url, user.tokens.access_token, { url: "https://example.com/other", events: ["batch.completed"] });
    expect(() => new Webhook(other.secret).verify(request!.body, headersOf(request!))).toThrow(WebhookVerificationError);

    const [row] = await deliveries(endpoint.id, 1);
    expect(row).toMatchObject({ attempt: 1, status_code: 200, ok: true, error: null, next_attempt_at: null, response_excerpt: '{"received":true}' });
    expect(row!.event_id).toBe(`evt_decision_${decisionId}`);
    expect(row!.payload).toBe(request!.body);
    expect(row!.latency_ms).toBeGreaterThanOrEqual(0);
    expect(receiver.at(path)).toHaveLength(1);
  });

  it("sends signed-in (web) decisions only to endpoints that include them, and nothing for endpoints not subscribed", async () => {
    const owner = await stack.signIn();
    const plain = await endpointAnswering([{ status: 200 }], owner, ["decision.completed"]);
    const included = await endpointAnswering([{ status: 200 }], owner, ["decision.completed"]);
    const batchesOnly = await endpointAnswering([{ status: 200 }], owner, ["batch.completed"]);
    const patched = await callApi(stack.url, `/api/webhooks/${included.endpoint.id}`, owner.tokens.access_token, { method: "PATCH", body: { include_signed_in_decisions: true } });
    expect(patched.status, patched.text).toBe(200);
    const web = await callApi(stack.url, "/api/ensembled-llm-categorical-decision", owner.tokens.access_token, {
      body: { question: "A signed-in decision for my webhooks?", categories: ["Yes", "No"] },
    });
    expect(web.status, web.text).toBe(200);

    const [request] = await receiver.received(included.path, 1);
    expect(JSON.parse(request!.body)).toMatchObject({ type: "decision.completed" });
    // A key-made decision afterwards reaches the plain endpoint: had the web one been sent there, it would have come first.
    const key = ApiKeySchema.parse((await callApi(stack.url, "/api/api-keys", owner.tokens.access_token, { body: { name: "k" } })).body).keyvalue!;
    const keyDecision = await decide(key, "A key-made decision for my webhooks?");
    const [first] = await receiver.received(plain.path, 1);
    expect(first!.headers["webhook-id"]).toBe(`evt_decision_${keyDecision}`);
    expect(receiver.at(batchesOnly.path)).toHaveLength(0);
  });

  it("costs a user without webhook endpoints no Redis command at all when a decision is emitted", async () => {
    const emitter = createRedis(stack.vars.REDIS_URL!, "webhook-emitter-test");
    const emitting = new WebhookDispatch(emitter, stack.vars.QUEUE_PREFIX!, stack.store.webhookEndpoints);
    await emitter.ping();
    const source = `127.0.0.1:${emitter.stream.localPort}`;
    const commands: string[] = [];
    const monitor = await openRedisMonitor(stack.vars.REDIS_URL!, (name, _first, from) => from === source && commands.push(name));
    try {
      const event = (owner: AuthResponse) => ({ id: `evt_decision_${owner.user.id}`, type: "decision.completed" as const, user_id: owner.user.id, api_key_id: "k", signed_in: false, data: {} });
      const without = await stack.signIn();
      await emitting.emit(event(without));
      await emitter.ping();
      await vi.waitFor(() => expect(commands).toContain("ping"), { timeout: 5_000, interval: 10 });
      expect(commands.filter((name) => name !== "ping" && name !== "info" && name !== "client")).toEqual([]);
      // The same call for a user with an endpoint does reach Redis: the count above could see it.
      await endpointAnswering([{ status: 200 }], user, ["decision.completed"]);
      await emitting.emit(event(user));
      await vi.waitFor(() => expect(commands.some((name) => name === "evalsha" || name === "eval")).toBe(true), { timeout: 5_000, interval: 10 });
    } finally {
      monitor.destroy();
      await emitting.close();
      emitter.disconnect();
    }
  });

  it("retries a receiver answering 500, then logs the 200 as the second attempt", async () => {
    const { path, endpoint } = await endpointAnswering([{ status: 500, body: "boom" }, { status: 200 }]);
    const eventId = await sendTest(endpoint);

    const [first, second] = await receiver.received(path, 2);
    expect(first!.headers["webhook-id"]).toBe(eventId);
    expect(second!.headers["webhook-id"]).toBe(eventId);
    expect(second!.body).toBe(first!.body);
    const rows = await deliveries(endpoint.id, 2);
    expect(rows.map((r) => [r.attempt, r.status_code, r.ok])).toEqual([
      [1, 500, false],
      [2, 200, true],
    ]);
    expect(rows[0]!.response_excerpt).toBe("boom");
    expect(rows[0]!.next_attempt_at).not.toBeNull();
    expect(rows[1]!.next_attempt_at).toBeNull();
    // One success ends the failing streak.
    await vi.waitFor(async () => expect((await stack.store.webhookEndpoints.findById(endpoint.id))!.failing_since).toBeNull(), { timeout: 5_000, interval: 20 });
  });

  it("honours a 429's Retry-After for the next attempt", async () => {
    const { path, endpoint } = await endpointAnswering([{ status: 429, headers: { "retry-after": "1" } }, { status: 204 }]);
    const eventId = await sendTest(endpoint);

    const [row] = await deliveries(endpoint.id, 1);
    expect(row).toMatchObject({ attempt: 1, status_code: 429, ok: false });
    expect(row!.next_attempt_at!.getTime() - row!.created_at.getTime()).toBe(1000);
    const retry = await dispatch.inspect(`${endpoint.id}.${eventId}.a2`);
    expect(retry?.delay).toBe(1000);
    expect(retry?.data.attempt).toBe(2);

    const [first, second] = await receiver.received(path, 2);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(900);
    expect((await deliveries(endpoint.id, 2))[1]).toMatchObject({ attempt: 2, status_code: 204, ok: true });
  });

  it("does not retry a 400, and keeps at most 4 KB of the answer", async () => {
    const { path, endpoint } = await endpointAnswering([{ status: 400, body: "x".repeat(10_000) }, { status: 200 }]);
    const eventId = await sendTest(endpoint);

    const [row] = await deliveries(endpoint.id, 1);
    expect(row).toMatchObject({ attempt: 1, status_code: 400, ok: false, next_attempt_at: null });
    expect(Buffer.byteLength(row!.response_excerpt!)).toBe(RESPONSE_EXCERPT_BYTES);
    expect(await dispatch.inspect(`${endpoint.id}.${eventId}.a2`)).toBeNull();
    // A later event still goes (the endpoint is not switched off by a 4xx), and the 400's event never came again.
    const later = await sendTest(endpoint);
    const requests = await receiver.received(path, 2);
    expect(requests.map((r) => r.headers["webhook-id"])).toEqual([eventId, later]);
  });

  it("signs with both secrets during a rotation overlap, and each one verifies", async () => {
    const { path, endpoint } = await endpointAnswering([{ status: 200 }]);
    const rotated = await callApi(stack.url, `/api/webhooks/${endpoint.id}/rotate-secret`, user.tokens.access_token, { method: "POST" });
    expect(rotated.status, rotated.text).toBe(200);
    const newSecret = WebhookEndpointWithSecretSchema.parse(rotated.body).secret;
    expect(newSecret).not.toBe(endpoint.secret);
    await sendTest(endpoint);

    const [request] = await receiver.received(path, 1);
    expect(String(request!.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    for (const secret of [newSecret, endpoint.secret]) {
      expect(() => new Webhook(secret).verify(request!.body, headersOf(request!))).not.toThrow();
    }
  });

  it("disables an endpoint whose delivery fails after it has been failing for 24 hours", async () => {
    const { path, endpoint } = await endpointAnswering([{ status: 503 }]);
    // The failing streak began 25 hours ago (as the worker's first failed attempt would have recorded it).
    await stack.store.webhookEndpoints.recordOutcome(endpoint.id, { ok: false, at: new Date(Date.now() - 25 * 3600_000) });
    const eventId = await sendTest(endpoint);

    await receiver.received(path, 1);
    await vi.waitFor(async () => expect((await stack.store.webhookEndpoints.findById(endpoint.id))!.active).toBe(false), { timeout: 10_000, interval: 50 });
    const answer = await callApi(stack.url, `/api/webhooks/${endpoint.id}`, user.tokens.access_token);
    expect(answer.body).toMatchObject({ active: false, disabled_reason: WEBHOOK_MESSAGES.disabledAfterFailures("the endpoint answered HTTP 503") });
    // Switched off, the event is not retried.
    expect(await dispatch.inspect(`${endpoint.id}.${eventId}.a2`)).toBeNull();
    expect(receiver.at(path)).toHaveLength(1);
  });

  it("gives up on a receiver that never answers at the response timeout, while decisions keep completing", async () => {
    const owner = await stack.signIn();
    const { path, endpoint } = await endpointAnswering(["hang"], owner, ["decision.completed"]);
    const key = ApiKeySchema.parse((await callApi(stack.url, "/api/api-keys", owner.tokens.access_token, { body: { name: "slow" } })).body).keyvalue!;
    await decide(key, "Will my slow receiver hold things up?");
    await receiver.received(path, 1);
    expect(receiver.open).toBeGreaterThanOrEqual(1);

    // The receiver hangs; decisions (each also emitting to it) still complete while the first delivery is held open.
    const started = Date.now();
    await Promise.all([1, 2, 3].map((n) => decide(key, `Decision ${n} while the receiver hangs?`)));
    expect(Date.now() - started).toBeLessThan(RESPONSE_TIMEOUT_MS);
    expect(receiver.open).toBeGreaterThanOrEqual(1);

    const [row] = await deliveries(endpoint.id, 1);
    expect(row).toMatchObject({ attempt: 1, status_code: null, ok: false, error: `no response within ${RESPONSE_TIMEOUT_MS} ms` });
    expect(row!.latency_ms).toBeGreaterThanOrEqual(RESPONSE_TIMEOUT_MS - 100);
    expect(row!.next_attempt_at).not.toBeNull();
  });
});
