import type { Batch, BatchList } from "@sd/contracts";
import { describe, expect, it } from "vitest";
import { applyProgress, batchProgress, canCancel, dashboardTabFromParam, hasResults, searchWithTab, statusBadge } from "./format";

const batch = (status: Batch["status"], completed: number, failed: number, total = 10): Batch => ({
  id: "batch_1",
  object: "batch",
  status,
  request_counts: { total, completed, failed },
  created_at: "2026-01-01T10:00:00.000Z",
  completed_at: null,
  expires_at: "2026-01-31T10:00:00.000Z",
});
const page = (...data: Batch[]): BatchList => ({ object: "list", data, total: data.length, limit: 20, offset: 0 });

describe("batchProgress", () => {
  it("counts completed and failed lines as done, with the failures named", () => {
    expect(batchProgress(batch("in_progress", 3, 2))).toEqual({ done: 5, total: 10, percent: 50, text: "5 of 10 done · 2 failed" });
  });
  it("never shows 100 % while a line is left", () => {
    expect(batchProgress(batch("in_progress", 999, 0, 1000)).percent).toBe(99);
    expect(batchProgress(batch("completed", 1000, 0, 1000)).percent).toBe(100);
  });
  it("writes large numbers with separators and leaves out failures when there are none", () => {
    expect(batchProgress(batch("in_progress", 1200, 0, 10_000)).text).toBe("1,200 of 10,000 done");
  });
  it("treats an empty batch (every line skipped) as done", () => {
    expect(batchProgress(batch("completed", 0, 0, 0)).percent).toBe(100);
  });
});

describe("status and actions", () => {
  it("labels each status, and a cancelled batch still running as Cancelling", () => {
    expect(statusBadge("in_progress")).toEqual({ label: "In progress", tone: "running" });
    expect(statusBadge("in_progress", true)).toEqual({ label: "Cancelling", tone: "waiting" });
    expect(statusBadge("completed", true)).toEqual({ label: "Completed", tone: "success" });
    expect(statusBadge("failed").tone).toBe("danger");
  });
  it("offers Cancel only while the batch runs, and results once something is in them", () => {
    expect(canCancel(batch("in_progress", 0, 0))).toBe(true);
    expect(canCancel(batch("completed", 10, 0))).toBe(false);
    expect(canCancel(batch("cancelled", 1, 0))).toBe(false);
    expect(hasResults(batch("in_progress", 0, 0))).toBe(false);
    expect(hasResults(batch("in_progress", 0, 1))).toBe(true);
    expect(hasResults(batch("cancelled", 0, 0))).toBe(true);
  });
});

describe("applyProgress", () => {
  const event = (status: Batch["status"], completed: number, failed = 0) => ({ batch_id: "batch_1", status, request_counts: { total: 10, completed, failed } });
  const now = "2026-01-01T10:05:00.000Z";

  it("moves the batch's counts and status on", () => {
    const { list, known } = applyProgress(page(batch("in_progress", 2, 0)), event("completed", 10), now);
    expect(known).toBe(true);
    expect(list.data[0]).toMatchObject({ status: "completed", request_counts: { completed: 10 }, completed_at: now });
  });
  it("never moves a bar back, nor reopens a finished batch, for an event that arrives late", () => {
    expect(applyProgress(page(batch("in_progress", 6, 1)), event("in_progress", 4, 0), now).list.data[0]!.request_counts).toEqual({ total: 10, completed: 6, failed: 1 });
    expect(applyProgress(page(batch("cancelled", 3, 0)), event("in_progress", 4), now).list.data[0]!.status).toBe("cancelled");
  });
  it("says when the batch is not on the page (a new one), leaving the page as it is", () => {
    const before = page(batch("in_progress", 0, 0));
    const { list, known } = applyProgress(before, { ...event("in_progress", 1), batch_id: "batch_2" }, now);
    expect(known).toBe(false);
    expect(list).toBe(before);
  });
});

describe("dashboard tabs in the URL", () => {
  it("opens Batches for ?tab=batches and Decisions otherwise", () => {
    expect(dashboardTabFromParam("batches")).toBe("batches");
    expect(dashboardTabFromParam(null)).toBe("decisions");
    expect(dashboardTabFromParam("admin")).toBe("decisions");
  });
  it("keeps the decision filters when switching, and leaves the default tab out", () => {
    const params = new URLSearchParams("category=Yes&tab=batches");
    expect(searchWithTab(params, "decisions").toString()).toBe("category=Yes");
    expect(searchWithTab(new URLSearchParams("category=Yes"), "batches").toString()).toBe("category=Yes&tab=batches");
  });
});
