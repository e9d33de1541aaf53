import { describe, expect, it } from "vitest";
import { ApiError } from "../api/client";
import { decisionErrorMessage, InvalidResponseError } from "./decision-errors";

describe("decisionErrorMessage", () => {
  it("explains a 413 as images that are too large, whatever the body said", () => {
    expect(decisionErrorMessage(new ApiError(413, "HTTP 413"))).toBe(
      "Images are too large. Please try with smaller images or fewer images.",
    );
  });

  it("explains a success body that cannot be parsed", () => {
    expect(decisionErrorMessage(new InvalidResponseError())).toBe("Server returned an invalid response. Please try again.");
  });

  it.each(["Not authenticated", "HTTP 403", "Could not validate credentials"])("treats '%s' as expired authentication", (text) => {
    expect(decisionErrorMessage(new ApiError(401, text))).toBe(
      "Authentication expired. You can still use the playground without signing in - just try again!",
    );
    expect(decisionErrorMessage(new Error(`Request failed: ${text}`))).toBe(
      "Authentication expired. You can still use the playground without signing in - just try again!",
    );
  });

  it("shows the server's explanation for other failures", () => {
    expect(decisionErrorMessage(new ApiError(504, "The models are taking too long to answer. Please try again in a moment."))).toBe(
      "The models are taking too long to answer. Please try again in a moment.",
    );
    expect(decisionErrorMessage(new ApiError(400, "Please provide at least 2 valid response categories."))).toBe(
      "Please provide at least 2 valid response categories.",
    );
  });

  it("falls back for network failures, blank messages and non-errors", () => {
    expect(decisionErrorMessage(new TypeError("Failed to fetch"))).toBe("Failed to get ensemble decision");
    expect(decisionErrorMessage(new ApiError(500, "  "))).toBe("Failed to get ensemble decision");
    expect(decisionErrorMessage(undefined)).toBe("Failed to get ensemble decision");
  });
});
