import { describe, expect, it } from "vitest";
import { explanationLines } from "./explanation";

describe("explanationLines ('Why this decision?')", () => {
  it("reads one line per model after the outcome", () => {
    const text = 'Go won with 2 of 3 votes.\nOpenAI GPT-4o: Go — Ready now.\r\nGoogle Gemini 2.5 Flash: Go — Tests pass.\nAnthropic Claude Sonnet 3.5: no valid vote (timeout)';
    expect(explanationLines(text)).toEqual([
      "Go won with 2 of 3 votes.",
      "OpenAI GPT-4o: Go — Ready now.",
      "Google Gemini 2.5 Flash: Go — Tests pass.",
      "Anthropic Claude Sonnet 3.5: no valid vote (timeout)",
    ]);
  });

  it("drops blank lines and spaces; one paragraph is one line; nothing is no line", () => {
    expect(explanationLines("  A.  \n\n  B. \n ")).toEqual(["A.", "B."]);
    expect(explanationLines("No valid decision could be reached from any LLM provider")).toEqual(["No valid decision could be reached from any LLM provider"]);
    expect(explanationLines(undefined)).toEqual([]);
    expect(explanationLines(" \n ")).toEqual([]);
  });
});
