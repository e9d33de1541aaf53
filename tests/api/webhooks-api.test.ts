import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { beforeAll, describe, expect, it, vi } from "vitest";
import {
  AUTH_MESSAGES,
  WEBHOOK_LIMITS,
  WEBHOOK_MESSAGES,
  WebhookDeliveryListSchema,
  WebhookEndpointListSchema,
  WebhookEndpointSchema,
  WebhookEndpointWithSecretSchema,
  WebhookQueuedSchema,
  type AuthResponse,
  type WebhookCreateInput,
} from "@sd/contracts";
import { useEmulator } from "@sd/provider-emulator/testing";
import type { WebhookDeliveryRecord } from "@sd/store";
import { callApi } from "@sd/testing/history";
import { useStackWithMail } from "@sd/testing/stack-with-mail";
import { createWebhook } from "@sd/testing/webhooks";

const WEBHOOKS = "/api/webhooks";
const DAY_MS = 24 * 60 * 60_000;
const emulator = useEmulator();
// NODE_ENV=test: private URLs are allowed by default (loopback receivers in tests), as on a developer's machine.
const stack = useStackWithMail(emulator, { MAGIC_LINK_PER_IP_PER_HOUR: "1000" });

let alice: AuthResponse;
let bob: AuthResponse;
beforeAll(async () => {
  [alice, bob] = [await stack.signIn(), await stack.signIn()];
});

const as = (user: AuthResponse | null, path: string, init: { method?: string; body?: unknown } = {}) => callApi(stack.url, path, user?.tokens.access_token ?? null, init);
const add = (user: AuthResponse, body: Partial<WebhookCreateInput> = {}) => createWebhook(stack.url, user.tokens.access_token, body);

/** A delivery log row as the delivery worker writes it (the management API only reads and resends them). */
function deliveryRow(endpointId: string, userId: string, overrides: Partial<WebhookDeliveryRecord> = {}): WebhookDeliveryRecord {
  return {
    id: randomUUID(),
    endpoint_id: endpointId,
    user_id: userId,
    event_id: `evt_${randomUUID()}`,
    event_type: "decision.completed",
    payload: JSON.stringify({ type: "decision.completed", timestamp: new Date().toISOString(), data: { decision_id: "d1" } }),
    attempt: 1,
    status_code: 500,
    ok: false,
    latency_ms: 31,
    response_excerpt: "Internal Server Error",
    error: null,
    next_attempt_at: new Date(Date.now() + 5_000),
    created_at: new Date(),
    ...overrides,
  };
}

