import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { StoredDecision } from "@sd/contracts";
import type { StoreUnderTest } from "../testing/both-drivers";
import { sampleDecision } from "../testing/sample-decision";
import type { DecisionRepository } from "./repository";

const at = (minute: number) => new Date(Date.UTC(2025, 8, 8, 10, minute));

async function collect(stream: AsyncIterable<StoredDecision>): Promise<StoredDecision[]> {
  const out: StoredDecision[] = [];
  for await (const decision of stream) out.push(decision);
  return out;
}

/** `DecisionRepository.stream` (the export's read) answers what `page` does, without paging, on every driver. */
export function describeDecisionStreamContract(driverName: string, openEmptyStore: () => Promise<StoreUnderTest>): void {
  describe(`DecisionRepository.stream contract (${driverName})`, () => {
    let subject: StoreUnderTest;
    let decisions: DecisionRepository;

    beforeEach(async () => {
      subject = await openEmptyStore();
      decisions = subject.store.decisions;
      // 1203 of alice's (more than two of the stream's batches, with equal timestamps to order by id) and one of bob's.
      for (let i = 0; i < 1203; i++) {
        await decisions.insertOnce(sampleDecision({ id: `a${String(i).padStart(4, "0")}`, user_id: "alice", timestamp: at(i % 7), final_decision: i % 3 === 0 ? null : "Go", question: i % 2 === 0 ? "Even question?" : "Odd one?" }));
      }
      await decisions.insertOnce(sampleDecision({ id: "b1", user_id: "bob" }));
    });
    afterEach(async () => {
      await subject.dispose();
    });

    it("streams every matching decision of the user, newest first, in the order of the history pages", async () => {
      const filters = { userId: "alice", question: "even", hasDecision: true, dateFrom: at(1), dateTo: at(5) };
      const streamed = await collect(decisions.stream(filters));
      const paged = await decisions.page({ ...filters, limit: 200, offset: 0 });
      const rest = await decisions.page({ ...filters, limit: 200, offset: 200 });
      expect(streamed.length).toBe(paged.total);
      expect(streamed).toEqual([...paged.decisions, ...rest.decisions]);
      expect(streamed.every((d) => d.user_id === "alice" && d.final_decision === "Go" && d.question === "Even question?")).toBe(true);
    });

    it("streams all of a user's decisions and only theirs", async () => {
      const all = await collect(decisions.stream({ userId: "alice" }));
      expect(all.length).toBe(1203);
      expect(new Set(all.map((d) => d.id)).size).toBe(1203);
      expect((await collect(decisions.stream({ userId: "bob" }))).map((d) => d.id)).toEqual(["b1"]);
      expect(await collect(decisions.stream({ userId: "carol" }))).toEqual([]);
      await expect(collect(decisions.stream({ userId: "" }))).rejects.toThrow(RangeError);
    });
  });
}
