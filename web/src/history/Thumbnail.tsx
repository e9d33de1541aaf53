import { IMAGE_ASSET_MESSAGES, type ImageAsset } from "@sd/contracts";
import { ImageOff } from "lucide-react";
import { useState } from "react";

/** A square preview of an image asset; a button that opens the viewer. */
export function Thumbnail({ asset, title, onOpen }: { asset: ImageAsset; title: string; onOpen(): void }) {
  const [failed, setFailed] = useState(false);
  return (
    <button
      type="button"
      onClick={onOpen}
      aria-label={`Open ${title}`}
      className="block aspect-square w-full overflow-hidden rounded-lg border border-slate-200 bg-slate-100 hover:border-brand-500"
    >
      {failed ? (
        <span className="flex h-full flex-col items-center justify-center gap-1 p-2 text-xs text-slate-500">
          <ImageOff className="size-6" aria-hidden />
          {IMAGE_ASSET_MESSAGES.failedToLoad}
        </span>
      ) : (
        <img src={asset.image_data} alt={title} className="size-full object-cover" onError={() => setFailed(true)} />
      )}
    </button>
  );
}
