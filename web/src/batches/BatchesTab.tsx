import { BATCH_LIMITS, type Batch } from "@sd/contracts";
import { Download, Layers, LoaderCircle, RefreshCw } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { SignedOutError } from "../api/authorized";
import { ApiError } from "../api/client";
import { useAuthorization } from "../auth/session-context";
import { formatLocalTime } from "../history/format";
import { HistoryAlert } from "../history/HistoryAlert";
import { Button } from "../ui/button";
import { cn } from "../ui/cn";
import { Dialog } from "../ui/dialog";
import { LiveHeading } from "../ui/live-heading";
import { toast } from "../ui/toast";
import { downloadBatchResults } from "./batches-api";
import { batchProgress, canCancel, hasResults, statusBadge, type StatusTone } from "./format";
import { useBatches, useCancelBatch } from "./useBatches";

const TONES: Record<StatusTone, string> = {
  running: "bg-blue-50 text-blue-700 ring-blue-200",
  success: "bg-emerald-50 text-emerald-700 ring-emerald-200",
  neutral: "bg-slate-100 text-slate-700 ring-slate-200",
  danger: "bg-red-50 text-red-700 ring-red-200",
  waiting: "bg-amber-50 text-amber-800 ring-amber-200",
};
const BAR: Record<StatusTone, string> = { running: "bg-blue-600", success: "bg-emerald-600", neutral: "bg-slate-400", danger: "bg-red-600", waiting: "bg-amber-500" };

const errorText = (error: unknown, fallback: string) => (error instanceof ApiError ? error.message : fallback);

