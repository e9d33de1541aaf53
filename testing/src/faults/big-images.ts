import { randomBytes } from "node:crypto";
import { crc32 } from "node:zlib";

/** 9.9 MiB: just under the 10 MiB limit of one image, the most one anonymous request may send. */
export const BIG_IMAGE_BYTES = Math.floor(9.9 * 1024 * 1024);

/** A PNG signature and IHDR chunk (a real image header; nothing reads past it): 33 bytes. */
function pngHeader(): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(4000, 0);
  ihdr.writeUInt32BE(3000, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const body = Buffer.concat([Buffer.from("IHDR", "ascii"), ihdr]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(ihdr.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), length, body, crc]);
}

/**
 * Unique ~9.9 MB PNG data URLs, cheaply: a header and 15 random bytes (48 bytes, so their base64
 * ends on a boundary) before one random body encoded once. Every image differs, so storing one
 * image per content would not make the figure look better than it is.
 */
export class BigImages {
  private readonly header = pngHeader();
  private readonly bodyBase64: string;

  constructor(readonly bytes = BIG_IMAGE_BYTES) {
    this.bodyBase64 = randomBytes(bytes - 48).toString("base64");
  }

  next(): string {
    const head = Buffer.concat([this.header, randomBytes(15)]);
    return `data:image/png;base64,${head.toString("base64")}${this.bodyBase64}`;
  }

  three(): string[] {
    return [this.next(), this.next(), this.next()];
  }
}
