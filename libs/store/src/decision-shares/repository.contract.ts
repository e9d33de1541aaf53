import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isDuplicateKeyError } from "../errors";
import type { StoreUnderTest } from "../testing/both-drivers";
import type { DecisionShareRepository, StoredShare } from "./repository";

const hash = (c: string) => c.repeat(64);
const at = (minute: number) => new Date(Date.UTC(2025, 8, 8, 10, minute));

function share(overrides: Partial<StoredShare> = {}): StoredShare {
  return { decisionId: "d1", tokenHash: hash("a"), userId: "A", includeImages: false, createdAt: at(0), ...overrides };
}

/** The behaviour every driver must show through `DecisionShareRepository` (A owns d1 and d2; B is another user). */
export function describeDecisionShareRepositoryContract(driverName: string, openEmptyStore: () => Promise<StoreUnderTest>): void {
  describe(`DecisionShareRepository contract (${driverName})`, () => {
    let subject: StoreUnderTest;
    let shares: DecisionShareRepository;

    beforeEach(async () => {
      subject = await openEmptyStore();
      shares = subject.store.decisionShares;
    });
    afterEach(async () => {
      await subject.dispose();
    });

    it("stores a link and finds it by token hash and, for its owner only, by decision", async () => {
      const stored = await shares.replace(share({ includeImages: true }));
      expect(stored).toEqual(share({ includeImages: true }));
      expect(await shares.findByTokenHash(hash("a"))).toEqual(stored);
      expect(await shares.findForDecision("d1", "A")).toEqual(stored);
      expect(await shares.findForDecision("d1", "B")).toBeNull();
      expect(await shares.findByTokenHash(hash("b"))).toBeNull();
    });

    it("keeps one link per decision: a new one replaces the old, whose token stops working", async () => {
      await shares.replace(share());
      await shares.replace(share({ tokenHash: hash("b"), createdAt: at(5) }));
      expect(await shares.findByTokenHash(hash("a"))).toBeNull();
      expect(await shares.findForDecision("d1", "A")).toEqual(share({ tokenHash: hash("b"), createdAt: at(5) }));
      await shares.replace(share({ tokenHash: hash("c"), decisionId: "d2" }));
      expect(await shares.count()).toBe(2);
    });

    it("revokes for the owner only, at once", async () => {
      await shares.replace(share());
      expect(await shares.revoke("d1", "B")).toBe(false);
      expect(await shares.findByTokenHash(hash("a"))).not.toBeNull();
      expect(await shares.revoke("d1", "A")).toBe(true);
      expect(await shares.findByTokenHash(hash("a"))).toBeNull();
      expect(await shares.revoke("d1", "A")).toBe(false);
    });

    it("refuses a token hash stored for another decision, and a hash that is not SHA-256 hex", async () => {
      await shares.replace(share());
      const error = await shares.replace(share({ decisionId: "d2" })).catch((caught: unknown) => caught);
      expect(isDuplicateKeyError(error)).toBe(true);
      await expect(shares.replace(share({ tokenHash: "the-token-itself", decisionId: "d3" }))).rejects.toThrow();
      // Another user's decision id is not taken over: the upsert meets the stored id and fails.
      await expect(shares.replace(share({ tokenHash: hash("d"), userId: "B" }))).rejects.toThrow();
      expect(await shares.findForDecision("d1", "A")).toEqual(share());
      expect(await shares.count()).toBe(1);
    });

    it("takes ids and hashes literally and refuses an empty owner", async () => {
      await shares.replace(share());
      const operator = { $ne: "x" } as unknown as string;
      expect(await shares.findByTokenHash(operator)).toBeNull();
      expect(await shares.findForDecision(operator, "A")).toBeNull();
      expect(await shares.revoke(operator, "A")).toBe(false);
      await expect(shares.findForDecision("d1", "")).rejects.toThrow(RangeError);
      expect(await shares.count()).toBe(1);
    });

    it("lets concurrent replaces of one decision leave exactly one live link", async () => {
      await Promise.all(["b", "c", "d", "e"].map((c, i) => shares.replace(share({ tokenHash: hash(c), createdAt: at(i) }))));
      expect(await shares.count()).toBe(1);
      const live = await shares.findForDecision("d1", "A");
      expect(live && (await shares.findByTokenHash(live.tokenHash))).toEqual(live);
    });
  });
}
