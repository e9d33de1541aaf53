import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { StoreUnderTest } from "../testing/both-drivers";
import type { ApiUsageRepository } from "./repository";

const png = (bytes: number) => `data:image/png;base64,${Buffer.alloc(bytes, 1).toString("base64")}`;

/** The behaviour every driver must show through `ApiUsageRepository` (A and B are two users). */
export function describeApiUsageRepositoryContract(driverName: string, openEmptyStore: () => Promise<StoreUnderTest>): void {
  describe(`ApiUsageRepository contract (${driverName})`, () => {
    let subject: StoreUnderTest;
    let usage: ApiUsageRepository;

    beforeEach(async () => {
      subject = await openEmptyStore();
      usage = subject.store.apiUsage;
    });
    afterEach(async () => {
      await subject.dispose();
    });

    it("sums the decoded sizes of the user's image assets, and only theirs", async () => {
      expect(await usage.storageBytes("A")).toBe(0);
      const createdAt = new Date();
      await subject.store.imageAssets.saveForDecision({ decisionId: "d1", userId: "A", images: [{ label: "image1", data: png(1000) }, { label: "image2", data: png(24) }], createdAt });
      await subject.store.imageAssets.saveForDecision({ decisionId: "d2", userId: "A", images: [{ label: "image1", data: png(1) }], createdAt });
      await subject.store.imageAssets.saveForDecision({ decisionId: "d3", userId: "B", images: [{ label: "image1", data: png(5000) }], createdAt });
      expect(await usage.storageBytes("A")).toBe(1025);
      expect(await usage.storageBytes("B")).toBe(5000);
      await subject.store.imageAssets.deleteForDecision("d1", "A");
      expect(await usage.storageBytes("A")).toBe(1);
      await expect(usage.storageBytes("")).rejects.toThrow(RangeError);
    });
  });
}