function BatchRow({ batch, cancelling, onCancel }: { batch: Batch; cancelling: boolean; onCancel: (batch: Batch) => void }) {
  const session = useAuthorization();
  const [downloading, setDownloading] = useState(false);
  const progress = batchProgress(batch);
  const badge = statusBadge(batch.status, cancelling);
  const labelId = `${batch.id}-label`;
  const download = async () => {
    setDownloading(true);
    try {
      await downloadBatchResults(batch.id, session);
    } catch (error) {
      toast.error("Download failed", errorText(error, "The results could not be downloaded. Please try again."));
    } finally {
      setDownloading(false);
    }
  };
  return (
    <li className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="batch-row" data-batch-id={batch.id}>
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <div className="min-w-0">
          <p id={labelId} className="font-mono text-sm break-all text-slate-900">
            {batch.id}
          </p>
          <p className="text-sm text-slate-600">
            Created <time dateTime={batch.created_at}>{formatLocalTime(batch.created_at)}</time>
            {batch.completed_at ? (
              <>
                {" · ended "}
                <time dateTime={batch.completed_at}>{formatLocalTime(batch.completed_at)}</time>
              </>
            ) : null}
          </p>
        </div>
        <span className={cn("inline-flex shrink-0 items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset", TONES[badge.tone])} data-testid="batch-status">
          {badge.label}
        </span>
      </div>
      <div className="mt-3 space-y-1">
        <div
          role="progressbar"
          aria-labelledby={labelId}
          aria-valuemin={0}
          aria-valuemax={progress.total}
          aria-valuenow={progress.done}
          aria-valuetext={`${progress.text} (${progress.percent}%)`}
          className="h-2.5 w-full overflow-hidden rounded-full bg-slate-100"
        >
          <div className={cn("h-full rounded-full transition-[width] duration-300", BAR[badge.tone])} style={{ width: `${progress.percent}%` }} />
        </div>
        <p className="flex flex-wrap justify-between gap-x-3 text-sm text-slate-600" data-testid="batch-progress">
          <span>{progress.text}</span>
          <span aria-hidden>{progress.percent}%</span>
        </p>
      </div>
      {canCancel(batch) || hasResults(batch) ? (
        <div className="mt-3 flex flex-wrap gap-2">
          {hasResults(batch) ? (
            <Button size="sm" variant="secondary" onClick={() => void download()} disabled={downloading} aria-busy={downloading} aria-label={`Download results of ${batch.id}`}>
              {downloading ? <LoaderCircle className="size-4 animate-spin" aria-hidden /> : <Download className="size-4" aria-hidden />}
              Download results
            </Button>
          ) : null}
          {canCancel(batch) ? (
            <Button size="sm" variant="ghost" className="text-red-700 hover:bg-red-50" onClick={() => onCancel(batch)} disabled={cancelling} aria-label={`Cancel ${batch.id}`}>
              {cancelling ? "Cancelling..." : "Cancel"}
            </Button>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

function CancelDialog({ batch, pending, onCancel, onConfirm }: { batch: Batch | null; pending: boolean; onCancel: () => void; onConfirm: () => void }) {
  return (
    <Dialog
      open={batch !== null}
      onOpenChange={(next) => (next || pending ? undefined : onCancel())}
      title="Cancel this batch?"
      description="Lines not started yet are cancelled; lines already running finish and are counted. This cannot be undone."
    >
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onCancel} disabled={pending}>
          Keep running
        </Button>
        <Button variant="danger" disabled={pending || batch === null} aria-busy={pending} onClick={onConfirm}>
          {pending ? "Cancelling..." : "Cancel batch"}
        </Button>
      </div>
    </Dialog>
  );
}

function EmptyBatches() {
  return (
    <div className="rounded-xl border border-dashed border-slate-300 p-6 text-center sm:p-10">
      <Layers className="mx-auto size-10 text-slate-400" aria-hidden />
      <h2 className="mt-3 text-lg font-semibold text-slate-900">No batches yet</h2>
      <p className="mx-auto mt-1 max-w-prose text-slate-600">
        Send up to {BATCH_LIMITS.maxLines.toLocaleString("en-US")} decisions at once as a JSONL file with <code className="font-mono text-sm whitespace-nowrap">POST /v1/batches</code> and one of
        your API keys. They run in the background, and their progress shows here.
      </p>
      <p className="mt-3 text-sm">
        <Link to="/developers" className="whitespace-nowrap text-brand-700 underline">
          Developer guide
        </Link>
        {" · "}
        <a href="/docs" className="whitespace-nowrap text-brand-700 underline">
          API reference
        </a>
        {" · "}
        <Link to="/settings" className="whitespace-nowrap text-brand-700 underline">
          API keys
        </Link>
      </p>
    </div>
  );
}

/** The dashboard's Batches tab: the user's batches with live progress, cancel and the results download. */
export function BatchesTab({ userId, accessToken, onSignIn }: { userId: string; accessToken: string | null; onSignIn: () => void }) {
  const [limit, setLimit] = useState<number>(BATCH_LIMITS.pageSize);
  const { query, live } = useBatches(userId, accessToken, limit);
  const cancel = useCancelBatch(userId);
  const [confirming, setConfirming] = useState<Batch | null>(null);
  // Batches whose cancel was accepted while lines still run: "Cancelling" until the runner ends them.
  const [cancelled, setCancelled] = useState<ReadonlySet<string>>(new Set());
  const list = query.data;
  const refreshing = query.isFetching && !query.isPending;

  if (query.error instanceof SignedOutError) {
    return (
      <HistoryAlert message="Your session has expired. Please sign in again.">
        <Button onClick={onSignIn}>Sign in again</Button>
      </HistoryAlert>
    );
  }

  const confirm = () => {
    if (!confirming) return;
    const batch = confirming;
    cancel.mutate(batch.id, {
      onSuccess: (after) => {
        setCancelled((ids) => new Set(ids).add(after.id));
        toast.success(after.status === "in_progress" ? "Cancelling batch" : "Batch cancelled", after.status === "in_progress" ? "Lines already running finish first." : undefined);
        setConfirming(null);
      },
      onError: (error) => {
        toast.error("Error", errorText(error, "The batch could not be cancelled. Please try again."));
        setConfirming(null);
      },
    });
  };

  return (
    <div>
      <LiveHeading
        title="Batches"
        description={`Batches sent with any of your API keys, newest first. Results are kept for ${BATCH_LIMITS.retentionDays} days.`}
        live={live}
        liveTitle="Progress updates here as lines are decided"
      >
        <Button variant="secondary" onClick={() => void query.refetch()} disabled={refreshing} aria-busy={refreshing}>
          <RefreshCw className={refreshing ? "size-4 animate-spin" : "size-4"} aria-hidden />
          Refresh
        </Button>
      </LiveHeading>

      {query.isError && !list ? (
        <HistoryAlert tone="error" message={errorText(query.error, "Failed to load your batches")}>
          <Button variant="secondary" onClick={() => void query.refetch()}>
            Try again
          </Button>
        </HistoryAlert>
      ) : !list ? (
        <div role="status" aria-label="Loading batches" className="space-y-4">
          {[0, 1].map((n) => (
            <div key={n} className="h-32 animate-pulse rounded-xl bg-slate-100" />
          ))}
        </div>
      ) : list.data.length === 0 ? (
        <EmptyBatches />
      ) : (
        <ul aria-label="Batches" className="space-y-4">
          {list.data.map((batch) => (
            <BatchRow key={batch.id} batch={batch} cancelling={cancelled.has(batch.id) || (cancel.isPending && cancel.variables === batch.id)} onCancel={setConfirming} />
          ))}
        </ul>
      )}

      {list && list.total > list.data.length ? (
        <div className="mt-8 flex justify-center">
          <Button variant="secondary" onClick={() => setLimit((current) => Math.min(BATCH_LIMITS.maxPageSize, current + BATCH_LIMITS.pageSize))} disabled={limit >= BATCH_LIMITS.maxPageSize || query.isFetching}>
            {`Show more (${list.total - list.data.length} more)`}
          </Button>
        </div>
      ) : null}

      <CancelDialog
        batch={confirming}
        pending={cancel.isPending}
        onCancel={() => {
          cancel.reset();
          setConfirming(null);
        }}
        onConfirm={confirm}
      />
    </div>
  );
}
