import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { commonEnv, webhookAllowPrivateUrls } from "@sd/config";
import { WEBHOOK_LIMITS } from "@sd/contracts";
import { openStore, type Store, type WebhookDeliveryRecord } from "@sd/store";
import { newWebhookSecret, WebhookUseCases } from "./webhooks";

const NOW = new Date(Date.UTC(2026, 0, 31, 12));
const DAY_MS = 24 * 60 * 60_000;

const row = (id: string, ageMs: number): WebhookDeliveryRecord => ({
  id,
  endpoint_id: "e1",
  user_id: "u1",
  event_id: `evt_${id}`,
  event_type: "decision.completed",
  payload: "{}",
  attempt: 1,
  status_code: 200,
  ok: true,
  latency_ms: 5,
  response_excerpt: null,
  error: null,
  next_attempt_at: null,
  created_at: new Date(NOW.getTime() - ageMs),
});

describe("WEBHOOK_ALLOW_PRIVATE_URLS", () => {
  const allowed = (vars: Record<string, string>) => webhookAllowPrivateUrls(commonEnv.parse(vars));
  it("defaults to refusing private URLs in production only, and an explicit value wins", () => {
    expect(allowed({ NODE_ENV: "production" })).toBe(false);
    expect(allowed({ NODE_ENV: "development" })).toBe(true);
    expect(allowed({ NODE_ENV: "test", WEBHOOK_ALLOW_PRIVATE_URLS: "" })).toBe(true);
    expect(allowed({ NODE_ENV: "production", WEBHOOK_ALLOW_PRIVATE_URLS: "true" })).toBe(true);
    expect(allowed({ NODE_ENV: "development", WEBHOOK_ALLOW_PRIVATE_URLS: "no" })).toBe(false);
    expect(() => allowed({ WEBHOOK_ALLOW_PRIVATE_URLS: "maybe" })).toThrow();
  });
});

describe("newWebhookSecret", () => {
  it("is whsec_ and the base64 of fresh random bytes, 24 to 32 of them", () => {
    const secrets = new Set(Array.from({ length: 20 }, newWebhookSecret));
    expect(secrets.size).toBe(20);
    for (const secret of secrets) {
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
      const bytes = Buffer.from(secret.slice("whsec_".length), "base64").length;
      expect(bytes).toBe(WEBHOOK_LIMITS.secretBytes);
      expect(bytes).toBeGreaterThanOrEqual(24);
      expect(bytes).toBeLessThanOrEqual(32);
    }
  });
});

describe("WebhookUseCases.purgeOldDeliveries (the gateway's hourly purge)", () => {
  let dir: string;
  let store: Store;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "sd-webhook-purge-"));
    store = await openStore({ mongoUrl: null, dataDir: dir });
  });
  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("deletes the delivery log rows older than 30 days and keeps the others", async () => {
    const useCases = new WebhookUseCases({
      endpoints: store.webhookEndpoints,
      deliveries: store.webhookDeliveries,
      // The purge never queues anything.
      dispatch: {
        sendTest: () => Promise.reject(new Error("not expected")),
        resend: () => Promise.reject(new Error("not expected")),
      },
      allowPrivateUrls: true,
      now: () => NOW,
    });
    for (const [id, age] of [
      ["fresh", 0],
      ["29 days", 29 * DAY_MS],
      ["31 days", 31 * DAY_MS],
      ["90 days", 90 * DAY_MS],
    ] as const)
      await store.webhookDeliveries.insert(row(id, age));
    expect(await useCases.purgeOldDeliveries()).toBe(2);
    expect((await store.webhookDeliveries.listForEndpoint("e1", { limit: 10 })).map((d) => d.id)).toEqual(["fresh", "29 days"]);
  });
});
