import { brotliCompressSync, constants, deflateSync, gzipSync } from "node:zlib";

/**
 * The bodies of issue 27's "small compressed JSON bodies stall the whole service": JSON that is
 * cheap to send and costly to parse, plain or compressed, for the security suite and the chaos drill.
 */

export type BodyEncoding = "gzip" | "deflate" | "br";
export const BODY_ENCODINGS: readonly BodyEncoding[] = ["gzip", "deflate", "br"];

/** `{"x":[{"a":1,"b":[1,2,3]}, ... 0]}`: about 44 MB of 2.3 million small objects. */
export function manySmallObjects(count = 2_306_867): Buffer {
  const item = Buffer.from('{"a":1,"b":[1,2,3]},');
  const body = Buffer.alloc(6 + item.length * count + 3);
  let at = body.write('{"x":[');
  for (let i = 0; i < count; i++) at += item.copy(body, at);
  body.write("0]}", at);
  return body;
}

/** `{"k0":0,"k1":1,...}` with a million keys: about 12 MB. */
export function millionKeys(count = 1_000_000): Buffer {
  const parts = new Array<string>(count);
  for (let i = 0; i < count; i++) parts[i] = `"k${i}":${i}`;
  return Buffer.from(`{${parts.join(",")}}`);
}

/** Arrays nested `levels` deep. */
export const deeplyNested = (levels: number): Buffer => Buffer.from("[".repeat(levels) + "]".repeat(levels));

/** `body` compressed as a client would send it with `Content-Encoding: encoding` (brotli at a fast quality). */
export function compress(body: Buffer, encoding: BodyEncoding): Buffer {
  if (encoding === "gzip") return gzipSync(body);
  if (encoding === "deflate") return deflateSync(body);
  return brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });
}
