import { describe, expect, it } from "vitest";
import { asks, context, runEnsemble, type Script } from "./test-support";
import type { ShownAnswer } from "./types";

const three = (more = {}) => context(["a", "b", "c"], more);

/** The category most of a model's peers (not itself) stand on; the model's own if none. */
const peersMajority = (self: string, peers: readonly ShownAnswer[]): string => {
  const counts = new Map<string, number>();
  for (const p of peers) if (p.provider !== self) counts.set(p.category, (counts.get(p.category) ?? 0) + 1);
  return [...counts].sort((x, y) => y[1] - x[1])[0]?.[0] ?? peers.find((p) => p.provider === self)!.category;
};

describe("gossip", () => {
  it("stops after round 1 when the models already agree", () => {
    const { result, steps } = runEnsemble("gossip", three(), () => "Yes");
    expect(asks(steps)).toEqual([[1, ["a", "b", "c"]]]);
    expect(result.rounds).toHaveLength(1);
    expect(result.explanation!.split("\n").slice(0, 2)).toEqual(["Yes won with 3 of 3 votes.", "The models agreed in round 1, so no other round was needed."]);
  });

  it("shows each model its peers' answers and reasons, and stops when they converge in round 2", () => {
    const script: Script = (p, round, peers) => {
      if (p !== "c") return { category: "Yes", confidence: 0.8, reason: `${p} likes it.` };
      return round === 1 ? { category: "No", reason: "Risky." } : { category: peersMajority(p, peers), reason: "The others convinced me." };
    };
    const { result, steps } = runEnsemble("gossip", three(), script);
    expect(asks(steps)).toEqual([
      [1, ["a", "b", "c"]],
      [2, ["a", "b", "c"]],
    ]);
    const round2 = steps.find((s) => s.kind === "ask" && s.round === 2);
    expect(round2).toMatchObject({
      peers: [
        { provider: "a", label: "A", round: 1, category: "Yes", confidence: 0.8, reason: "a likes it." },
        { provider: "b", label: "B", round: 1, category: "Yes", confidence: 0.8, reason: "b likes it." },
        { provider: "c", label: "C", round: 1, category: "No", confidence: null, reason: "Risky." },
      ],
    });
    expect(result.rounds.map((r) => r.map((a) => a.category))).toEqual([
      ["Yes", "Yes", "No"],
      ["Yes", "Yes", "Yes"],
    ]);
    expect(result.tally.vote_counts).toEqual({ Yes: 3, No: 0, Later: 0 });
    expect(result.explanation!.split("\n")).toEqual([
      "Yes won with 3 of 3 votes.",
      "The models agreed in round 2.",
      "Changed answers: C from No to Yes in round 2.",
      "A: Yes — a likes it.",
      "B: Yes — b likes it.",
      "C: Yes — The others convinced me.",
    ]);
  });

  it("stops at the round cap (3 by default) and counts the last round, not the first", () => {
    const script: Script = (p, round) => (p === "a" ? "Yes" : p === "b" ? "No" : round < 3 ? "Yes" : "No");
    const { result, steps } = runEnsemble("gossip", three(), script);
    expect(asks(steps).map(([round]) => round)).toEqual([1, 2, 3]);
    expect(result.rounds).toHaveLength(3);
    expect(result.tally.final_decision).toBe("No");
    expect(result.tally.vote_counts).toEqual({ Yes: 1, No: 2, Later: 0 });
    expect(result.explanation!.split("\n").slice(0, 3)).toEqual([
      "No won with 2 of 3 votes.",
      "The models still disagreed after 3 rounds, the most allowed: the last answers were counted.",
      "Changed answers: C from Yes to No in round 3.",
    ]);
  });

  it("honours a configured round cap", () => {
    const { result, steps } = runEnsemble("gossip", three({ maxRounds: 2 }), (p) => (p === "a" ? "Yes" : "No"));
    expect(asks(steps).map(([round]) => round)).toEqual([1, 2]);
    expect(result.explanation!.split("\n").slice(1, 3)).toEqual([
      "The models still disagreed after 2 rounds, the most allowed: the last answers were counted.",
      "No model changed its answer.",
    ]);
  });

  it("does not ask a model again after its call failed, and keeps its last valid answer shown and counted", () => {
    const script: Script = (p, round) => {
      if (p === "a") return { category: "Yes", confidence: 0.9 };
      if (p === "b") return round === 1 ? { category: "No", reason: "Too late in the week." } : new Error("Timed out");
      return new Error("Rate limited");
    };
    const { result, steps } = runEnsemble("gossip", three(), script);
    expect(asks(steps)).toEqual([
      [1, ["a", "b", "c"]],
      [2, ["a", "b"]],
      [3, ["a"]],
    ]);
    const round3 = steps.find((s) => s.kind === "ask" && s.round === 3);
    expect(round3).toMatchObject({ peers: [{ provider: "a", round: 2 }, { provider: "b", round: 1, category: "No", reason: "Too late in the week." }] });
    // The last answers: a's round-3 Yes and b's standing round-1 No; c never gave one.
    expect(result.tally.vote_counts).toEqual({ Yes: 1, No: 1, Later: 0 });
    expect(result.tally.final_decision).toBe("Yes");
    expect(result.final_answers).toMatchObject([
      { provider: "a", round: 3, category: "Yes" },
      { provider: "b", round: 1, category: "No" },
      { provider: "c", round: 1, category: null, error: "Rate limited" },
    ]);
    expect(result.explanation!.split("\n").slice(-2)).toEqual([
      "B: No — Too late in the week. (its round 1 answer; round 2 failed: Timed out)",
      "C: no valid vote (Rate limited)",
    ]);
  });

  it("stops when no model answers a round, counting each model's last valid answer", () => {
    const script: Script = (p, round) => (round > 1 ? new Error("Overloaded") : p === "a" ? "Yes" : "No");
    const { result, steps } = runEnsemble("gossip", three(), script);
    expect(asks(steps).map(([round]) => round)).toEqual([1, 2]);
    expect(result.tally.final_decision).toBe("No");
    expect(result.explanation!.split("\n")[1]).toBe("No model answered in round 2: each model's last valid answer was counted.");
  });

  it("has no decision when every model fails in round 1", () => {
    const { result, steps } = runEnsemble("gossip", three(), () => new Error("Service unavailable"));
    expect(asks(steps)).toHaveLength(1);
    expect(result.tally.final_decision).toBeNull();
    expect(result.explanation).toBeNull();
  });
});
