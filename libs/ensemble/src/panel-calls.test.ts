import { describe, expect, it } from "vitest";
import { JUDGE_ROUND, progressRound, quorumWeights } from "./panel-calls";

describe("quorumWeights", () => {
  it("counts each vote once in a plain majority, whatever the weights", () => {
    expect(quorumWeights("majority_voting", ["a", "b"], { a: 3 })).toEqual({ a: 1, b: 1 });
  });

  it("counts each vote with its weight in weighted voting (1 when none is given)", () => {
    expect(quorumWeights("weighted_voting", ["a", "b"], { a: 3 })).toEqual({ a: 3, b: 1 });
    expect(quorumWeights("weighted_voting", ["a"], null)).toEqual({ a: 1 });
  });

  it("does not apply to the modes whose round-1 votes do not decide alone", () => {
    expect(quorumWeights("judge", ["a", "b"], null)).toBeNull();
    expect(quorumWeights("gossip", ["a", "b"], null)).toBeNull();
  });
});

describe("progressRound", () => {
  it("shows the judge as round 0 and a vote as its own round", () => {
    expect(JUDGE_ROUND).toBe(0);
    expect(progressRound("judge", 1)).toBe(0);
    expect(progressRound("vote", 2)).toBe(2);
    expect(progressRound(undefined, 1)).toBe(1);
  });
});
