import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ApiKeySchema, V1_ENSEMBLE_RESPONSE_EXAMPLE, type Batch, type WebhookEndpointWithSecret } from "@sd/contracts";
import { callApi, useStackWithMail } from "@sd/testing";
import { createWebhook } from "@sd/testing/webhooks";
import { useEmulator } from "@sd/provider-emulator/testing";
import { SmartDecision, SmartDecisionError, verifyWebhook, WebhookVerificationError, type WebhookEvent } from "./index";

/**
 * `verifyWebhook` / `client.webhooks.verify` against deliveries signed by the `standardwebhooks`
 * package itself, then against the product's own deliveries to a receiver on loopback.
 */

const newSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

const BATCH: Batch = {
  id: "batch_5f1c0a7e-2b9d-4c3e-8a6f-1b2d3c4e5f60",
  object: "batch",
  status: "completed",
  request_counts: { total: 2, completed: 1, failed: 1 },
  created_at: "2026-11-28T10:00:00.000Z",
  completed_at: "2026-11-28T10:01:35.000Z",
  expires_at: "2026-12-28T10:00:00.000Z",
};

/** A delivery as the Standard Webhooks reference library signs it: the body and its three headers. */
function signed(body: string, secrets: string[], at = new Date(), id = `evt_${randomUUID()}`) {
  const signature = secrets.map((secret) => new Webhook(secret).sign(id, at, body)).join(" ");
  return { body, headers: { "webhook-id": id, "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": signature } };
}

const envelope = (type: string, data: unknown) => JSON.stringify({ type, timestamp: new Date().toISOString(), data });

describe("verifyWebhook", () => {
  it("answers the typed event of an authentic delivery, whether the body is text, a Buffer or bytes and the headers a Headers or a record", () => {
    const secret = newSecret();
    const delivery = signed(envelope("batch.completed", BATCH), [secret]);
    const forms: [string | Uint8Array, Headers | Record<string, string | string[] | undefined>][] = [
      [delivery.body, new Headers(delivery.headers)],
      [Buffer.from(delivery.body), { ...delivery.headers, "content-type": "application/json", "x-forwarded-for": ["10.0.0.1", "10.0.0.2"] }],
      [new Uint8Array(new TextEncoder().encode(delivery.body)), Object.fromEntries(Object.entries(delivery.headers).map(([name, value]) => [name.toUpperCase(), value]))],
    ];
    for (const [body, headers] of forms) {
      const event = verifyWebhook(body, headers, secret);
      expect(event.type).toBe("batch.completed");
      // Narrowed by `type`: the batch's fields are typed.
      if (event.type === "batch.completed") expect(event.data.request_counts).toEqual({ total: 2, completed: 1, failed: 1 });
    }
  });

  it("answers decision.completed with the decision as GET /v1/decisions/{id} answers it", () => {
    const secret = newSecret();
    const data = { decision_id: V1_ENSEMBLE_RESPONSE_EXAMPLE.decision_id, status: "complete", result: V1_ENSEMBLE_RESPONSE_EXAMPLE };
    const delivery = signed(envelope("decision.completed", data), [secret]);
    const event: WebhookEvent = new SmartDecision({ apiKey: "sd_live_x", baseUrl: "http://127.0.0.1:9" }).webhooks.verify(delivery.body, delivery.headers, secret);
    expect(event).toMatchObject({ type: "decision.completed", data });
  });

  it("during a secret rotation either secret verifies the doubly signed delivery", () => {
    const [previous, current] = [newSecret(), newSecret()];
    const delivery = signed(envelope("batch.completed", BATCH), [current, previous]);
    expect(delivery.headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(verifyWebhook(delivery.body, delivery.headers, previous).type).toBe("batch.completed");
    expect(verifyWebhook(delivery.body, delivery.headers, current).type).toBe("batch.completed");
  });

  it("refuses a tampered body, another secret, an old timestamp and missing headers with a WebhookVerificationError", () => {
    const secret = newSecret();
    const delivery = signed(envelope("batch.completed", BATCH), [secret]);
    const tampered = delivery.body.replace('"completed":1', '"completed":2');
    expect(tampered).not.toBe(delivery.body);
    const old = signed(envelope("batch.completed", BATCH), [secret], new Date(Date.now() - 10 * 60_000));
    const { "webhook-signature": _signature, ...unsigned } = delivery.headers;
    const refusals: [string, () => unknown, RegExp][] = [
      ["tampered body", () => verifyWebhook(tampered, delivery.headers, secret), /No matching signature/],
      ["another secret", () => verifyWebhook(delivery.body, delivery.headers, newSecret()), /No matching signature/],
      ["old timestamp", () => verifyWebhook(old.body, old.headers, secret), /too old/],
      ["missing header", () => verifyWebhook(delivery.body, unsigned, secret), /Missing required headers/],
    ];
    for (const [name, verify, message] of refusals) {
      let error: unknown;
      try {
        verify();
      } catch (thrown) {
        error = thrown;
      }
      expect(error, name).toBeInstanceOf(WebhookVerificationError);
      expect(error, name).toBeInstanceOf(SmartDecisionError);
      expect((error as Error).message, name).toMatch(message);
    }
  });

  it("a secret that is no signing secret, and an authentic event of an unknown type, are SmartDecisionErrors but not verification failures", () => {
    const delivery = signed(envelope("batch.completed", BATCH), [newSecret()]);
    for (const [verify, message] of [
      [() => verifyWebhook(delivery.body, delivery.headers, "whsec_"), /not a signing secret/],
      [() => verifyWebhook(delivery.body, delivery.headers, "whsec_!!!not base64!!!"), /not a signing secret/],
    ] as const) {
      expect(verify).toThrow(SmartDecisionError);
      expect(verify).toThrow(message);
      expect(verify).not.toThrow(WebhookVerificationError);
    }
    const secret = newSecret();
    const unknown = signed(envelope("invoice.paid", { id: "in_1" }), [secret]);
    expect(() => verifyWebhook(unknown.body, unknown.headers, secret)).toThrow(/"invoice.paid" is not one this SDK knows/);
    expect(() => verifyWebhook(unknown.body, unknown.headers, secret)).not.toThrow(WebhookVerificationError);
  });
});

// ---------------------------------------------------------------- the product's own deliveries

const emulator = useEmulator();
const stack = useStackWithMail(emulator, { API_KEY_RATE_LIMIT_PER_MINUTE: "1000" });

interface Received {
  body: Buffer;
  headers: IncomingHttpHeaders;
}

/** A receiver on loopback that answers 204 and keeps each delivery's raw body and headers. */
const received: Received[] = [];
let server: Server;
let receiverUrl = "";
beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ body: Buffer.concat(chunks), headers: req.headers });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

