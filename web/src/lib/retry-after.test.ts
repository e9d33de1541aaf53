import { describe, expect, it } from "vitest";
import { retryAfterSeconds } from "./retry-after";

const NOW = Date.parse("2026-11-28T14:00:00Z");
const seconds = (init: Record<string, string>) => retryAfterSeconds(new Headers(init), NOW);

describe("retryAfterSeconds", () => {
  it("reads Retry-After as seconds or as an HTTP date", () => {
    expect(seconds({ "Retry-After": "42" })).toBe(42);
    expect(seconds({ "Retry-After": "0" })).toBe(0);
    expect(seconds({ "Retry-After": "Sat, 28 Nov 2026 14:01:30 GMT" })).toBe(90);
    expect(seconds({ "Retry-After": "Sat, 28 Nov 2026 13:59:00 GMT" })).toBe(0);
  });

  it("falls back to the RateLimit header's reset, of draft 8 or the older drafts", () => {
    expect(seconds({ RateLimit: '"30-in-1min"; r=0; t=17', "RateLimit-Policy": '"30-in-1min"; q=30; w=60' })).toBe(17);
    expect(seconds({ "RateLimit-Reset": "33" })).toBe(33);
    expect(seconds({ "Retry-After": "soon", "RateLimit-Reset": "5" })).toBe(5);
  });

  it("is null when no header says", () => {
    expect(seconds({})).toBeNull();
    expect(seconds({ "Retry-After": "soon" })).toBeNull();
    expect(seconds({ RateLimit: '"30-in-1min"; r=4' })).toBeNull();
  });
});
