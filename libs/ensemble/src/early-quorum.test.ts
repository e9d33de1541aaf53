import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { earlyQuorum, type CastAnswer } from "./early-quorum";
import { majorityVote } from "./majority-vote";

const vote = (provider: string, category: string | null, confidence: number | null = null): CastAnswer => ({ provider, category, confidence });
const ones = (...providers: string[]) => Object.fromEntries(providers.map((p) => [p, 1]));

describe("earlyQuorum", () => {
  it("is decided when the votes still to come cannot catch up, and then every pending model may be skipped", () => {
    const verdict = earlyQuorum({ categories: ["Yes", "No"], weights: ones("a", "b", "c"), answers: [vote("a", "Yes"), vote("b", "Yes")], pending: ["c"] });
    expect(verdict).toEqual({ decided: true, winner: "Yes", challenger: null, skippable: ["c"] });
  });

  it("is not decided while a pending vote could overtake the leader, and names the category that could", () => {
    const verdict = earlyQuorum({ categories: ["Yes", "No"], weights: ones("a", "b", "c"), answers: [vote("a", "Yes"), vote("b", "No")], pending: ["c"] });
    expect(verdict).toEqual({ decided: false, winner: "Yes", challenger: "No", skippable: [] });
  });

  it("counts a failed answer as no vote, and is never decided early without a valid vote", () => {
    const verdict = earlyQuorum({ categories: ["Yes", "No"], weights: ones("a", "b"), answers: [vote("a", null)], pending: ["b"] });
    expect(verdict).toMatchObject({ decided: false, winner: null, skippable: [] });
  });

  it("is trivially decided when nothing is pending", () => {
    expect(earlyQuorum({ categories: ["Yes", "No"], weights: ones("a"), answers: [vote("a", "No")], pending: [] })).toEqual({
      decided: true,
      winner: "No",
      challenger: null,
      skippable: [],
    });
  });

  describe("with weights and ties", () => {
    const weights = { a: 1.5, b: 1.5, c: 3 };

    it("is not decided when the pending weight can tie the leader and that vote's confidence could win the tie", () => {
      // Yes 3 with summed confidence 0.9; c (weight 3) could bring No to 3 with confidence up to 1 > 0.9.
      const verdict = earlyQuorum({ categories: ["Yes", "No"], weights, answers: [vote("a", "Yes", 0.5), vote("b", "Yes", 0.4)], pending: ["c"] });
      expect(verdict).toMatchObject({ decided: false, challenger: "No" });
    });

    it("is decided when a reachable tie would still go to the leader on confidence", () => {
      // Yes 3 with summed confidence 1.6: a tie at 3 gives No at most confidence 1.
      const verdict = earlyQuorum({ categories: ["Yes", "No"], weights, answers: [vote("a", "Yes", 0.8), vote("b", "Yes", 0.8)], pending: ["c"] });
      expect(verdict).toMatchObject({ decided: true, winner: "Yes", skippable: ["c"] });
    });

    it("decides a tie of score and confidence on the order of the categories", () => {
      const answers = [vote("a", "Yes", 0.5), vote("b", "Yes", 0.5)]; // Yes 3, confidence 1: a tie at best for No
      expect(earlyQuorum({ categories: ["Yes", "No"], weights, answers, pending: ["c"] })).toMatchObject({ decided: true, winner: "Yes" });
      expect(earlyQuorum({ categories: ["No", "Yes"], weights, answers, pending: ["c"] })).toMatchObject({ decided: false, challenger: "No" });
    });

    it("counts a weight-0 model as able to swing a tie through its confidence", () => {
      const answers = [vote("a", "Yes", 0.5), vote("b", "No", 0.9)]; // tied at 1.5; No leads on confidence
      const verdict = earlyQuorum({ categories: ["Yes", "No"], weights: { a: 1.5, b: 1.5, z: 0 }, answers, pending: ["z"] });
      expect(verdict).toMatchObject({ decided: false, winner: "No", challenger: "Yes" });
    });

    it("finds a challenger among categories nobody has voted for yet", () => {
      const verdict = earlyQuorum({ categories: ["Yes", "No", "Later"], weights: { a: 1, b: 1, c: 2 }, answers: [vote("a", "Yes"), vote("b", "Yes")], pending: ["c"] });
      expect(verdict).toMatchObject({ decided: false, challenger: "No" });
    });
  });

  it("refuses a provider without a weight", () => {
    expect(() => earlyQuorum({ categories: ["Yes"], weights: {}, answers: [], pending: ["a"] })).toThrow("No valid weight for a.");
  });

  it("agrees with trying every way the pending votes could go (random small panels, fixed seed)", () => {
    const categoriesOf = (k: number) => ["A", "B", "C"].slice(0, k);
    const weight = fc.constantFrom(0, 0.5, 1, 1.5, 2, 3);
    const scenario = fc.record({
      k: fc.integer({ min: 2, max: 3 }),
      cast: fc.array(
        fc.record({ weight, category: fc.option(fc.integer({ min: 0, max: 2 }), { nil: null }), confidence: fc.constantFrom(null, 0, 0.25, 0.5, 1) }),
        { maxLength: 4 },
      ),
      pending: fc.array(weight, { maxLength: 3 }),
    });
    const seen = { decided: 0, open: 0 };
    fc.assert(
      fc.property(scenario, ({ k, cast, pending }) => {
        const categories = categoriesOf(k);
        const weights: Record<string, number> = {};
        const answers = cast.map((c, i) => {
          weights[`c${i}`] = c.weight;
          return vote(`c${i}`, c.category === null ? null : categories[c.category % k]!, c.confidence);
        });
        const pendingIds = pending.map((w, i) => {
          weights[`p${i}`] = w;
          return `p${i}`;
        });
        const castBallots = answers.flatMap((a) => (a.category === null ? [] : [{ provider: a.provider, category: a.category, weight: weights[a.provider]!, confidence: a.confidence }]));
        const now = majorityVote(categories, castBallots).final_decision;
        // Every completion: each pending model fails, or answers any category with confidence 0, 0.5 or 1.
        const options = [null, ...categories.flatMap((category) => [0, 0.5, 1].map((confidence) => ({ category, confidence })))];
        let canChange = false;
        const visit = (i: number, extra: { provider: string; category: string; weight: number; confidence: number }[]): void => {
          if (canChange) return;
          if (i === pendingIds.length) {
            canChange = majorityVote(categories, [...castBallots, ...extra]).final_decision !== now;
            return;
          }
          for (const option of options) {
            const id = pendingIds[i]!;
            visit(i + 1, option === null ? extra : [...extra, { provider: id, weight: weights[id]!, ...option }]);
          }
        };
        visit(0, []);
        const verdict = earlyQuorum({ categories, weights, answers, pending: pendingIds });
        seen[verdict.decided ? "decided" : "open"] += 1;
        expect(verdict.decided).toBe(!canChange);
        expect(verdict.winner).toBe(now);
        expect(verdict.skippable).toEqual(verdict.decided ? pendingIds : []);
      }),
      { seed: 20_250_610, numRuns: 400 },
    );
    // The generated panels exercise both outcomes, not just one.
    expect(seen.decided).toBeGreaterThan(50);
    expect(seen.open).toBeGreaterThan(50);
  });
});
