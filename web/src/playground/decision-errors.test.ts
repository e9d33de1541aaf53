import { z } from "zod";
import { describe, expect, it } from "vitest";
import { SignedOutError } from "../api/authorized";
import { ApiError, apiRequest } from "../api/client";
import { jsonResponse, serveFetch } from "../auth/test-support";
import { decisionErrorMessage, suggestionsErrorText } from "./decision-errors";

/** The error the API client throws for one answer (or a network failure). */
async function clientError(answer: Response | Error): Promise<unknown> {
  serveFetch(answer);
  return apiRequest("/api/x", { method: "POST", body: {}, schema: z.object({ final_decision: z.string() }) }).then(
    () => null,
    (error: unknown) => error,
  );
}

const EXPIRED = "Authentication expired. You can still use the playground without signing in - just try again!";

describe("decisionErrorMessage", () => {
  it("explains a 413 as images that are too large, whatever the body said", async () => {
    for (const answer of [new Response("<html>Request Entity Too Large", { status: 413 }), jsonResponse(413, { detail: "Body too big" })]) {
      expect(decisionErrorMessage(await clientError(answer))).toBe("Images are too large. Please try with smaller images or fewer images.");
    }
  });

  it("explains a success body that cannot be parsed, or is not a decision", async () => {
    for (const answer of [new Response("<html>oops", { status: 200 }), jsonResponse(200, { unexpected: true })]) {
      expect(decisionErrorMessage(await clientError(answer))).toBe("Server returned an invalid response. Please try again.");
    }
  });

  it.each(["Not authenticated", "HTTP 403", "Could not validate credentials"])("treats '%s' as expired authentication", (text) => {
    expect(decisionErrorMessage(new Error(`Request failed: ${text}`))).toBe(EXPIRED);
  });

  it("treats a 403 without explanation, a 401 'Not authenticated' and a signed-out session as expired authentication", async () => {
    expect(decisionErrorMessage(await clientError(new Response("", { status: 403 })))).toBe(EXPIRED);
    expect(decisionErrorMessage(await clientError(jsonResponse(401, { detail: "Not authenticated" })))).toBe(EXPIRED);
    expect(decisionErrorMessage(new SignedOutError())).toBe(EXPIRED);
  });

  it("shows the server's explanation for other failures", async () => {
    const slow = await clientError(jsonResponse(504, { detail: "The models are taking too long to answer. Please try again in a moment." }));
    expect(decisionErrorMessage(slow)).toBe("The models are taking too long to answer. Please try again in a moment.");
    const invalid = await clientError(jsonResponse(400, { message: "Please provide at least 2 valid response categories." }));
    expect(decisionErrorMessage(invalid)).toBe("Please provide at least 2 valid response categories.");
  });

  it("falls back for network failures, answers without an explanation (no bare status codes) and non-errors", async () => {
    expect(decisionErrorMessage(await clientError(new TypeError("Failed to fetch")))).toBe("Failed to get ensemble decision");
    expect(decisionErrorMessage(await clientError(new Response("<html>Bad gateway", { status: 502 })))).toBe("Failed to get ensemble decision");
    expect(decisionErrorMessage(await clientError(jsonResponse(500, { detail: "  " })))).toBe("Failed to get ensemble decision");
    expect(decisionErrorMessage(undefined)).toBe("Failed to get ensemble decision");
  });
});

describe("suggestionsErrorText", () => {
  it("shows the server's explanation, else 'HTTP {status}'", async () => {
    expect(suggestionsErrorText(await clientError(jsonResponse(429, { detail: "Too many requests." })))).toBe("Too many requests.");
    expect(suggestionsErrorText(await clientError(new Response("<html>", { status: 502 })))).toBe("HTTP 502");
  });

  it("says 'Failed to get suggestions' without an answer, or for an answer that is not suggestions", async () => {
    expect(suggestionsErrorText(await clientError(new TypeError("Failed to fetch")))).toBe("Failed to get suggestions");
    expect(suggestionsErrorText(await clientError(jsonResponse(200, { suggestions: "none" })))).toBe("Failed to get suggestions");
    expect(suggestionsErrorText(new ApiError(500, " "))).toBe("Failed to get suggestions");
  });
});
