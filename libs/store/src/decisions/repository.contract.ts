import { ADMIN_PERIODS, PERIOD_HOURS, type StoredDecision } from "@sd/contracts";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { StoreUnderTest } from "../testing/both-drivers";
import { AdminStatsReference } from "../testing/admin-stats-reference";
import { sampleDecision } from "../testing/sample-decision";
import { DecisionNotFoundError, type DecisionRepository } from "./repository";

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

      it("acknowledges and stores every one of 50 concurrent inserts of different decisions", async () => {
        const ids = Array.from({ length: 50 }, (_, n) => `concurrent-${n}`);
        expect(await Promise.all(ids.map((id) => decisions.insertOnce(sampleDecision({ id }))))).toEqual(ids.map(() => true));
        expect(await decisions.count()).toBe(50);
        expect((await decisions.list({ limit: 100, offset: 0 })).map((decision) => decision.id).sort()).toEqual([...ids].sort());
      });

      it("keeps what was inserted when the caller changes its decision afterwards", async () => {
        const decision = sampleDecision();
        await decisions.insertOnce(decision);
        decision.timestamp.setFullYear(1999);
        decision.categories.push("mutated");
        decision.individual_responses.openai = "mutated";
        expect(await decisions.findById("dec-1")).toEqual(sampleDecision());
      });

      it("rejects an invalid document and stores nothing", async () => {
        const invalid: StoredDecision[] = [
          sampleDecision({ id: "bad-date", timestamp: new Date("not a date") }),
          sampleDecision({ id: "bad-mode", ensemble_mode: "dictatorship" as unknown as StoredDecision["ensemble_mode"] }),
          sampleDecision({ id: "bad-confidence", confidence_scores: { openai: 7 } }),
          sampleDecision({ id: "bad-question", question: "" }),
          sampleDecision({ id: "bad-provider-key", individual_responses: { "open.ai": "x" } }),
          sampleDecision({ id: "bad-cost", cost_usd: -0.01 }),
          sampleDecision({ id: "bad-token-count", token_usage: { openai: { input_tokens: 1.5, output_tokens: 2 } } }),
          sampleDecision({ id: "negative-tokens", token_usage: { openai: { input_tokens: 10, output_tokens: -2 } } }),
          sampleDecision({ id: "bad-usage-key", token_usage: { "open.ai": { input_tokens: 1, output_tokens: 1 } } }),
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
          rationales: { openai: null, gemini: "Go compiles to one binary.", claude: null },
          error_details: { openai: "timeout", claude: "rate limited" },
          images: ["dec-1-image1", "dec-1-image2"],
          context_explanation: "",
        });
        await decisions.insertOnce(decision);
        const found = await decisions.findById(decision.id);
        expect(found).toEqual(decision);
        expect(found?.timestamp).toBeInstanceOf(Date);
        expect(Object.keys(found ?? {}).sort()).toEqual(Object.keys(decision).sort());
      });

      it("keeps the API key, each model's token usage (null where none was reported) and the cost", async () => {
        const decision = sampleDecision({
          api_key_id: "key-1",
          token_usage: { openai: { input_tokens: 412, output_tokens: 0 }, gemini: null, claude: { input_tokens: 0, output_tokens: 77 } },
          cost_usd: 0.002185,
        });
        await decisions.insertOnce(decision);
        const found = await decisions.findById(decision.id);
        expect(found).toEqual(decision);
        expect(found?.token_usage).toEqual({ openai: { input_tokens: 412, output_tokens: 0 }, gemini: null, claude: { input_tokens: 0, output_tokens: 77 } });
        expect(await decisions.findOwned(decision.id, "user-1")).toMatchObject({ api_key_id: "key-1", cost_usd: 0.002185 });
        const [listed] = await decisions.list({ limit: 1, offset: 0 });
        expect(listed?.token_usage).toEqual(decision.token_usage);
      });

      it("keeps a decision without usage: no key, no model reported tokens, nothing spent", async () => {
        const decision = sampleDecision({ api_key_id: null, token_usage: { openai: null, gemini: null, claude: null }, cost_usd: 0 });
        await decisions.insertOnce(decision);
        expect(await decisions.findById(decision.id)).toEqual(decision);
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

    describe("findOwned", () => {
      beforeEach(async () => {
        await decisions.insertOnce(sampleDecision({ id: "mine", user_id: "alice" }));
        await decisions.insertOnce(sampleDecision({ id: "anonymous", user_id: null, is_authenticated: false }));
      });

      it("returns the owner's decision with every field", async () => {
        expect(await decisions.findOwned("mine", "alice")).toEqual(sampleDecision({ id: "mine", user_id: "alice" }));
      });

      it("answers null alike for another user's decision, an anonymous one and an unknown id", async () => {
        expect(await decisions.findOwned("mine", "bob")).toBeNull();
        expect(await decisions.findOwned("anonymous", "bob")).toBeNull();
        expect(await decisions.findOwned("missing", "alice")).toBeNull();
      });

      it("refuses an empty user id instead of matching anonymous decisions", async () => {
        await expect(decisions.findOwned("anonymous", "")).rejects.toThrow(RangeError);
      });
    });

    describe("rerunsOf", () => {
      it("lists the owner's re-runs of a decision, newest first, within the limit, and none of another user's", async () => {
        const at = (minute: number) => new Date(Date.UTC(2024, 5, 1, 12, minute));
        await decisions.insertOnce(sampleDecision({ id: "first", user_id: "alice", timestamp: at(0) }));
        await decisions.insertOnce(sampleDecision({ id: "judge", user_id: "alice", timestamp: at(1), rerun_of: "first", ensemble_mode: "judge" }));
        await decisions.insertOnce(sampleDecision({ id: "gossip", user_id: "alice", timestamp: at(2), rerun_of: "first", ensemble_mode: "gossip" }));
        await decisions.insertOnce(sampleDecision({ id: "bobs", user_id: "bob", timestamp: at(3), rerun_of: "first" }));
        await decisions.insertOnce(sampleDecision({ id: "of-judge", user_id: "alice", timestamp: at(4), rerun_of: "judge" }));

        expect((await decisions.rerunsOf("first", "alice", 10)).map((d) => [d.id, d.rerun_of])).toEqual([
          ["gossip", "first"],
          ["judge", "first"],
        ]);
        expect((await decisions.rerunsOf("first", "alice", 1)).map((d) => d.id)).toEqual(["gossip"]);
        expect(await decisions.rerunsOf("first", "alice", 0)).toEqual([]);
        expect((await decisions.findById("first"))?.rerun_of).toBeNull();
        await expect(decisions.rerunsOf("first", "", 10)).rejects.toThrow(RangeError);
      });
    });

    describe("page", () => {
      const T = Date.UTC(2024, 5, 15, 12, 0, 0, 0);
      const at = (ms: number) => new Date(T + ms);
      const HOUR = 3_600_000;
      const alice = (id: string, ms: number, overrides: Partial<StoredDecision> = {}) =>
        sampleDecision({ id, timestamp: at(ms), user_id: "alice", ...overrides });
      // Alice's decisions, oldest first; a1/a2 share a timestamp (the id orders them).
      const mine = [
        alice("a0", -48 * HOUR, { question: "Tea or coffee?", categories: ["tea", "coffee"], final_decision: "tea" }),
        alice("a1", -1, { question: "Which CAT food?", categories: ["fish", "chicken"], final_decision: "fish" }),
        alice("a2", -1, { question: "Pick v1.2 (or not)?", categories: ["v1.2", "v2.0"], final_decision: null }),
        alice("a3", 0, { question: "Cats or dogs?", categories: ["cats", "dogs"], final_decision: "dogs" }),
        alice("a4", 1, { question: "Green tea?", categories: ["yes", "no"], final_decision: "tea" }),
        alice("a5", 2, { question: "Coffee roast", categories: ["Tea", "dark"], final_decision: "dark" }),
        alice("a6", 3, { question: "Lunch?", categories: ["soup", "salad"], final_decision: null }),
        alice("a7", 4, { question: "cat.* or .dog", categories: ["cat", "dog"], final_decision: "cat" }),
      ];
      // Decisions that match every filter below but are not Alice's: never in her pages.
      const others = [
        sampleDecision({ id: "b0", timestamp: at(0), user_id: "bob", question: "Tea or coffee?", categories: ["tea"], final_decision: "tea" }),
        sampleDecision({ id: "b1", timestamp: at(2), user_id: "bob", question: "Cats or dogs?", categories: ["cats", "dogs"], final_decision: null }),
        sampleDecision({ id: "n0", timestamp: at(1), user_id: null, is_authenticated: false, question: "tea?", categories: ["tea"], final_decision: "tea" }),
      ];
      const ids = (page: { decisions: StoredDecision[] }) => page.decisions.map((decision) => decision.id);
      const query = (extra: Partial<Parameters<DecisionRepository["page"]>[0]> = {}) => ({ userId: "alice", limit: 50, offset: 0, ...extra });

      beforeEach(async () => {
        // Inserted in a shuffled order: the order of a page must come from timestamp and id.
        for (const decision of [mine[4], others[0], mine[2], mine[7], others[2], mine[0], mine[5], others[1], mine[1], mine[6], mine[3]]) {
          await decisions.insertOnce(decision as StoredDecision);
        }
      });

      it("returns only the user's decisions, newest first (id descending on equal timestamps), with the total", async () => {
        const page = await decisions.page(query());
        expect(ids(page)).toEqual(["a7", "a6", "a5", "a4", "a3", "a2", "a1", "a0"]);
        expect(page.total).toBe(8);
        expect(page.decisions[0]).toEqual(mine[7]);
        expect(await decisions.page(query({ userId: "carol" }))).toEqual({ decisions: [], total: 0 });
      });

      it("pages without overlap or gaps, each page answering the same total", async () => {
        const seen: string[] = [];
        for (let offset = 0; offset < 10; offset += 3) {
          const page = await decisions.page(query({ limit: 3, offset }));
          expect(page.total).toBe(8);
          seen.push(...ids(page));
        }
        expect(seen).toEqual(["a7", "a6", "a5", "a4", "a3", "a2", "a1", "a0"]);
        expect(await decisions.page(query({ limit: 3, offset: 8 }))).toEqual({ decisions: [], total: 8 });
        expect(await decisions.page(query({ limit: 0 }))).toEqual({ decisions: [], total: 8 });
      });

      it("matches a category exactly against the offered categories or the final decision", async () => {
        // a0 offers "tea", a4 decided "tea"; a5 offers "Tea" (other case); bob's and the anonymous tea are not Alice's.
        expect(await decisions.page(query({ category: "tea" }))).toMatchObject({ total: 2 });
        expect(ids(await decisions.page(query({ category: "tea" })))).toEqual(["a4", "a0"]);
        expect(ids(await decisions.page(query({ category: "Tea" })))).toEqual(["a5"]);
        expect(ids(await decisions.page(query({ category: "dark" })))).toEqual(["a5"]);
        expect(ids(await decisions.page(query({ category: "v1.2" })))).toEqual(["a2"]);
        expect(await decisions.page(query({ category: "te" }))).toEqual({ decisions: [], total: 0 });
        expect(await decisions.page(query({ category: "v1.*" }))).toEqual({ decisions: [], total: 0 });
      });

      it("matches the question as a case-insensitive substring, taking regex characters literally", async () => {
        expect(ids(await decisions.page(query({ question: "CAT" })))).toEqual(["a7", "a3", "a1"]);
        expect(ids(await decisions.page(query({ question: "tea" })))).toEqual(["a4", "a0"]);
        expect(ids(await decisions.page(query({ question: "cat.*" })))).toEqual(["a7"]);
        expect(ids(await decisions.page(query({ question: "(or not)?" })))).toEqual(["a2"]);
        expect(ids(await decisions.page(query({ question: ".dog" })))).toEqual(["a7"]);
        expect(await decisions.page(query({ question: "c.t" }))).toEqual({ decisions: [], total: 0 });
      });

      it("includes a decision at exactly dateFrom and exactly dateTo, and excludes one 1 ms outside", async () => {
        // a1/a2 at -1 ms, a3 at 0, a4 at +1, a5 at +2, a6 at +3, a7 at +4.
        const page = await decisions.page(query({ dateFrom: at(0), dateTo: at(3) }));
        expect(ids(page)).toEqual(["a6", "a5", "a4", "a3"]);
        expect(page.total).toBe(4);
        expect(ids(await decisions.page(query({ dateFrom: at(-1), dateTo: at(-1) })))).toEqual(["a2", "a1"]);
        expect(ids(await decisions.page(query({ dateFrom: at(4) })))).toEqual(["a7"]);
        expect(ids(await decisions.page(query({ dateTo: at(-2) })))).toEqual(["a0"]);
        expect(await decisions.page(query({ dateFrom: at(5) }))).toEqual({ decisions: [], total: 0 });
      });

      it("filters on whether a final decision was reached", async () => {
        expect(ids(await decisions.page(query({ hasDecision: false })))).toEqual(["a6", "a2"]);
        const decided = await decisions.page(query({ hasDecision: true }));
        expect(ids(decided)).toEqual(["a7", "a5", "a4", "a3", "a1", "a0"]);
        expect(decided.total).toBe(6);
      });

      it("combines every filter, paging within the matches", async () => {
        const filters = { question: "?", dateFrom: at(-48 * HOUR), dateTo: at(3), hasDecision: true };
        expect(ids(await decisions.page(query(filters)))).toEqual(["a4", "a3", "a1", "a0"]);
        expect(await decisions.page(query({ ...filters, limit: 2, offset: 1 }))).toMatchObject({ total: 4 });
        expect(ids(await decisions.page(query({ ...filters, limit: 2, offset: 1 })))).toEqual(["a3", "a1"]);
        expect(ids(await decisions.page(query({ ...filters, category: "tea" })))).toEqual(["a4", "a0"]);
        expect(ids(await decisions.page(query({ ...filters, category: "tea", dateFrom: at(-48 * HOUR + 1) })))).toEqual(["a4"]);
      });

      it("refuses a missing user id and bad paging instead of widening the query", async () => {
        await expect(decisions.page(query({ userId: "" }))).rejects.toThrow(RangeError);
        await expect(decisions.page({ ...query(), userId: null as unknown as string })).rejects.toThrow(RangeError);
        await expect(decisions.page(query({ limit: -1 }))).rejects.toThrow(RangeError);
        await expect(decisions.page(query({ offset: 0.5 }))).rejects.toThrow(RangeError);
      });
    });

    describe("costByApiKey", () => {
      const made = (id: string, user_id: string | null, api_key_id: string | null, cost_usd: number) =>
        decisions.insertOnce(sampleDecision({ id, user_id, api_key_id, cost_usd }));

      it("sums each of the user's keys' decisions, ignoring decisions without a key and other users' decisions", async () => {
        await made("a1", "A", "key-a1", 0.25);
        await made("a2", "A", "key-a1", 0.125);
        await made("a3", "A", "key-a2", 0.5);
        await made("a4", "A", "key-a2", 0);
        // Made on the web (no key): part of A's history, of no key's cost.
        await made("a5", "A", null, 1);
        await made("b1", "B", "key-b1", 2);
        // Another user's decision carrying A's key id still never counts for A.
        await made("b2", "B", "key-a1", 4);
        await made("anon", null, null, 8);

        const a = await decisions.costByApiKey("A");
        expect([...a.keys()].sort()).toEqual(["key-a1", "key-a2"]);
        expect(a.get("key-a1")).toBeCloseTo(0.375, 12);
        expect(a.get("key-a2")).toBeCloseTo(0.5, 12);
        const b = await decisions.costByApiKey("B");
        expect([...b.keys()].sort()).toEqual(["key-a1", "key-b1"]);
        expect(b.get("key-b1")).toBeCloseTo(2, 12);
        expect(b.get("key-a1")).toBeCloseTo(4, 12);
      });

      it("answers an empty map for a user with no key-made decision, and refuses a missing user id", async () => {
        await made("a1", "A", null, 1);
        expect(await decisions.costByApiKey("A")).toEqual(new Map());
        expect(await decisions.costByApiKey("nobody")).toEqual(new Map());
        await expect(decisions.costByApiKey("")).rejects.toThrow(RangeError);
        await expect(decisions.costByApiKey({ $ne: "x" } as unknown as string)).rejects.toThrow(RangeError);
      });
    });

    describe("addImages and removeImages", () => {
      beforeEach(async () => {
        await decisions.insertOnce(sampleDecision({ images: ["dec-1-image1"] }));
      });
      const images = async () => (await decisions.findById("dec-1"))?.images;

      it("adds each id once, after those already there", async () => {
        await decisions.addImages("dec-1", ["dec-1-image2", "dec-1-image1", "dec-1-image3"]);
        expect(await images()).toEqual(["dec-1-image1", "dec-1-image2", "dec-1-image3"]);
        await decisions.addImages("dec-1", ["dec-1-image3", "dec-1-image2"]);
        expect(await images()).toEqual(["dec-1-image1", "dec-1-image2", "dec-1-image3"]);
      });

      it("removes only the given ids, and ids not there are no error", async () => {
        await decisions.addImages("dec-1", ["dec-1-image2", "dec-1-image3"]);
        await decisions.removeImages("dec-1", ["dec-1-image2", "dec-1-image9"]);
        expect(await images()).toEqual(["dec-1-image1", "dec-1-image3"]);
        await decisions.removeImages("dec-1", []);
        await decisions.removeImages("missing", ["dec-1-image1"]);
        expect(await images()).toEqual(["dec-1-image1", "dec-1-image3"]);
      });

      it("rejects adding to an unknown decision", async () => {
        await expect(decisions.addImages("missing", ["x-image1"])).rejects.toBeInstanceOf(DecisionNotFoundError);
        expect(await decisions.findById("missing")).toBeNull();
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

    describe("admin statistics (the same pipelines on every driver)", () => {
      const NOW = new Date("2025-03-10T12:00:00.000Z");
      const ago = (ms: number) => new Date(NOW.getTime() - ms);
      const MIN = 60_000;
      const H = 60 * MIN;
      const D = 24 * H;
      const user = (id: string) => ({ user_id: id, user_email: `${id}@example.com`, is_authenticated: true });
      const anonymous = { user_id: null, user_email: null, is_authenticated: false };

      beforeEach(async () => {
        const seed = [
          sampleDecision({ id: "d1", ...user("ann"), timestamp: ago(5 * MIN), final_decision: "Go", processing_time_ms: 1000, user_ip: "10.0.0.1" }),
          sampleDecision({ id: "d2", ...user("ann"), timestamp: ago(3 * H), final_decision: "Go", processing_time_ms: 2000, user_ip: "10.0.0.1", error_details: { claude: "timeout" } }),
          sampleDecision({ id: "d3", ...user("ben"), timestamp: ago(D - MIN), final_decision: "Rust", processing_time_ms: 3001, user_ip: "10.0.0.2" }),
          sampleDecision({ id: "d4", ...anonymous, timestamp: ago(D + MIN), final_decision: null, processing_time_ms: 400, user_ip: "192.0.2.1", error_details: { openai: "x", gemini: "y" } }),
          sampleDecision({ id: "d5", ...anonymous, timestamp: ago(2 * D), final_decision: "Zig", processing_time_ms: 500, user_ip: "192.0.2.1" }),
          sampleDecision({ id: "d6", ...user("cy"), timestamp: ago(10 * D), final_decision: "Go", processing_time_ms: 600, user_ip: "10.0.0.3" }),
          sampleDecision({ id: "d7", ...user("cy"), timestamp: ago(31 * D), final_decision: "Go", processing_time_ms: 700, user_ip: "10.0.0.3" }),
          sampleDecision({ id: "d8", ...user("cy"), timestamp: new Date(NOW.getTime() + MIN), final_decision: "Go", user_ip: "10.0.0.3" }),
        ];
        for (const decision of seed) await decisions.insertOnce(decision);
      });

      it("computes the usage stats of each period with its boundaries", async () => {
        const day = await decisions.usageStats({ period: "day", now: NOW });
        expect(day).toEqual({
          period: "day",
          summary: {
            total_decisions: 3,
            recent_activity: 1,
            decisions_with_errors: 1,
            decisions_with_results: 2,
            error_rate_percentage: 33.33,
            unique_authenticated_users: 2,
            unique_ips: 2,
            authenticated_decisions: 3,
            anonymous_decisions: 0,
          },
          performance: { avg_processing_time_ms: 2000.33, total_processing_time_seconds: 6 },
          categories: { top_categories: [{ category: "Go", count: 2 }, { category: "Rust", count: 1 }] },
          trends: {
            daily_usage: [
              { date: "2025-03-04", count: 0 },
              { date: "2025-03-05", count: 0 },
              { date: "2025-03-06", count: 0 },
              { date: "2025-03-07", count: 0 },
              { date: "2025-03-08", count: 1 },
              { date: "2025-03-09", count: 2 },
              { date: "2025-03-10", count: 2 },
            ],
          },
          active_users: [
            { user_id: "ann", display_name: "ann", is_authenticated: true, decision_count: 2 },
            { user_id: "ben", display_name: "ben", is_authenticated: true, decision_count: 1 },
          ],
          active_ips: [],
        });
        const week = await decisions.usageStats({ period: "week", now: NOW });
        expect(week.summary).toMatchObject({ total_decisions: 5, decisions_with_errors: 2, decisions_with_results: 3, error_rate_percentage: 40, unique_ips: 3, anonymous_decisions: 2 });
        expect(week.active_users.map((u) => [u.user_id, u.decision_count])).toEqual([["ann", 2], ["anonymous", 2], ["ben", 1]]);
        expect(week.active_ips).toEqual([{ ip: "192.0.2.1", count: 2 }]);
        const month = await decisions.usageStats({ period: "month", now: NOW });
        expect(month.summary.total_decisions).toBe(6);
        expect(month.categories.top_categories).toEqual([{ category: "Go", count: 3 }, { category: "Rust", count: 1 }, { category: "Zig", count: 1 }]);
      });

      it("lists recent decisions newest first and measures the health figures", async () => {
        const recent = await decisions.recentDecisions({ period: "week", now: NOW });
        expect(recent.map((d) => d.id)).toEqual(["d1", "d2", "d3", "d4", "d5"]);
        expect(recent[3]).toEqual({
          id: "d4",
          question: "Which language should we use?",
          timestamp: ago(D + MIN).toISOString(),
          user_email: null,
          user_ip: "192.0.2.1",
          ensemble_mode: "majority_voting",
          processing_time_ms: 400,
          categories: ["TypeScript", "Go"],
          final_decision: null,
          error_details: { openai: "x", gemini: "y" },
        });
        expect(await decisions.healthFigures({ period: "day", now: NOW })).toEqual({
          decisions_in_period: 3,
          decisions_last_hour: 1,
          decisions_with_errors: 1,
          avg_processing_time_ms: 2000.33,
        });
        expect(await decisions.healthFigures({ period: "month", now: ago(100 * D) })).toEqual({
          decisions_in_period: 0,
          decisions_last_hour: 0,
          decisions_with_errors: 0,
          avg_processing_time_ms: 0,
        });
      });
    });

    describe("admin statistics from the rollups, against a full scan", () => {
      const H = 3_600_000;
      const D = 24 * H;
      const NOW = Date.parse("2025-03-10T12:34:56.789Z");
      const users = ["ann", "b.o$b", "$x", "__proto__", "", null];
      const ips = ["10.0.0.1", "10.0.0.2", "192.0.2.1", "", null];
      const categories = ["Go", "a.b", "$set", "__proto__", "Rust", null];
      const emails = ["zed@example.com", "amy@example.com", null];

      /** Instants on and around every edge a window of any period can have, for a few `now`s. */
      function edgeInstants(nows: number[]): number[] {
        const instants = new Set<number>();
        for (const now of nows) {
          const today = Math.floor(now / D) * D;
          for (const period of ADMIN_PERIODS) {
            const from = now - PERIOD_HOURS[period] * H;
            for (const edge of [from, Math.ceil(from / H) * H, Math.ceil(from / D) * D, now - H, Math.floor(now / H) * H, today, today - 6 * D, now]) {
              for (const shift of [-1, 0, 1, 17 * 60_000]) instants.add(edge + shift);
            }
          }
        }
        return [...instants].sort((a, b) => a - b);
      }

      /** Decisions at `instants`, two at some (an id breaks their tie), with every kind of user, IP, category and error. */
      function decisionsAt(instants: number[], prefix: string): StoredDecision[] {
        const made: StoredDecision[] = [];
        instants.forEach((time, n) => {
          for (let copy = 0; copy < (n % 5 === 0 ? 2 : 1); copy += 1) {
            const k = n * 2 + copy;
            const userId = users[k % users.length] ?? null;
            const signedIn = k % 7 !== 3 && (userId !== null || k % 3 === 0);
            made.push(
              sampleDecision({
                id: `${prefix}${String(k).padStart(4, "0")}`,
                timestamp: new Date(time),
                is_authenticated: signedIn,
                user_id: signedIn ? userId : null,
                user_email: signedIn ? (emails[k % emails.length] ?? null) : null,
                user_ip: ips[k % ips.length] ?? null,
                final_decision: categories[k % categories.length] ?? null,
                error_details: k % 4 === 1 ? { claude: "timeout" } : k % 9 === 2 ? { openai: "x", gemini: "y" } : {},
                processing_time_ms: 100 + ((k * 37) % 1000),
                ensemble_mode: k % 2 === 0 ? "majority_voting" : "judge",
              }),
            );
          }
        });
        return made;
      }

      async function expectSameAsFullScan(stored: StoredDecision[], nows: number[]) {
        const reference = new AdminStatsReference(stored);
        for (const now of nows) {
          for (const period of ADMIN_PERIODS) {
            const window = { period, now: new Date(now) };
            const at = `${period} at ${new Date(now).toISOString()}`;
            expect(await decisions.usageStats(window), at).toEqual(reference.usageStats(window));
            expect(await decisions.healthFigures(window), at).toEqual(reference.healthFigures(window));
            expect(await decisions.recentDecisions(window), at).toEqual(reference.recentDecisions(window));
          }
        }
      }

      const nows = [NOW, Math.floor(NOW / H) * H, Math.floor(NOW / D) * D, Math.floor(NOW / D) * D + 1, NOW + 3 * D];

      it("answers what a full scan answers at every hour and day edge of every period", async () => {
        const stored = decisionsAt(edgeInstants(nows), "e");
        for (const decision of stored) expect(await decisions.insertOnce(decision)).toBe(true);
        await expectSameAsFullScan(stored, nows);
      });

      it("counts concurrent inserts once each, and a repeated insert not again", async () => {
        const stored = decisionsAt(edgeInstants([NOW]), "c");
        expect(await Promise.all(stored.map((decision) => decisions.insertOnce(decision)))).toEqual(stored.map(() => true));
        expect(await Promise.all(stored.slice(0, 20).map((decision) => decisions.insertOnce(decision)))).toEqual(stored.slice(0, 20).map(() => false));
        await expectSameAsFullScan(stored, [NOW]);
      });

      it("counts a decision written into an hour or day already read, with its users, IPs and categories", async () => {
        const first = decisionsAt(edgeInstants([NOW]), "r").slice(0, 80);
        for (const decision of first) await decisions.insertOnce(decision);
        await expectSameAsFullScan(first, [NOW]);
        // Written late (a decision is stamped when it was asked): into buckets the statistics above read.
        const late = decisionsAt(edgeInstants([NOW]), "late").slice(0, 80).map((decision) => ({ ...decision, user_id: decision.user_id && `${decision.user_id}-new`, user_ip: "198.51.100.7", final_decision: "Late" }));
        for (const decision of late) await decisions.insertOnce(decision);
        await expectSameAsFullScan([...first, ...late], [NOW]);
      });

      it("follows late votes that add and clear errors", async () => {
        const stored = decisionsAt(edgeInstants([NOW]), "l").slice(0, 60);
        for (const decision of stored) await decisions.insertOnce(decision);
        const late = { response: "Go", raw: "Go.", confidence: 0.5, model_version: "v2" };
        await Promise.all(
          stored.flatMap((decision, n) => [
            decisions.applyLateVote(decision.id, "claude", { ...late, error: n % 3 === 0 ? "late timeout" : null }),
            decisions.applyLateVote(decision.id, "mistral", { ...late, error: n % 4 === 0 ? "refused" : null }),
          ]),
        );
        const current = await Promise.all(stored.map(async (decision) => (await decisions.findById(decision.id)) as StoredDecision));
        await expectSameAsFullScan(current, [NOW]);
      });
    });
  });
}
