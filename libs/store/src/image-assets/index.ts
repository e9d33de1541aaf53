export { imageAssetsCollection, type ImageAssetDocument } from "./schema";
export {
  createImageAssetRepository,
  imageAssetId,
  type DecisionImages,
  type ImageAssetRepository,
  type LabelledImage,
  type NewImageAsset,
  type StoredImageAsset,
} from "./repository";
