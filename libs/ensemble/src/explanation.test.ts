import { describe, expect, it } from "vitest";
import { explainDecision, majorityVote, type Ballot, type Rationale } from "./index";

const ballot = (provider: string, category: string, confidence: number | null = null): Ballot => ({ provider, category, weight: 1, confidence });
const reason = (label: string, category: string | null, rationale: string | null, error: string | null = null): Rationale => ({
  label,
  category,
  rationale,
  error,
});

describe("explainDecision", () => {
  it("reads as the outcome, then one short line per model with its answer and reason", () => {
    const tally = majorityVote(["Go", "Wait"], [ballot("openai", "Go"), ballot("gemini", "Go"), ballot("claude", "Wait")]);
    const text = explainDecision(
      tally,
      [
        reason("OpenAI GPT-4o", "Go", "The tests are green."),
        reason("Google Gemini 2.5 Flash", "Go", "Low risk this week."),
        reason("Anthropic Claude Sonnet 3.5", "Wait", "Fridays are risky."),
      ],
      "none",
    );
    expect(text.split("\n")).toEqual([
      "Go won with 2 of 3 votes.",
      "OpenAI GPT-4o: Go — The tests are green.",
      "Google Gemini 2.5 Flash: Go — Low risk this week.",
      "Anthropic Claude Sonnet 3.5: Wait — Fridays are risky.",
    ]);
  });

  it("gives a failed model its own line with the error, and counts only valid votes", () => {
    const tally = majorityVote(["Yes", "No"], [ballot("a", "Yes")]);
    const text = explainDecision(tally, [reason("Model A", "Yes", null), reason("Model C", null, null, "Timed out after 20 s")], "none");
    expect(text).toBe("Yes won with 1 of 1 vote.\nModel A: Yes\nModel C: no valid vote (Timed out after 20 s)");
  });

  it("says how a tie was broken: on combined confidence", () => {
    const tally = majorityVote(["Tea", "Coffee"], [ballot("a", "Tea", 0.6), ballot("b", "Coffee", 0.9)]);
    const text = explainDecision(tally, [reason("A", "Tea", "Calmer."), reason("B", "Coffee", "Stronger.")], "none");
    expect(text.split("\n")[0]).toBe("Coffee won with 1 of 2 votes. It tied with Tea and won on the models' combined confidence.");
  });

  it("says how a tie was broken: on the order of the categories when the confidence is equal too", () => {
    const tally = majorityVote(["Tea", "Coffee"], [ballot("a", "Coffee", 0.7), ballot("b", "Tea", 0.7)]);
    const text = explainDecision(tally, [reason("A", "Coffee", null), reason("B", "Tea", null)], "none");
    expect(text.split("\n")[0]).toBe("Tea won with 1 of 2 votes. It tied with Coffee and won as the category listed first.");
  });

  it("keeps each line to one short line: newlines collapsed, a rambling reason cut", () => {
    const tally = majorityVote(["Yes", "No"], [ballot("a", "Yes")]);
    const text = explainDecision(tally, [reason("A", "Yes", `First line.\n\n  Second   line. ${"very ".repeat(100)}long`)], "none");
    const [, line] = text.split("\n");
    expect(text.split("\n")).toHaveLength(2);
    expect(line).toMatch(/^A: Yes — First line\. Second line\. very very/);
    expect(line!.length).toBeLessThanOrEqual("A: Yes — ".length + 240);
    expect(line!.endsWith("…")).toBe(true);
  });

  it("never repeats a sentence: each reason appears once", () => {
    const tally = majorityVote(["Go", "Wait"], [ballot("a", "Go"), ballot("b", "Wait")]);
    const text = explainDecision(tally, [reason("A", "Go", "Ship it now."), reason("B", "Wait", "Hold until Monday.")], "none");
    for (const sentence of ["Ship it now.", "Hold until Monday."]) expect(text.split(sentence)).toHaveLength(2);
  });

  it("uses the no-decision text when nobody voted", () => {
    expect(explainDecision(majorityVote(["Yes", "No"], []), [], "No valid decision")).toBe("No valid decision");
  });
});
