import { IMAGE_ASSET_MESSAGES, type ImageAsset } from "@sd/contracts";
import { ImageOff } from "lucide-react";
import { DetailSection } from "./DetailSection";
import { formatKb, imageTitle } from "./format";
import { ImagePlaceholder } from "./Skeletons";
import { Thumbnail } from "./Thumbnail";

export interface AssetsState {
  assets: readonly ImageAsset[];
  loading: boolean;
}

const grid = "grid grid-cols-2 gap-3 sm:grid-cols-3";

function Unavailable() {
  return (
    <div className="flex aspect-square flex-col items-center justify-center gap-1 rounded-lg border border-slate-200 bg-slate-100 p-2 text-center text-xs text-slate-500">
      <ImageOff className="size-6" aria-hidden />
      {IMAGE_ASSET_MESSAGES.failedToLoad}
    </div>
  );
}

/**
 * Images (count): each of the decision's images once, as a thumbnail that opens the viewer, with its
 * name, type and size; loading placeholders while the assets are fetched. A decision without images
 * shows no section at all.
 */
export function ImagesSection({ imageIds, state, onOpen }: { imageIds: readonly string[]; state: AssetsState; onOpen(index: number): void }) {
  const stored = state.assets;
  // The decision lists its images; assets added later through the asset API show too.
  const ids = [...imageIds, ...stored.map((asset) => asset.id).filter((id) => !imageIds.includes(id))];
  if (ids.length === 0) return null;
  const indexOf = new Map(stored.map((asset, index) => [asset.id, index]));
  return (
    <DetailSection title={`Images (${ids.length})`}>
      <ul className={grid} aria-label="Images" aria-busy={state.loading}>
        {ids.map((id, position) => {
          const index = indexOf.get(id);
          const asset = index === undefined ? undefined : stored[index];
          return (
            <li key={id} className="min-w-0 space-y-1">
              {asset && index !== undefined ? (
                <>
                  <Thumbnail asset={asset} title={imageTitle(asset.label, position)} onOpen={() => onOpen(index)} />
                  <p className="truncate text-sm font-medium text-slate-800">{imageTitle(asset.label, position)}</p>
                  <p className="text-xs text-slate-500">
                    {asset.image_type} · {formatKb(asset.file_size)}
                  </p>
                </>
              ) : state.loading ? (
                <ImagePlaceholder />
              ) : (
                <Unavailable />
              )}
            </li>
          );
        })}
      </ul>
    </DetailSection>
  );
}
