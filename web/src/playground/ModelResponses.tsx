import { CircleCheck, CircleMinus, CircleX, Gavel, LoaderCircle } from "lucide-react";
import { Card } from "../ui/card";
import { cn } from "../ui/cn";
import { formatConfidence } from "./choices";
import type { RoundResult } from "./decision-run";
import type { ModelRow } from "./live-rows";
import { PLAYGROUND_TEXT } from "./messages";
import { statsParts } from "./usage-text";

/** Model result status: spinner and 'Processing...', the answer, or 'Failed'; and the ensembles' own. */
function ModelStatus({ row }: { row: ModelRow }) {
  switch (row.status) {
    case "idle":
      return <span className="text-sm text-slate-500">Waiting for a question</span>;
    case "waiting":
      return <span className="text-sm text-slate-500">{PLAYGROUND_TEXT.judgeWaiting}</span>;
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
          {row.kind === "judge" ? PLAYGROUND_TEXT.judgeFailed : PLAYGROUND_TEXT.failed}
        </span>
      );
    case "skipped":
      return (
        <span className="inline-flex items-center gap-1.5 text-sm text-slate-500">
          <CircleMinus className="size-4" aria-hidden />
          {PLAYGROUND_TEXT.skipped}
        </span>
      );
    case "unreported":
      return <span className="text-sm text-slate-500">{PLAYGROUND_TEXT.judgeUnreported}</span>;
    case "unasked":
      return <span className="text-sm text-slate-500">{PLAYGROUND_TEXT.unasked}</span>;
  }
}

/** A settled call's latency, tokens and cost (a skipped vote's call was cancelled: it shows none). */
function CallStats({ row }: { row: ModelRow }) {
  if (row.stats === null || row.status === "skipped") return null;
  return (
    <p className="mt-1 flex flex-wrap gap-x-3 text-xs text-slate-500 tabular-nums">
      {statsParts(row.stats, row.simulated).map((part, index) => (
        <span key={index}>{part}</span>
      ))}
    </p>
  );
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

const roundText = ({ status, response, confidence }: RoundResult): string => {
  if (status === "success") return confidence === null ? `${response}` : `${response} (${formatConfidence(confidence)})`;
  return status === "skipped" ? PLAYGROUND_TEXT.skipped : PLAYGROUND_TEXT.failed;
};

/** Gossip: the model's answers of earlier rounds, under its current one. */
function EarlierRounds({ row }: { row: ModelRow }) {
  if (row.earlier.length === 0) return null;
  return (
    <ol aria-label={`Earlier rounds of ${row.label}`} className="mt-2 space-y-0.5 border-l-2 border-slate-200 pl-3 text-xs text-slate-600">
      {row.earlier.map((answer) => (
        <li key={answer.round} className="[overflow-wrap:anywhere]">
          <span className="font-medium text-slate-700">Round {answer.round}:</span> {roundText(answer)}
          {answer.rationale ? <span className="text-slate-500"> · {answer.rationale}</span> : null}
        </li>
      ))}
    </ol>
  );
}

function ModelResultRow({ row }: { row: ModelRow }) {
  const muted = row.status === "skipped" || row.status === "unasked";
  return (
    <li className={cn("py-3", muted && "opacity-70")} data-status={row.status} data-kind={row.kind} data-round={row.round ?? undefined}>
      <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1">
        <div className="min-w-0">
          <p className={cn("flex flex-wrap items-center gap-2 font-medium", muted ? "text-slate-500" : "text-slate-900")}>
            {row.kind === "judge" ? <Gavel className="size-4 shrink-0 text-slate-500" aria-hidden /> : null}
            <span className="min-w-0">{row.label}</span>
            {row.round !== null ? (
              <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-medium text-brand-700">Round {row.round}</span>
            ) : null}
          </p>
          {row.modelVersion ? <p className="text-xs text-slate-500">{row.modelVersion}</p> : null}
        </div>
        <ModelStatus row={row} />
      </div>
      <ModelReason row={row} />
      <CallStats row={row} />
      <EarlierRounds row={row} />
    </li>
  );
}

/** Every model's vote, with its confidence and reason, updated live as each one answers (and each gossip round, and the judge). */
export function ModelResponses({ rows }: { rows: readonly ModelRow[] }) {
  return (
    <Card>
      <h2 className="text-lg font-semibold">Model Responses</h2>
      <ul aria-label="Model responses" aria-live="polite" className="mt-2 divide-y divide-slate-100">
        {rows.map((row) => (
          <ModelResultRow key={row.key} row={row} />
        ))}
      </ul>
    </Card>
  );
}
