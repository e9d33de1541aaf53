import { randomBytes } from "node:crypto";
import { crc32, deflateSync } from "node:zlib";

export interface PngOptions {
  /** "noise" makes the image incompressible (its JPEG stays big); "gradient" (default) makes it smooth. */
  fill?: "gradient" | "noise";
  /** Blue channel of the gradient, so two gradients of one size still differ. */
  tint?: number;
}

/** A truecolour PNG of `width` x `height`, as bytes. */
export function pngImage(width: number, height: number, { fill = "gradient", tint = 128 }: PngOptions = {}): Buffer {
  const stride = 1 + width * 3;
  const raw = fill === "noise" ? randomBytes(stride * height) : Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    raw[y * stride] = 0; // filter: none
    if (fill === "gradient") {
      for (let x = 0; x < width; x++) {
        const at = y * stride + 1 + x * 3;
        raw[at] = (x * 255) / width;
        raw[at + 1] = (y * 255) / height;
        raw[at + 2] = tint;
      }
    }
  }
  const chunk = (type: string, data: Buffer): Buffer => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, no filter set, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw, { level: fill === "noise" ? 0 : 6 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
