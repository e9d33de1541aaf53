import { TERMINAL_BATCH_STATUSES, type Batch, type BatchList, type BatchProgressEvent, type BatchStatus } from "@sd/contracts";

/** Pure rules of the dashboard's Batches tab, unit-tested. */

export interface BatchProgress {
  /** Lines decided or failed. */
  done: number;
  total: number;
  /** 0..100, whole: 100 only when every line is done. */
  percent: number;
  /** "12 of 50 done · 2 failed". */
  text: string;
}

const count = (n: number) => n.toLocaleString("en-US");

/** How far a batch is: completed + failed of total, as a bar value and as text. */
export function batchProgress({ request_counts: { total, completed, failed } }: Pick<Batch, "request_counts">): BatchProgress {
  const done = Math.min(total, completed + failed);
  // Floored, so 99.6 % never reads as done while a line is still running.
  const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
  const text = `${count(done)} of ${count(total)} done${failed > 0 ? ` · ${count(failed)} failed` : ""}`;
  return { done, total, percent, text };
}

export type StatusTone = "running" | "success" | "neutral" | "danger" | "waiting";

const STATUS: Record<BatchStatus, { label: string; tone: StatusTone }> = {
  validating: { label: "Validating", tone: "waiting" },
  in_progress: { label: "In progress", tone: "running" },
  completed: { label: "Completed", tone: "success" },
  cancelled: { label: "Cancelled", tone: "neutral" },
  failed: { label: "Failed", tone: "danger" },
};

/** The status badge's words and colour; "Cancelling" while a cancelled batch's running lines finish. */
export function statusBadge(status: BatchStatus, cancelling = false): { label: string; tone: StatusTone } {
  if (cancelling && status === "in_progress") return { label: "Cancelling", tone: "waiting" };
  return STATUS[status];
}

export const isFinished = (status: BatchStatus): boolean => TERMINAL_BATCH_STATUSES.includes(status);

/** Cancel is offered while lines may still start. */
export const canCancel = (batch: Pick<Batch, "status">): boolean => !isFinished(batch.status);

/** Results are offered once there is something in them: a decided line, or a finished batch (its skipped and cancelled lines say why). */
export const hasResults = (batch: Pick<Batch, "status" | "request_counts">): boolean => isFinished(batch.status) || batchProgress(batch).done > 0;

/**
 * A live `batch:progress` event folded into the cached page. Events arrive throttled and may
 * overtake a refetch: counts only grow and a finished batch stays finished, so an older event
 * never moves the bar back. `known` is false for a batch not on the page (a new one: refetch).
 */
export function applyProgress(list: BatchList, event: BatchProgressEvent, nowIso: string): { list: BatchList; known: boolean } {
  let known = false;
  const data = list.data.map((batch) => {
    if (batch.id !== event.batch_id) return batch;
    known = true;
    if (isFinished(batch.status)) return batch;
    const finished = isFinished(event.status);
    return {
      ...batch,
      status: event.status,
      request_counts: {
        total: event.request_counts.total,
        completed: Math.max(batch.request_counts.completed, event.request_counts.completed),
        failed: Math.max(batch.request_counts.failed, event.request_counts.failed),
      },
      completed_at: finished ? (batch.completed_at ?? nowIso) : batch.completed_at,
    };
  });
  return { list: known ? { ...list, data } : list, known };
}

/** The dashboard's tabs, in order; the open one is kept in the URL (`/dashboard?tab=batches`). */
export const DASHBOARD_TABS = [
  { id: "decisions", label: "Decisions" },
  { id: "batches", label: "Batches" },
] as const;
export type DashboardTab = (typeof DASHBOARD_TABS)[number]["id"];
export const DASHBOARD_TAB_PARAM = "tab";

/** The tab named by ?tab=, else Decisions (a missing or unknown value). */
export const dashboardTabFromParam = (value: string | null): DashboardTab => (value === "batches" ? "batches" : "decisions");

/** The search after switching tabs: the other parameters (the decision filters) kept, the default tab left out of the URL. */
export function searchWithTab(params: URLSearchParams, tab: DashboardTab): URLSearchParams {
  const next = new URLSearchParams(params);
  if (tab === "decisions") next.delete(DASHBOARD_TAB_PARAM);
  else next.set(DASHBOARD_TAB_PARAM, tab);
  return next;
}
