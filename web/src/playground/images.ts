import { LIMITS } from "@sd/contracts";
import { PLAYGROUND_TEXT, type ToastText } from "./messages";

/** Images are downscaled to this width at most and re-encoded as JPEG at this quality. */
export const IMAGE_MAX_WIDTH = 1024;
export const IMAGE_JPEG_QUALITY = 0.8;

export interface Size {
  width: number;
  height: number;
}

/**
 * The size an image is re-encoded at: at most `maxWidth` wide, aspect ratio kept, never
 * upscaled, and never below 1 x 1 pixel.
 */
export function downscaledSize({ width, height }: Size, maxWidth: number = IMAGE_MAX_WIDTH): Size {
  if (!(width > 0) || !(height > 0)) throw new RangeError(`not an image size: ${width} x ${height}`);
  if (width <= maxWidth) return { width, height };
  const scale = maxWidth / width;
  return { width: maxWidth, height: Math.max(1, Math.round(height * scale)) };
}

/** What the screening needs to know about a chosen file. */
export interface FileFacts {
  type: string;
  size: number;
}

export interface ImageScreening {
  /** Indexes of the files to process, in the order chosen. */
  accepted: number[];
  /** One toast per kind of problem, in the order first met. */
  problems: ToastText[];
}

/**
 * Which chosen files may be attached, given how many images are attached (or being processed)
 * already: images only, each under 10MB, at most 3 in all.
 */
export function screenImageFiles(files: readonly FileFacts[], attachedCount: number): ImageScreening {
  const accepted: number[] = [];
  const problems = new Set<ToastText>();
  files.forEach((file, index) => {
    if (!file.type.startsWith("image/")) problems.add(PLAYGROUND_TEXT.invalidImageType);
    else if (file.size >= LIMITS.maxImageBytes) problems.add(PLAYGROUND_TEXT.imageTooLarge);
    else if (attachedCount + accepted.length >= LIMITS.maxImages) problems.add(PLAYGROUND_TEXT.maxImages);
    else accepted.push(index);
  });
  return { accepted, problems: [...problems] };
}