/** A user with an API key and a webhook endpoint at the receiver, and the deliveries that verify with its secret, as events. */
async function subscribed(): Promise<{ client: SmartDecision; endpoint: WebhookEndpointWithSecret; token: string; events: () => WebhookEvent[] }> {
  const user = await stack.signIn();
  const key = await callApi(stack.url, "/api/api-keys", user.tokens.access_token, { body: { name: "webhooks" } });
  expect(key.status, key.text).toBe(201);
  const client = new SmartDecision({ apiKey: ApiKeySchema.parse(key.body).keyvalue!, baseUrl: stack.url });
  const endpoint = await createWebhook(stack.url, user.tokens.access_token, { url: receiverUrl, events: ["decision.completed", "batch.completed"] });
  // Other tests' endpoints share the receiver: their deliveries fail this secret and are left out.
  const events = () =>
    received.flatMap((delivery) => {
      try {
        return [client.webhooks.verify(delivery.body, delivery.headers, endpoint.secret)];
      } catch (error) {
        if (error instanceof WebhookVerificationError) return [];
        throw error;
      }
    });
  return { client, endpoint, token: user.tokens.access_token, events };
}

const arrives = (check: () => boolean) => vi.waitFor(() => expect(check()).toBe(true), { timeout: 20_000, interval: 50 });

describe("the product's deliveries, verified by the SDK", () => {
  it("decision.completed carries the decision as the API answered it; the test event verifies too; another secret verifies none", async () => {
    const { client, endpoint, token, events } = await subscribed();
    const marker = randomUUID();
    emulator.addRules({ match: { question_contains: marker }, respond: { kind: "answer", category: "Yes", confidence: 0.9 } });

    const decision = await client.decide({ prompt: `Webhook me ${marker}`, valid_responses: ["Yes", "No"] });
    const mine = () => events().find((event) => event.type === "decision.completed" && event.data.decision_id === decision.decision_id);
    await arrives(() => mine() !== undefined);
    expect(mine()?.data).toEqual({ decision_id: decision.decision_id, status: "complete", result: decision });

    const test = await callApi(stack.url, `/api/webhooks/${endpoint.id}/test`, token, { method: "POST" });
    expect(test.status, test.text).toBe(202);
    await arrives(() => events().some((event) => event.type === "webhook.test" && event.data.endpoint_id === endpoint.id));

    expect(received.length).toBeGreaterThanOrEqual(2);
    for (const delivery of received) expect(() => verifyWebhook(delivery.body, delivery.headers, newSecret())).toThrow(WebhookVerificationError);
  }, 60_000);

  it("batch.completed carries the batch as GET /v1/batches/{id} answers it once completed", async () => {
    const { client, events } = await subscribed();
    const marker = randomUUID();
    emulator.addRules({ match: { question_contains: marker }, respond: { kind: "answer", category: "No", confidence: 0.9 } });
    const batch = await client.batches.create([{ custom_id: "only", prompt: `Batch webhook ${marker}`, valid_responses: ["Yes", "No"] }]);
    const done = await client.batches.waitForCompletion(batch.id, { intervalMs: 100, timeoutMs: 60_000 });
    const mine = () => events().find((event) => event.type === "batch.completed" && event.data.id === batch.id);
    await arrives(() => mine() !== undefined);
    expect(mine()?.data).toEqual(done);
  }, 90_000);
});
