import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { StoreUnderTest } from "../testing/both-drivers";
import type { NewWebhookEndpoint, WebhookDeliveryRecord, WebhookDeliveryRepository, WebhookEndpointRecord, WebhookEndpointRepository } from "./repository";

const HOUR = 60 * 60_000;
// Relative to the real clock: the repository drops secrets whose overlap has ended by it.
const base = Date.now();
const t = (minute: number) => new Date(base + minute * 60_000);

function newEndpoint(overrides: Partial<NewWebhookEndpoint> = {}): NewWebhookEndpoint {
  return {
    user_id: "A",
    url: "https://example.com/hook",
    events: ["decision.completed"],
    description: "",
    active: true,
    include_signed_in_decisions: false,
    secret: "whsec_first",
    created_at: t(0),
    ...overrides,
  };
}

function delivery(overrides: Partial<WebhookDeliveryRecord> = {}): WebhookDeliveryRecord {
  return {
    id: crypto.randomUUID(),
    endpoint_id: "e1",
    user_id: "A",
    event_id: "evt_1",
    event_type: "decision.completed",
    payload: '{"type":"decision.completed"}',
    attempt: 1,
    status_code: 200,
    ok: true,
    latency_ms: 12,
    response_excerpt: "ok",
    error: null,
    next_attempt_at: null,
    created_at: t(0),
    ...overrides,
  };
}

async function created(write: Promise<WebhookEndpointRecord | null>): Promise<WebhookEndpointRecord> {
  const endpoint = await write;
  if (!endpoint) throw new Error("expected a created endpoint");
  return endpoint;
}