describe("webhook endpoints over HTTP", () => {
  it("answers 401 on every webhook endpoint without a valid bearer token", async () => {
    const endpoint = await add(alice);
    const id = endpoint.id;
    const calls: [string, string, unknown?][] = [
      ["GET", WEBHOOKS],
      ["POST", WEBHOOKS, { url: "https://example.com/h", events: ["batch.completed"] }],
      ["GET", `${WEBHOOKS}/${id}`],
      ["PATCH", `${WEBHOOKS}/${id}`, { active: false }],
      ["DELETE", `${WEBHOOKS}/${id}`],
      ["POST", `${WEBHOOKS}/${id}/rotate-secret`],
      ["GET", `${WEBHOOKS}/${id}/deliveries`],
      ["POST", `${WEBHOOKS}/${id}/test`],
      ["POST", `${WEBHOOKS}/${id}/deliveries/${randomUUID()}/resend`],
    ];
    for (const token of [null, "not-a-token"]) {
      for (const [method, path, body] of calls) {
        const answer = await callApi(stack.url, path, token, { method, body });
        expect([answer.status, answer.body], `${method} ${path}`).toEqual([401, { detail: AUTH_MESSAGES.invalidCredentials }]);
      }
    }
    expect((await as(alice, `${WEBHOOKS}/${id}`)).status).toBe(200);
  });

  it("creates, lists, reads, changes and deletes an endpoint; deleting takes its delivery log along", async () => {
    const user = await stack.signIn();
    const answer = await as(user, WEBHOOKS, { body: { url: "  https://example.com/hooks/sd ", events: ["batch.completed", "decision.completed"], description: " CI " } });
    expect(answer.status, answer.text).toBe(201);
    const created = WebhookEndpointWithSecretSchema.parse(answer.body);
    expect(created).toMatchObject({
      url: "https://example.com/hooks/sd",
      events: ["batch.completed", "decision.completed"],
      description: "CI",
      active: true,
      include_signed_in_decisions: false,
      failing_since: null,
      disabled_reason: null,
      previous_secret_expires_at: null,
      message: WEBHOOK_MESSAGES.created,
    });
    const { secret: _secret, message: _message, ...endpoint } = created;
    expect(created.created_at).toBe(created.updated_at);

    expect(WebhookEndpointListSchema.parse((await as(user, WEBHOOKS)).body)).toEqual([endpoint]);
    expect((await as(user, `${WEBHOOKS}/${created.id}`)).body).toEqual(endpoint);

    const changed = await as(user, `${WEBHOOKS}/${created.id}`, { method: "PATCH", body: { events: ["decision.completed"], include_signed_in_decisions: true, active: false } });
    expect(changed.status, changed.text).toBe(200);
    expect(WebhookEndpointSchema.parse(changed.body)).toMatchObject({ ...endpoint, events: ["decision.completed"], include_signed_in_decisions: true, active: false, updated_at: expect.any(String) });
    expect((await as(user, `${WEBHOOKS}/${created.id}`)).body).toEqual(changed.body);

    await stack.store.webhookDeliveries.insert(deliveryRow(created.id, user.user.id));
    const deleted = await as(user, `${WEBHOOKS}/${created.id}`, { method: "DELETE" });
    expect([deleted.status, deleted.body]).toEqual([200, { success: true, message: WEBHOOK_MESSAGES.deleted }]);
    expect(await stack.store.webhookDeliveries.countForEndpoint(created.id)).toBe(0);
    expect((await as(user, `${WEBHOOKS}/${created.id}`)).body).toEqual({ detail: WEBHOOK_MESSAGES.notFound });
    expect((await as(user, `${WEBHOOKS}/${created.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await as(user, WEBHOOKS)).body).toEqual([]);
  });

  it("shows the signing secret once, in the Standard Webhooks form, and in no later answer", async () => {
    const user = await stack.signIn();
    const created = await add(user, { events: ["decision.completed", "batch.completed"] });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    const bytes = Buffer.from(created.secret.slice("whsec_".length), "base64").length;
    expect(bytes).toBeGreaterThanOrEqual(24);
    expect(bytes).toBeLessThanOrEqual(32);
    expect((await add(user)).secret).not.toBe(created.secret);

    const later = [
      await as(user, WEBHOOKS),
      await as(user, `${WEBHOOKS}/${created.id}`),
      await as(user, `${WEBHOOKS}/${created.id}`, { method: "PATCH", body: { description: "renamed" } }),
      await as(user, `${WEBHOOKS}/${created.id}/deliveries`),
    ];
    for (const answer of later) {
      expect(answer.status, answer.text).toBe(200);
      expect(answer.text).not.toContain(created.secret);
      expect(answer.text).not.toContain("whsec_");
    }
    // The store keeps it: deliveries are signed with it.
    expect((await stack.store.webhookEndpoints.findById(created.id))?.secrets).toEqual([{ secret: created.secret, expires_at: null }]);
  });

  it("rotates the secret: the new one is shown once, the previous one keeps signing for 24 hours", async () => {
    const user = await stack.signIn();
    const created = await add(user);
    const before = Date.now();
    const answer = await as(user, `${WEBHOOKS}/${created.id}/rotate-secret`, { method: "POST" });
    expect(answer.status, answer.text).toBe(200);
    const rotated = WebhookEndpointWithSecretSchema.parse(answer.body);
    expect(rotated.message).toBe(WEBHOOK_MESSAGES.rotated);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);

    const record = await stack.store.webhookEndpoints.findById(created.id);
    expect(record?.secrets.map((s) => s.secret)).toEqual([rotated.secret, created.secret]);
    expect(record?.secrets[0]?.expires_at).toBeNull();
    const expires = record?.secrets[1]?.expires_at?.getTime() ?? 0;
    expect(expires).toBeGreaterThanOrEqual(before + DAY_MS);
    expect(expires).toBeLessThanOrEqual(Date.now() + DAY_MS);
    expect(rotated.previous_secret_expires_at).toBe(new Date(expires).toISOString());

    const read = await as(user, `${WEBHOOKS}/${created.id}`);
    expect(read.body).toMatchObject({ previous_secret_expires_at: rotated.previous_secret_expires_at });
    expect(read.text).not.toContain(rotated.secret);
  });

  it("refuses bad URLs, unknown and missing events and unknown fields with texts that say what to fix", async () => {
    const refusals: [unknown, string][] = [
      [{ url: "not a url", events: ["decision.completed"] }, WEBHOOK_MESSAGES.urlInvalid],
      [{ url: "ftp://example.com/hook", events: ["decision.completed"] }, WEBHOOK_MESSAGES.urlInvalid],
      [{ url: "https://user:pass@example.com/hook", events: ["decision.completed"] }, WEBHOOK_MESSAGES.urlCredentials],
      [{ url: "", events: ["decision.completed"] }, WEBHOOK_MESSAGES.urlRequired],
      [{ events: ["decision.completed"] }, WEBHOOK_MESSAGES.urlRequired],
      [{ url: `https://example.com/${"a".repeat(WEBHOOK_LIMITS.maxUrlLength)}`, events: ["decision.completed"] }, WEBHOOK_MESSAGES.urlTooLong],
      [{ url: "https://example.com/hook", events: ["decision.started"] }, WEBHOOK_MESSAGES.unknownEvent("decision.started")],
      [{ url: "https://example.com/hook", events: [] }, WEBHOOK_MESSAGES.eventsRequired],
      [{ url: "https://example.com/hook" }, WEBHOOK_MESSAGES.eventsRequired],
      [{ url: "https://example.com/hook", events: ["batch.completed", "batch.completed"] }, WEBHOOK_MESSAGES.duplicateEvent],
      [{ url: "https://example.com/hook", events: ["batch.completed"], description: "d".repeat(WEBHOOK_LIMITS.maxDescriptionLength + 1) }, WEBHOOK_MESSAGES.descriptionTooLong],
    ];
    for (const [body, message] of refusals) {
      const answer = await as(alice, WEBHOOKS, { body });
      expect([answer.status, answer.body], JSON.stringify(body).slice(0, 120)).toEqual([400, { detail: message }]);
    }
    const extra = await as(alice, WEBHOOKS, { body: { url: "https://example.com/hook", events: ["batch.completed"], secret: "whsec_mine" } });
    expect(extra.status).toBe(400);
    expect(String(extra.body.detail)).toContain("secret");

    const endpoint = await add(alice);
    const nothing = await as(alice, `${WEBHOOKS}/${endpoint.id}`, { method: "PATCH", body: {} });
    expect([nothing.status, nothing.body]).toEqual([400, { detail: WEBHOOK_MESSAGES.nothingToChange }]);
    const badPatch = await as(alice, `${WEBHOOKS}/${endpoint.id}`, { method: "PATCH", body: { events: ["nope"] } });
    expect([badPatch.status, badPatch.body]).toEqual([400, { detail: WEBHOOK_MESSAGES.unknownEvent("nope") }]);
  });

  it(`keeps at most ${WEBHOOK_LIMITS.maxPerUser} endpoints per user`, async () => {
    const user = await stack.signIn();
    for (let i = 0; i < WEBHOOK_LIMITS.maxPerUser; i++) await add(user, { url: `https://example.com/hook/${i}` });
    const refused = await as(user, WEBHOOKS, { body: { url: "https://example.com/one-more", events: ["batch.completed"] } });
    expect([refused.status, refused.body]).toEqual([400, { detail: WEBHOOK_MESSAGES.tooMany }]);
    // Another user is not counted.
    expect((await add(await stack.signIn())).id).toEqual(expect.any(String));
    const list = WebhookEndpointListSchema.parse((await as(user, WEBHOOKS)).body);
    expect(list.map((e) => e.url)).toEqual(Array.from({ length: WEBHOOK_LIMITS.maxPerUser }, (_, i) => `https://example.com/hook/${i}`));
  });

  it("shows the delivery worker's disabled notice, and re-enabling clears it", async () => {
    const user = await stack.signIn();
    const endpoint = await add(user);
    const since = new Date(Date.now() - 25 * 60 * 60_000);
    await stack.store.webhookEndpoints.recordOutcome(endpoint.id, { ok: false, at: since });
    const reason = WEBHOOK_MESSAGES.disabledAfterFailures("HTTP 503");
    await stack.store.webhookEndpoints.disable(endpoint.id, reason);
    expect((await as(user, `${WEBHOOKS}/${endpoint.id}`)).body).toMatchObject({ active: false, disabled_reason: reason, failing_since: since.toISOString() });

    // Changing something else leaves the notice for the user to read.
    const described = await as(user, `${WEBHOOKS}/${endpoint.id}`, { method: "PATCH", body: { description: "seen" } });
    expect(described.body).toMatchObject({ active: false, disabled_reason: reason });
    const reenabled = await as(user, `${WEBHOOKS}/${endpoint.id}`, { method: "PATCH", body: { active: true } });
    expect(reenabled.status, reenabled.text).toBe(200);
    expect(reenabled.body).toMatchObject({ active: true, disabled_reason: null, failing_since: null });
  });

  it("pages an endpoint's delivery log newest first without payloads, and checks the paging parameters", async () => {
    const user = await stack.signIn();
    const endpoint = await add(user);
    const start = Date.now() - 60_000;
    const rows = Array.from({ length: 5 }, (_, i) => deliveryRow(endpoint.id, user.user.id, { attempt: i + 1, created_at: new Date(start + i * 1000) }));
    for (const row of rows) await stack.store.webhookDeliveries.insert(row);

    const first = WebhookDeliveryListSchema.parse((await as(user, `${WEBHOOKS}/${endpoint.id}/deliveries?limit=2`)).body);
    expect(first.total).toBe(5);
    expect(first.deliveries.map((d) => d.attempt)).toEqual([5, 4]);
    const last = rows[4]!;
    expect(first.deliveries[0]).toEqual({
      id: last.id,
      event_id: last.event_id,
      event_type: "decision.completed",
      attempt: 5,
      ok: false,
      status_code: 500,
      latency_ms: 31,
      response_excerpt: "Internal Server Error",
      error: null,
      next_attempt_at: last.next_attempt_at?.toISOString(),
      created_at: last.created_at.toISOString(),
    });
    const second = WebhookDeliveryListSchema.parse((await as(user, `${WEBHOOKS}/${endpoint.id}/deliveries?limit=2&offset=2`)).body);
    expect(second.deliveries.map((d) => d.attempt)).toEqual([3, 2]);
    const bad = await as(user, `${WEBHOOKS}/${endpoint.id}/deliveries?limit=1000`);
    expect([bad.status, bad.body]).toEqual([400, { detail: `limit must be a whole number from 0 to ${WEBHOOK_LIMITS.maxDeliveryPageSize}.` }]);
  });

  it("answers another user's endpoint, its log, test, rotation and resend exactly as an unknown id, and changes nothing", async () => {
    const endpoint = await add(alice, { description: "Alice's" });
    const delivery = deliveryRow(endpoint.id, alice.user.id);
    await stack.store.webhookDeliveries.insert(delivery);
    const unknown = randomUUID();
    const calls = (id: string): [string, string, unknown?][] => [
      ["GET", `${WEBHOOKS}/${id}`],
      ["PATCH", `${WEBHOOKS}/${id}`, { url: "https://attacker.example/steal", active: true }],
      ["DELETE", `${WEBHOOKS}/${id}`],
      ["POST", `${WEBHOOKS}/${id}/rotate-secret`],
      ["GET", `${WEBHOOKS}/${id}/deliveries`],
      ["POST", `${WEBHOOKS}/${id}/test`],
      ["POST", `${WEBHOOKS}/${id}/deliveries/${delivery.id}/resend`],
    ];
    const bobsCalls = calls(endpoint.id);
    const unknownCalls = calls(unknown);
    for (const [index, [method, path, body]] of bobsCalls.entries()) {
      const asBob = await as(bob, path, { method, body });
      const [, unknownPath] = unknownCalls[index]!;
      const asUnknown = await as(bob, unknownPath, { method, body });
      expect([asBob.status, asBob.body], `${method} ${path}`).toEqual([404, { detail: WEBHOOK_MESSAGES.notFound }]);
      expect([asUnknown.status, asUnknown.body], `${method} ${unknownPath}`).toEqual([asBob.status, asBob.body]);
    }
    expect(WebhookEndpointListSchema.parse((await as(bob, WEBHOOKS)).body).map((e) => e.id)).not.toContain(endpoint.id);
    const record = await stack.store.webhookEndpoints.findById(endpoint.id);
    expect(record).toMatchObject({ url: endpoint.url, description: "Alice's", secrets: [{ secret: endpoint.secret, expires_at: null }] });
    expect(await stack.store.webhookDeliveries.countForEndpoint(endpoint.id)).toBe(1);

    // Alice's own delivery under another of her endpoints is not that endpoint's either.
    const other = await add(alice);
    const crossed = await as(alice, `${WEBHOOKS}/${other.id}/deliveries/${delivery.id}/resend`, { method: "POST" });
    expect([crossed.status, crossed.body]).toEqual([404, { detail: WEBHOOK_MESSAGES.deliveryNotFound }]);
  });

  it("queues a test event and a resend (202) for the owner", async () => {
    const user = await stack.signIn();
    const endpoint = await add(user);
    const test = await as(user, `${WEBHOOKS}/${endpoint.id}/test`, { method: "POST" });
    expect(test.status, test.text).toBe(202);
    expect(WebhookQueuedSchema.parse(test.body)).toEqual({ event_id: expect.stringMatching(/^evt_/), message: WEBHOOK_MESSAGES.testQueued });

    const delivery = deliveryRow(endpoint.id, user.user.id);
    await stack.store.webhookDeliveries.insert(delivery);
    const resent = await as(user, `${WEBHOOKS}/${endpoint.id}/deliveries/${delivery.id}/resend`, { method: "POST" });
    expect([resent.status, resent.body]).toEqual([202, { event_id: delivery.event_id, message: WEBHOOK_MESSAGES.resendQueued }]);
  });

  it("delivers the test event, signed with the endpoint's secret, and logs it", async () => {
    const received: { headers: Record<string, string>; body: string }[] = [];
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        received.push({ headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])), body: Buffer.concat(chunks).toString("utf8") });
        res.writeHead(200, { "content-type": "application/json" }).end('{"received":true}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    try {
      const user = await stack.signIn();
      const endpoint = await add(user, { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook` });
      const test = WebhookQueuedSchema.parse((await as(user, `${WEBHOOKS}/${endpoint.id}/test`, { method: "POST" })).body);
      await vi.waitFor(() => expect(received.map((r) => r.headers["webhook-id"])).toContain(test.event_id), { timeout: 15_000, interval: 50 });
      const delivery = received.find((r) => r.headers["webhook-id"] === test.event_id)!;
      // Verified by the Standard Webhooks library, as a receiver would.
      expect(() => new Webhook(endpoint.secret).verify(delivery.body, delivery.headers)).not.toThrow();

      const log = await vi.waitFor(
        async () => {
          const page = WebhookDeliveryListSchema.parse((await as(user, `${WEBHOOKS}/${endpoint.id}/deliveries`)).body);
          expect(page.total).toBeGreaterThan(0);
          return page;
        },
        { timeout: 15_000, interval: 50 },
      );
      expect(log.deliveries[0]).toMatchObject({ event_id: test.event_id, attempt: 1, ok: true, status_code: 200, response_excerpt: '{"received":true}', error: null });

      const resent = await as(user, `${WEBHOOKS}/${endpoint.id}/deliveries/${log.deliveries[0]!.id}/resend`, { method: "POST" });
      expect(resent.status, resent.text).toBe(202);
      await vi.waitFor(() => expect(received.filter((r) => r.headers["webhook-id"] === test.event_id)).toHaveLength(2), { timeout: 15_000, interval: 50 });
      const [first, again] = received.filter((r) => r.headers["webhook-id"] === test.event_id);
      expect(again?.body).toBe(first?.body);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it("accepts a loopback http URL where private URLs are allowed (development and tests)", async () => {
    const endpoint = await add(alice, { url: "http://127.0.0.1:9/hook" });
    expect(endpoint.url).toBe("http://127.0.0.1:9/hook");
  });
});

describe("webhook URLs where private URLs are refused (WEBHOOK_ALLOW_PRIVATE_URLS=false, as in production)", () => {
  const strict = useStackWithMail(emulator, { MAGIC_LINK_PER_IP_PER_HOUR: "1000", WEBHOOK_ALLOW_PRIVATE_URLS: "false" });

  it("refuses plain http and URLs reaching loopback, link-local (metadata) or private addresses, at creation and on change", async () => {
    const user = await strict.signIn();
    const post = (url: string) => callApi(strict.url, WEBHOOKS, user.tokens.access_token, { body: { url, events: ["decision.completed"] } });
    const refused: [string, RegExp][] = [
      ["http://127.0.0.1/hook", /https/],
      ["http://example.com/hook", /https/],
      ["https://127.0.0.1/hook", /internal address \(127\.0\.0\.1\)/],
      ["https://169.254.169.254/latest/meta-data", /internal address \(169\.254\.169\.254\)/],
      ["https://10.1.2.3/hook", /internal address \(10\.1\.2\.3\)/],
      ["https://[::1]/hook", /internal address/],
      ["https://localhost/hook", /"localhost" resolves to an internal address/],
      ["https://2130706433/hook", /internal address \(127\.0\.0\.1\)/],
    ];
    for (const [url, message] of refused) {
      const answer = await post(url);
      expect(answer.status, `${url}: ${answer.text}`).toBe(400);
      expect(String(answer.body.detail), url).toMatch(message);
    }
    expect(WebhookEndpointListSchema.parse((await callApi(strict.url, WEBHOOKS, user.tokens.access_token)).body)).toEqual([]);

    // A public address passes the check (an IP literal: no DNS needed), and a change to a private one is refused.
    const created = await post("https://93.184.215.14/hook");
    expect(created.status, created.text).toBe(201);
    const id = String(created.body.id);
    const patched = await callApi(strict.url, `${WEBHOOKS}/${id}`, user.tokens.access_token, { method: "PATCH", body: { url: "https://192.168.1.10/hook" } });
    expect(patched.status).toBe(400);
    expect(String(patched.body.detail)).toMatch(/internal address \(192\.168\.1\.10\)/);
    expect((await callApi(strict.url, `${WEBHOOKS}/${id}`, user.tokens.access_token)).body).toMatchObject({ url: "https://93.184.215.14/hook" });
  });
});
