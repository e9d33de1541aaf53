import { z } from "zod";
import { LIMITS } from "./limits";
import { MESSAGES } from "./messages";

/** `data:image/<type>;base64,` at the start of an image's data URL. */
const IMAGE_DATA_URL_HEAD = /^data:(image\/[a-z0-9.+-]+);base64,/i;
/**
 * A character no base64 payload holds. Searching for one is several times cheaper than matching the
 * whole payload against a base64 pattern, and an image is checked at the gateway, in the stash and
 * in each model's prompt.
 */
const NOT_BASE64 = /[^A-Za-z0-9+/=]/;
const EQUALS = 61;

/** An image's data URL, split: the type (lower case) and the base64 payload. */
export interface ImageDataUrl {
  mediaType: string;
  payload: string;
}

/**
 * Splits a `data:image/<type>;base64,<payload>` URL without reading the payload; null when it does
 * not start like one. For images a contract already checked (a model's prompt): each model's call
 * would otherwise scan every image's 13 MB again.
 */
export function splitImageDataUrl(value: string): ImageDataUrl | null {
  const head = IMAGE_DATA_URL_HEAD.exec(value);
  return head ? { mediaType: head[1]!.toLowerCase(), payload: value.slice(head[0].length) } : null;
}

/**
 * Splits a `data:image/<type>;base64,<payload>` URL; null for anything else: another media type,
 * no `;base64`, a character outside base64's alphabet, or `=` padding anywhere but the last two places.
 */
export function parseImageDataUrl(value: string): ImageDataUrl | null {
  const image = splitImageDataUrl(value);
  if (!image || NOT_BASE64.test(image.payload)) return null;
  const { payload } = image;
  const padding = payload.indexOf("=");
  if (padding !== -1 && (padding < payload.length - 2 || payload.charCodeAt(payload.length - 1) !== EQUALS)) return null;
  return image;
}

/** Bytes a base64 payload decodes to, without decoding it. */
export function base64DecodedBytes(payload: string): number {
  const padding = payload.endsWith("==") ? 2 : payload.endsWith("=") ? 1 : 0;
  return Math.floor((payload.length * 3) / 4) - padding;
}

/** A data URL's head up to its comma: the media type, then any parameters (`;base64`). */
const DATA_URL_HEAD = /^data:([^;,]+)[^,]*,/;
const DEFAULT_IMAGE_TYPE = "image/jpeg";

/**
 * An image's type from its data URL (image/jpeg when it names none, or names no image type) and
 * its decoded size in bytes: what the image-asset store records, and what a job's image reference
 * says. Reads the head only: the size follows from the payload's length.
 */
export function describeImage(image: string): { image_type: string; file_size: number } {
  const head = DATA_URL_HEAD.exec(image.slice(0, image.indexOf(",") + 1));
  const type = head?.[1]?.trim().toLowerCase();
  const payload = head ? image.slice(head[0].length) : image;
  return { image_type: type && type.startsWith("image/") ? type : DEFAULT_IMAGE_TYPE, file_size: Math.max(0, base64DecodedBytes(payload)) };
}

/** Raised for an image over the size limit: the HTTP layer answers 413 for it. */
export const IMAGE_TOO_LARGE = "image_too_large";

/**
 * One image as a request sends it: a base64 data URL of an image, under the size limit. Anything
 * else (another type included) is "not an image file" to the user.
 */
export const ImageDataUrlSchema = z.string({ error: MESSAGES.invalidImageType.detail }).superRefine((value, ctx) => {
  const image = parseImageDataUrl(value);
  if (!image) ctx.addIssue({ code: "custom", message: MESSAGES.invalidImageType.detail });
  else if (base64DecodedBytes(image.payload) >= LIMITS.maxImageBytes) {
    ctx.addIssue({ code: "custom", message: MESSAGES.imagesTooLarge, params: { reason: IMAGE_TOO_LARGE } });
  }
});
