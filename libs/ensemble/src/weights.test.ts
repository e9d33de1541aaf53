import { describe, expect, it } from "vitest";
import { ACCURACY_MARGIN, logOddsWeight, logOddsWeights } from "./weights";

describe("logOddsWeight", () => {
  it("is ln(p(K−1)/(1−p))", () => {
    expect(logOddsWeight(0.8, 4)).toBeCloseTo(Math.log(12), 12);
    expect(logOddsWeight(0.7, 4)).toBeCloseTo(Math.log(7), 12);
    expect(logOddsWeight(0.6, 2)).toBeCloseTo(Math.log(1.5), 12);
  });

  it("gives a model at or below chance weight 0: its votes tell nothing", () => {
    expect(logOddsWeight(0.25, 4)).toBe(0);
    expect(logOddsWeight(0.1, 4)).toBe(0);
    expect(logOddsWeight(0.5, 2)).toBe(0);
    expect(logOddsWeight(0, 3)).toBe(0);
  });

  it("keeps a perfect model's weight finite, and one just above chance small but positive", () => {
    const top = Math.log(((1 - ACCURACY_MARGIN) * 3) / ACCURACY_MARGIN);
    expect(logOddsWeight(1, 4)).toBeCloseTo(top, 12);
    expect(logOddsWeight(0.999, 4)).toBeCloseTo(top, 12);
    const justAbove = logOddsWeight(0.251, 4);
    expect(justAbove).toBeGreaterThan(0);
    expect(justAbove).toBeCloseTo(Math.log(((0.25 + ACCURACY_MARGIN) * 3) / (0.75 - ACCURACY_MARGIN)), 12);
  });

  it("maps each provider's accuracy to its weight", () => {
    const weights = logOddsWeights({ gpt: 0.9, gem: 0.6, old: 0.2 }, 4);
    expect(weights.gpt).toBeCloseTo(Math.log(27), 12);
    expect(weights.gem).toBeCloseTo(Math.log(4.5), 12);
    expect(weights.old).toBe(0);
  });

  it("refuses an accuracy outside 0..1 or fewer than 2 categories", () => {
    expect(() => logOddsWeight(1.2, 4)).toThrow(RangeError);
    expect(() => logOddsWeight(Number.NaN, 4)).toThrow(RangeError);
    expect(() => logOddsWeight(0.8, 1)).toThrow(RangeError);
  });
});
