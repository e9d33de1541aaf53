import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isDuplicateKeyError } from "../errors";
import type { StoreUnderTest } from "../testing/both-drivers";
import type { ApiKeyRepository, NewApiKey } from "./repository";

const t = (minute: number) => new Date(Date.UTC(2025, 0, 15, 9, minute));
const hash = (c: string) => c.repeat(64);

function newKey(overrides: Partial<NewApiKey> = {}): NewApiKey {
  return {
    user_id: "A",
    name: "CI",
    workspace: "Default",
    created_by: "a@example.com",
    created_at: t(0),
    active_status: true,
    key_hash: hash("a"),
    key_ciphertext: "v1.iv.tag.ciphertext",
    ...overrides,
  };
}

/** The behaviour every driver must show through `ApiKeyRepository` (A and B are two users). */
export function describeApiKeyRepositoryContract(driverName: string, openEmptyStore: () => Promise<StoreUnderTest>): void {
  describe(`ApiKeyRepository contract (${driverName})`, () => {
    let subject: StoreUnderTest;
    let keys: ApiKeyRepository;

    beforeEach(async () => {
      subject = await openEmptyStore();
      keys = subject.store.apiKeys;
    });
    afterEach(async () => {
      await subject.dispose();
    });

    it("creates a key unused, under a fresh id, and finds it by hash and by owner", async () => {
      const created = await keys.create(newKey());
      expect(created).toEqual({ id: expect.any(String), ...newKey(), last_used_at: null, monthly_spend_limit_usd: null });
      expect(await keys.findByHash(hash("a"))).toEqual(created);
      expect(await keys.findOwned(created.id, "A")).toEqual(created);
      expect(await keys.findByHash(hash("b"))).toBeNull();
      const other = await keys.create(newKey({ key_hash: hash("b") }));
      expect(other.id).not.toBe(created.id);
    });

    it("refuses a second key with the same hash, and a hash that is not SHA-256 hex", async () => {
      await keys.create(newKey());
      const error = await keys.create(newKey({ name: "Other" })).catch((caught: unknown) => caught);
      expect(isDuplicateKeyError(error)).toBe(true);
      await expect(keys.create(newKey({ key_hash: "sd_live_plain-key" }))).rejects.toThrow();
      expect(await keys.count()).toBe(1);
    });

    it("lists a user's keys newest first, and nobody else's", async () => {
      const old = await keys.create(newKey({ name: "old", key_hash: hash("1"), created_at: t(1) }));
      const newest = await keys.create(newKey({ name: "new", key_hash: hash("3"), created_at: t(3) }));
      const mid = await keys.create(newKey({ name: "mid", key_hash: hash("2"), created_at: t(2) }));
      await keys.create(newKey({ user_id: "B", key_hash: hash("4"), created_at: t(4) }));
      expect((await keys.listForUser("A")).map((key) => key.id)).toEqual([newest.id, mid.id, old.id]);
      expect((await keys.listForUser("C")).length).toBe(0);
      await expect(keys.listForUser("")).rejects.toThrow(RangeError);
    });

    describe("owner scoping (A owns the key; B can neither read, change nor delete it)", () => {
      it("findOwned, setActive and deleteOwned answer for B exactly as for an unknown id", async () => {
        const key = await keys.create(newKey());
        expect(await keys.findOwned(key.id, "B")).toBeNull();
        expect(await keys.findOwned("unknown", "A")).toBeNull();
        expect(await keys.setActive(key.id, "B", false)).toBeNull();
        expect(await keys.setActive("unknown", "A", false)).toBeNull();
        expect(await keys.updateOwned(key.id, "B", { monthly_spend_limit_usd: 1 })).toBeNull();
        expect(await keys.updateOwned("unknown", "A", { monthly_spend_limit_usd: 1 })).toBeNull();
        expect(await keys.deleteOwned(key.id, "B")).toBe(false);
        expect(await keys.deleteOwned("unknown", "A")).toBe(false);
        expect(await keys.findOwned(key.id, "A")).toEqual(key);
      });

      it("takes ids literally: an operator in an id matches nothing", async () => {
        const key = await keys.create(newKey());
        const operator = { $ne: "x" } as unknown as string;
        await expect(keys.findOwned(operator, "A")).resolves.toBeNull();
        expect(await keys.deleteOwned(operator, "A")).toBe(false);
        expect(await keys.findOwned(key.id, "A")).not.toBeNull();
      });

      it("the owner deactivates, activates and deletes (once)", async () => {
        const key = await keys.create(newKey());
        expect(await keys.setActive(key.id, "A", false)).toEqual({ ...key, active_status: false });
        expect((await keys.findByHash(hash("a")))?.active_status).toBe(false);
        expect(await keys.setActive(key.id, "A", false)).toEqual({ ...key, active_status: false });
        expect(await keys.setActive(key.id, "A", true)).toEqual(key);
        expect(await keys.deleteOwned(key.id, "A")).toBe(true);
        expect(await keys.deleteOwned(key.id, "A")).toBe(false);
        expect(await keys.findByHash(hash("a"))).toBeNull();
        expect(await keys.count()).toBe(0);
      });
    });

    it("the owner sets, changes and removes the monthly spend limit, and nothing else changes", async () => {
      const key = await keys.create(newKey());
      expect(await keys.updateOwned(key.id, "A", { monthly_spend_limit_usd: 5 })).toEqual({ ...key, monthly_spend_limit_usd: 5 });
      expect((await keys.findByHash(hash("a")))?.monthly_spend_limit_usd).toBe(5);
      expect(await keys.updateOwned(key.id, "A", { monthly_spend_limit_usd: 12.5 })).toEqual({ ...key, monthly_spend_limit_usd: 12.5 });
      // Switching the key off keeps its limit; no change at all answers the key as it is.
      expect(await keys.setActive(key.id, "A", false)).toEqual({ ...key, active_status: false, monthly_spend_limit_usd: 12.5 });
      expect(await keys.updateOwned(key.id, "A", {})).toEqual({ ...key, active_status: false, monthly_spend_limit_usd: 12.5 });
      expect(await keys.updateOwned(key.id, "A", { monthly_spend_limit_usd: null })).toEqual({ ...key, active_status: false });
      await expect(keys.updateOwned(key.id, "A", { monthly_spend_limit_usd: -1 })).rejects.toThrow();
      expect((await keys.findOwned(key.id, "A"))?.monthly_spend_limit_usd).toBeNull();
    });

    it("touch keeps the latest use, whatever order the calls finish in", async () => {
      const key = await keys.create(newKey());
      await keys.touch(key.id, t(10));
      expect((await keys.findOwned(key.id, "A"))?.last_used_at).toEqual(t(10));
      await keys.touch(key.id, t(5));
      expect((await keys.findOwned(key.id, "A"))?.last_used_at).toEqual(t(10));
      await keys.touch(key.id, t(20));
      expect((await keys.findOwned(key.id, "A"))?.last_used_at).toEqual(t(20));
    });
  });
}
