import type { StoredDecision } from "@sd/contracts";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Store } from "../store";
import { sampleDecision } from "../testing/sample-decision";
import { DecisionNotFoundError, type DecisionRepository } from "./repository";

/** A freshly opened, empty store and how to dispose of it (close it and delete its data). */
export interface StoreUnderTest {
  store: Store;
  dispose(): Promise<void>;
}

/** The behaviour every driver must show through `DecisionRepository`. */
export function describeDecisionRepositoryContract(driverName: string, openEmptyStore: () => Promise<StoreUnderTest>): void {
  describe(`DecisionRepository contract (${driverName})`, () => {
    let subject: StoreUnderTest;
    let decisions: DecisionRepository;

    beforeEach(async () => {
      subject = await openEmptyStore();
      decisions = subject.store.decisions;
    });
    afterEach(async () => {
      await subject.dispose();
    });

    it("answers ping", async () => {
      await expect(subject.store.ping()).resolves.toBeUndefined();
    });

    describe("insertOnce", () => {
      it("writes a decision once; a second call with the same id changes nothing and returns false", async () => {
        expect(await decisions.insertOnce(sampleDecision())).toBe(true);
        expect(await decisions.insertOnce(sampleDecision({ question: "Changed?" }))).toBe(false);
        expect((await decisions.findById("dec-1"))?.question).toBe("Which language should we use?");
        expect(await decisions.count()).toBe(1);
      });

      it("lets exactly one of 10 concurrent inserts of the same id win", async () => {
        const results = await Promise.all(
          Array.from({ length: 10 }, (_, n) => decisions.insertOnce(sampleDecision({ question: `Attempt ${n}` }))),
        );
        expect(results.filter(Boolean)).toHaveLength(1);
        expect(await decisions.count()).toBe(1);
      });

      it("rejects an invalid document and stores nothing", async () => {
        const invalid: StoredDecision[] = [
          sampleDecision({ id: "bad-date", timestamp: new Date("not a date") }),
          sampleDecision({ id: "bad-mode", ensemble_mode: "dictatorship" as unknown as StoredDecision["ensemble_mode"] }),
          sampleDecision({ id: "bad-confidence", confidence_scores: { openai: 7 } }),
          sampleDecision({ id: "bad-question", question: "" }),
          sampleDecision({ id: "bad-provider-key", individual_responses: { "open.ai": "x" } }),
        ];
        for (const decision of invalid) {
          await expect(decisions.insertOnce(decision), decision.id).rejects.toThrow();
          expect(await decisions.findById(decision.id)).toBeNull();
        }
        expect(await decisions.count()).toBe(0);
      });
    });

    describe("findById", () => {
      it("returns null for an unknown id", async () => {
        expect(await decisions.findById("missing")).toBeNull();
      });

      it("round-trips every field: Dates stay Dates, nulls stay null, no _id or __v", async () => {
        const decision = sampleDecision({
          final_decision: null,
          user_id: null,
          user_ip: null,
          user_email: null,
          is_authenticated: false,
          individual_responses: { openai: null, gemini: "Go", claude: null },
          raw_responses: { openai: null, gemini: "Go!", claude: null },
          confidence_scores: { openai: null, gemini: 0.5, claude: null },
          error_details: { openai: "timeout", claude: "rate limited" },
          images: ["data:image/png;base64,AAAA"],
          context_explanation: "",
        });
        await decisions.insertOnce(decision);
        const found = await decisions.findById(decision.id);
        expect(found).toEqual(decision);
        expect(found?.timestamp).toBeInstanceOf(Date);
        expect(Object.keys(found ?? {}).sort()).toEqual(Object.keys(decision).sort());
      });

      it("keeps category names containing dots, dollars and other awkward characters", async () => {
        const categories = ["v1.2", "$set", "a.b.c", "$", "__proto__", "ünï cødé"];
        const decision = sampleDecision({
          categories,
          final_decision: "$set",
          vote_counts: Object.fromEntries(categories.map((category, n) => [category, n])),
        });
        await decisions.insertOnce(decision);
        const found = await decisions.findById(decision.id);
        expect(found?.categories).toEqual(categories);
        expect(Object.entries(found?.vote_counts ?? {})).toEqual(categories.map((category, n) => [category, n]));
        expect(found?.final_decision).toBe("$set");
        expect((await decisions.list({ limit: 10, offset: 0, category: "a.b.c" })).map((d) => d.id)).toEqual([decision.id]);
      });

      it("returns a copy that callers can change without touching the store", async () => {
        await decisions.insertOnce(sampleDecision());
        const first = await decisions.findById("dec-1");
        first?.categories.push("mutated");
        first?.timestamp.setFullYear(1999);
        const second = await decisions.findById("dec-1");
        expect(second?.categories).toEqual(["TypeScript", "Go"]);
        expect(second?.timestamp.toISOString()).toBe("2024-05-01T10:00:00.000Z");
      });
    });

    describe("list", () => {
      const day = (n: number) => new Date(Date.UTC(2024, 0, n, 12));
      const seed = [
        sampleDecision({ id: "d1", timestamp: day(1), user_id: "u1", question: "Tea or coffee?", categories: ["tea", "coffee"], final_decision: "tea" }),
        sampleDecision({ id: "d2", timestamp: day(2), user_id: "u2", question: "What is 1+1 (really)?", categories: ["2", "11"], final_decision: "2" }),
        sampleDecision({ id: "d3", timestamp: day(3), user_id: "u1", question: "Pick a version", categories: ["v1.2", "v2.0"], final_decision: null }),
        sampleDecision({ id: "d4", timestamp: day(4), user_id: null, is_authenticated: false, question: "TEA time?", categories: ["yes", "no"], final_decision: "tea" }),
        sampleDecision({ id: "d5", timestamp: day(5), user_id: "u1", question: "Cats [or] dogs?", categories: ["cats", "dogs"], final_decision: "dogs" }),
      ];
      const ids = (list: StoredDecision[]) => list.map((decision) => decision.id);

      beforeEach(async () => {
        // Inserted out of order: the order of results must come from the timestamps.
        for (const index of [2, 0, 4, 1, 3]) await decisions.insertOnce(seed[index] as StoredDecision);
      });

      it("returns the newest first, with limit and offset", async () => {
        expect(ids(await decisions.list({ limit: 50, offset: 0 }))).toEqual(["d5", "d4", "d3", "d2", "d1"]);
        expect(ids(await decisions.list({ limit: 2, offset: 0 }))).toEqual(["d5", "d4"]);
        expect(ids(await decisions.list({ limit: 2, offset: 2 }))).toEqual(["d3", "d2"]);
        expect(ids(await decisions.list({ limit: 2, offset: 4 }))).toEqual(["d1"]);
        expect(ids(await decisions.list({ limit: 2, offset: 10 }))).toEqual([]);
        expect(ids(await decisions.list({ limit: 0, offset: 0 }))).toEqual([]);
        await expect(decisions.list({ limit: -1, offset: 0 })).rejects.toThrow(RangeError);
        await expect(decisions.list({ limit: 5, offset: 1.5 })).rejects.toThrow(RangeError);
      });

      it("filters by user (a user id, or null for anonymous decisions)", async () => {
        expect(ids(await decisions.list({ userId: "u1", limit: 50, offset: 0 }))).toEqual(["d5", "d3", "d1"]);
        expect(ids(await decisions.list({ userId: "u1", limit: 1, offset: 1 }))).toEqual(["d3"]);
        expect(ids(await decisions.list({ userId: null, limit: 50, offset: 0 }))).toEqual(["d4"]);
        expect(ids(await decisions.list({ userId: "nobody", limit: 50, offset: 0 }))).toEqual([]);
      });

      it("filters by category, matching offered categories or the final decision", async () => {
        expect(ids(await decisions.list({ category: "tea", limit: 50, offset: 0 }))).toEqual(["d4", "d1"]);
        expect(ids(await decisions.list({ category: "v1.2", limit: 50, offset: 0 }))).toEqual(["d3"]);
        expect(ids(await decisions.list({ category: "dogs", userId: "u1", limit: 50, offset: 0 }))).toEqual(["d5"]);
        expect(ids(await decisions.list({ category: "v1", limit: 50, offset: 0 }))).toEqual([]);
      });

      it("filters by a case-insensitive question substring, taking regex characters literally", async () => {
        expect(ids(await decisions.list({ question: "tea", limit: 50, offset: 0 }))).toEqual(["d4", "d1"]);
        expect(ids(await decisions.list({ question: "1+1 (REALLY)", limit: 50, offset: 0 }))).toEqual(["d2"]);
        expect(ids(await decisions.list({ question: "[or]", limit: 50, offset: 0 }))).toEqual(["d5"]);
        expect(ids(await decisions.list({ question: ".*", limit: 50, offset: 0 }))).toEqual([]);
        expect(ids(await decisions.list({ question: "?", limit: 50, offset: 0 }))).toEqual(["d5", "d4", "d2", "d1"]);
      });

      it("filters by an inclusive date range", async () => {
        expect(ids(await decisions.list({ dateFrom: day(2), dateTo: day(4), limit: 50, offset: 0 }))).toEqual(["d4", "d3", "d2"]);
        expect(ids(await decisions.list({ dateFrom: day(4), limit: 50, offset: 0 }))).toEqual(["d5", "d4"]);
        expect(ids(await decisions.list({ dateTo: new Date(day(1).getTime() + 1), limit: 50, offset: 0 }))).toEqual(["d1"]);
      });

      it("filters by whether a final decision exists", async () => {
        expect(ids(await decisions.list({ hasDecision: true, limit: 50, offset: 0 }))).toEqual(["d5", "d4", "d2", "d1"]);
        expect(ids(await decisions.list({ hasDecision: false, limit: 50, offset: 0 }))).toEqual(["d3"]);
      });

      it("combines filters", async () => {
        const list = await decisions.list({ userId: "u1", hasDecision: true, question: "?", dateFrom: day(1), dateTo: day(5), limit: 50, offset: 0 });
        expect(ids(list)).toEqual(["d5", "d1"]);
      });

      it("counts every stored decision", async () => {
        expect(await decisions.count()).toBe(5);
      });
    });

    describe("applyLateVote", () => {
      const base = sampleDecision({
        individual_responses: { openai: "TypeScript", gemini: "TypeScript", claude: null },
        raw_responses: { openai: "TypeScript.", gemini: "typescript", claude: null },
        confidence_scores: { openai: 0.9, gemini: 0.8, claude: null },
        model_versions: { openai: "gpt-test", gemini: "gemini-test", claude: "claude-test" },
        error_details: { claude: "pending" },
      });

      it("merges a late model's answer and clears its error, leaving the rest as it was", async () => {
        await decisions.insertOnce(base);
        await decisions.applyLateVote(base.id, "claude", { response: "Go", raw: "Go, clearly.", confidence: 0.7, model_version: "claude-late", error: null });
        const found = await decisions.findById(base.id);
        expect(found).toEqual({
          ...base,
          individual_responses: { ...base.individual_responses, claude: "Go" },
          raw_responses: { ...base.raw_responses, claude: "Go, clearly." },
          confidence_scores: { ...base.confidence_scores, claude: 0.7 },
          model_versions: { ...base.model_versions, claude: "claude-late" },
          error_details: {},
        });
      });

      it("records a late failure and adds a provider not seen before", async () => {
        await decisions.insertOnce(base);
        await decisions.applyLateVote(base.id, "mistral", { response: null, raw: null, confidence: null, model_version: "mistral-x", error: "timeout" });
        const found = await decisions.findById(base.id);
        expect(found?.individual_responses.mistral).toBeNull();
        expect(found?.raw_responses).toHaveProperty("mistral", null);
        expect(found?.confidence_scores).toHaveProperty("mistral", null);
        expect(found?.model_versions.mistral).toBe("mistral-x");
        expect(found?.error_details).toEqual({ claude: "pending", mistral: "timeout" });
        expect(found?.final_decision).toBe(base.final_decision);
        expect(found?.timestamp).toEqual(base.timestamp);
      });

      it("rejects an unknown decision, a field-breaking provider id and an invalid confidence", async () => {
        await expect(
          decisions.applyLateVote("missing", "claude", { response: "Go", raw: "Go", confidence: 0.5, model_version: "v", error: null }),
        ).rejects.toBeInstanceOf(DecisionNotFoundError);
        await decisions.insertOnce(base);
        await expect(
          decisions.applyLateVote(base.id, "a.b", { response: "Go", raw: "Go", confidence: 0.5, model_version: "v", error: null }),
        ).rejects.toThrow(RangeError);
        await expect(
          decisions.applyLateVote(base.id, "claude", { response: "Go", raw: "Go", confidence: 5, model_version: "v", error: null }),
        ).rejects.toThrow();
        expect(await decisions.findById(base.id)).toEqual(base);
      });
    });
  });
}
