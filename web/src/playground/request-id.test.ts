import { describe, expect, it } from "vitest";
import { newRequestId, uuidFromBytes } from "./request-id";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("request ids", () => {
  it("formats 16 bytes as a version 4 UUID", () => {
    expect(uuidFromBytes(new Uint8Array(16).fill(0xff))).toBe("ffffffff-ffff-4fff-bfff-ffffffffffff");
    expect(uuidFromBytes(new Uint8Array(16))).toBe("00000000-0000-4000-8000-000000000000");
  });

  it("refuses a wrong number of bytes", () => {
    expect(() => uuidFromBytes(new Uint8Array(15))).toThrow(RangeError);
  });

  it("makes a different UUID each time", () => {
    const a = newRequestId();
    expect(a).toMatch(UUID_V4);
    expect(newRequestId()).not.toBe(a);
  });
});
