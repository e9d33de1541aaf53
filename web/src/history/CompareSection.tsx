import { ENSEMBLE_MODE_LABELS, type ModeComparison, type RerunRequest } from "@sd/contracts";
import { Link } from "react-router";
import { Button } from "../ui/button";
import { cn } from "../ui/cn";
import { DecisionBadge } from "./DecisionBadge";
import { DetailSection } from "./DetailSection";
import { outcomeBasis } from "./compare-text";

export interface RerunControl {
  run(options: RerunRequest): void;
  /** True while a re-run is being made: no second one starts. */
  pending: boolean;
}

/**
 * "What would the other modes have decided?": one row per mode. Majority and weighted voting are
 * counted again from the stored votes (no model cost); judge and gossip show this decision's or a
 * re-run's outcome, or a button that runs them as a new decision linked to this one.
 */
export function CompareSection({ comparison, rerun }: { comparison: ModeComparison; rerun: RerunControl }) {
  return (
    <DetailSection title="What would the other modes have decided?">
      <ul className="divide-y divide-slate-200" aria-label="Outcome per mode">
        {comparison.outcomes.map((outcome) => {
          const label = ENSEMBLE_MODE_LABELS[outcome.mode];
          return (
            <li key={outcome.mode} aria-label={label} className={cn("flex flex-wrap items-center gap-x-4 gap-y-2 py-3", outcome.current && "rounded-md bg-brand-50 px-2")}>
              <div className="min-w-0 flex-1 basis-48">
                <p className="font-medium text-slate-900">
                  {label}
                  {outcome.current ? (
                    <>
                      {" "}
                      <span className="ml-1 rounded-full bg-white px-2 py-0.5 text-xs font-semibold text-brand-700">This decision</span>
                    </>
                  ) : null}
                </p>
                <p className="text-xs text-slate-500">{outcomeBasis(outcome, comparison.votes_counted)}</p>
              </div>
              {outcome.source === "not_run" ? (
                <Button size="sm" variant="secondary" disabled={rerun.pending} onClick={() => rerun.run({ ensemble_mode: outcome.mode })}>
                  Run {label.toLowerCase()}
                </Button>
              ) : (
                <div className="flex items-center gap-3">
                  <DecisionBadge decision={outcome.final_decision} />
                  {outcome.source === "rerun" && outcome.decision_id ? (
                    <Link to={`/decision/${encodeURIComponent(outcome.decision_id)}`} className="text-sm font-medium text-brand-700 underline">
                      Open re-run
                    </Link>
                  ) : null}
                </div>
              )}
            </li>
          );
        })}
      </ul>
    </DetailSection>
  );
}
