import type { DecisionHistoryItem } from "@sd/contracts";
import { useId } from "react";
import { Link } from "react-router";
import { DecisionBadge } from "./DecisionBadge";
import { NO_COST_SIMULATED } from "../playground/usage-text";
import { formatCost } from "../settings/format";
import { decisionModels, formatLocalTime, isSimulatedVersion, modelName, responseText, voteRows } from "./format";
import { ResponseIcon } from "./ResponseIcon";
import { VoteBars } from "../ui/vote-bars";

/**
 * One decision on the dashboard. The whole card opens the decision: its
 * question is a link stretched over the card, so the card works with a click, Tab and Enter alike.
 */
export function DecisionCard({ decision, labels }: { decision: DecisionHistoryItem; labels: ReadonlyMap<string, string> }) {
  const headingId = useId();
  const models = decisionModels(decision);
  const simulated = models.length > 0 && models.every((id) => isSimulatedVersion(decision.model_versions[id]));
  return (
    <article
      aria-labelledby={headingId}
      className="relative rounded-xl border border-slate-200 bg-white p-4 shadow-sm transition-colors focus-within:outline-3 focus-within:outline-offset-2 focus-within:outline-brand-500 hover:border-brand-500 sm:p-6"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 flex-1">
          <h2 id={headingId} className="text-lg font-semibold text-slate-900">
            <Link to={`/decision/${encodeURIComponent(decision.id)}`} className="after:absolute after:inset-0 after:rounded-xl after:content-[''] focus-visible:outline-none">
              {decision.question}
            </Link>
          </h2>
          <p className="mt-1 text-sm text-slate-500">
            <time dateTime={decision.timestamp}>{formatLocalTime(decision.timestamp)}</time>
            {" · "}
            <span data-testid="card-cost">Total cost: {simulated ? NO_COST_SIMULATED : formatCost(decision.cost_usd)}</span>
          </p>
        </div>
        <DecisionBadge decision={decision.final_decision} />
      </div>
      <div className="mt-4 grid gap-4 md:grid-cols-3">
        <div className="min-w-0">
          <h3 className="mb-2 text-sm font-semibold text-slate-700">Vote Results</h3>
          <VoteBars rows={voteRows(decision)} label="Vote results" />
        </div>
        <div className="min-w-0">
          <h3 className="mb-2 text-sm font-semibold text-slate-700">Why this decision?</h3>
          <p className="text-sm whitespace-pre-line text-slate-700">{decision.context_explanation}</p>
        </div>
        <div className="min-w-0">
          <h3 className="mb-2 text-sm font-semibold text-slate-700">Model Responses</h3>
          <ul aria-label="Model responses" className="space-y-1.5">
            {models.map((id) => {
              const response = decision.individual_responses[id] ?? null;
              return (
                <li key={id} className="flex items-start gap-2 text-sm">
                  <span className="mt-0.5">
                    <ResponseIcon response={response} />
                  </span>
                  <span className="min-w-0">
                    <span className="font-medium text-slate-800">{modelName(id, labels)}:</span>{" "}
                    <span className={response && response.trim() !== "" ? "text-slate-700" : "text-slate-500 italic"}>{responseText(response)}</span>
                  </span>
                </li>
              );
            })}
          </ul>
        </div>
      </div>
    </article>
  );
}
