import { CircleCheck, CircleX, LoaderCircle } from "lucide-react";
import { Card } from "../ui/card";
import { formatConfidence } from "./choices";
import type { ModelRow } from "./decision-run";
import { PLAYGROUND_TEXT } from "./messages";

/** Model result status (specification section 4): spinner and 'Processing...', the answer, or 'Failed'. */
function ModelStatus({ row }: { row: ModelRow }) {
  switch (row.status) {
    case "idle":
      return <span className="text-sm text-slate-500">Waiting for a question</span>;
    case "pending":
      return (
        <span className="inline-flex items-center gap-1.5 text-sm text-slate-600">
          <LoaderCircle className="size-4 animate-spin" aria-hidden />
          {PLAYGROUND_TEXT.processing}
        </span>
      );
    case "success":
      return (
        <span className="inline-flex min-w-0 items-center gap-1.5 font-semibold text-emerald-700">
          <CircleCheck className="size-4 shrink-0" aria-hidden />
          <span className="min-w-0">{row.response}</span>
        </span>
      );
    case "error":
      return (
        <span className="inline-flex items-center gap-1.5 text-sm font-medium text-red-600">
          <CircleX className="size-4" aria-hidden />
          {PLAYGROUND_TEXT.failed}
        </span>
      );
  }
}

/** How sure the model was and why, as its live vote said (kept after the final answer). */
function ModelReason({ row }: { row: ModelRow }) {
  if (row.status !== "success" || (row.confidence === null && row.rationale === null)) return null;
  return (
    <div className="mt-1.5 space-y-1 text-sm">
      {row.confidence !== null ? (
        <p className="text-slate-600">
          Confidence: <span className="font-medium text-slate-900">{formatConfidence(row.confidence)}</span>
        </p>
      ) : null}
      {row.rationale !== null ? <p className="text-slate-700 [overflow-wrap:anywhere]">{row.rationale}</p> : null}
    </div>
  );
}

function ModelResultRow({ row }: { row: ModelRow }) {
  return (
    <li className="py-3" data-status={row.status}>
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1">
        <div className="min-w-0">
          <p className="font-medium text-slate-900">{row.label}</p>
          {row.modelVersion ? <p className="text-xs text-slate-500">{row.modelVersion}</p> : null}
        </div>
        <ModelStatus row={row} />
      </div>
      <ModelReason row={row} />
    </li>
  );
}

/** Every model's vote, with its confidence and reason, updated live as each one answers. */
export function ModelResponses({ rows }: { rows: readonly ModelRow[] }) {
  return (
    <Card>
      <h2 className="text-lg font-semibold">Model Responses</h2>
      <ul aria-label="Model responses" aria-live="polite" className="mt-2 divide-y divide-slate-100">
        {rows.map((row) => (
          <ModelResultRow key={row.id} row={row} />
        ))}
      </ul>
    </Card>
  );
}
