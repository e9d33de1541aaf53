import { describeImage } from "@sd/contracts";
import type { Collection, Filter } from "../collection";
import { isDuplicateKeyError } from "../errors";
import type { ImageAssetDocument } from "./schema";

export type StoredImageAsset = Omit<ImageAssetDocument, "_id"> & { id: string };

/** One image of a decision: its label (image1, image2, ...) and its data URL (or bare base64). */
export interface LabelledImage {
  label: string;
  data: string;
}

export interface DecisionImages {
  decisionId: string;
  userId: string;
  images: readonly LabelledImage[];
  createdAt: Date;
}

export interface NewImageAsset {
  userId: string;
  decisionId: string;
  label: string;
  data: string;
  createdAt: Date;
}

export interface ImageAssetRepository {
  /**
   * Stores a decision's images as its assets, once: ids are derived from the decision and the label,
   * and a label already stored for the decision is kept as it is (so a retried write adds nothing).
   * Resolves to the asset ids in label order (image1, image2, ..., image10), one per label.
   */
  saveForDecision(decision: DecisionImages): Promise<string[]>;
  /**
   * Stores one asset; `image_type` and `file_size` come from the data. Rejects with a duplicate key
   * error (`isDuplicateKeyError`) when the decision already has an asset with that label.
   */
  create(asset: NewImageAsset): Promise<StoredImageAsset>;
  /** The asset if it belongs to `userId`; null for an unknown id and for another user's asset alike. */
  findOwned(id: string, userId: string): Promise<StoredImageAsset | null>;
  /** The assets of a decision that belong to `userId` (none for anyone else), in label order. */
  listForDecision(decisionId: string, userId: string): Promise<StoredImageAsset[]>;
  /** A user's assets, newest first, at most `limit`. */
  listForUser(userId: string, limit: number): Promise<StoredImageAsset[]>;
  /** Deletes the asset if it belongs to `userId`; resolves to what was deleted, or null. */
  deleteOwned(id: string, userId: string): Promise<StoredImageAsset | null>;
  /** Deletes a decision's assets that belong to `userId`; resolves to their ids, in label order. */
  deleteForDecision(decisionId: string, userId: string): Promise<string[]>;
  count(): Promise<number>;
}

/**
 * The id of a decision's asset with this label. Labels never contain "-", so the id names exactly
 * one (decision, label) pair: storing the same image twice hits the same id.
 */
export function imageAssetId(decisionId: string, label: string): string {
  return `${decisionId}-${label}`;
}

/** image1 < image2 < ... < image10, by number (not as text). */
export function byLabel<T extends { label: string }>(a: T, b: T): number {
  return labelNumber(a.label) - labelNumber(b.label);
}

const labelNumber = (label: string) => Number(label.slice("image".length));

function fromDocument({ _id, ...fields }: ImageAssetDocument): StoredImageAsset {
  return { id: _id, ...fields };
}

function toDocument(asset: NewImageAsset): ImageAssetDocument {
  return {
    _id: imageAssetId(asset.decisionId, asset.label),
    user_id: asset.userId,
    decisionHistory_id: asset.decisionId,
    label: asset.label,
    image_data: asset.data,
    ...describeImage(asset.data),
    created_at: asset.createdAt,
  };
}

// $eq compares literally: an id or user id can never act as a query operator.
const owned = (userId: string): Filter => ({ user_id: { $eq: assertUserId(userId) } });

export function createImageAssetRepository(assets: Collection<ImageAssetDocument>): ImageAssetRepository {
  /** The id stored under a decision's label (an asset stored before ids were derived keeps its own). */
  async function storedIdOf(decisionId: string, label: string): Promise<string | null> {
    const [doc] = await assets.find({ decisionHistory_id: { $eq: decisionId }, label: { $eq: label } }, { projection: { _id: 1 }, limit: 1 });
    return doc?._id ?? null;
  }

  return {
    async saveForDecision({ decisionId, userId, images, createdAt }) {
      const ids: string[] = [];
      const seen = new Set<string>();
      // One at a time: each image may be near 10 MB, and the journal keeps the label order.
      for (const image of [...images].sort(byLabel)) {
        if (seen.has(image.label)) continue;
        seen.add(image.label);
        try {
          const doc = toDocument({ decisionId, userId, label: image.label, data: image.data, createdAt });
          await assets.insertOne(doc);
          ids.push(doc._id);
        } catch (error) {
          if (!isDuplicateKeyError(error)) throw error;
          ids.push((await storedIdOf(decisionId, image.label)) ?? imageAssetId(decisionId, image.label));
        }
      }
      return ids;
    },

    async create(asset) {
      const doc = toDocument(asset);
      await assets.insertOne(doc);
      return fromDocument(doc);
    },

    async findOwned(id, userId) {
      const doc = await assets.findOne({ _id: { $eq: id }, ...owned(userId) });
      return doc ? fromDocument(doc) : null;
    },

    async listForDecision(decisionId, userId) {
      const docs = await assets.find({ decisionHistory_id: { $eq: decisionId }, ...owned(userId) });
      return docs.map(fromDocument).sort(byLabel);
    },

    async listForUser(userId, limit) {
      if (!Number.isInteger(limit) || limit < 0) throw new RangeError(`limit must be a non-negative integer, got ${limit}`);
      if (limit === 0) return []; // MongoDB reads limit 0 as "no limit".
      const docs = await assets.find(owned(userId), { sort: { created_at: -1, _id: 1 }, limit });
      return docs.map(fromDocument);
    },

    async deleteOwned(id, userId) {
      const filter = { _id: { $eq: id }, ...owned(userId) };
      const doc = await assets.findOne(filter);
      if (!doc) return null;
      // A concurrent delete may win between the read and the delete: only the winner reports it.
      return (await assets.deleteMany(filter)) > 0 ? fromDocument(doc) : null;
    },

    async deleteForDecision(decisionId, userId) {
      const filter = { decisionHistory_id: { $eq: decisionId }, ...owned(userId) };
      const docs = await assets.find(filter, { projection: { _id: 1, label: 1 } });
      if (docs.length === 0) return [];
      const ids = docs.sort(byLabel).map((doc) => doc._id);
      // Only the assets read above: one stored meanwhile is not reported, so it is not deleted either.
      await assets.deleteMany({ ...filter, _id: { $in: ids } });
      return ids;
    },

    count() {
      return assets.countDocuments({});
    },
  };
}

/** An empty or missing user id must never widen a query to everyone's assets. */
function assertUserId(userId: unknown): string {
  if (typeof userId !== "string" || userId === "") throw new RangeError("A user id is required to read a user's image assets");
  return userId;
}
