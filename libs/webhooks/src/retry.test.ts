import { describe, expect, it } from "vitest";
import { MAX_ATTEMPTS, MAX_RETRY_AFTER_MS, RETRY_DELAYS_MS, isRetryable, nextRetryDelayMs, parseRetryAfter } from "./retry";

const failed = (status_code: number | null, retry_after_ms: number | null = null) => ({ status_code, retry_after_ms });
const noJitter = { random: () => 0.5 };

describe("retry schedule", () => {
  it("spans about a day in eight attempts", () => {
    expect(MAX_ATTEMPTS).toBe(8);
    const total = RETRY_DELAYS_MS.reduce((sum, ms) => sum + ms, 0);
    expect(total).toBeGreaterThan(24 * 3600_000);
    expect(total).toBeLessThan(30 * 3600_000);
  });

  it("backs off exponentially-ish, with the middle of the jitter being the schedule", () => {
    const delays = Array.from({ length: MAX_ATTEMPTS - 1 }, (_, i) => nextRetryDelayMs(i + 1, failed(503), noJitter));
    expect(delays).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
  });

  it("jitters within ±20 %", () => {
    expect(nextRetryDelayMs(2, failed(null), { random: () => 0 })).toBe(240_000);
    expect(nextRetryDelayMs(2, failed(null), { random: () => 0.999999 })).toBe(360_000);
  });

  it("stops after the last attempt", () => {
    expect(nextRetryDelayMs(MAX_ATTEMPTS, failed(500), noJitter)).toBeNull();
    expect(nextRetryDelayMs(MAX_ATTEMPTS - 1, failed(500), noJitter)).toBe(36_000_000);
  });

  it("retries timeouts, network errors, 5xx and 429 but never other 4xx, 3xx or success", () => {
    for (const status of [null, 500, 502, 503, 504, 429]) expect(isRetryable(failed(status))).toBe(true);
    for (const status of [400, 401, 403, 404, 410, 422, 301, 302]) {
      expect(isRetryable(failed(status))).toBe(false);
      expect(nextRetryDelayMs(1, failed(status))).toBeNull();
    }
    expect(nextRetryDelayMs(1, failed(200))).toBeNull();
    expect(nextRetryDelayMs(1, failed(204))).toBeNull();
  });

  it("honours Retry-After exactly, capped, and scales with the schedule", () => {
    expect(nextRetryDelayMs(1, failed(429, 42_000))).toBe(42_000);
    expect(nextRetryDelayMs(1, failed(503, 365 * 86_400_000))).toBe(MAX_RETRY_AFTER_MS);
    expect(nextRetryDelayMs(1, failed(500), { scale: 0.001, random: () => 0.5 })).toBe(5);
    expect(nextRetryDelayMs(1, failed(429, 2_000), { scale: 0.001 })).toBe(2_000);
  });
});

describe("parseRetryAfter", () => {
  const now = new Date("2026-01-01T00:00:00Z");
  it("reads delta-seconds and HTTP dates", () => {
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter(" 0 ", now)).toBe(0);
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:01:30 GMT", now)).toBe(90_000);
    expect(parseRetryAfter("Wed, 31 Dec 2025 23:00:00 GMT", now)).toBe(0);
  });
  it("ignores absent or unreadable values", () => {
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter("soon", now)).toBeNull();
    expect(parseRetryAfter("-5", now)).toBeNull();
  });
});
