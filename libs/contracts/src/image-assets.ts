import { z } from "zod";
import { ImageDataUrlSchema } from "./image-data-url";
import { LIMITS } from "./limits";

/** Texts of the image-asset API; failures answer `{success: false, message}`. */
export const IMAGE_ASSET_MESSAGES = {
  notFound: "Image asset not found",
  decisionNotFound: "Decision not found",
  signInRequired: "Sign in to store or delete image assets.",
  otherUser: "You can only access your own image assets.",
  labelTaken: "This decision already has an image with this label.",
  listed: (count: number) => (count === 0 ? "No image assets found." : count === 1 ? "Found 1 image asset." : `Found ${count} image assets.`),
  found: "Image asset found.",
  created: "Image asset stored.",
  deleted: "Image asset deleted.",
  deletedForDecision: (count: number) => (count === 1 ? "Deleted 1 image asset." : `Deleted ${count} image assets.`),
  /** Decision detail page: the viewer's placeholder. */
  failedToLoad: "Failed to load image",
} as const;

/** Image asset; `image_data` is the image's data URL. */
export const ImageAssetSchema = z.object({
  id: z.string(),
  user_id: z.string(),
  decisionHistory_id: z.string(),
  label: z.string(),
  image_data: z.string(),
  image_type: z.string(),
  file_size: z.number().int().nonnegative(),
  created_at: z.string(),
});
export type ImageAsset = z.infer<typeof ImageAssetSchema>;

/** Every image-asset answer: success, message, the assets concerned and their number. */
export const ImageAssetListResponseSchema = z.object({
  success: z.boolean(),
  message: z.string(),
  imageAssets: z.array(ImageAssetSchema),
  total: z.number().int().nonnegative(),
});
export type ImageAssetListResponse = z.infer<typeof ImageAssetListResponseSchema>;

/** A failed image-asset call. */
export const ImageAssetFailureSchema = z.object({ success: z.literal(false), message: z.string() });
export type ImageAssetFailure = z.infer<typeof ImageAssetFailureSchema>;

/** Labels are image1, image2, ... (the order the images were sent). */
export const IMAGE_LABEL = /^image[1-9][0-9]{0,2}$/;

/**
 * Body of POST /api/image-assets. The owner is the bearer's user: `user_id`, when sent, must name
 * them. `image_type` and `file_size` are derived from `image_data` on the server; values sent for
 * them must agree with it.
 */
export const ImageAssetCreateSchema = z.object({
  user_id: z.string().max(100).optional(),
  decisionHistory_id: z.string({ error: "decisionHistory_id is required." }).min(1, "decisionHistory_id is required.").max(100),
  label: z.string({ error: "label is required." }).regex(IMAGE_LABEL, "label must be image1, image2, ..."),
  image_data: ImageDataUrlSchema,
  image_type: z.string().max(100).optional(),
  file_size: z.number().int().nonnegative().optional(),
});
export type ImageAssetCreate = z.infer<typeof ImageAssetCreateSchema>;

/** Body of the DELETE calls, and the `user_id` query of the GET calls: optional, and only ever the caller. */
export const ImageAssetOwnerSchema = z.object({ user_id: z.string().max(100).optional() });

/** Query of GET /api/image-assets/user/{userId}. */
export const ImageAssetListQuerySchema = z.object({
  limit: z
    .string({ error: `limit must be a whole number from 1 to ${LIMITS.maxImageAssetListLimit}.` })
    .regex(/^\d{1,4}$/, `limit must be a whole number from 1 to ${LIMITS.maxImageAssetListLimit}.`)
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(1, `limit must be a whole number from 1 to ${LIMITS.maxImageAssetListLimit}.`)
        .max(LIMITS.maxImageAssetListLimit, `limit must be a whole number from 1 to ${LIMITS.maxImageAssetListLimit}.`),
    )
    .default(LIMITS.imageAssetListLimit),
  user_id: z.string().max(100).optional(),
});
