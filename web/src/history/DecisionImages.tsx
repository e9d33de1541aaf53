import { IMAGE_ASSET_MESSAGES, type ImageAsset } from "@sd/contracts";
import { ImageOff } from "lucide-react";
import { DetailSection } from "./DetailSection";
import { formatKb, formatLocalTime } from "./format";
import { ImagePlaceholder } from "./Skeletons";
import { Thumbnail } from "./Thumbnail";

export interface AssetsState {
  assets: readonly ImageAsset[];
  loading: boolean;
}

const grid = "grid grid-cols-2 gap-3 sm:grid-cols-3";

/** Images (count): the decision's images as thumbnails that open the viewer. */
export function ImagesSection({ imageIds, state, onOpen }: { imageIds: readonly string[]; state: AssetsState; onOpen(asset: ImageAsset): void }) {
  const byId = new Map(state.assets.map((asset) => [asset.id, asset]));
  return (
    <DetailSection title={`Images (${imageIds.length})`}>
      {imageIds.length === 0 ? (
        <p className="text-sm text-slate-500">This decision has no images.</p>
      ) : (
        <ul className={grid} aria-label="Images">
          {imageIds.map((id) => {
            const asset = byId.get(id);
            return (
              <li key={id}>
                {asset ? (
                  <Thumbnail asset={asset} onOpen={onOpen} />
                ) : state.loading ? (
                  <ImagePlaceholder />
                ) : (
                  <div className="flex aspect-square flex-col items-center justify-center gap-1 rounded-lg border border-slate-200 bg-slate-100 p-2 text-center text-xs text-slate-500">
                    <ImageOff className="size-6" aria-hidden />
                    {IMAGE_ASSET_MESSAGES.failedToLoad}
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </DetailSection>
  );
}

/** Image Assets (count): the stored assets of the decision, with loading placeholders while they are fetched. */
export function ImageAssetsSection({ state, expected, onOpen }: { state: AssetsState; expected: number; onOpen(asset: ImageAsset): void }) {
  if (state.loading) {
    return (
      <DetailSection title="Image Assets (...)">
        <div role="status" aria-label="Loading image assets" className={grid}>
          {Array.from({ length: Math.max(1, expected) }, (_, i) => (
            <ImagePlaceholder key={i} />
          ))}
        </div>
      </DetailSection>
    );
  }
  return (
    <DetailSection title={`Image Assets (${state.assets.length})`}>
      {state.assets.length === 0 ? (
        <p className="text-sm text-slate-500">No image assets stored for this decision.</p>
      ) : (
        <ul className={grid} aria-label="Image assets">
          {state.assets.map((asset) => (
            <li key={asset.id} className="min-w-0 space-y-1">
              <Thumbnail asset={asset} onOpen={onOpen} />
              <p className="text-sm font-medium text-slate-800">{asset.label}</p>
              <p className="text-xs text-slate-500">
                {asset.image_type} · {formatKb(asset.file_size)}
              </p>
              <p className="text-xs text-slate-500">
                <time dateTime={asset.created_at}>{formatLocalTime(asset.created_at)}</time>
              </p>
            </li>
          ))}
        </ul>
      )}
    </DetailSection>
  );
}
