import { describe, expect, it } from "vitest";
import { parseSuggestions, parseVote } from "./answer";
import { ProviderError, asProviderError, retryAfterMsFromHeaders } from "./errors";

describe("retryAfterMsFromHeaders", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  it("prefers retry-after-ms, then reads seconds or an HTTP date", () => {
    expect(retryAfterMsFromHeaders(new Headers({ "retry-after-ms": "1500", "retry-after": "9" }), now)).toBe(1500);
    expect(retryAfterMsFromHeaders(new Headers({ "retry-after": "2" }), now)).toBe(2000);
    expect(retryAfterMsFromHeaders(new Headers({ "retry-after": "0.5" }), now)).toBe(500);
    expect(retryAfterMsFromHeaders(new Headers({ "retry-after": "Thu, 01 Jan 2026 00:00:03 GMT" }), now)).toBe(3000);
    expect(retryAfterMsFromHeaders(new Headers({ "retry-after": "soon" }), now)).toBeNull();
    expect(retryAfterMsFromHeaders(new Headers(), now)).toBeNull();
    expect(retryAfterMsFromHeaders(undefined, now)).toBeNull();
  });
});

describe("answer parsing", () => {
  const categories = ["Yes", "No"];
  it("tells malformed output from an invalid answer", () => {
    const kind = (fn: () => unknown): string | null => {
      try {
        fn();
        return null;
      } catch (e) {
        return e instanceof ProviderError ? e.kind : "other";
      }
    };
    expect(kind(() => parseVote("not json", categories))).toBe("malformed");
    expect(kind(() => parseVote('{"rationale":"x","confidence":0.5}', categories))).toBe("malformed");
    expect(kind(() => parseVote('{"category":"Yes","rationale":"x"}', categories))).toBe("malformed");
    expect(kind(() => parseVote('{"category":"Perhaps","rationale":"x","confidence":0.5}', categories))).toBe("invalid_answer");
    expect(parseVote('{"category":"NO ","rationale":" because ","confidence":-1}', categories)).toEqual({ category: "No", rationale: "because", confidence: 0 });
  });

  it("keeps only new, distinct suggestions", () => {
    const raw = JSON.stringify({
      suggestions: [
        { category: " Later ", confidence: 0.7 },
        { category: "later", confidence: 0.6 },
        { category: "YES", confidence: 0.9 },
        { category: "", confidence: 0.9 },
        { category: "Never", confidence: 3 },
      ],
    });
    expect(parseSuggestions(raw, ["Yes", "No"])).toEqual([
      { category: "Later", confidence: 0.7 },
      { category: "Never", confidence: 1 },
    ]);
  });
});

describe("asProviderError", () => {
  it("keeps ProviderErrors and wraps anything else as retryable", () => {
    const own = new ProviderError("auth", "no");
    expect(asProviderError(own)).toBe(own);
    expect(asProviderError(new TypeError("fetch failed"))).toMatchObject({ kind: "network", retryable: true, message: "provider call failed: fetch failed" });
  });
});
