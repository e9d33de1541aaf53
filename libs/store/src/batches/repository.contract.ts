import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { StoreUnderTest } from "../testing/both-drivers";
import type { BatchLineRepository, BatchRecord, BatchRepository, NewBatchLine } from "./repository";

const t = (minute: number) => new Date(Date.UTC(2025, 0, 15, 9, minute));
const IMAGE = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

function batch(overrides: Partial<BatchRecord> = {}): BatchRecord {
  return {
    id: `batch_${randomUUID()}`,
    user_id: "A",
    api_key_id: "key-A",
    status: "in_progress",
    total: 3,
    completed: 0,
    failed: 0,
    skipped: 0,
    created_at: t(0),
    completed_at: null,
    cancel_requested: false,
    expires_at: t(60),
    ...overrides,
  };
}

function pendingLine(line: number, overrides: Partial<NewBatchLine> = {}): NewBatchLine {
  return {
    line,
    custom_id: `c${line}`,
    request: { question: `Question ${line}?`, categories: ["Yes", "No"], images: [] },
    status: "pending",
    decision_id: randomUUID(),
    error: null,
    ...overrides,
  };
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** The behaviour every driver must show through `BatchRepository` and `BatchLineRepository` (A and B are two users). */
export function describeBatchRepositoryContract(driverName: string, openEmptyStore: () => Promise<StoreUnderTest>): void {
  describe(`BatchRepository contract (${driverName})`, () => {
    let subject: StoreUnderTest;
    let batches: BatchRepository;
    let lines: BatchLineRepository;

    beforeEach(async () => {
      subject = await openEmptyStore();
      batches = subject.store.batches;
      lines = subject.store.batchLines;
    });
    afterEach(async () => {
      await subject.dispose();
    });

    it("stores a batch and finds it by id, and by owner only for its owner", async () => {
      const record = batch();
      await batches.create(record);
      expect(await batches.findById(record.id)).toEqual(record);
      expect(await batches.findOwned(record.id, "A")).toEqual(record);
      expect(await batches.findOwned(record.id, "B")).toBeNull();
      expect(await batches.findOwned("unknown", "A")).toBeNull();
      expect(await batches.findOwned({ $ne: "x" } as unknown as string, "A")).toBeNull();
    });

    it("lists a user's batches newest first, paged, with the total", async () => {
      for (const minute of [1, 3, 2]) await batches.create(batch({ id: `batch_${minute}`, created_at: t(minute) }));
      await batches.create(batch({ id: "batch_B", user_id: "B", created_at: t(9) }));
      const first = await batches.listForUser("A", { limit: 2, offset: 0 });
      expect(first.total).toBe(3);
      expect(first.batches.map((b) => b.id)).toEqual(["batch_3", "batch_2"]);
      expect((await batches.listForUser("A", { limit: 2, offset: 2 })).batches.map((b) => b.id)).toEqual(["batch_1"]);
      expect(await batches.listForUser("C", { limit: 2, offset: 0 })).toEqual({ batches: [], total: 0 });
    });

    it("moves a batch to a terminal status once, setting completed_at; lists only unfinished ones", async () => {
      const running = batch({ id: "batch_run" });
      const done = batch({ id: "batch_done" });
      await batches.create(running);
      await batches.create(done);
      expect(await batches.setStatus(done.id, "completed", t(5))).toBe(true);
      expect(await batches.setStatus(done.id, "cancelled", t(6))).toBe(false);
      expect(await batches.findById(done.id)).toMatchObject({ status: "completed", completed_at: t(5) });
      expect((await batches.listUnfinished()).map((b) => b.id)).toEqual(["batch_run"]);
    });

    it("sets the final counts with the terminal status, replacing counts a crash left short", async () => {
      const record = batch();
      await batches.create(record);
      await batches.addCounts(record.id, { completed: 2 });
      expect(await batches.setStatus(record.id, "completed", t(5), { completed: 3, failed: 1 })).toBe(true);
      expect(await batches.findById(record.id)).toMatchObject({ status: "completed", completed: 3, failed: 1 });
      // Once finished, a late call changes nothing.
      expect(await batches.setStatus(record.id, "cancelled", t(6), { completed: 9, failed: 9 })).toBe(false);
      expect(await batches.findById(record.id)).toMatchObject({ completed: 3, failed: 1 });
    });

    it("adds counts atomically and answers the record after", async () => {
      const record = batch();
      await batches.create(record);
      await Promise.all([batches.addCounts(record.id, { completed: 1 }), batches.addCounts(record.id, { completed: 1 }), batches.addCounts(record.id, { failed: 1 })]);
      expect(await batches.addCounts(record.id, {})).toMatchObject({ completed: 2, failed: 1 });
      expect(await batches.addCounts("unknown", { completed: 1 })).toBeNull();
    });

    it("a cancel request marks an unfinished batch of its owner; a finished one is answered as finished; another user's as unknown", async () => {
      const record = batch();
      await batches.create(record);
      expect(await batches.requestCancel(record.id, "B")).toEqual({ kind: "not-found" });
      expect(await batches.requestCancel(record.id, "A")).toMatchObject({ kind: "requested", batch: { cancel_requested: true } });
      expect((await batches.findById(record.id))?.cancel_requested).toBe(true);
      await batches.setStatus(record.id, "cancelled", t(3));
      expect(await batches.requestCancel(record.id, "A")).toMatchObject({ kind: "finished", batch: { status: "cancelled" } });
    });

    it("writes lines and reads them back with their requests (images included), in order", async () => {
      const record = batch();
      const written = [
        pendingLine(1, { request: { question: "Q1?", categories: ["A", "B"], images: [IMAGE], ensemble_mode: "judge", models: ["openai", "claude"] } }),
        pendingLine(2),
        { ...pendingLine(3), request: null, status: "skipped" as const, error: "Please keep the question under 4000 characters." },
      ];
      await lines.insertMany(record.id, record.expires_at, written);
      const read = await collect(lines.stream(record.id));
      expect(read).toEqual(written.map((line) => ({ batch_id: record.id, ...line })));
      const outcomes = await collect(lines.streamOutcomes(record.id));
      expect(outcomes.map((line) => [line.line, line.status, line.custom_id])).toEqual([
        [1, "pending", "c1"],
        [2, "pending", "c2"],
        [3, "skipped", "c3"],
      ]);
      expect(outcomes[0]).not.toHaveProperty("request");
    });

    it("streams many lines in line order, not insertion order of chunks", async () => {
      const record = batch();
      const many = Array.from({ length: 1200 }, (_, index) => pendingLine(index + 1));
      await lines.insertMany(record.id, record.expires_at, many);
      const read = await collect(lines.streamOutcomes(record.id));
      expect(read.map((line) => line.line)).toEqual(many.map((line) => line.line));
    });

    it("hands out pending lines after a line number, and moves a line only from a non-terminal status", async () => {
      const record = batch();
      await lines.insertMany(record.id, record.expires_at, [1, 2, 3, 4].map((n) => pendingLine(n)));
      expect((await lines.nextPending(record.id, 0, 2)).map((line) => line.line)).toEqual([1, 2]);
      expect(await lines.setStatus(record.id, 1, "running")).toBe(true);
      expect((await lines.nextPending(record.id, 0, 10)).map((line) => line.line)).toEqual([2, 3, 4]);
      expect((await lines.nextPending(record.id, 2, 10)).map((line) => line.line)).toEqual([3, 4]);
      expect((await lines.listByStatus(record.id, "running")).map((line) => line.line)).toEqual([1]);
      expect(await lines.setStatus(record.id, 1, "completed")).toBe(true);
      // Once terminal, never again: a second completion (after a crash) adds no count.
      expect(await lines.setStatus(record.id, 1, "completed")).toBe(false);
      expect(await lines.setStatus(record.id, 1, "failed", "boom")).toBe(false);
      expect(await lines.setStatus(record.id, 2, "failed", "The models did not answer.")).toBe(true);
      expect(await lines.findLine(record.id, 2)).toMatchObject({ status: "failed", error: "The models did not answer." });
      expect(await lines.countByStatus(record.id, "completed")).toBe(1);
      expect(await lines.setStatus(record.id, 99, "completed")).toBe(false);
    });

    it("cancels only the lines still pending", async () => {
      const record = batch();
      await lines.insertMany(record.id, record.expires_at, [1, 2, 3].map((n) => pendingLine(n)));
      await lines.setStatus(record.id, 1, "running");
      expect(await lines.cancelPending(record.id, "Cancelled before it was started.")).toBe(2);
      expect((await collect(lines.streamOutcomes(record.id))).map((line) => line.status)).toEqual(["running", "cancelled", "cancelled"]);
      expect(await lines.nextPending(record.id, 0, 10)).toEqual([]);
      expect(await lines.setStatus(record.id, 2, "running")).toBe(false);
      expect(await lines.setStatus(record.id, 1, "completed")).toBe(true);
    });

    it("deletes expired batches and lines, keeping the others", async () => {
      const old = batch({ id: "batch_old", expires_at: t(10) });
      const fresh = batch({ id: "batch_new", expires_at: t(100) });
      await lines.insertMany(old.id, old.expires_at, [pendingLine(1, { request: { question: "Q?", categories: ["A", "B"], images: [IMAGE] } })]);
      await lines.insertMany(fresh.id, fresh.expires_at, [pendingLine(1)]);
      await batches.create(old);
      await batches.create(fresh);
      expect(await lines.deleteExpired(t(50))).toBe(1);
      expect(await batches.deleteExpired(t(50))).toBe(1);
      expect(await batches.findById(old.id)).toBeNull();
      expect(await collect(lines.stream(old.id))).toEqual([]);
      expect(await batches.findById(fresh.id)).not.toBeNull();
      expect(await collect(lines.stream(fresh.id))).toHaveLength(1);
    });
  });
}
