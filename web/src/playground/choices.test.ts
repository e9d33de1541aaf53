import { describe, expect, it } from "vitest";
import { addChoice, decisionInputProblem, formatConfidence, newSuggestions, removeChoice } from "./choices";

describe("addChoice", () => {
  it("adds the trimmed choice at the end", () => {
    expect(addChoice(["Yes"], "  No  ")).toEqual(["Yes", "No"]);
  });

  it("ignores empty and blank input", () => {
    const choices = ["Yes"];
    expect(addChoice(choices, "")).toBe(choices);
    expect(addChoice(choices, "   ")).toBe(choices);
  });

  it("ignores exact duplicates after trimming but keeps different casing", () => {
    const choices = ["Yes"];
    expect(addChoice(choices, " Yes ")).toBe(choices);
    expect(addChoice(choices, "yes")).toEqual(["Yes", "yes"]);
  });
});

describe("removeChoice", () => {
  it("removes only the named choice", () => {
    expect(removeChoice(["A", "B", "C"], "B")).toEqual(["A", "C"]);
  });
});

describe("newSuggestions", () => {
  it("drops suggestions matching an existing choice case-insensitively", () => {
    const suggestions = [
      { category: "YES", confidence: 0.9 },
      { category: "Maybe", confidence: 0.5 },
      { category: " no ", confidence: 0.4 },
    ];
    expect(newSuggestions(suggestions, ["Yes", "No"])).toEqual([{ category: "Maybe", confidence: 0.5 }]);
  });

  it("drops blank and repeated suggestions", () => {
    const suggestions = [
      { category: "Later", confidence: 0.7 },
      { category: "later", confidence: 0.6 },
      { category: "  ", confidence: 0.6 },
    ];
    expect(newSuggestions(suggestions, [])).toEqual([{ category: "Later", confidence: 0.7 }]);
  });

  it("returns nothing when every suggestion is already a choice", () => {
    expect(newSuggestions([{ category: "a", confidence: 1 }], ["A"])).toEqual([]);
  });
});

describe("decisionInputProblem", () => {
  it("needs a non-blank question first", () => {
    expect(decisionInputProblem("  ", ["A", "B"])).toEqual({
      title: "Question required",
      description: "Please enter a question for the AI to decide on.",
    });
  });

  it("needs at least two choices", () => {
    expect(decisionInputProblem("Ship?", ["A"])).toEqual({
      title: "Categories required",
      description: "Please provide at least 2 valid response categories.",
    });
  });

  it("accepts a question with two choices", () => {
    expect(decisionInputProblem("Ship?", ["A", "B"])).toBeNull();
  });
});

describe("formatConfidence", () => {
  it("shows a rounded percent", () => {
    expect(formatConfidence(0.856)).toBe("86%");
    expect(formatConfidence(1)).toBe("100%");
    expect(formatConfidence(0)).toBe("0%");
  });

  it("clamps out-of-range values", () => {
    expect(formatConfidence(1.4)).toBe("100%");
    expect(formatConfidence(-0.2)).toBe("0%");
  });
});
