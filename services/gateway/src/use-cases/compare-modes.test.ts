import type { EnsembleRecord, RoundAnswer, StoredDecision } from "@sd/contracts";
import { sampleDecision } from "@sd/store/testing/sample-decision";
import { describe, expect, it } from "vitest";
import { compareModes, storedBallots } from "./compare-modes";

const answer = (provider: string, category: string | null, confidence: number | null = 0.5): RoundAnswer => ({ provider, round: 1, category, confidence, reason: null, error: category ? null : "timeout" });

function record(mode: EnsembleRecord["mode"], rounds: RoundAnswer[][], extra: Partial<EnsembleRecord> = {}): EnsembleRecord {
  return { mode, panel: ["a", "b", "c", "d"], weights: {}, rounds, judge: null, early_quorum: null, ...extra };
}

function decision(mode: EnsembleRecord["mode"], rounds: RoundAnswer[][], extra: Partial<EnsembleRecord> = {}, fields: Partial<StoredDecision> = {}): StoredDecision {
  return sampleDecision({ categories: ["Yes", "No"], ensemble_mode: mode, ensemble: record(mode, rounds, extra), ...fields });
}

const byMode = (comparison: ReturnType<typeof compareModes>) => Object.fromEntries(comparison.outcomes.map((o) => [o.mode, o]));
const noWeights = () => null;

describe("compareModes", () => {
  it("counts the stored votes again for majority and weighted voting, with the tally's tie policy", () => {
    // 2-2 on votes: the tie goes to the higher summed confidence (No: 1.6 against 1.0).
    const tied = decision("majority_voting", [[answer("a", "Yes"), answer("b", "Yes"), answer("c", "No", 0.8), answer("d", "No", 0.8)]]);
    const weights = { a: 3, b: 1, c: 1, d: 1 };
    const outcomes = byMode(compareModes(tied, [], () => weights));
    expect(outcomes.majority_voting).toMatchObject({ source: "recomputed", current: true, final_decision: "No", scores: { Yes: 2, No: 2 }, tie_break: "confidence", leaders: ["Yes", "No"] });
    // Model a's weight 3 carries Yes in the weighted vote (4 against 2): no tie.
    expect(outcomes.weighted_voting).toMatchObject({ source: "recomputed", current: false, final_decision: "Yes", scores: { Yes: 4, No: 2 }, tie_break: "none" });
  });

  it("falls back to the order of the categories when votes and confidence tie", () => {
    const full = decision("majority_voting", [[answer("a", "No", 0.7), answer("b", "Yes", 0.7)]]);
    expect(byMode(compareModes(full, [], noWeights)).majority_voting).toMatchObject({ final_decision: "Yes", tie_break: "category_order" });
  });

  it("counts gossip's and the judge's independent first round, without failed or skipped votes", () => {
    const gossip = decision("gossip", [
      [answer("a", "Yes"), answer("b", "No"), answer("c", null), answer("d", "No")],
      [answer("a", "No"), answer("b", "No"), answer("c", "No"), answer("d", "No")].map((x) => ({ ...x, round: 2 })),
    ]);
    const comparison = compareModes(gossip, [], noWeights);
    expect(comparison.votes_counted).toBe(3);
    expect(byMode(comparison).majority_voting).toMatchObject({ final_decision: "No", scores: { Yes: 1, No: 2 } });
    expect(byMode(comparison).gossip).toMatchObject({ source: "decided", current: true, decision_id: gossip.id, final_decision: gossip.final_decision });

    const quorum = decision("majority_voting", [[answer("a", "Yes"), answer("b", "Yes"), answer("c", "No")]], { early_quorum: { skipped: ["c"], calls_saved: 0 } });
    expect(storedBallots(quorum).map((b) => b.provider)).toEqual(["a", "b"]);
  });

  it("uses the weights a weighted decision was made with, not today's", () => {
    const weighted = decision("weighted_voting", [[answer("a", "Yes"), answer("b", "No")]], { weights: { a: 1, b: 2 } });
    expect(byMode(compareModes(weighted, [], () => ({ a: 5, b: 1 }))).weighted_voting).toMatchObject({ current: true, final_decision: "No", scores: { Yes: 1, No: 2 } });
  });

  it("offers weighted voting as a re-run when a panel model has no weight today", () => {
    const old = decision("majority_voting", [[answer("a", "Yes")]]);
    expect(byMode(compareModes(old, [], noWeights)).weighted_voting).toMatchObject({ source: "not_run", final_decision: null });
  });

  it("shows judge and gossip from the newest re-run in that mode, else as not run", () => {
    const first = decision("majority_voting", [[answer("a", "Yes")]]);
    const newer = sampleDecision({ id: "judge-2", ensemble_mode: "judge", final_decision: "No", rerun_of: first.id });
    const older = sampleDecision({ id: "judge-1", ensemble_mode: "judge", final_decision: "Yes", rerun_of: first.id });
    const outcomes = byMode(compareModes(first, [newer, older], noWeights));
    expect(outcomes.judge).toMatchObject({ source: "rerun", current: false, decision_id: "judge-2", final_decision: "No" });
    expect(outcomes.gossip).toMatchObject({ source: "not_run", decision_id: null, final_decision: null });
  });

  it("reads the per-model responses of a decision stored before rounds were kept", () => {
    const legacy = sampleDecision({ ensemble: null, categories: ["TypeScript", "Go"] });
    expect(byMode(compareModes(legacy, [], noWeights)).majority_voting).toMatchObject({ final_decision: "TypeScript", scores: { TypeScript: 2, Go: 1 } });
  });
});
