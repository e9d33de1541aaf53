import { randomUUID } from "node:crypto";
import type { Collection, Filter } from "../collection";
import type { ApiKeyDocument } from "./schema";

/** An API key as the store keeps it: hash and ciphertext, never the key. */
export type StoredApiKey = Omit<ApiKeyDocument, "_id"> & { id: string };

/** A new key: unused, and without a spend limit until its owner sets one. */
export type NewApiKey = Omit<StoredApiKey, "id" | "last_used_at" | "monthly_spend_limit_usd">;

/** What the owner can change on a key. */
export type ApiKeyChanges = Partial<Pick<StoredApiKey, "active_status" | "monthly_spend_limit_usd">>;

export interface ApiKeyRepository {
  /** Stores a new key (not used yet) under a fresh id. Rejects with a duplicate key error for a hash already stored. */
  create(key: NewApiKey): Promise<StoredApiKey>;
  /** A user's keys, newest first. */
  listForUser(userId: string): Promise<StoredApiKey[]>;
  /** The key if it belongs to `userId`; null for an unknown id and for another user's key alike. */
  findOwned(id: string, userId: string): Promise<StoredApiKey | null>;
  /** The key with this SHA-256 hash (hex), active or not; null when none. */
  findByHash(keyHash: string): Promise<StoredApiKey | null>;
  /** Activates or deactivates the owner's key; null (and nothing changed) for anyone else's or an unknown id. */
  setActive(id: string, userId: string, active: boolean): Promise<StoredApiKey | null>;
  /** Changes the owner's key as given and answers it; null (and nothing changed) for anyone else's or an unknown id. */
  updateOwned(id: string, userId: string, changes: ApiKeyChanges): Promise<StoredApiKey | null>;
  /** Deletes the owner's key; false (and nothing deleted) for anyone else's or an unknown id. */
  deleteOwned(id: string, userId: string): Promise<boolean>;
  /** Records a call through the key at `at`; an earlier time never moves `last_used_at` back. */
  touch(id: string, at: Date): Promise<void>;
  count(): Promise<number>;
}

function fromDocument({ _id, ...fields }: ApiKeyDocument): StoredApiKey {
  return { id: _id, ...fields, last_used_at: fields.last_used_at ?? null, monthly_spend_limit_usd: fields.monthly_spend_limit_usd ?? null };
}

// $eq compares literally: an id taken from a URL can never act as a query operator.
const ownedBy = (id: string, userId: string): Filter => ({ _id: { $eq: id }, user_id: { $eq: assertPresent(userId, "userId") } });

function assertPresent(value: string, name: string): string {
  if (typeof value !== "string" || value === "") throw new RangeError(`${name} must be a non-empty string`);
  return value;
}

export function createApiKeyRepository(keys: Collection<ApiKeyDocument>): ApiKeyRepository {
  const findOwned = async (id: string, userId: string) => {
    const doc = await keys.findOne(ownedBy(id, userId));
    return doc ? fromDocument(doc) : null;
  };

  const updateOwned = async (id: string, userId: string, changes: ApiKeyChanges) => {
    const set = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    // MongoDB refuses an empty $set: nothing to change is just a read.
    if (Object.keys(set).length === 0) return findOwned(id, userId);
    const result = await keys.updateOne(ownedBy(id, userId), { $set: set });
    return result.matchedCount === 0 ? null : findOwned(id, userId);
  };

  return {
    async create(key) {
      const doc: ApiKeyDocument = { _id: randomUUID(), ...key, last_used_at: null, monthly_spend_limit_usd: null };
      await keys.insertOne(doc);
      return fromDocument(doc);
    },

    async listForUser(userId) {
      const docs = await keys.find({ user_id: { $eq: assertPresent(userId, "userId") } }, { sort: { created_at: -1, _id: 1 } });
      return docs.map(fromDocument);
    },

    findOwned,

    async findByHash(keyHash) {
      const doc = await keys.findOne({ key_hash: { $eq: keyHash } });
      return doc ? fromDocument(doc) : null;
    },

    setActive(id, userId, active) {
      return updateOwned(id, userId, { active_status: active });
    },

    updateOwned,

    async deleteOwned(id, userId) {
      return (await keys.deleteMany(ownedBy(id, userId))) > 0;
    },

    async touch(id, at) {
      // $max: of two calls finishing out of order, the later time stays.
      await keys.updateOne({ _id: { $eq: id } }, { $max: { last_used_at: at } });
    },

    count() {
      return keys.countDocuments({});
    },
  };
}
