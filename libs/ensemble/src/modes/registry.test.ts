import { ENSEMBLE_MODES as CONTRACT_MODES } from "@sd/contracts";
import { describe, expect, it } from "vitest";
import { ENSEMBLE_MODES, feedAnswers, feedJudgeVerdict, isEnsembleModeId, startEnsemble } from "./registry";
import { context, member, ok, runEnsemble, throughJson } from "./test-support";

describe("the mode registry", () => {
  it("lists the four marketed modes, the default first", () => {
    expect(ENSEMBLE_MODES).toEqual(["majority_voting", "weighted_voting", "judge", "gossip"]);
    // The request contract (shared with the browser) lists the same modes: a new mode is registered in both.
    expect(ENSEMBLE_MODES).toEqual([...CONTRACT_MODES]);
    expect(isEnsembleModeId("gossip")).toBe(true);
    expect(isEnsembleModeId("toString")).toBe(false);
    expect(isEnsembleModeId("consensus")).toBe(false);
  });

  it("runs every mode to a decision with its state passed through JSON between steps", () => {
    const judge = { provider: "j", label: "J" };
    for (const mode of ENSEMBLE_MODES) {
      const { result } = runEnsemble(mode, context(["a", "b", "c"], { judge }), (p) => (p === "c" ? "No" : "Yes"), () => ({ category: "Yes", reason: null, error: null }));
      expect(result.tally.final_decision, mode).toBe("Yes");
    }
  });

  it("keeps the mode with the state, so a stored state resumes in the right mode", () => {
    const started = startEnsemble("weighted_voting", context([member("a", 2), member("b", 1)]));
    const stored = throughJson(started.state);
    expect(stored.mode).toBe("weighted_voting");
    const t = feedAnswers(stored, [ok("a", "Yes"), ok("b", "No")]);
    expect(t.state.mode).toBe("weighted_voting");
    expect(t.step.kind === "final" && t.step.result.explanation?.startsWith("Yes won the weighted vote")).toBe(true);
  });

  it("refuses a judge's verdict in a mode that never asks a judge", () => {
    const { state } = startEnsemble("gossip", context(["a"]));
    expect(() => feedJudgeVerdict(state, { category: "Yes", reason: null, error: null })).toThrow("The gossip mode has no judge step.");
  });

  it("refuses a context no decision can be made with", () => {
    expect(() => startEnsemble("majority_voting", context([]))).toThrow("at least one model");
    expect(() => startEnsemble("majority_voting", context(["a", "a"]))).toThrow("once");
    expect(() => startEnsemble("weighted_voting", context([member("a", -1)]))).toThrow("weight of a");
    expect(() => startEnsemble("gossip", context(["a"], { maxRounds: 0 }))).toThrow("maxRounds");
    expect(() => startEnsemble("majority_voting", context(["a"], { categories: ["Yes", "Yes"] }))).toThrow("distinct");
  });
});
