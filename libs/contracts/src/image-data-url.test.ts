import { describe, expect, it } from "vitest";
import { describeImage, ImageDataUrlSchema, IMAGE_TOO_LARGE, parseImageDataUrl } from "./image-data-url";
import { LIMITS } from "./limits";
import { MESSAGES } from "./messages";

/** The single pattern every image was checked with before the parser: the reference it must agree with. */
const REFERENCE = /^data:(image\/[a-z0-9.+-]+);base64,([A-Za-z0-9+/]*={0,2})$/i;

const reference = (value: string) => {
  const match = REFERENCE.exec(value);
  return match ? { mediaType: match[1]!.toLowerCase(), payload: match[2]! } : null;
};

/** A small deterministic generator (mulberry32), so every run checks the same strings. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("parseImageDataUrl", () => {
  it("splits an image's data URL into its type, in lower case, and its payload", () => {
    const payload = Buffer.from("a picture").toString("base64");
    expect(parseImageDataUrl(`data:image/png;base64,${payload}`)).toEqual({ mediaType: "image/png", payload });
    expect(parseImageDataUrl(`DATA:IMAGE/SVG+XML;BASE64,${payload}`)).toEqual({ mediaType: "image/svg+xml", payload });
    expect(parseImageDataUrl("data:image/gif;base64,")).toEqual({ mediaType: "image/gif", payload: "" });
  });

  it("refuses another media type, a URL without ;base64, and characters or padding base64 does not allow", () => {
    for (const value of [
      "data:text/plain;base64,aGVsbG8=",
      "data:image/png,aGVsbG8=",
      "data:image/png;charset=utf-8;base64,aGVsbG8=",
      "data:image/png;base64,aGVs bG8=",
      "data:image/png;base64,aGVsbG8=\n",
      "data:image/png;base64,aGVs-bG8_",
      "data:image/png;base64,aGVsbG8===",
      "data:image/png;base64,aGV=sbG8",
      "data:image/png;base64,aGVsbG=8",
      " data:image/png;base64,aGVsbG8=",
      "aGVsbG8=",
    ]) {
      expect(parseImageDataUrl(value), value).toBeNull();
    }
  });

  it("accepts exactly what the former whole-URL pattern accepted, over 20,000 generated URLs", () => {
    const next = random(12);
    const heads = ["data:image/png;base64,", "data:image/JPEG;base64,", "data:image/;base64,", "data:video/mp4;base64,", "data:image/png;base64", "data:image/x.y-z+w;base64,"];
    const alphabet = "ABCxyz019+/=-_ .,;\n\u00e9";
    let accepted = 0;
    for (let i = 0; i < 20_000; i++) {
      const length = Math.floor(next() * 12);
      let payload = "";
      for (let j = 0; j < length; j++) {
        // Mostly base64, with padding and foreign characters often enough to reach every branch.
        payload += next() < 0.8 ? "ABCxyz019+/"[Math.floor(next() * 11)] : alphabet[Math.floor(next() * alphabet.length)];
      }
      const value = heads[Math.floor(next() * heads.length)]! + payload;
      const expected = reference(value);
      expect(parseImageDataUrl(value), JSON.stringify(value)).toEqual(expected);
      if (expected) accepted++;
    }
    // The generated set holds both outcomes in number.
    expect(accepted).toBeGreaterThan(2_000);
    expect(accepted).toBeLessThan(18_000);
  });
});

describe("ImageDataUrlSchema", () => {
  it("answers 'not an image file' for anything but an image's data URL, and the size limit's message at 10 MB", () => {
    expect(ImageDataUrlSchema.safeParse(`data:image/png;base64,${Buffer.alloc(30).toString("base64")}`).success).toBe(true);
    const notImage = ImageDataUrlSchema.safeParse("data:text/plain;base64,aGVsbG8=");
    expect(notImage.error?.issues.map((issue) => issue.message)).toEqual([MESSAGES.invalidImageType.detail]);
    const tooLarge = ImageDataUrlSchema.safeParse(`data:image/png;base64,${"A".repeat(Math.ceil((LIMITS.maxImageBytes * 4) / 3))}`);
    expect(tooLarge.error?.issues.map((issue) => [issue.message, (issue as { params?: { reason?: string } }).params?.reason])).toEqual([
      [MESSAGES.imagesTooLarge, IMAGE_TOO_LARGE],
    ]);
  });
});

describe("describeImage", () => {
  it("derives the type and decoded size from a data URL (image/jpeg for bare base64)", () => {
    expect(describeImage(`data:image/png;base64,${Buffer.alloc(10, 1).toString("base64")}`)).toEqual({ image_type: "image/png", file_size: 10 });
    expect(describeImage(`data:IMAGE/GIF;base64,${Buffer.alloc(11).toString("base64")}`)).toEqual({ image_type: "image/gif", file_size: 11 });
    expect(describeImage(Buffer.alloc(5).toString("base64"))).toEqual({ image_type: "image/jpeg", file_size: 5 });
  });
});

describe("describeImage agrees with the whole-URL pattern it replaced", () => {
  const REFERENCE_DATA_URL = /^data:([^;,]+)(?:;[^,]*)?,(.*)$/s;
  const referenceDescribe = (image: string) => {
    const match = REFERENCE_DATA_URL.exec(image);
    const type = match?.[1]?.trim().toLowerCase();
    const payload = (match ? match[2] : image) ?? "";
    const padding = payload.endsWith("==") ? 2 : payload.endsWith("=") ? 1 : 0;
    return { image_type: type && type.startsWith("image/") ? type : "image/jpeg", file_size: Math.max(0, Math.floor((payload.length * 3) / 4) - padding) };
  };

  it("on data URLs with and without a type, parameters or payload, and on bare base64", () => {
    for (const image of [
      "data:image/png;base64,aGVsbG8=",
      "data:IMAGE/WEBP;base64,aGVsbG8",
      "data:image/png;charset=utf-8;base64,aGVsbG8==",
      "data: image/gif ;base64,aGk=",
      "data:text/plain;base64,aGVsbG8=",
      "data:;base64,aGVsbG8=",
      "data:,aGVsbG8=",
      "data:image/png;base64,",
      "data:image/png;base64,a,b",
      "aGVsbG8=",
      "",
    ]) {
      expect(describeImage(image), image).toEqual(referenceDescribe(image));
    }
  });
});
