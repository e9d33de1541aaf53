import { Schema } from "mongoose";
import type { BaseDocument } from "../collection";
import { defineCollection } from "../collection-spec";

/**
 * An image of a signed-in user's decision (specification section 3, "Image asset").
 * `image_data` is the image's data URL as it was sent; `file_size` is estimated from its base64.
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
    label: { type: String, required: true, match: /^image[1-9][0-9]*$/ },
    image_data: { type: String, required: true },
    image_type: { type: String, required: true, maxlength: 100 },
    file_size: { type: Number, required: true, min: 0 },
    created_at: { type: Date, required: true },
  },
  { collection: "image_assets", versionKey: false, strict: "throw", id: false },
);
// One asset per label of a decision: writing a decision's images again adds nothing.
imageAssetSchema.index({ decisionHistory_id: 1, label: 1 }, { unique: true });
imageAssetSchema.index({ user_id: 1, created_at: -1 });

export const imageAssetsCollection = defineCollection<ImageAssetDocument>("image_assets", imageAssetSchema);
