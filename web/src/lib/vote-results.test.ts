import { describe, expect, it } from "vitest";
import { voteResults, votesLabel } from "./vote-results";

describe("voteResults", () => {
  it("sorts categories by count, most votes first, keeping the order of ties", () => {
    expect(voteResults({ Maybe: 0, No: 2, Yes: 1, Later: 0 }, 3).map((r) => r.category)).toEqual(["No", "Yes", "Maybe", "Later"]);
  });

  it("gives each bar its share of all votes", () => {
    expect(voteResults({ Yes: 2, No: 1, Maybe: 0 }, 3)).toEqual([
      { category: "Yes", count: 2, share: 2 / 3, label: "2 votes" },
      { category: "No", count: 1, share: 1 / 3, label: "1 vote" },
      { category: "Maybe", count: 0, share: 0, label: "0 votes" },
    ]);
  });

  it("draws empty bars when nobody voted", () => {
    expect(voteResults({ Yes: 0, No: 0 }, 0).map((r) => r.share)).toEqual([0, 0]);
  });

  it("caps a weighted score's bar at the full width", () => {
    expect(voteResults({ Yes: 2.5, No: 0 }, 2)[0]?.share).toBe(1);
  });
});

describe("votesLabel", () => {
  it("uses the singular only for exactly one vote", () => {
    expect(votesLabel(1)).toBe("1 vote");
    expect(votesLabel(0)).toBe("0 votes");
    expect(votesLabel(3)).toBe("3 votes");
    expect(votesLabel(1.5)).toBe("1.5 votes");
    expect(votesLabel(2 / 3)).toBe("0.67 votes");
  });
});
