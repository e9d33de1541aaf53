import { LIMITS } from "@sd/contracts";
import { ImagePlus, LoaderCircle, X } from "lucide-react";
import { useId, useRef } from "react";
import { Button } from "../ui/button";
import { IMAGE_MAX_WIDTH } from "./images";
import type { AttachedImage } from "./useImageAttachments";

interface ImageAttachmentsFieldProps {
  images: readonly AttachedImage[];
  processing: number;
  onAdd: (files: File[]) => void;
  onRemove: (id: number) => void;
}

/** Optional images for the question: an Add images button, thumbnails with remove buttons. */
export function ImageAttachmentsField({ images, processing, onAdd, onRemove }: ImageAttachmentsFieldProps) {
  const input = useRef<HTMLInputElement>(null);
  const hintId = useId();
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium text-slate-700">
        Images <span className="font-normal text-slate-500">(optional)</span>
      </legend>
      <p id={hintId} className="text-xs text-slate-500">
        Up to {LIMITS.maxImages} images, each under 10MB; resized to {IMAGE_MAX_WIDTH} px wide before sending.
      </p>
      <ul aria-label="Attached images" className="flex flex-wrap items-center gap-3">
        {images.map((image, index) => (
          <li key={image.id} className="relative size-20 shrink-0 overflow-hidden rounded-lg border border-slate-200 bg-slate-50">
            <img src={image.dataUrl} alt={`Image ${index + 1}: ${image.name}`} className="size-full object-cover" />
            <button
              type="button"
              onClick={() => onRemove(image.id)}
              aria-label={`Remove image ${index + 1}`}
              className="absolute top-1 right-1 rounded-full bg-slate-900/70 p-1.5 text-white hover:bg-slate-900"
            >
              <X className="size-3.5" aria-hidden />
            </button>
          </li>
        ))}
        {processing > 0 ? (
          <li role="status" className="grid size-20 shrink-0 place-items-center rounded-lg border border-dashed border-slate-300 text-slate-500">
            <LoaderCircle className="size-5 animate-spin" aria-hidden />
            <span className="sr-only">Processing image</span>
          </li>
        ) : null}
      </ul>
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="secondary" size="sm" aria-describedby={hintId} onClick={() => input.current?.click()}>
          <ImagePlus className="size-4" aria-hidden />
          Add images
        </Button>
        <span className="text-xs text-slate-500">
          {images.length}/{LIMITS.maxImages} attached
        </span>
      </div>
      <input
        ref={input}
        type="file"
        accept="image/*"
        multiple
        hidden
        aria-label="Upload images"
        onChange={(event) => {
          const files = Array.from(event.target.files ?? []);
          // Cleared so choosing the same file again still fires a change.
          event.target.value = "";
          if (files.length > 0) onAdd(files);
        }}
      />
    </fieldset>
  );
}
