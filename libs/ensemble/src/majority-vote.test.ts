import { describe, expect, it } from "vitest";
import { isDecided, majorityVote, type Ballot } from "./index";

const ballot = (provider: string, category: string, confidence: number | null = null, weight = 1): Ballot => ({
  provider,
  category,
  weight,
  confidence,
});

describe("majorityVote", () => {
  it("picks the category with the most votes and counts every category", () => {
    const tally = majorityVote(["Yes", "No", "Maybe"], [ballot("a", "Yes"), ballot("b", "No"), ballot("c", "Yes")]);
    expect(tally.final_decision).toBe("Yes");
    expect(tally.vote_counts).toEqual({ Yes: 2, No: 1, Maybe: 0 });
    expect(tally.total_votes).toBe(3);
    expect(tally.leaders).toEqual(["Yes"]);
  });

  it("breaks a tie on summed confidence", () => {
    const tally = majorityVote(["A", "B"], [ballot("a", "A", 0.6), ballot("b", "B", 0.9)]);
    expect(tally.final_decision).toBe("B");
    expect(tally.leaders).toEqual(["A", "B"]);
    expect(tally.confidence).toEqual({ A: 0.6, B: 0.9 });
  });

  it("breaks a full tie on the order of the categories, whatever the order of the votes", () => {
    const categories = ["Red", "Blue", "Green"];
    const forward = majorityVote(categories, [ballot("a", "Blue", 0.7), ballot("b", "Green", 0.7), ballot("c", "Red", 0.7)]);
    const backward = majorityVote(categories, [ballot("c", "Red", 0.7), ballot("b", "Green", 0.7), ballot("a", "Blue", 0.7)]);
    expect(forward.final_decision).toBe("Red");
    expect(backward.final_decision).toBe("Red");
  });

  it("has no decision when every model failed", () => {
    const tally = majorityVote(["Yes", "No"], []);
    expect(tally.final_decision).toBeNull();
    expect(tally.total_votes).toBe(0);
    expect(tally.vote_counts).toEqual({ Yes: 0, No: 0 });
  });

  it("never counts an answer outside the categories", () => {
    const tally = majorityVote(["Yes", "No"], [ballot("a", "Perhaps"), ballot("b", "yes"), ballot("c", "No")]);
    expect(tally.final_decision).toBe("No");
    expect(tally.total_votes).toBe(1);
    expect(tally.vote_counts).toEqual({ Yes: 0, No: 1 });
  });

  it("counts each model's vote even when several choose the same category", () => {
    const tally = majorityVote(["Yes", "No"], [ballot("a", "No"), ballot("b", "No"), ballot("c", "No")]);
    expect(tally.vote_counts).toEqual({ Yes: 0, No: 3 });
    expect(tally.final_decision).toBe("No");
  });

  it("applies weights to the winner but reports plain counts", () => {
    const tally = majorityVote(["A", "B"], [ballot("a", "A", null, 3), ballot("b", "B"), ballot("c", "B")]);
    expect(tally.final_decision).toBe("A");
    expect(tally.vote_counts).toEqual({ A: 1, B: 2 });
    expect(tally.scores).toEqual({ A: 3, B: 2 });
  });
});

describe("isDecided", () => {
  it("is decided when the remaining votes cannot overturn the leader", () => {
    const tally = majorityVote(["A", "B"], [ballot("a", "A"), ballot("b", "A")]);
    expect(isDecided(tally, 1)).toBe(true);
    expect(isDecided(tally, 2)).toBe(false);
  });

  it("is never decided without a valid vote", () => {
    expect(isDecided(majorityVote(["A", "B"], []), 0)).toBe(false);
  });
});

describe("majorityVote's tie report and float sums", () => {
  it("says which rule picked the winner", () => {
    expect(majorityVote(["A", "B"], [ballot("a", "A"), ballot("b", "A"), ballot("c", "B")]).tie_break).toBe("none");
    expect(majorityVote(["A", "B"], [ballot("a", "A", 0.4), ballot("b", "B", 0.8)]).tie_break).toBe("confidence");
    expect(majorityVote(["A", "B"], [ballot("a", "B", 0.8), ballot("b", "A", 0.8)]).tie_break).toBe("category_order");
  });

  it("treats weighted sums and confidences that differ by float rounding only as equal", () => {
    // 0.1 + 0.2 = 0.30000000000000004: still a tie with 0.3, broken on confidence, then on order.
    const weights = majorityVote(["A", "B"], [ballot("a", "A", 0.9, 0.1), ballot("b", "A", 0, 0.2), ballot("c", "B", 0.5, 0.3)]);
    expect(weights.leaders).toEqual(["A", "B"]);
    expect(weights.final_decision).toBe("A");
    const confidences = majorityVote(["A", "B"], [ballot("a", "B", 0.1), ballot("b", "B", 0.2), ballot("c", "A", 0.3), ballot("d", "A", 0)]);
    expect(confidences.tie_break).toBe("category_order");
    expect(confidences.final_decision).toBe("A");
  });

  it("never counts an answer named like a built-in object property", () => {
    const tally = majorityVote(["Yes", "No"], [ballot("a", "constructor"), ballot("b", "toString"), ballot("c", "No")]);
    expect(tally.total_votes).toBe(1);
    expect(tally.final_decision).toBe("No");
  });
});
