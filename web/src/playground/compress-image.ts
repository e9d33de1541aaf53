import { downscaledSize, IMAGE_JPEG_QUALITY, IMAGE_MAX_WIDTH } from "./images";

/**
 * Decodes an image file, downscales it to at most 1024 px wide and re-encodes it as a JPEG data
 * URL at quality 0.8. Transparent areas become white (JPEG has no alpha). Rejects when the
 * browser cannot decode the file.
 */
export async function compressImage(file: Blob): Promise<string> {
  const bitmap = await createImageBitmap(file);
  try {
    const { width, height } = downscaledSize({ width: bitmap.width, height: bitmap.height }, IMAGE_MAX_WIDTH);
    const canvas = document.createElement("canvas");
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext("2d");
    if (!context) throw new Error("no 2d canvas context");
    context.fillStyle = "#ffffff";
    context.fillRect(0, 0, width, height);
    context.imageSmoothingQuality = "high";
    context.drawImage(bitmap, 0, 0, width, height);
    const dataUrl = canvas.toDataURL("image/jpeg", IMAGE_JPEG_QUALITY);
    if (!dataUrl.startsWith("data:image/jpeg")) throw new Error("the browser cannot encode JPEG");
    return dataUrl;
  } finally {
    bitmap.close();
  }
}
