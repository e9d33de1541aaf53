import { randomUUID } from "node:crypto";
import type { PresetSettings } from "@sd/contracts";
import type { Collection, Filter } from "../collection";
import { isDuplicateKeyError } from "../errors";
import type { PresetDocument } from "./schema";

/** A preset as the repository returns it. */
export type StoredPreset = Omit<PresetDocument, "_id"> & { id: string };

export type NewPreset = Pick<StoredPreset, "user_id" | "name" | "settings" | "created_at">;

/** What a write did: saved, or refused because the name is the owner's already, the owner is at the limit, or the preset is not theirs. */
export type PresetWrite = { kind: "saved"; preset: StoredPreset } | { kind: "name-taken" } | { kind: "too-many" } | { kind: "not-found" };

export interface PresetRepository {
  /** Stores a new preset under a fresh id, unless its owner has one of that name or `maxPerUser` already. */
  create(preset: NewPreset, maxPerUser: number): Promise<PresetWrite>;
  /** A user's presets, by name. */
  listForUser(userId: string): Promise<StoredPreset[]>;
  /** The preset if it belongs to `userId`; null for an unknown id and for another user's preset alike. */
  findOwned(id: string, userId: string): Promise<StoredPreset | null>;
  /** The user's preset of this name (exactly as written, trimmed); null when none. */
  findByName(userId: string, name: string): Promise<StoredPreset | null>;
  /** Renames the owner's preset and/or replaces its settings whole; `not-found` for anyone else's or an unknown id. */
  updateOwned(id: string, userId: string, change: { name?: string; settings?: PresetSettings }, at: Date): Promise<PresetWrite>;
  /** Deletes the owner's preset; false (and nothing deleted) for anyone else's or an unknown id. */
  deleteOwned(id: string, userId: string): Promise<boolean>;
  count(): Promise<number>;
}

function fromDocument({ _id, settings, ...fields }: PresetDocument): StoredPreset {
  // MongoDB keeps an empty settings object as {}; absent options are left out, never null.
  return { id: _id, ...fields, settings: { ...(settings ?? {}) } };
}

function present(value: string, name: string): string {
  if (typeof value !== "string" || value === "") throw new RangeError(`${name} must be a non-empty string`);
  return value;
}

// $eq compares literally: an id or a name taken from a request can never act as a query operator.
const ownedBy = (id: string, userId: string): Filter => ({ _id: { $eq: id }, user_id: { $eq: present(userId, "userId") } });
const ofUser = (userId: string): Filter => ({ user_id: { $eq: present(userId, "userId") } });

export function createPresetRepository(presets: Collection<PresetDocument>): PresetRepository {
  const findOwned = async (id: string, userId: string) => {
    const doc = await presets.findOne(ownedBy(id, userId));
    return doc ? fromDocument(doc) : null;
  };

  return {
    async create(preset, maxPerUser) {
      // Counted before the insert: two saves at the same instant may pass it together, which costs
      // one preset over the limit at worst; the limit bounds a list, it guards no money.
      if ((await presets.countDocuments(ofUser(preset.user_id))) >= maxPerUser) return { kind: "too-many" };
      const doc: PresetDocument = { _id: randomUUID(), ...preset, name: preset.name.trim(), updated_at: preset.created_at };
      try {
        await presets.insertOne(doc);
      } catch (error) {
        if (isDuplicateKeyError(error)) return { kind: "name-taken" };
        throw error;
      }
      return { kind: "saved", preset: fromDocument(doc) };
    },

    async listForUser(userId) {
      const docs = await presets.find(ofUser(userId), { sort: { name: 1, _id: 1 } });
      return docs.map(fromDocument);
    },

    findOwned,

    async findByName(userId, name) {
      const doc = await presets.findOne({ ...ofUser(userId), name: { $eq: String(name).trim() } });
      return doc ? fromDocument(doc) : null;
    },

    async updateOwned(id, userId, change, at) {
      const set: Record<string, unknown> = { updated_at: at };
      if (change.name !== undefined) set.name = change.name.trim();
      if (change.settings !== undefined) set.settings = change.settings;
      try {
        const result = await presets.updateOne(ownedBy(id, userId), { $set: set });
        if (result.matchedCount === 0) return { kind: "not-found" };
      } catch (error) {
        if (isDuplicateKeyError(error)) return { kind: "name-taken" };
        throw error;
      }
      const preset = await findOwned(id, userId);
      // Deleted between the update and the read: as gone as an unknown id.
      return preset ? { kind: "saved", preset } : { kind: "not-found" };
    },

    async deleteOwned(id, userId) {
      return (await presets.deleteMany(ownedBy(id, userId))) > 0;
    },

    count() {
      return presets.countDocuments({});
    },
  };
}
