import { randomUUID } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { io, type Socket } from "socket.io-client";
import { API_KEY_HEADER, ApiKeySchema, BatchCreatedSchema, BatchSchema, SOCKET_EVENTS, type AuthResponse, type Batch, type BatchProgressEvent } from "@sd/contracts";
import { useEmulator } from "@sd/provider-emulator/testing";
import { callApi } from "@sd/testing/history";
import { useStackWithMail } from "@sd/testing/stack-with-mail";
import { WebhookReceiver } from "@sd/testing/webhook-receiver";
import { createWebhook } from "@sd/testing/webhooks";

/**
 * The batch runner (issue 32): a batch's lines become the key owner's decisions, at most
 * BATCH_CONCURRENCY at a time, at a lower priority than interactive decisions and apart from their
 * in-flight limit; each line decided once; progress to the owner's sockets; cancel honoured.
 */

const emulator = useEmulator();
// A tiny interactive in-flight limit: a batch counted against it would push these decisions into 503s.
const stack = useStackWithMail(emulator, {
  API_KEY_RATE_LIMIT_PER_MINUTE: "1000",
  MAX_IN_FLIGHT_DECISIONS: "2",
  BATCH_CONCURRENCY: "3",
  MAX_BATCH_IN_FLIGHT: "6",
});

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await WebhookReceiver.start();
});
afterAll(async () => {
  await receiver?.close();
});

const sockets: Socket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});

async function newKey(): Promise<{ user: AuthResponse; key: string; keyId: string }> {
  const user = await stack.signIn();
  const answer = await callApi(stack.url, "/api/api-keys", user.tokens.access_token, { body: { name: "batch runner" } });
  expect(answer.status, answer.text).toBe(201);
  const key = ApiKeySchema.parse(answer.body);
  return { user, key: key.keyvalue!, keyId: key.id };
}

const lines = (tag: string, count: number) =>
  Array.from({ length: count }, (_, i) => JSON.stringify({ custom_id: `c-${i + 1}`, prompt: `${tag} question ${i + 1}?`, valid_responses: ["Yes", "No"] })).join("\n") + "\n";

async function postBatch(key: string, body: string): Promise<Batch> {
  const response = await fetch(`${stack.url}/v1/batches`, { method: "POST", headers: { [API_KEY_HEADER]: key, "content-type": "application/jsonl" }, body });
  const text = await response.text();
  expect(response.status, text).toBe(202);
  return BatchCreatedSchema.parse(JSON.parse(text));
}

async function getBatch(key: string, id: string): Promise<Batch> {
  const response = await fetch(`${stack.url}/v1/batches/${id}`, { headers: { [API_KEY_HEADER]: key } });
  return BatchSchema.parse(await response.json());
}

/** Polls the batch until it is no longer in progress (vitest's waitFor: a deadline, no sleeps). */
const ended = (key: string, id: string, timeout = 30_000) =>
  vi.waitFor(
    async () => {
      const batch = await getBatch(key, id);
      if (batch.status === "in_progress" || batch.status === "validating") throw new Error(`still ${batch.status}: ${JSON.stringify(batch.request_counts)}`);
      return batch;
    },
    { timeout, interval: 100 },
  );

/** A socket following the owner's room, recording `batch:progress`. */
async function progressOf(user: AuthResponse): Promise<BatchProgressEvent[]> {
  const socket = io(stack.url, { transports: ["websocket"], forceNew: true });
  sockets.push(socket);
  const events: BatchProgressEvent[] = [];
  socket.on(SOCKET_EVENTS.batchProgress, (event: BatchProgressEvent) => events.push(event));
  const ack = (await socket.timeout(5000).emitWithAck(SOCKET_EVENTS.watchHistory, { access_token: user.tokens.access_token })) as { ok: boolean };
  expect(ack.ok).toBe(true);
  return events;
}

