import { randomUUID } from "node:crypto";
import { base64DecodedBytes } from "@sd/contracts";
import type { Collection } from "../collection";
import { isDuplicateKeyError } from "../errors";
import type { ImageAssetDocument } from "./schema";

export type StoredImageAsset = Omit<ImageAssetDocument, "_id"> & { id: string };

export interface DecisionImages {
  decisionId: string;
  userId: string;
  /** Data URLs (or bare base64), in the order they were sent. */
  images: readonly string[];
  createdAt: Date;
}

export interface ImageAssetRepository {
  /**
   * Stores a decision's images as assets labelled image1, image2, ...; idempotent: a label
   * already stored for the decision is kept. Resolves to how many were added.
   */
  saveForDecision(decision: DecisionImages): Promise<number>;
  /** The assets of a decision that belong to `userId` (none for anyone else), by label. */
  listForDecision(decisionId: string, userId: string): Promise<StoredImageAsset[]>;
  count(): Promise<number>;
}

const DATA_URL = /^data:([^;,]+)(?:;[^,]*)?,(.*)$/s;
const DEFAULT_TYPE = "image/jpeg";

/** The image's type from its data URL (image/jpeg when it has none) and its decoded size in bytes. */
export function describeImage(image: string): { image_type: string; file_size: number } {
  const match = DATA_URL.exec(image);
  const type = match?.[1]?.trim().toLowerCase();
  const payload = (match ? match[2] : image) ?? "";
  return { image_type: type && type.startsWith("image/") ? type : DEFAULT_TYPE, file_size: Math.max(0, base64DecodedBytes(payload)) };
}

function fromDocument({ _id, ...fields }: ImageAssetDocument): StoredImageAsset {
  return { id: _id, ...fields };
}

export function createImageAssetRepository(assets: Collection<ImageAssetDocument>): ImageAssetRepository {
  return {
    async saveForDecision({ decisionId, userId, images, createdAt }) {
      let added = 0;
      for (const [index, image] of images.entries()) {
        try {
          await assets.insertOne({
            _id: randomUUID(),
            user_id: userId,
            decisionHistory_id: decisionId,
            label: `image${index + 1}`,
            image_data: image,
            ...describeImage(image),
            created_at: createdAt,
          });
          added += 1;
        } catch (error) {
          if (!isDuplicateKeyError(error)) throw error;
        }
      }
      return added;
    },

    async listForDecision(decisionId, userId) {
      const docs = await assets.find({ decisionHistory_id: decisionId, user_id: userId }, { sort: { created_at: 1, label: 1 } });
      return docs.map(fromDocument).sort((a, b) => labelNumber(a.label) - labelNumber(b.label));
    },

    count() {
      return assets.countDocuments({});
    },
  };
}

const labelNumber = (label: string) => Number(label.slice("image".length));
