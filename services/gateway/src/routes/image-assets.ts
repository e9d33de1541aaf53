import { Router, type RequestHandler } from "express";
import type { ImageAsset, ImageAssetListResponse } from "@sd/contracts";
import type { StoredImageAsset, Store } from "@sd/store";
import { currentUser } from "../auth";

function toImageAsset(asset: StoredImageAsset): ImageAsset {
  return { ...asset, created_at: asset.created_at.toISOString() };
}

/**
 * GET /api/image-assets/decision/:id (optional bearer): the images of a decision, for its owner
 * only. Ownership comes from the access token, never from a `user_id` parameter: anyone else,
 * and a caller without a token, gets an empty list. A bad token is a 401.
 */
export function imageAssetRoutes(store: Store, optionalUser: RequestHandler): Router {
  const router = Router();
  router.get("/image-assets/decision/:id", optionalUser, async (req, res) => {
    const user = currentUser(res);
    const assets = user ? await store.imageAssets.listForDecision(req.params.id as string, user.userId) : [];
    res.json({
      success: true,
      message: assets.length === 0 ? "No image assets found for this decision." : `Found ${assets.length} image assets.`,
      imageAssets: assets.map(toImageAsset),
      total: assets.length,
    } satisfies ImageAssetListResponse);
  });
  return router;
}
