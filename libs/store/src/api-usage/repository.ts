import type { Collection } from "../collection";
import type { ImageAssetDocument } from "../image-assets/schema";

/**
 * What a user uses of the free tier that the store measures: image storage. (API requests per
 * month are counted in Redis by the gateway, on every key-authenticated call, where an atomic
 * increment costs no disk write.)
 */
export interface ApiUsageRepository {
  /** Bytes of `userId`'s image assets (their decoded sizes, summed in the store). */
  storageBytes(userId: string): Promise<number>;
}

/** `imageAssets` is the image-asset collection the store opened (read here, never written). */
export function createApiUsageRepository(imageAssets: Collection<ImageAssetDocument>): ApiUsageRepository {
  return {
    async storageBytes(userId) {
      if (typeof userId !== "string" || userId === "") throw new RangeError("userId must be a non-empty string");
      const [total] = await imageAssets.aggregate<{ bytes: number }>([
        { $match: { user_id: { $eq: userId } } },
        { $group: { _id: null, bytes: { $sum: "$file_size" } } },
      ]);
      return total?.bytes ?? 0;
    },
  };
}