/** The behaviour every driver must show through the webhook repositories (A and B are two users). */
export function describeWebhookRepositoryContract(driverName: string, openEmptyStore: () => Promise<StoreUnderTest>): void {
  describe(`Webhook repositories contract (${driverName})`, () => {
    let subject: StoreUnderTest;
    let endpoints: WebhookEndpointRepository;
    let deliveries: WebhookDeliveryRepository;

    beforeEach(async () => {
      subject = await openEmptyStore();
      endpoints = subject.store.webhookEndpoints;
      deliveries = subject.store.webhookDeliveries;
    });
    afterEach(async () => {
      await subject.dispose();
    });

    it("creates an endpoint with one current secret and no failure notice, and finds it by id and as its owner's", async () => {
      const endpoint = await created(endpoints.create(newEndpoint({ events: ["decision.completed", "batch.completed"] }), 10));
      const { secret: _secret, ...fields } = newEndpoint({ events: ["decision.completed", "batch.completed"] });
      expect(endpoint).toEqual({
        id: expect.any(String),
        ...fields,
        secrets: [{ secret: "whsec_first", expires_at: null }],
        failing_since: null,
        disabled_reason: null,
        updated_at: t(0),
      });
      expect(await endpoints.findById(endpoint.id)).toEqual(endpoint);
      expect(await endpoints.findOwned(endpoint.id, "A")).toEqual(endpoint);
      expect(await endpoints.listForUser("A")).toEqual([endpoint]);
    });

    it("refuses an event that does not exist", async () => {
      await expect(endpoints.create(newEndpoint({ events: ["decision.started" as "batch.completed"] }), 10)).rejects.toThrow();
      expect(await endpoints.count()).toBe(0);
    });

    it("stops at the per-user limit; other users are not counted", async () => {
      await created(endpoints.create(newEndpoint(), 2));
      await created(endpoints.create(newEndpoint(), 2));
      expect(await endpoints.create(newEndpoint(), 2)).toBeNull();
      await created(endpoints.create(newEndpoint({ user_id: "B" }), 2));
      expect(await endpoints.count()).toBe(3);
    });

    it("lists a user's endpoints oldest first, and nobody else's", async () => {
      const second = await created(endpoints.create(newEndpoint({ url: "https://example.com/2", created_at: t(2) }), 10));
      const first = await created(endpoints.create(newEndpoint({ url: "https://example.com/1", created_at: t(1) }), 10));
      await created(endpoints.create(newEndpoint({ user_id: "B" }), 10));
      expect((await endpoints.listForUser("A")).map((e) => e.id)).toEqual([first.id, second.id]);
      expect(await endpoints.listForUser("C")).toEqual([]);
      await expect(endpoints.listForUser("")).rejects.toThrow(RangeError);
    });

    it("lists the active endpoints subscribed to an event, and says cheaply whether a user has any active one", async () => {
      const decisions = await created(endpoints.create(newEndpoint({ events: ["decision.completed"] }), 10));
      const both = await created(endpoints.create(newEndpoint({ events: ["batch.completed", "decision.completed"], created_at: t(1) }), 10));
      await created(endpoints.create(newEndpoint({ events: ["decision.completed"], active: false, created_at: t(2) }), 10));
      await created(endpoints.create(newEndpoint({ user_id: "B" }), 10));
      expect((await endpoints.listActiveForUser("A", "decision.completed")).map((e) => e.id)).toEqual([decisions.id, both.id]);
      expect((await endpoints.listActiveForUser("A", "batch.completed")).map((e) => e.id)).toEqual([both.id]);
      expect(await endpoints.hasActive("A")).toBe(true);
      expect(await endpoints.hasActive("C")).toBe(false);
      await created(endpoints.create(newEndpoint({ user_id: "D", active: false }), 10));
      expect(await endpoints.hasActive("D")).toBe(false);
    });

    it("updates the fields given and keeps the others", async () => {
      const endpoint = await created(endpoints.create(newEndpoint(), 10));
      const updated = await endpoints.updateOwned(endpoint.id, "A", { url: "https://example.org/new", events: ["batch.completed"], include_signed_in_decisions: true }, t(5));
      expect(updated).toEqual({ ...endpoint, url: "https://example.org/new", events: ["batch.completed"], include_signed_in_decisions: true, updated_at: t(5) });
    });

    it("records a failure streak from its first failure, ends it on success, and a disabled endpoint re-enabled loses its notice", async () => {
      const endpoint = await created(endpoints.create(newEndpoint(), 10));
      expect((await endpoints.recordOutcome(endpoint.id, { ok: false, at: t(1) }))?.failing_since).toEqual(t(1));
      expect((await endpoints.recordOutcome(endpoint.id, { ok: false, at: t(2) }))?.failing_since).toEqual(t(1));
      expect((await endpoints.recordOutcome(endpoint.id, { ok: true, at: t(3) }))?.failing_since).toBeNull();
      await endpoints.recordOutcome(endpoint.id, { ok: false, at: t(4) });
      await endpoints.disable(endpoint.id, "Disabled after failing for 24 hours: HTTP 500");
      const disabled = await endpoints.findById(endpoint.id);
      expect(disabled).toMatchObject({ active: false, disabled_reason: "Disabled after failing for 24 hours: HTTP 500", failing_since: t(4) });
      expect(await endpoints.hasActive("A")).toBe(false);
      const reenabled = await endpoints.updateOwned(endpoint.id, "A", { active: true }, t(6));
      expect(reenabled).toMatchObject({ active: true, disabled_reason: null, failing_since: null, updated_at: t(6) });
      expect(await endpoints.recordOutcome("unknown", { ok: false, at: t(7) })).toBeNull();
    });

    it("rotation makes the new secret current and keeps the previous one until the overlap ends; expired ones are dropped", async () => {
      const endpoint = await created(endpoints.create(newEndpoint({ created_at: t(-3 * 60) }), 10));
      const rotatedAt = t(-60);
      const once = await endpoints.rotateSecret(endpoint.id, "A", "whsec_second", rotatedAt, 24 * HOUR);
      expect(once?.secrets).toEqual([
        { secret: "whsec_second", expires_at: null },
        { secret: "whsec_first", expires_at: new Date(rotatedAt.getTime() + 24 * HOUR) },
      ]);
      expect(once?.updated_at).toEqual(rotatedAt);
      // A short overlap already over by now: the previous secret is gone on read and on the next rotation.
      const short = await endpoints.rotateSecret(endpoint.id, "A", "whsec_third", t(-30), 10 * 60_000);
      expect(short?.secrets.map((s) => s.secret)).toEqual(["whsec_third"]);
      const again = await endpoints.rotateSecret(endpoint.id, "A", "whsec_fourth", t(0), 24 * HOUR);
      expect(again?.secrets.map((s) => s.secret)).toEqual(["whsec_fourth", "whsec_third"]);
    });

    it("keeps a bounded number of secrets through a burst of rotations", async () => {
      const endpoint = await created(endpoints.create(newEndpoint(), 10));
      for (let i = 0; i < 8; i++) await endpoints.rotateSecret(endpoint.id, "A", `whsec_${i}`, t(i), 24 * HOUR);
      const secrets = (await endpoints.findById(endpoint.id))?.secrets ?? [];
      expect(secrets.map((s) => s.secret)).toEqual(["whsec_7", "whsec_6", "whsec_5", "whsec_4", "whsec_3"]);
    });

    describe("owner scoping (A owns the endpoint; B can neither read, change, rotate nor delete it)", () => {
      it("answers B exactly as an unknown id", async () => {
        const endpoint = await created(endpoints.create(newEndpoint(), 10));
        expect(await endpoints.findOwned(endpoint.id, "B")).toBeNull();
        expect(await endpoints.findOwned("unknown", "A")).toBeNull();
        expect(await endpoints.updateOwned(endpoint.id, "B", { description: "mine" }, t(5))).toBeNull();
        expect(await endpoints.rotateSecret(endpoint.id, "B", "whsec_b", t(5), HOUR)).toBeNull();
        expect(await endpoints.deleteOwned(endpoint.id, "B")).toBe(false);
        expect(await endpoints.findOwned(endpoint.id, "A")).toEqual(endpoint);
      });

      it("takes ids literally: an operator matches nothing", async () => {
        const endpoint = await created(endpoints.create(newEndpoint(), 10));
        const operator = { $ne: "x" } as unknown as string;
        expect(await endpoints.findOwned(operator, "A")).toBeNull();
        expect(await endpoints.findById(operator)).toBeNull();
        expect(await endpoints.deleteOwned(operator, "A")).toBe(false);
        expect(await deliveries.findById(operator)).toBeNull();
        expect(await endpoints.findOwned(endpoint.id, "A")).not.toBeNull();
      });

      it("the owner deletes (once), and the endpoint's delivery log goes with it", async () => {
        const endpoint = await created(endpoints.create(newEndpoint(), 10));
        await deliveries.insert(delivery({ endpoint_id: endpoint.id }));
        await deliveries.insert(delivery({ endpoint_id: "other" }));
        expect(await endpoints.deleteOwned(endpoint.id, "A")).toBe(true);
        expect(await endpoints.deleteOwned(endpoint.id, "A")).toBe(false);
        expect(await deliveries.countForEndpoint(endpoint.id)).toBe(0);
        expect(await deliveries.countForEndpoint("other")).toBe(1);
      });
    });

    describe("delivery log", () => {
      it("keeps a delivery as written and finds it by id", async () => {
        const row = delivery({ ok: false, status_code: null, latency_ms: null, response_excerpt: null, error: "timeout", next_attempt_at: t(5), attempt: 2 });
        await deliveries.insert(row);
        expect(await deliveries.findById(row.id)).toEqual(row);
        expect(await deliveries.findById("unknown")).toBeNull();
      });

      it("lists an endpoint's deliveries newest first, paged by offset or by `before`", async () => {
        for (let minute = 0; minute < 5; minute++) await deliveries.insert(delivery({ id: `d${minute}`, created_at: t(minute) }));
        await deliveries.insert(delivery({ id: "elsewhere", endpoint_id: "e2", created_at: t(9) }));
        const ids = async (page: Parameters<WebhookDeliveryRepository["listForEndpoint"]>[1]) => (await deliveries.listForEndpoint("e1", page)).map((d) => d.id);
        expect(await ids({ limit: 10 })).toEqual(["d4", "d3", "d2", "d1", "d0"]);
        expect(await ids({ limit: 2, offset: 2 })).toEqual(["d2", "d1"]);
        expect(await ids({ limit: 2, before: t(3) })).toEqual(["d2", "d1"]);
        expect(await deliveries.countForEndpoint("e1")).toBe(5);
      });

      it("deletes the rows older than a date, and only those", async () => {
        await deliveries.insert(delivery({ id: "old", created_at: t(-31 * 24 * 60) }));
        await deliveries.insert(delivery({ id: "new", created_at: t(0) }));
        expect(await deliveries.deleteOlderThan(t(-30 * 24 * 60))).toBe(1);
        expect(await deliveries.findById("old")).toBeNull();
        expect(await deliveries.findById("new")).not.toBeNull();
      });
    });
  });
}
