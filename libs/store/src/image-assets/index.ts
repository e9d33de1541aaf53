export { imageAssetsCollection, type ImageAssetDocument } from "./schema";
export { createImageAssetRepository, describeImage, type DecisionImages, type ImageAssetRepository, type StoredImageAsset } from "./repository";
