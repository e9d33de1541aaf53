import { describe, expect, it } from "vitest";
import { explainDecision } from "../explanation";
import { majorityVote } from "../majority-vote";
import { majorityVoting } from "./majority-voting";
import { context, failed, member, ok, throughJson } from "./test-support";

describe("majority_voting", () => {
  it("asks every panel model once, waits for each answer, then decides with the plain count", () => {
    const ctx = context(["a", "b", "c"]);
    let t = majorityVoting.start(ctx);
    expect(t.step).toEqual({ kind: "ask", round: 1, providers: ["a", "b", "c"], peers: [] });
    t = majorityVoting.onAnswers(throughJson(t.state), [ok("b", "No", { reason: "Risky." })]);
    expect(t.step).toEqual({ kind: "wait", round: 1, pending: ["a", "c"] });
    t = majorityVoting.onAnswers(throughJson(t.state), [ok("c", "Yes"), ok("a", "Yes", { reason: "Tests are green." })]);
    if (t.step.kind !== "final") throw new Error(`expected final, got ${t.step.kind}`);
    const { result } = t.step;
    expect(result.tally.final_decision).toBe("Yes");
    expect(result.tally.vote_counts).toEqual({ Yes: 2, No: 1, Later: 0 });
    // Rounds and per-model answers are in panel order, whatever the arrival order.
    expect(result.final_answers.map((a) => a.provider)).toEqual(["a", "b", "c"]);
    expect(result.rounds).toHaveLength(1);
    expect(result.skipped).toEqual([]);
    expect(result.judge).toBeNull();
    expect(result.explanation).toBe("Yes won with 2 of 3 votes.\nA: Yes — Tests are green.\nB: No — Risky.\nC: Yes");
  });

  it("explains exactly as explainDecision does, so existing decisions read the same", () => {
    const ctx = context(["a", "b"]);
    const t = majorityVoting.onAnswers(majorityVoting.start(ctx).state, [ok("a", "No", { confidence: 0.6 }), ok("b", "Yes", { confidence: 0.9 })]);
    if (t.step.kind !== "final") throw new Error("expected final");
    const tally = majorityVote(ctx.categories, [
      { provider: "a", category: "No", weight: 1, confidence: 0.6 },
      { provider: "b", category: "Yes", weight: 1, confidence: 0.9 },
    ]);
    const expected = explainDecision(tally, [
      { label: "A", category: "No", rationale: null, error: null },
      { label: "B", category: "Yes", rationale: null, error: null },
    ], "none");
    expect(t.step.result.explanation).toBe(expected);
    expect(t.step.result.explanation!.split("\n")[0]).toBe("Yes won with 1 of 2 votes. It tied with No and won on the models' combined confidence.");
  });

  it("breaks a full tie on the order of the categories", () => {
    const t = majorityVoting.onAnswers(majorityVoting.start(context(["a", "b"])).state, [ok("a", "Later", { confidence: 0.5 }), ok("b", "No", { confidence: 0.5 })]);
    if (t.step.kind !== "final") throw new Error("expected final");
    expect(t.step.result.tally.final_decision).toBe("No");
    expect(t.step.result.tally.tie_break).toBe("category_order");
  });

  it("counts every vote with weight 1, whatever the panel's configured weights", () => {
    const ctx = context([member("a", 5), member("b", 1), member("c", 1)]);
    const t = majorityVoting.onAnswers(majorityVoting.start(ctx).state, [ok("a", "Yes"), ok("b", "No"), ok("c", "No")]);
    if (t.step.kind !== "final") throw new Error("expected final");
    expect(t.step.result.tally.final_decision).toBe("No");
    expect(t.step.result.weights).toEqual({ a: 1, b: 1, c: 1 });
  });

  it("has no decision and no explanation when every model failed, and keeps each error", () => {
    const t = majorityVoting.onAnswers(majorityVoting.start(context(["a", "b"])).state, [failed("a", "Timed out"), failed("b", "Rate limited")]);
    if (t.step.kind !== "final") throw new Error("expected final");
    expect(t.step.result.tally.final_decision).toBeNull();
    expect(t.step.result.explanation).toBeNull();
    expect(t.step.result.final_answers.map((a) => a.error)).toEqual(["Timed out", "Rate limited"]);
  });

  it("turns an answer outside the categories into that model's error, never a vote", () => {
    const t = majorityVoting.onAnswers(majorityVoting.start(context(["a", "b"])).state, [ok("a", "Perhaps"), ok("b", "No")]);
    if (t.step.kind !== "final") throw new Error("expected final");
    expect(t.step.result.tally.total_votes).toBe(1);
    expect(t.step.result.final_answers[0]).toMatchObject({ category: null, error: 'Answered "Perhaps", which is not one of the categories.' });
    expect(t.step.result.explanation).toContain('A: no valid vote (Answered "Perhaps", which is not one of the categories.)');
  });

  it("ignores answers it did not ask for: another round, an unknown model, a repeat", () => {
    let t = majorityVoting.start(context(["a", "b"]));
    t = majorityVoting.onAnswers(t.state, [ok("a", "Yes"), ok("a", "No"), ok("zed", "No"), ok("b", "No", { round: 2 })]);
    expect(t.step).toEqual({ kind: "wait", round: 1, pending: ["b"] });
    t = majorityVoting.onAnswers(t.state, [ok("b", "Yes")]);
    if (t.step.kind !== "final") throw new Error("expected final");
    expect(t.step.result.tally.vote_counts).toEqual({ Yes: 2, No: 0, Later: 0 });
    // After the decision, a late answer changes nothing: the same final step comes back.
    const late = majorityVoting.onAnswers(t.state, [ok("a", "No")]);
    expect(late.step).toEqual(t.step);
  });

  it("without early quorum waits for the last answer even when it cannot change the winner", () => {
    const t = majorityVoting.onAnswers(majorityVoting.start(context(["a", "b", "c"])).state, [ok("a", "Yes"), ok("b", "Yes")]);
    expect(t.step).toEqual({ kind: "wait", round: 1, pending: ["c"] });
  });

  it("with early quorum decides once the rest cannot change the winner, and skips the rest", () => {
    const ctx = context(["a", "b", "c", "d", "e"], { earlyQuorum: true });
    let t = majorityVoting.onAnswers(majorityVoting.start(ctx).state, [ok("a", "Yes"), ok("b", "Yes")]);
    expect(t.step).toEqual({ kind: "wait", round: 1, pending: ["c", "d", "e"] });
    t = majorityVoting.onAnswers(throughJson(t.state), [ok("d", "Yes", { reason: "Fine." })]);
    if (t.step.kind !== "final") throw new Error("expected final");
    const { result } = t.step;
    expect(result.tally.final_decision).toBe("Yes");
    expect(result.skipped).toEqual(["c", "e"]);
    expect(result.final_answers.map((a) => a.provider)).toEqual(["a", "b", "d"]);
    expect(result.explanation!.split("\n")).toEqual([
      "Yes won with 3 of 3 votes.",
      "Decided early: the 2 answers still to come could not change the winner, so their calls were skipped.",
      "A: Yes",
      "B: Yes",
      "C: skipped (decided early)",
      "D: Yes — Fine.",
      "E: skipped (decided early)",
    ]);
    // A skipped model's answer that lands late never enters the tally.
    const late = majorityVoting.onAnswers(throughJson(t.state), [ok("c", "No"), ok("e", "No")]);
    expect(late.step).toEqual(t.step);
  });

  it("with early quorum still waits while a tie is within reach of the votes to come", () => {
    const ctx = context(["a", "b", "c", "d"], { earlyQuorum: true });
    // Yes 2, No 1, one vote pending: No could tie at 2 and win the tie on that vote's confidence.
    const t = majorityVoting.onAnswers(majorityVoting.start(ctx).state, [ok("a", "Yes"), ok("b", "Yes"), ok("c", "No")]);
    expect(t.step).toEqual({ kind: "wait", round: 1, pending: ["d"] });
  });
});
