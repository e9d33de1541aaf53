import { describeImage, IMAGE_ASSET_MESSAGES, type ImageAsset, type ImageAssetCreate, type ImageAssetListResponse } from "@sd/contracts";
import { isDuplicateKeyError, type StoredImageAsset, type Store } from "@sd/store";
import { DomainError } from "./errors";

function toImageAsset(asset: StoredImageAsset): ImageAsset {
  return {
    id: asset.id,
    user_id: asset.user_id,
    decisionHistory_id: asset.decisionHistory_id,
    label: asset.label,
    image_data: asset.image_data,
    image_type: asset.image_type,
    file_size: asset.file_size,
    created_at: asset.created_at.toISOString(),
  };
}

function listed(message: string, assets: readonly StoredImageAsset[], total = assets.length): ImageAssetListResponse {
  return { success: true, message, imageAssets: assets.map(toImageAsset), total };
}

/** The caller as the image assets see them: a signed-in user, or nobody. */
export type AssetCaller = { userId: string } | null;

/** Writes need an owner: without one nothing is stored or deleted. */
export function writer(caller: AssetCaller): { userId: string } {
  if (!caller) throw new DomainError("unauthenticated", IMAGE_ASSET_MESSAGES.signInRequired);
  return caller;
}

/** A `user_id` sent by the client is never trusted: it must name the caller. */
function refuseOtherUser(caller: { userId: string }, ...claimed: (string | undefined)[]): void {
  if (claimed.some((id) => id !== undefined && id !== caller.userId)) throw new DomainError("forbidden", IMAGE_ASSET_MESSAGES.otherUser);
}

/**
 * The images stored with a user's decisions. The caller is always the owner: without one, lists
 * are empty and writes are refused; another user's image is not found, exactly like an unknown
 * one, so ids cannot be probed. The decision's `images` follow every store and delete.
 */
export class ImageAssetUseCases {
  constructor(private readonly store: Store) {}

  async storeImageAsset(caller: AssetCaller, input: ImageAssetCreate): Promise<ImageAssetListResponse> {
    const user = writer(caller);
    const described = describeImage(input.image_data);
    if (input.image_type !== undefined && input.image_type.toLowerCase() !== described.image_type) {
      throw new DomainError("invalid", `image_type must be ${described.image_type}, the type of image_data.`);
    }
    if (input.file_size !== undefined && input.file_size !== described.file_size) {
      throw new DomainError("invalid", `file_size must be ${described.file_size}, the size of image_data in bytes.`);
    }
    refuseOtherUser(user, input.user_id);
    const decision = await this.store.decisions.findOwned(input.decisionHistory_id, user.userId);
    if (!decision) throw new DomainError("not-found", IMAGE_ASSET_MESSAGES.decisionNotFound);
    let asset: StoredImageAsset;
    try {
      asset = await this.store.imageAssets.create({ userId: user.userId, decisionId: decision.id, label: input.label, data: input.image_data, createdAt: new Date() });
    } catch (error) {
      if (isDuplicateKeyError(error)) throw new DomainError("conflict", IMAGE_ASSET_MESSAGES.labelTaken);
      throw error;
    }
    await this.store.decisions.addImages(decision.id, [asset.id]);
    return listed(IMAGE_ASSET_MESSAGES.created, [asset]);
  }

  async listForDecision(caller: AssetCaller, decisionId: string, claimedUserId?: string): Promise<ImageAssetListResponse> {
    if (!caller) return listed(IMAGE_ASSET_MESSAGES.listed(0), []);
    refuseOtherUser(caller, claimedUserId);
    const assets = await this.store.imageAssets.listForDecision(decisionId, caller.userId);
    return listed(IMAGE_ASSET_MESSAGES.listed(assets.length), assets);
  }

  async listForUser(caller: AssetCaller, claimedUserIds: (string | undefined)[], limit: number): Promise<ImageAssetListResponse> {
    if (!caller) return listed(IMAGE_ASSET_MESSAGES.listed(0), []);
    refuseOtherUser(caller, ...claimedUserIds);
    const assets = await this.store.imageAssets.listForUser(caller.userId, limit);
    return listed(IMAGE_ASSET_MESSAGES.listed(assets.length), assets);
  }

  async get(caller: AssetCaller, assetId: string, claimedUserId?: string): Promise<ImageAssetListResponse> {
    if (caller) refuseOtherUser(caller, claimedUserId);
    // Without a caller no image is anyone's to read: the same answer as an unknown id.
    const asset = caller ? await this.store.imageAssets.findOwned(assetId, caller.userId) : null;
    if (!asset) throw new DomainError("not-found", IMAGE_ASSET_MESSAGES.notFound);
    return listed(IMAGE_ASSET_MESSAGES.found, [asset]);
  }

  async deleteForDecision(caller: AssetCaller, decisionId: string, claimedUserId?: string): Promise<ImageAssetListResponse> {
    const user = writer(caller);
    refuseOtherUser(user, claimedUserId);
    const decision = await this.store.decisions.findOwned(decisionId, user.userId);
    if (!decision) throw new DomainError("not-found", IMAGE_ASSET_MESSAGES.decisionNotFound);
    const deleted = await this.store.imageAssets.deleteForDecision(decision.id, user.userId);
    if (deleted.length > 0) await this.store.decisions.removeImages(decision.id, deleted);
    // The deleted images are not sent back (up to three of 10 MB each): `total` counts them.
    return listed(IMAGE_ASSET_MESSAGES.deletedForDecision(deleted.length), [], deleted.length);
  }

  async delete(caller: AssetCaller, assetId: string, claimedUserId?: string): Promise<ImageAssetListResponse> {
    const user = writer(caller);
    refuseOtherUser(user, claimedUserId);
    const asset = await this.store.imageAssets.deleteOwned(assetId, user.userId);
    if (!asset) throw new DomainError("not-found", IMAGE_ASSET_MESSAGES.notFound);
    await this.store.decisions.removeImages(asset.decisionHistory_id, [asset.id]);
    return listed(IMAGE_ASSET_MESSAGES.deleted, [asset]);
  }
}