describe("the batch runner", () => {
  it("decides every line once, as the key owner's API decision, and tells the owner's sockets how far it got", async () => {
    const { user, key, keyId } = await newKey();
    const events = await progressOf(user);
    const tag = `runner-${randomUUID().slice(0, 8)}`;
    const created = await postBatch(key, lines(tag, 12));
    const batch = await ended(key, created.id);
    expect(batch).toMatchObject({ status: "completed", request_counts: { total: 12, completed: 12, failed: 0 } });

    const decisionIds = new Set<string>();
    for await (const line of stack.store.batchLines.stream(created.id)) {
      expect(line.status).toBe("completed");
      const decision = await stack.store.decisions.findById(line.decision_id);
      // History, cost and the key's usage count it: the owner's decision through that key.
      expect(decision).toMatchObject({ user_id: user.user.id, api_key_id: keyId, question: `${tag} question ${line.line}?` });
      decisionIds.add(line.decision_id);
    }
    expect(decisionIds.size).toBe(12);
    const stored = await stack.store.decisions.list({ question: tag, limit: 100, offset: 0 });
    expect(stored).toHaveLength(12);

    await vi.waitFor(() => expect(events.at(-1)).toEqual({ batch_id: created.id, status: "completed", request_counts: { total: 12, completed: 12, failed: 0 } }), { timeout: 5000 });
    // Throttled: not one event per line.
    expect(events.length).toBeLessThan(12);
  }, 60_000);

  it("keeps interactive decisions out of 503s while a batch runs", async () => {
    const { key } = await newKey();
    const tag = `busy-${randomUUID().slice(0, 8)}`;
    // Every batch vote takes a while: the batch holds its 3 decisions in flight the whole time.
    emulator.addRules({ match: { question_contains: `${tag}-batch` }, latency_ms: 400, respond: { kind: "answer", category: "Yes" } });
    const created = await postBatch(key, lines(`${tag}-batch`, 15));
    await vi.waitFor(async () => expect((await getBatch(key, created.id)).request_counts.completed).toBeGreaterThan(0), { timeout: 20_000, interval: 50 });
    // MAX_IN_FLIGHT_DECISIONS is 2 and the batch has 3 in flight: counted together, these would be refused.
    const started = performance.now();
    const answers = await Promise.all(
      [1, 2].map((n) =>
        fetch(`${stack.url}/v1/ensemble`, {
          method: "POST",
          headers: { [API_KEY_HEADER]: key, "content-type": "application/json" },
          body: JSON.stringify({ prompt: `${tag} interactive ${n}?`, valid_responses: ["Yes", "No"] }),
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    // Answered at their own pace, not after the batch.
    expect(performance.now() - started).toBeLessThan(5000);
    expect((await getBatch(key, created.id)).status).toBe("in_progress");
    expect(await ended(key, created.id)).toMatchObject({ status: "completed", request_counts: { total: 15, completed: 15, failed: 0 } });
  }, 60_000);

  it("stops starting lines once the key has spent its monthly limit: the rest fail with the limit's text, asked of no model", async () => {
    const { user, key, keyId } = await newKey();
    const limited = await callApi(stack.url, `/api/api-keys/${keyId}`, user.tokens.access_token, { method: "PATCH", body: { monthly_spend_limit_usd: 0.01 } });
    expect(limited.status, limited.text).toBe(200);
    const tag = `spend-${randomUUID().slice(0, 8)}`;
    // Tokens enough for each decision to cost over a cent at the default models' list prices.
    emulator.addRules({ match: { question_contains: tag }, respond: { kind: "answer", category: "Yes", usage: { input_tokens: 4000, output_tokens: 1000 } } });
    const created = await postBatch(key, lines(tag, 9));
    const batch = await ended(key, created.id);

    // The lines started before the first decision's cost was counted (at most BATCH_CONCURRENCY, 3) ran; no later one did.
    const { completed, failed } = batch.request_counts;
    expect(batch.status).toBe("completed");
    expect(completed).toBeGreaterThanOrEqual(1);
    expect(completed).toBeLessThanOrEqual(3);
    expect(failed).toBe(9 - completed);
    const errors: string[] = [];
    for await (const line of stack.store.batchLines.stream(created.id)) if (line.status === "failed") errors.push(line.error ?? "");
    expect(errors).toHaveLength(failed);
    for (const error of errors) expect(error).toMatch(/^This API key has reached its monthly spend limit/);
    expect(emulator.calls().filter((call) => call.prompt_text.includes(tag))).toHaveLength(completed * 3);
  }, 60_000);

  it("stops starting lines once cancelled: the running ones finish, the rest are cancelled with no decision", async () => {
    const { user, key } = await newKey();
    const events = await progressOf(user);
    const tag = `cancel-${randomUUID().slice(0, 8)}`;
    emulator.addRules({ match: { question_contains: tag }, latency_ms: 300, respond: { kind: "answer", category: "Yes" } });
    const created = await postBatch(key, lines(tag, 40));
    await vi.waitFor(async () => expect((await getBatch(key, created.id)).request_counts.completed).toBeGreaterThan(0), { timeout: 20_000, interval: 50 });
    const cancel = await fetch(`${stack.url}/v1/batches/${created.id}/cancel`, { method: "POST", headers: { [API_KEY_HEADER]: key } });
    expect(cancel.status).toBe(200);
    const batch = await ended(key, created.id);
    expect(batch.status).toBe("cancelled");
    expect(batch.request_counts.completed).toBeLessThan(40);

    let cancelled = 0;
    for await (const line of stack.store.batchLines.stream(created.id)) {
      const decision = await stack.store.decisions.findById(line.decision_id);
      if (line.status === "cancelled") {
        cancelled += 1;
        expect(decision).toBeNull();
      } else {
        expect(line.status).toBe("completed");
        expect(decision).not.toBeNull();
      }
    }
    expect(cancelled + batch.request_counts.completed).toBe(40);
    // No line is still being decided in the background: nothing else gets stored.
    expect(await stack.store.decisions.list({ question: tag, limit: 100, offset: 0 })).toHaveLength(batch.request_counts.completed);
    await vi.waitFor(() => expect(events.at(-1)?.status).toBe("cancelled"), { timeout: 5000 });
  }, 60_000);

  it("sends batch.completed to the owner's webhook once the batch ends, signed, with the batch as data", async () => {
    const { user, key } = await newKey();
    const path = `/batches-${randomUUID().slice(0, 8)}`;
    const endpoint = await createWebhook(stack.url, user.tokens.access_token, { url: receiver.script(path, [{ status: 200 }]), events: ["batch.completed"] });
    const tag = `hook-${randomUUID().slice(0, 8)}`;
    const created = await postBatch(key, lines(tag, 3));
    const batch = await ended(key, created.id);
    expect(batch.status).toBe("completed");

    const [delivery] = await receiver.received(path, 1);
    const payload = new Webhook(endpoint.secret).verify(delivery!.body, WebhookReceiver.signatureHeaders(delivery!)) as { type: string; data: Batch };
    expect(delivery!.headers["webhook-id"]).toBe(`evt_batch_${created.id}`);
    expect(payload).toMatchObject({ type: "batch.completed", data: { id: created.id, status: "completed", request_counts: { total: 3, completed: 3, failed: 0 } } });
  }, 60_000);
});
