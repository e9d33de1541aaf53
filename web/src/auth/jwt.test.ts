import { describe, expect, it } from "vitest";
import { isAccessTokenExpired, jwtExpiry } from "./jwt";
import { fakeJwt, NOW } from "./test-support";

describe("jwtExpiry", () => {
  it("reads exp from the payload without verifying the signature", () => {
    expect(jwtExpiry(fakeJwt({ sub: "u1", exp: 1_757_332_800 }))).toBe(1_757_332_800);
  });

  it("reads a real HS256 token of the gateway (base64url without padding)", () => {
    // {"alg":"HS256","typ":"JWT"}.{"email":"ada@example.com","sid":"s","iat":1757332800,"exp":1757333700,"sub":"u1"}
    const token =
      "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJlbWFpbCI6ImFkYUBleGFtcGxlLmNvbSIsInNpZCI6InMiLCJpYXQiOjE3NTczMzI4MDAsImV4cCI6MTc1NzMzMzcwMCwic3ViIjoidTEifQ.c2lnbmF0dXJl";
    expect(jwtExpiry(token)).toBe(1_757_333_700);
  });

  it("decodes payloads with non-ASCII claims (UTF-8) and base64url characters", () => {
    expect(jwtExpiry(fakeJwt({ name: "Zoë Ørsted ✓ ??>>", exp: 42 }))).toBe(42);
  });

  it.each([
    ["not a JWT", "abc"],
    ["two parts", "a.b"],
    ["an empty payload", "a..c"],
    ["a payload that is not base64url", "a.%%%.c"],
    ["a payload that is not JSON", `a.${btoa("hello")}.c`],
    ["a payload without exp", fakeJwt({ sub: "u1" })],
    ["a non-numeric exp", fakeJwt({ exp: "1757333700" })],
    ["a JSON array payload", `a.${btoa("[1,2]")}.c`],
  ])("is null for %s", (_case, token) => {
    expect(jwtExpiry(token)).toBeNull();
  });
});

describe("isAccessTokenExpired", () => {
  const at = (offsetSeconds: number) => fakeJwt({ exp: NOW / 1000 + offsetSeconds });

  it("is false before exp and true at and after it", () => {
    expect(isAccessTokenExpired(at(1), NOW)).toBe(false);
    expect(isAccessTokenExpired(at(0), NOW)).toBe(true);
    expect(isAccessTokenExpired(at(-60), NOW)).toBe(true);
  });

  it("treats a token whose expiry cannot be read as expired", () => {
    expect(isAccessTokenExpired("garbage", NOW)).toBe(true);
  });
});
