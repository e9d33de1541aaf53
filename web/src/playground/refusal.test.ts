import { describe, expect, it } from "vitest";
import { MESSAGES } from "@sd/contracts";
import { ApiError, InvalidResponseError } from "../api/client";
import { decisionRefusal, formatWait, REFUSAL_TEXT, retryLine, secondsLeft } from "./refusal";

const NOW = 1_000_000;
const RATE_LIMITED = "Too many requests. Please wait a minute and try again.";

describe("decisionRefusal", () => {
  it("a 429 is a refusal with the server's text and the time it says to come back", () => {
    const error = new ApiError(429, RATE_LIMITED, { source: "detail", retryAfterSeconds: 42 });
    expect(decisionRefusal(error, NOW)).toEqual({ kind: "rate-limited", title: REFUSAL_TEXT.rateLimitedTitle, message: RATE_LIMITED, retryAt: NOW + 42_000 });
  });

  it("a 429 without Retry-After or explanation still is one, with our text and no countdown", () => {
    expect(decisionRefusal(new ApiError(429, "HTTP 429", { source: "unreadable" }), NOW)).toMatchObject({ message: REFUSAL_TEXT.rateLimitedFallback, retryAt: null });
  });

  it("a 503 with Retry-After is 'busy'; without one it is an outage, which stays a failure", () => {
    const busy = new ApiError(503, MESSAGES.overloaded, { source: "detail", retryAfterSeconds: 2 });
    expect(decisionRefusal(busy, NOW)).toEqual({ kind: "busy", title: REFUSAL_TEXT.busyTitle, message: MESSAGES.overloaded, retryAt: NOW + 2000 });
    expect(decisionRefusal(new ApiError(503, MESSAGES.serviceUnavailable, { source: "detail" }), NOW)).toBeNull();
  });

  it("anything else is not a refusal", () => {
    for (const error of [new ApiError(500, "boom", { source: "detail", retryAfterSeconds: 5 }), new ApiError(413, "too big"), new InvalidResponseError(200), new TypeError("Failed to fetch"), "429"]) {
      expect(decisionRefusal(error, NOW)).toBeNull();
    }
  });
});

describe("the countdown", () => {
  it("counts whole seconds up, to 0 once reached or without a wait", () => {
    expect(secondsLeft(NOW + 41_200, NOW)).toBe(42);
    expect(secondsLeft(NOW + 1, NOW)).toBe(1);
    expect(secondsLeft(NOW, NOW)).toBe(0);
    expect(secondsLeft(NOW - 5000, NOW)).toBe(0);
    expect(secondsLeft(null, NOW)).toBe(0);
  });

  it("says a wait as a person would", () => {
    expect([0, 1, 59, 60, 61, 125, 3599, 3600, 3661, 7199, 86_399, 86_400, 86_401, 3 * 86_400].map(formatWait)).toEqual([
      "0 s",
      "1 s",
      "59 s",
      "1 min",
      "1 min 1 s",
      "2 min 5 s",
      "59 min 59 s",
      "1 h",
      "1 h 2 min",
      "2 h",
      "24 h",
      "1 day",
      "2 days",
      "3 days",
    ]);
  });

  it("the notice's line counts down, then says 'now'; without Retry-After there is none", () => {
    const refusal = { kind: "rate-limited" as const, title: "t", message: "m", retryAt: NOW + 30_000 };
    expect(retryLine(refusal, 30)).toBe("You can try again in 30 s.");
    expect(retryLine(refusal, 0)).toBe(REFUSAL_TEXT.tryAgainNow);
    expect(retryLine({ ...refusal, retryAt: null }, 0)).toBeNull();
  });
});
