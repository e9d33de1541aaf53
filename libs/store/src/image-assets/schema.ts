import { IMAGE_LABEL } from "@sd/contracts";
import { Schema } from "mongoose";
import type { BaseDocument } from "../collection";
import { defineCollection } from "../collection-spec";

/**
 * An image of a signed-in user's decision: the one place
 * its bytes are stored (the decision keeps only the asset's id). `image_data` is the image's data
 * URL as it was sent; `file_size` is its decoded size, computed from the base64 without decoding.
 * The `_id` is derived from the decision and the label (`assetId`), so storing a decision's images
 * twice stores them once.
 */
export interface ImageAssetDocument extends BaseDocument {
  user_id: string;
  decisionHistory_id: string;
  /** image1, image2, ... in the order the images were sent. */
  label: string;
  image_data: string;
  image_type: string;
  file_size: number;
  created_at: Date;
}

export const imageAssetSchema = new Schema<ImageAssetDocument>(
  {
    _id: { type: String, required: true },
    user_id: { type: String, required: true },
    decisionHistory_id: { type: String, required: true },
    label: { type: String, required: true, match: IMAGE_LABEL },
    image_data: { type: String, required: true },
    image_type: { type: String, required: true, maxlength: 100 },
    file_size: { type: Number, required: true, min: 0 },
    created_at: { type: Date, required: true },
  },
  { collection: "image_assets", versionKey: false, strict: "throw", id: false },
);
// One asset per label of a decision: writing a decision's images again adds nothing. Also serves
// "a decision's assets" (the owner is checked on those few).
imageAssetSchema.index({ decisionHistory_id: 1, label: 1 }, { unique: true });
// A user's assets, newest first (_id makes the order total).
imageAssetSchema.index({ user_id: 1, created_at: -1, _id: 1 });

// The embedded store keeps each image's data in a file of its own: held in memory, about a hundred
// decisions with images would fill the process's heap.
export const imageAssetsCollection = defineCollection<ImageAssetDocument>("image_assets", imageAssetSchema, { storedApart: ["image_data"] });
