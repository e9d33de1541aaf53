import { Router, type ErrorRequestHandler, type RequestHandler, type Response } from "express";
import {
  describeImage,
  IMAGE_ASSET_MESSAGES,
  ImageAssetCreateSchema,
  ImageAssetListQuerySchema,
  ImageAssetOwnerSchema,
  type ImageAsset,
  type ImageAssetListResponse,
} from "@sd/contracts";
import { isDuplicateKeyError, type StoredImageAsset, type Store } from "@sd/store";
import type { Logger } from "@sd/telemetry";
import { currentUser } from "../auth";
import type { AccessClaims } from "../auth/tokens";
import { HttpError, toHttpError } from "../http/errors";
import { closeIfBodyUnread } from "../http/unread-body";
import { smallJsonBody } from "../http/json-body";
import { parseBody, parseQuery } from "../http/validate";

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

function answer(res: Response, message: string, assets: readonly StoredImageAsset[], status = 200, total = assets.length): void {
  res.status(status).json({ success: true, message, imageAssets: assets.map(toImageAsset), total } satisfies ImageAssetListResponse);
}

/** Writes need an owner: without a bearer token nothing is stored or deleted. */
function writer(res: Response): AccessClaims {
  const user = currentUser(res);
  if (!user) throw new HttpError(401, IMAGE_ASSET_MESSAGES.signInRequired);
  return user;
}

/** A `user_id` sent in a path, query or body is never trusted: it must name the bearer's user. */
function refuseOtherUser(user: AccessClaims, ...claimed: (string | undefined)[]): void {
  if (claimed.some((id) => id !== undefined && id !== user.userId)) throw new HttpError(403, IMAGE_ASSET_MESSAGES.otherUser);
}

/**
 * The image-asset API, with an optional bearer token whose user is always the owner: without one,
 * lists are empty and writes 401; a `user_id` naming someone else is a 403, and another user's image
 * answers like an unknown one (404) so ids cannot be probed. The decision's `images` follow every
 * store and delete.
 */
export function imageAssetRoutes(store: Store, optionalUser: RequestHandler, imageBody: RequestHandler): Router {
  const router = Router();
  // A write without a token is refused before its body is read.
  const requireWriter: RequestHandler = (_req, res, next) => {
    writer(res);
    next();
  };

  router.post("/image-assets", optionalUser, requireWriter, imageBody, async (req, res) => {
    const user = writer(res);
    const body = parseBody(ImageAssetCreateSchema, req);
    const described = describeImage(body.image_data);
    if (body.image_type !== undefined && body.image_type.toLowerCase() !== described.image_type) {
      throw new HttpError(400, `image_type must be ${described.image_type}, the type of image_data.`);
    }
    if (body.file_size !== undefined && body.file_size !== described.file_size) {
      throw new HttpError(400, `file_size must be ${described.file_size}, the size of image_data in bytes.`);
    }
    refuseOtherUser(user, body.user_id);
    const decision = await store.decisions.findOwned(body.decisionHistory_id, user.userId);
    if (!decision) throw new HttpError(404, IMAGE_ASSET_MESSAGES.decisionNotFound);
    let asset: StoredImageAsset;
    try {
      asset = await store.imageAssets.create({
        userId: user.userId,
        decisionId: decision.id,
        label: body.label,
        data: body.image_data,
        createdAt: new Date(),
      });
    } catch (error) {
      if (isDuplicateKeyError(error)) throw new HttpError(409, IMAGE_ASSET_MESSAGES.labelTaken);
      throw error;
    }
    await store.decisions.addImages(decision.id, [asset.id]);
    answer(res, IMAGE_ASSET_MESSAGES.created, [asset], 201);
  });

  // The decision/ and user/ routes come before /:id, which would otherwise read "decision" as an id.
  router.get("/image-assets/decision/:id", optionalUser, async (req, res) => {
    const query = parseQuery(ImageAssetOwnerSchema, req);
    const user = currentUser(res);
    if (!user) return answer(res, IMAGE_ASSET_MESSAGES.listed(0), []);
    refuseOtherUser(user, query.user_id);
    const assets = await store.imageAssets.listForDecision(req.params.id as string, user.userId);
    answer(res, IMAGE_ASSET_MESSAGES.listed(assets.length), assets);
  });

  router.get("/image-assets/user/:userId", optionalUser, async (req, res) => {
    const query = parseQuery(ImageAssetListQuerySchema, req);
    const user = currentUser(res);
    if (!user) return answer(res, IMAGE_ASSET_MESSAGES.listed(0), []);
    refuseOtherUser(user, req.params.userId as string, query.user_id);
    const assets = await store.imageAssets.listForUser(user.userId, query.limit);
    answer(res, IMAGE_ASSET_MESSAGES.listed(assets.length), assets);
  });

  router.get("/image-assets/:id", optionalUser, async (req, res) => {
    const query = parseQuery(ImageAssetOwnerSchema, req);
    const user = currentUser(res);
    if (user) refuseOtherUser(user, query.user_id);
    // Without a token no image is anyone's to read: the same 404 as an unknown id.
    const asset = user ? await store.imageAssets.findOwned(req.params.id as string, user.userId) : null;
    if (!asset) throw new HttpError(404, IMAGE_ASSET_MESSAGES.notFound);
    answer(res, IMAGE_ASSET_MESSAGES.found, [asset]);
  });

  router.delete("/image-assets/decision/:id", optionalUser, requireWriter, smallJsonBody, async (req, res) => {
    const user = writer(res);
    refuseOtherUser(user, parseBody(ImageAssetOwnerSchema, req, { optional: true }).user_id);
    const decision = await store.decisions.findOwned(req.params.id as string, user.userId);
    if (!decision) throw new HttpError(404, IMAGE_ASSET_MESSAGES.decisionNotFound);
    const deleted = await store.imageAssets.deleteForDecision(decision.id, user.userId);
    if (deleted.length > 0) await store.decisions.removeImages(decision.id, deleted);
    // The deleted images are not sent back (up to three of 10 MB each): `total` counts them.
    answer(res, IMAGE_ASSET_MESSAGES.deletedForDecision(deleted.length), [], 200, deleted.length);
  });

  router.delete("/image-assets/:id", optionalUser, requireWriter, smallJsonBody, async (req, res) => {
    const user = writer(res);
    refuseOtherUser(user, parseBody(ImageAssetOwnerSchema, req, { optional: true }).user_id);
    const asset = await store.imageAssets.deleteOwned(req.params.id as string, user.userId);
    if (!asset) throw new HttpError(404, IMAGE_ASSET_MESSAGES.notFound);
    await store.decisions.removeImages(asset.decisionHistory_id, [asset.id]);
    answer(res, IMAGE_ASSET_MESSAGES.deleted, [asset]);
  });

  return router;
}

/**
 * Error handler for everything under /api/image-assets (mounted there, before the app's own):
 * failures answer `{success: false, message, imageAssets: [], total: 0}`
 * with the status the app's handler would give, including for a bad token, an unreadable or
 * oversized body and an unknown path. Unexpected errors are logged and hidden behind a 500.
 */
export function imageAssetFailures(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const { status, detail } = toHttpError(error, logger);
    if (res.headersSent) return;
    closeIfBodyUnread(req, res);
    res.status(status).json({ success: false, message: detail, imageAssets: [], total: 0 });
  };
}
