import { describe, expect, it } from "vitest";
import { judgeMode } from "./judge";
import { context, failed, ok, runEnsemble, throughJson } from "./test-support";
import type { EnsembleContext, JudgeVerdict } from "./types";

const judge = { provider: "gpt5", label: "GPT-5" };
const ctx = (more: Partial<EnsembleContext> = {}) => context(["a", "b", "c"], { judge, ...more });
const verdict = (category: string | null, reason: string | null = null, error: string | null = null): JudgeVerdict => ({ category, reason, error });

describe("judge", () => {
  it("after the panel's round asks the judge with the question, the categories and each model's answer, reason and confidence (or error)", () => {
    let t = judgeMode.start(ctx());
    expect(t.step).toEqual({ kind: "ask", round: 1, providers: ["a", "b", "c"], peers: [] });
    t = judgeMode.onAnswers(throughJson(t.state), [
      ok("a", "Yes", { confidence: 0.9, reason: "Green tests." }),
      failed("b", "Timed out"),
      ok("c", "No", { confidence: 0.4, reason: "Friday." }),
    ]);
    expect(t.step).toEqual({
      kind: "judge",
      provider: "gpt5",
      label: "GPT-5",
      question: "Ship it today?",
      categories: ["Yes", "No", "Later"],
      answers: [
        { provider: "a", label: "A", round: 1, category: "Yes", confidence: 0.9, reason: "Green tests.", error: null },
        { provider: "b", label: "B", round: 1, category: null, confidence: null, reason: null, error: "Timed out" },
        { provider: "c", label: "C", round: 1, category: "No", confidence: 0.4, reason: "Friday.", error: null },
      ],
    });
  });

  it("makes the judge's category the decision, even against the panel's majority, with its reason", () => {
    const { result } = runEnsemble("judge", ctx(), (p) => (p === "c" ? "Later" : "Yes"), () => verdict("Later", "The release notes are not written."));
    expect(result.tally.final_decision).toBe("Later");
    expect(result.tally.vote_counts).toEqual({ Yes: 2, No: 0, Later: 1 });
    expect(result.judge).toEqual({ provider: "gpt5", label: "GPT-5", category: "Later", reason: "The release notes are not written.", error: null, fallback: false });
    expect(result.explanation!.split("\n")).toEqual([
      "The judge GPT-5 chose Later: The release notes are not written.",
      "The panel voted Yes 2, Later 1.",
      "A: Yes",
      "B: Yes",
      "C: Later",
    ]);
  });

  it("falls back to the majority vote when the judge fails, and the result says so", () => {
    const { result } = runEnsemble("judge", ctx(), (p) => (p === "c" ? "No" : "Yes"), () => verdict(null, null, "Judge timed out after 20 s"));
    expect(result.tally.final_decision).toBe("Yes");
    expect(result.judge).toMatchObject({ category: null, error: "Judge timed out after 20 s", fallback: true });
    expect(result.explanation!.split("\n").slice(0, 2)).toEqual([
      "The judge GPT-5 failed (Judge timed out after 20 s): the majority vote decided.",
      "Yes won with 2 of 3 votes.",
    ]);
  });

  it("treats a judge's category outside the list as a failed judge", () => {
    const { result } = runEnsemble("judge", ctx(), (p) => (p === "a" ? "No" : "Later"), () => verdict("Maybe", "Unsure."));
    expect(result.tally.final_decision).toBe("Later");
    expect(result.judge).toMatchObject({ category: null, error: 'Chose "Maybe", which is not one of the categories.', fallback: true });
    expect(result.explanation!.split("\n")[0]).toBe('The judge GPT-5 failed (Chose "Maybe", which is not one of the categories.): the majority vote decided.');
  });

  it("treats a verdict without a category as a failed judge", () => {
    const { result } = runEnsemble("judge", ctx(), () => "No", () => verdict(null));
    expect(result.judge).toMatchObject({ error: "The judge gave no category.", fallback: true });
    expect(result.tally.final_decision).toBe("No");
  });

  it("does not ask the judge when no panel model gave a valid answer: no decision", () => {
    const { result, steps } = runEnsemble("judge", ctx(), () => new Error("Service unavailable"));
    expect(steps.some((s) => s.kind === "judge")).toBe(false);
    expect(result.tally.final_decision).toBeNull();
    expect(result.judge).toBeNull();
    expect(result.explanation).toBeNull();
  });

  it("ignores a verdict before the panel is done, and a second verdict after the decision", () => {
    let t = judgeMode.start(ctx());
    t = judgeMode.onJudge!(t.state, verdict("No"));
    expect(t.step).toEqual({ kind: "wait", round: 1, pending: ["a", "b", "c"] });
    t = judgeMode.onAnswers(t.state, [ok("a", "Yes"), ok("b", "Yes"), ok("c", "Yes")]);
    expect(t.step.kind).toBe("judge");
    // A repeated panel answer while the judge is out: still waiting for the judge, not a second judge step.
    expect(judgeMode.onAnswers(t.state, [ok("a", "No")]).step).toEqual({ kind: "wait", round: 1, pending: ["gpt5"] });
    t = judgeMode.onJudge!(t.state, verdict("Later", "Wait for Monday."));
    expect(t.step.kind === "final" && t.step.result.tally.final_decision).toBe("Later");
    expect(judgeMode.onJudge!(t.state, verdict("No")).step).toEqual(t.step);
  });

  it("cannot start without a judge", () => {
    expect(() => judgeMode.start(context(["a"]))).toThrow("The judge mode needs a judge.");
  });
});
