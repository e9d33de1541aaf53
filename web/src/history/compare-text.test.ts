import type { ModeOutcome } from "@sd/contracts";
import { describe, expect, it } from "vitest";
import { outcomeBasis } from "./compare-text";

const outcome = (fields: Partial<ModeOutcome>): ModeOutcome => ({
  mode: "majority_voting",
  source: "recomputed",
  current: false,
  final_decision: "Yes",
  scores: { Yes: 2, No: 1 },
  tie_break: "none",
  leaders: ["Yes"],
  decision_id: null,
  ...fields,
});

describe("outcomeBasis", () => {
  it("says the stored votes were counted again, with the tie policy that chose among tied categories", () => {
    expect(outcomeBasis(outcome({}), 3)).toBe("3 votes counted again, no model asked");
    expect(outcomeBasis(outcome({ tie_break: "confidence", leaders: ["Yes", "No"] }), 1)).toBe("1 vote counted again, no model asked; tie between Yes and No broken by summed confidence");
    expect(outcomeBasis(outcome({ tie_break: "category_order", leaders: ["A", "B", "C"] }), 3)).toBe(
      "3 votes counted again, no model asked; tie between A, B and C broken by the order of the categories",
    );
  });

  it("shows the weighted scores of the categories that got votes", () => {
    expect(outcomeBasis(outcome({ mode: "weighted_voting", scores: { Yes: 2.0794, No: 1.3863, Maybe: 0 } }), 3)).toBe(
      "3 votes counted again, no model asked; scores Yes 2.08, No 1.39",
    );
  });

  it("names where a judge or gossip outcome comes from", () => {
    expect(outcomeBasis(outcome({ mode: "judge", source: "decided", scores: {}, tie_break: null }), 3)).toBe("How this decision was made");
    expect(outcomeBasis(outcome({ mode: "judge", source: "rerun" }), 3)).toBe("From a re-run of this decision");
    expect(outcomeBasis(outcome({ mode: "gossip", source: "not_run", final_decision: null }), 3)).toBe("Needs the models again: run it as a new decision");
  });
});
