import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { StoreUnderTest } from "../testing/both-drivers";
import type { NewPreset, PresetRepository, StoredPreset } from "./repository";

const t = (minute: number) => new Date(Date.UTC(2025, 0, 15, 9, minute));

function newPreset(overrides: Partial<NewPreset> = {}): NewPreset {
  return { user_id: "A", name: "Fast", settings: { ensemble_mode: "weighted_voting", models: ["openai", "claude"], early_quorum: true }, created_at: t(0), ...overrides };
}

async function saved(write: Promise<Awaited<ReturnType<PresetRepository["create"]>>>): Promise<StoredPreset> {
  const result = await write;
  if (result.kind !== "saved") throw new Error(`expected a saved preset, got ${result.kind}`);
  return result.preset;
}

/** The behaviour every driver must show through `PresetRepository` (A and B are two users). */
export function describePresetRepositoryContract(driverName: string, openEmptyStore: () => Promise<StoreUnderTest>): void {
  describe(`PresetRepository contract (${driverName})`, () => {
    let subject: StoreUnderTest;
    let presets: PresetRepository;

    beforeEach(async () => {
      subject = await openEmptyStore();
      presets = subject.store.presets;
    });
    afterEach(async () => {
      await subject.dispose();
    });

    it("saves a preset under a fresh id with its settings as given, and finds it by id and by name", async () => {
      const preset = await saved(presets.create(newPreset(), 10));
      expect(preset).toEqual({ id: expect.any(String), ...newPreset(), updated_at: t(0) });
      expect(await presets.findOwned(preset.id, "A")).toEqual(preset);
      expect(await presets.findByName("A", "Fast")).toEqual(preset);
      expect(await presets.findByName("A", "fast")).toBeNull();
      expect(await presets.findByName("B", "Fast")).toBeNull();
    });

    it("keeps a preset without settings as empty settings (every default), not as nulls", async () => {
      const preset = await saved(presets.create(newPreset({ name: "Defaults", settings: {} }), 10));
      expect(preset.settings).toEqual({});
      expect((await presets.findByName("A", "Defaults"))?.settings).toEqual({});
    });

    it("refuses a second preset of the same name for the same user, not for another user", async () => {
      await saved(presets.create(newPreset(), 10));
      expect(await presets.create(newPreset({ settings: {} }), 10)).toEqual({ kind: "name-taken" });
      expect(await presets.create(newPreset({ name: "  Fast " }), 10)).toEqual({ kind: "name-taken" });
      expect((await presets.create(newPreset({ user_id: "B" }), 10)).kind).toBe("saved");
      expect(await presets.count()).toBe(2);
    });

    it("refuses a name longer than the limit and a mode that does not exist", async () => {
      await expect(presets.create(newPreset({ name: "x".repeat(61) }), 10)).rejects.toThrow();
      await expect(presets.create(newPreset({ settings: { ensemble_mode: "coin_flip" as "judge" } }), 10)).rejects.toThrow();
      expect(await presets.count()).toBe(0);
    });

    it("stops at the per-user limit; other users are not counted", async () => {
      await saved(presets.create(newPreset({ name: "one" }), 2));
      await saved(presets.create(newPreset({ name: "two" }), 2));
      expect(await presets.create(newPreset({ name: "three" }), 2)).toEqual({ kind: "too-many" });
      expect((await presets.create(newPreset({ user_id: "B", name: "three" }), 2)).kind).toBe("saved");
    });

    it("lists a user's presets by name, and nobody else's", async () => {
      await saved(presets.create(newPreset({ name: "beta" }), 10));
      await saved(presets.create(newPreset({ name: "alpha" }), 10));
      await saved(presets.create(newPreset({ user_id: "B", name: "aaa" }), 10));
      expect((await presets.listForUser("A")).map((preset) => preset.name)).toEqual(["alpha", "beta"]);
      expect(await presets.listForUser("C")).toEqual([]);
      await expect(presets.listForUser("")).rejects.toThrow(RangeError);
    });

    it("renames and replaces the settings whole, keeping the creation time", async () => {
      const preset = await saved(presets.create(newPreset(), 10));
      const renamed = await presets.updateOwned(preset.id, "A", { name: "Quick" }, t(5));
      expect(renamed).toEqual({ kind: "saved", preset: { ...preset, name: "Quick", updated_at: t(5) } });
      const replaced = await presets.updateOwned(preset.id, "A", { settings: { ensemble_mode: "judge", judge_model: "openai" } }, t(6));
      expect(replaced).toEqual({ kind: "saved", preset: { ...preset, name: "Quick", settings: { ensemble_mode: "judge", judge_model: "openai" }, updated_at: t(6) } });
      expect(await presets.findByName("A", "Fast")).toBeNull();
    });

    it("refuses a rename to another of the owner's names, and changes nothing", async () => {
      const first = await saved(presets.create(newPreset({ name: "one" }), 10));
      await saved(presets.create(newPreset({ name: "two" }), 10));
      expect(await presets.updateOwned(first.id, "A", { name: "two" }, t(5))).toEqual({ kind: "name-taken" });
      expect(await presets.findOwned(first.id, "A")).toEqual(first);
    });

    describe("owner scoping (A owns the preset; B can neither read, change nor delete it)", () => {
      it("findOwned, updateOwned and deleteOwned answer for B exactly as for an unknown id", async () => {
        const preset = await saved(presets.create(newPreset(), 10));
        expect(await presets.findOwned(preset.id, "B")).toBeNull();
        expect(await presets.findOwned("unknown", "A")).toBeNull();
        expect(await presets.updateOwned(preset.id, "B", { name: "Mine" }, t(5))).toEqual({ kind: "not-found" });
        expect(await presets.updateOwned("unknown", "A", { name: "Mine" }, t(5))).toEqual({ kind: "not-found" });
        expect(await presets.deleteOwned(preset.id, "B")).toBe(false);
        expect(await presets.findOwned(preset.id, "A")).toEqual(preset);
      });

      it("takes ids and names literally: an operator matches nothing", async () => {
        const preset = await saved(presets.create(newPreset(), 10));
        const operator = { $ne: "x" } as unknown as string;
        expect(await presets.findOwned(operator, "A")).toBeNull();
        expect(await presets.deleteOwned(operator, "A")).toBe(false);
        await expect(presets.findByName("A", operator)).resolves.toBeNull();
        expect(await presets.findOwned(preset.id, "A")).not.toBeNull();
      });

      it("the owner deletes (once), which frees the name", async () => {
        const preset = await saved(presets.create(newPreset(), 10));
        expect(await presets.deleteOwned(preset.id, "A")).toBe(true);
        expect(await presets.deleteOwned(preset.id, "A")).toBe(false);
        expect(await presets.findByName("A", "Fast")).toBeNull();
        expect((await presets.create(newPreset(), 10)).kind).toBe("saved");
      });
    });
  });
}
