import { describeImage, LIMITS } from "@sd/contracts";
import { calculateObjectSize } from "bson";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DecisionRepository } from "../decisions";
import { toDecisionDocument } from "../decisions/mapping";
import { isDocumentTooLargeError, isDuplicateKeyError, MAX_BSON_DOCUMENT_SIZE } from "../errors";
import type { StoreUnderTest } from "../testing/both-drivers";
import { sampleDecision } from "../testing/sample-decision";
import type { ImageAssetRepository, LabelledImage } from "./repository";

/** A PNG data URL whose payload decodes to exactly `bytes` bytes. */
const png = (bytes: number, fill = 7) => `data:image/png;base64,${Buffer.alloc(bytes, fill).toString("base64")}`;
const labelled = (count: number, data = png(16)): LabelledImage[] => Array.from({ length: count }, (_, n) => ({ label: `image${n + 1}`, data }));
const t = (minute: number) => new Date(Date.UTC(2024, 6, 1, 9, minute));

/** The behaviour every driver must show through `ImageAssetRepository` (A and B are two users). */
export function describeImageAssetRepositoryContract(driverName: string, openEmptyStore: () => Promise<StoreUnderTest>): void {
  describe(`ImageAssetRepository contract (${driverName})`, () => {
    let subject: StoreUnderTest;
    let assets: ImageAssetRepository;
    let decisions: DecisionRepository;

    beforeEach(async () => {
      subject = await openEmptyStore();
      assets = subject.store.imageAssets;
      decisions = subject.store.decisions;
    });
    afterEach(async () => {
      await subject.dispose();
    });

    describe("saveForDecision", () => {
      it("stores each image once under its label, with type and size from the data, and answers the ids in label order", async () => {
        const images = [
          { label: "image10", data: png(10) },
          { label: "image2", data: "data:image/webp;base64,AAAA" },
          { label: "image1", data: png(30) },
        ];
        const ids = await assets.saveForDecision({ decisionId: "d1", userId: "A", images, createdAt: t(0) });
        expect(ids).toEqual(["d1-image1", "d1-image2", "d1-image10"]);
        const stored = await assets.listForDecision("d1", "A");
        expect(stored.map((asset) => asset.id)).toEqual(ids);
        expect(stored[0]).toEqual({
          id: "d1-image1",
          user_id: "A",
          decisionHistory_id: "d1",
          label: "image1",
          image_data: png(30),
          image_type: "image/png",
          file_size: 30,
          created_at: t(0),
        });
        expect(stored.map((asset) => [asset.image_type, asset.file_size])).toEqual([
          ["image/png", 30],
          ["image/webp", 3],
          ["image/png", 10],
        ]);
      });

      it("is idempotent: a repeated write keeps what is stored and answers the same ids", async () => {
        const first = await assets.saveForDecision({ decisionId: "d1", userId: "A", images: labelled(2), createdAt: t(0) });
        const again = await assets.saveForDecision({ decisionId: "d1", userId: "A", images: labelled(3, png(99)), createdAt: t(5) });
        expect(again).toEqual([...first, "d1-image3"]);
        expect(await assets.count()).toBe(3);
        const stored = await assets.listForDecision("d1", "A");
        expect(stored.map((asset) => [asset.label, asset.file_size, asset.created_at])).toEqual([
          ["image1", 16, t(0)],
          ["image2", 16, t(0)],
          ["image3", 99, t(5)],
        ]);
      });

      it("keeps one asset per label when the same write races itself", async () => {
        const write = () => assets.saveForDecision({ decisionId: "d1", userId: "A", images: labelled(3), createdAt: t(0) });
        const results = await Promise.all([write(), write(), write()]);
        for (const ids of results) expect(ids).toEqual(["d1-image1", "d1-image2", "d1-image3"]);
        expect(await assets.count()).toBe(3);
      });

      it("stores nothing for a decision without images and refuses a label that is not imageN", async () => {
        expect(await assets.saveForDecision({ decisionId: "d1", userId: "A", images: [], createdAt: t(0) })).toEqual([]);
        await expect(assets.saveForDecision({ decisionId: "d1", userId: "A", images: [{ label: "cover", data: png(4) }], createdAt: t(0) })).rejects.toThrow();
        expect(await assets.count()).toBe(0);
      });
    });

    describe("create", () => {
      it("stores one asset and answers it as stored", async () => {
        const created = await assets.create({ userId: "A", decisionId: "d1", label: "image1", data: png(12), createdAt: t(1) });
        expect(created).toEqual({
          id: "d1-image1",
          user_id: "A",
          decisionHistory_id: "d1",
          label: "image1",
          image_data: png(12),
          image_type: "image/png",
          file_size: 12,
          created_at: t(1),
        });
        expect(await assets.findOwned(created.id, "A")).toEqual(created);
      });

      it("rejects with a duplicate key error when the decision already has that label, changing nothing", async () => {
        await assets.saveForDecision({ decisionId: "d1", userId: "A", images: labelled(1), createdAt: t(0) });
        const error = await assets.create({ userId: "A", decisionId: "d1", label: "image1", data: png(50), createdAt: t(1) }).catch((caught: unknown) => caught);
        expect(isDuplicateKeyError(error)).toBe(true);
        expect((await assets.findOwned("d1-image1", "A"))?.file_size).toBe(16);
        // The same label on another decision is another asset.
        await assets.create({ userId: "A", decisionId: "d2", label: "image1", data: png(50), createdAt: t(1) });
        expect(await assets.count()).toBe(2);
      });

      it("refuses an invalid label or an empty user", async () => {
        await expect(assets.create({ userId: "A", decisionId: "d1", label: "image0", data: png(1), createdAt: t(1) })).rejects.toThrow();
        await expect(assets.create({ userId: "", decisionId: "d1", label: "image1", data: png(1), createdAt: t(1) })).rejects.toThrow();
        expect(await assets.count()).toBe(0);
      });
    });

    describe("owner scoping (A owns everything stored here; B never reads or deletes it)", () => {
      beforeEach(async () => {
        await assets.saveForDecision({ decisionId: "d1", userId: "A", images: labelled(2), createdAt: t(0) });
        await assets.saveForDecision({ decisionId: "d2", userId: "A", images: labelled(1), createdAt: t(10) });
      });

      it("findOwned answers null alike for another user's asset and an unknown id", async () => {
        expect((await assets.findOwned("d1-image1", "A"))?.label).toBe("image1");
        expect(await assets.findOwned("d1-image1", "B")).toBeNull();
        expect(await assets.findOwned("d9-image1", "A")).toBeNull();
        await expect(assets.findOwned("d1-image1", "")).rejects.toThrow(RangeError);
      });

      it("listForDecision and listForUser show B nothing of A's", async () => {
        expect(await assets.listForDecision("d1", "B")).toEqual([]);
        expect(await assets.listForUser("B", 50)).toEqual([]);
      });

      it("deleteOwned by B deletes nothing; by A deletes once and answers the asset", async () => {
        expect(await assets.deleteOwned("d1-image1", "B")).toBeNull();
        expect(await assets.count()).toBe(3);
        expect(await assets.deleteOwned("d1-image1", "A")).toMatchObject({ id: "d1-image1", label: "image1", user_id: "A" });
        expect(await assets.deleteOwned("d1-image1", "A")).toBeNull();
        expect((await assets.listForDecision("d1", "A")).map((asset) => asset.id)).toEqual(["d1-image2"]);
        expect(await assets.count()).toBe(2);
      });

      it("deleteForDecision by B deletes nothing; by A deletes only that decision's assets", async () => {
        expect(await assets.deleteForDecision("d1", "B")).toEqual([]);
        expect(await assets.count()).toBe(3);
        expect(await assets.deleteForDecision("d1", "A")).toEqual(["d1-image1", "d1-image2"]);
        expect(await assets.deleteForDecision("d1", "A")).toEqual([]);
        expect(await assets.listForDecision("d1", "A")).toEqual([]);
        expect((await assets.listForDecision("d2", "A")).map((asset) => asset.id)).toEqual(["d2-image1"]);
      });
    });

    it("lists a decision's assets in label order image1, image2, ..., image10", async () => {
      const labels = Array.from({ length: 10 }, (_, n) => `image${n + 1}`);
      for (const label of [...labels].reverse()) {
        await assets.create({ userId: "A", decisionId: "d1", label, data: png(4), createdAt: t(0) });
      }
      expect((await assets.listForDecision("d1", "A")).map((asset) => asset.label)).toEqual(labels);
    });

    it("lists a user's assets newest first, up to the limit", async () => {
      await assets.saveForDecision({ decisionId: "old", userId: "A", images: labelled(2), createdAt: t(0) });
      await assets.saveForDecision({ decisionId: "new", userId: "A", images: labelled(1), createdAt: t(30) });
      await assets.saveForDecision({ decisionId: "mid", userId: "A", images: labelled(1), createdAt: t(15) });
      await assets.saveForDecision({ decisionId: "b", userId: "B", images: labelled(1), createdAt: t(20) });
      const ids = async (limit: number) => (await assets.listForUser("A", limit)).map((asset) => asset.id);
      expect(await ids(50)).toEqual(["new-image1", "mid-image1", "old-image1", "old-image2"]);
      expect(await ids(2)).toEqual(["new-image1", "mid-image1"]);
      expect(await ids(0)).toEqual([]);
      await expect(assets.listForUser("A", -1)).rejects.toThrow(RangeError);
    });

    describe("images near the 10 MB limit", () => {
      // 9.9 MiB decoded each, just under the 10 MiB limit; about 13.8 MB as base64.
      const bytes = Math.floor(9.9 * 1024 * 1024);
      let made: string[] | null = null;
      const bigImages = () => (made ??= [png(bytes, 1), png(bytes, 2), png(bytes, 3)]);

      it("stores a decision with three 9.9 MB images as three assets; the decision holds only their ids", async () => {
        expect(bytes).toBeLessThan(LIMITS.maxImageBytes);
        const big = bigImages();
        const images = big.map((data, n) => ({ label: `image${n + 1}`, data }));
        const ids = await assets.saveForDecision({ decisionId: "big", userId: "A", images, createdAt: t(0) });
        expect(ids).toEqual(["big-image1", "big-image2", "big-image3"]);
        expect(await decisions.insertOnce(sampleDecision({ id: "big", user_id: "A", images: ids }))).toBe(true);

        const stored = await decisions.findOwned("big", "A");
        expect(stored?.images).toEqual(ids);
        expect(calculateObjectSize(toDecisionDocument(stored ?? sampleDecision()))).toBeLessThan(4 * 1024);
        const listed = await assets.listForDecision("big", "A");
        expect(listed.map((asset) => asset.file_size)).toEqual([bytes, bytes, bytes]);
        expect(listed.map((asset) => asset.image_data === big[Number(asset.label.slice(5)) - 1])).toEqual([true, true, true]);
      });

      it("refuses a single document over 16 MiB and stores nothing: a decision carrying the images itself, or one oversized asset", async () => {
        const inline = sampleDecision({ id: "inline", user_id: "A", images: bigImages() });
        expect(calculateObjectSize(toDecisionDocument(inline))).toBeGreaterThan(MAX_BSON_DOCUMENT_SIZE);
        const decisionError = await decisions.insertOnce(inline).catch((caught: unknown) => caught);
        expect(isDocumentTooLargeError(decisionError)).toBe(true);
        expect(await decisions.findById("inline")).toBeNull();

        const huge = png(13 * 1024 * 1024); // 13 MiB decoded: over 17 MiB as base64
        expect(describeImage(huge).file_size).toBe(13 * 1024 * 1024);
        const assetError = await assets.create({ userId: "A", decisionId: "huge", label: "image1", data: huge, createdAt: t(0) }).catch((caught: unknown) => caught);
        expect(isDocumentTooLargeError(assetError)).toBe(true);
        expect(await assets.count()).toBe(0);
        expect(await decisions.count()).toBe(0);
      });
    });
  });
}
