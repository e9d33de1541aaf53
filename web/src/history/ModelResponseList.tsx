import type { DecisionHistoryItem } from "@sd/contracts";
import type { ReactNode } from "react";
import { cn } from "../ui/cn";
import { confidenceBadge, decisionModels, distinctRawResponse, modelName, responseText, type ConfidenceTone } from "./format";

const TONES: Record<ConfidenceTone, string> = {
  high: "bg-green-100 text-green-800",
  medium: "bg-yellow-100 text-yellow-800",
  low: "bg-red-100 text-red-800",
};

function Row({ label, children, tone }: { label: string; children: ReactNode; tone?: "error" }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className={cn("mt-0.5 text-sm whitespace-pre-wrap", tone === "error" ? "text-red-700" : "text-slate-800")}>{children}</dd>
    </div>
  );
}

/**
 * Model Responses of the decision page: per model its name, version,
 * confidence (green at 0.8 or above, yellow at 0.6 or above, red below), response, raw response
 * (only when it differs), error, and its one-sentence reason.
 */
export function ModelResponseList({
  decision,
  labels,
}: {
  /** Only what it shows (a shared decision has no raw responses: pass them empty). */
  decision: Pick<DecisionHistoryItem, "individual_responses" | "raw_responses" | "confidence_scores" | "model_versions" | "error_details" | "rationales">;
  labels: ReadonlyMap<string, string>;
}) {
  const models = decisionModels(decision);
  if (models.length === 0) return <p className="text-sm text-slate-500">No model answered.</p>;
  return (
    <ul className="space-y-4" aria-label="Model responses">
      {models.map((id) => {
        const response = decision.individual_responses[id] ?? null;
        const raw = distinctRawResponse(response, decision.raw_responses[id]);
        const confidence = confidenceBadge(decision.confidence_scores[id]);
        const version = decision.model_versions[id];
        const error = decision.error_details[id];
        const reason = decision.rationales[id];
        const name = modelName(id, labels);
        return (
          <li key={id} aria-label={name} className="rounded-lg border border-slate-200 p-4">
            <div className="flex flex-wrap items-center gap-2">
              <h3 className="mr-auto font-semibold text-slate-900">{name}</h3>
              {version ? <span className="rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-medium text-slate-700">{version}</span> : null}
              {confidence ? (
                <span className={cn("rounded-full px-2.5 py-0.5 text-xs font-semibold", TONES[confidence.tone])} data-tone={confidence.tone}>
                  {confidence.text} confidence
                </span>
              ) : null}
            </div>
            <dl className="mt-3 space-y-2">
              <Row label="Response">{responseText(response)}</Row>
              {raw !== null ? <Row label="Raw Response">{raw}</Row> : null}
              {error ? (
                <Row label="Error" tone="error">
                  {error}
                </Row>
              ) : null}
              {reason ? <Row label="Reason">{reason}</Row> : null}
            </dl>
          </li>
        );
      })}
    </ul>
  );
}
