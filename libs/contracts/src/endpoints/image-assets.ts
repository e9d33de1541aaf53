import { z } from "zod";
import {
  IMAGE_ASSET_MESSAGES,
  ImageAssetCreateSchema,
  ImageAssetListQuerySchema,
  ImageAssetListResponseSchema,
  ImageAssetOwnerSchema,
} from "../index";
import {
  EXAMPLE_IDS,
  EXAMPLE_IMAGE,
  exampleErrors,
  exampleImageAsset,
  exampleImageAssetFailure,
} from "./examples";
import { json, one, idParam } from "./shared";
import { defineEndpoint } from "./define";
import type { DocumentedResponse } from "./define";

// ---------------------------------------------------------------- image assets

const assetList = (description: string, message: string, assets: unknown[], total = assets.length) => ({
  description,
  body: json(ImageAssetListResponseSchema, one(message, { success: true, message, imageAssets: assets, total })),
});
export const assetFailure = (description: string, message: string): DocumentedResponse => ({
  description,
  body: json(ImageAssetListResponseSchema, one(message, exampleImageAssetFailure(message))),
});
const assetAuthFailures = {
  401: assetFailure("A write without a bearer token, or a bad or expired token.", IMAGE_ASSET_MESSAGES.signInRequired),
  403: assetFailure("A `user_id` that names another user.", IMAGE_ASSET_MESSAGES.otherUser),
};
const ownerQuery = ImageAssetOwnerSchema;
const userIdParam = z.object({ userId: z.string().meta({ description: "The caller's own user id.", example: EXAMPLE_IDS.user }) });

export const imageAssetEndpoints = [
  defineEndpoint({
    method: "post",
    path: "/api/image-assets",
    tag: "imageAssets",
    operationId: "storeImageAsset",
    summary: "Store an image of my decision",
    description: "`image_type` and `file_size` are derived from `image_data`; values sent for them must agree.",
    access: "optional-bearer",
    body: json(ImageAssetCreateSchema, one("The first image", { decisionHistory_id: EXAMPLE_IDS.decision, label: "image1", image_data: EXAMPLE_IMAGE })),
    responses: {
      201: assetList("Stored.", IMAGE_ASSET_MESSAGES.created, [exampleImageAsset]),
      400: assetFailure("The body is invalid.", "label must be image1, image2, ..."),
      ...assetAuthFailures,
      404: assetFailure("No decision with this id is the caller's.", IMAGE_ASSET_MESSAGES.decisionNotFound),
      409: assetFailure("The decision already has an image with this label.", IMAGE_ASSET_MESSAGES.labelTaken),
      413: assetFailure("The image is too large.", exampleErrors.imagesTooLarge.detail),
    },
  }),
  defineEndpoint({
    method: "get",
    path: "/api/image-assets/decision/{id}",
    tag: "imageAssets",
    operationId: "listDecisionImageAssets",
    summary: "List a decision's images",
    description: "Without a bearer token the list is empty.",
    access: "optional-bearer",
    params: idParam("The decision's id."),
    query: ownerQuery,
    responses: { 200: assetList("The decision's images, by label.", IMAGE_ASSET_MESSAGES.listed(1), [exampleImageAsset]), ...assetAuthFailures },
  }),
  defineEndpoint({
    method: "get",
    path: "/api/image-assets/user/{userId}",
    tag: "imageAssets",
    operationId: "listMyImageAssets",
    summary: "List my images",
    description: "Newest first. Without a bearer token the list is empty.",
    access: "optional-bearer",
    params: userIdParam,
    query: ImageAssetListQuerySchema,
    responses: {
      200: assetList("The caller's images.", IMAGE_ASSET_MESSAGES.listed(1), [exampleImageAsset]),
      400: assetFailure("The limit is invalid.", "limit must be a whole number from 1 to 200."),
      ...assetAuthFailures,
    },
  }),
  defineEndpoint({
    method: "get",
    path: "/api/image-assets/{id}",
    tag: "imageAssets",
    operationId: "getImageAsset",
    summary: "Get one image",
    access: "optional-bearer",
    params: z.object({ id: z.string().meta({ description: "The image asset's id.", example: EXAMPLE_IDS.imageAsset }) }),
    query: ownerQuery,
    responses: {
      200: assetList("The image.", IMAGE_ASSET_MESSAGES.found, [exampleImageAsset]),
      ...assetAuthFailures,
      404: assetFailure("No image with this id is the caller's (always without a token).", IMAGE_ASSET_MESSAGES.notFound),
    },
  }),
  defineEndpoint({
    method: "delete",
    path: "/api/image-assets/decision/{id}",
    tag: "imageAssets",
    operationId: "deleteDecisionImageAssets",
    summary: "Delete all images of my decision",
    description: "The deleted images are not sent back: `total` counts them.",
    access: "optional-bearer",
    params: idParam("The decision's id."),
    body: json(ownerQuery, one("Optional: the caller's own user id", { user_id: EXAMPLE_IDS.user })),
    responses: {
      200: assetList("Deleted.", IMAGE_ASSET_MESSAGES.deletedForDecision(1), [], 1),
      ...assetAuthFailures,
      404: assetFailure("No decision with this id is the caller's.", IMAGE_ASSET_MESSAGES.decisionNotFound),
    },
  }),
  defineEndpoint({
    method: "delete",
    path: "/api/image-assets/{id}",
    tag: "imageAssets",
    operationId: "deleteImageAsset",
    summary: "Delete one image",
    access: "optional-bearer",
    params: z.object({ id: z.string().meta({ description: "The image asset's id.", example: EXAMPLE_IDS.imageAsset }) }),
    body: json(ownerQuery, one("Optional: the caller's own user id", { user_id: EXAMPLE_IDS.user })),
    responses: {
      200: assetList("Deleted.", IMAGE_ASSET_MESSAGES.deleted, [exampleImageAsset]),
      ...assetAuthFailures,
      404: assetFailure("No image with this id is the caller's.", IMAGE_ASSET_MESSAGES.notFound),
    },
  }),
] as const;
