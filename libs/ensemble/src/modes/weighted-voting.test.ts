import { describe, expect, it } from "vitest";
import { logOddsWeight } from "../weights";
import { context, member, ok } from "./test-support";
import type { EnsembleResult, ModelAnswer, PanelMember } from "./types";
import { weightedVoting } from "./weighted-voting";

const decide = (panel: PanelMember[], answers: ModelAnswer[], more = {}): EnsembleResult => {
  const t = weightedVoting.onAnswers(weightedVoting.start(context(panel, more)).state, answers);
  if (t.step.kind !== "final") throw new Error(`expected final, got ${t.step.kind}`);
  return t.step.result;
};

describe("weighted_voting", () => {
  it("lets a heavier model outvote two light ones, and says which weights decided", () => {
    // Learned weights for accuracies 0.9, 0.6, 0.6 over 4 categories: ln 27 ≈ 3.30 beats 2 × ln 4.5 ≈ 3.01.
    const k = 4;
    const panel = [
      { provider: "gpt", label: "GPT-4o", weight: logOddsWeight(0.9, k) },
      { provider: "gem", label: "Gemini 2.5 Pro", weight: logOddsWeight(0.6, k) },
      { provider: "cla", label: "Claude 3 Haiku", weight: logOddsWeight(0.6, k) },
    ];
    const result = decide(panel, [ok("gpt", "Yes"), ok("gem", "No", { reason: "Too risky." }), ok("cla", "No")], {
      categories: ["Yes", "No", "Later", "Never"],
    });
    expect(result.tally.final_decision).toBe("Yes");
    expect(result.tally.vote_counts).toEqual({ Yes: 1, No: 2, Later: 0, Never: 0 });
    expect(Object.keys(result.weights)).toEqual(["gpt", "gem", "cla"]);
    expect(result.weights.gpt).toBeCloseTo(Math.log(27), 12);
    expect(result.weights.cla).toBeCloseTo(Math.log(4.5), 12);
    expect(result.explanation!.split("\n")).toEqual([
      "Yes won the weighted vote with 3.30 (1 of 3 votes).",
      "Weights: Yes 3.30 = GPT-4o 3.30; No 3.01 = Gemini 2.5 Pro 1.50 + Claude 3 Haiku 1.50.",
      "A plain count of the votes would have chosen No.",
      "GPT-4o: Yes",
      "Gemini 2.5 Pro: No — Too risky.",
      "Claude 3 Haiku: No",
    ]);
  });

  it("does not mention a plain count when it agrees with the weighted one", () => {
    const result = decide([member("a", 2), member("b", 1)], [ok("a", "No"), ok("b", "No")]);
    expect(result.explanation!.split("\n").slice(0, 2)).toEqual(["No won the weighted vote with 3.00 (2 of 2 votes).", "Weights: No 3.00 = A 2.00 + B 1.00."]);
  });

  it("treats equal weighted sums as a tie even when float rounding differs, and breaks it on confidence", () => {
    // 0.1 + 0.2 is 0.30000000000000004 in floating point: still a tie with 0.3.
    const panel = [member("a", 0.1), member("b", 0.2), member("c", 0.3)];
    const result = decide(panel, [ok("a", "Yes", { confidence: 0.2 }), ok("b", "Yes", { confidence: 0.2 }), ok("c", "No", { confidence: 0.9 })]);
    expect(result.tally.leaders).toEqual(["Yes", "No"]);
    expect(result.tally.final_decision).toBe("No");
    expect(result.explanation!.split("\n")[0]).toBe("No won the weighted vote with 0.30 (1 of 3 votes). It tied with Yes and won on the models' combined confidence.");
  });

  it("shows a weight-0 model's answer but its vote adds nothing to the score", () => {
    const result = decide([member("a", 1), member("b", 0), member("c", 0)], [ok("a", "Yes"), ok("b", "No"), ok("c", "No")]);
    expect(result.tally.final_decision).toBe("Yes");
    expect(result.tally.scores).toMatchObject({ Yes: 1, No: 0 });
    expect(result.final_answers.map((a) => a.category)).toEqual(["Yes", "No", "No"]);
  });

  it("with early quorum stops after one answer when that model outweighs all the others together", () => {
    const panel = [member("a", 3.3), member("b", 1.5), member("c", 1.5)];
    const t = weightedVoting.onAnswers(weightedVoting.start(context(panel, { earlyQuorum: true })).state, [ok("a", "Later")]);
    if (t.step.kind !== "final") throw new Error(`expected final, got ${t.step.kind}`);
    expect(t.step.result.tally.final_decision).toBe("Later");
    expect(t.step.result.skipped).toEqual(["b", "c"]);
  });

  it("with early quorum waits when the others' weights together could exactly tie the leader", () => {
    const panel = [member("a", 3), member("b", 1.5), member("c", 1.5)];
    const t = weightedVoting.onAnswers(weightedVoting.start(context(panel, { earlyQuorum: true })).state, [ok("a", "Later", { confidence: 0.5 })]);
    expect(t.step).toEqual({ kind: "wait", round: 1, pending: ["b", "c"] });
  });
});
