import type { DecisionResponse } from "@sd/contracts";
import { useId } from "react";
import { Card } from "../ui/card";
import { explanationLines } from "./explanation";
import { PLAYGROUND_TEXT } from "./messages";
import type { UsageTotals } from "./usage-totals";
import { totalsParts } from "./usage-text";
import { voteResults } from "../lib/vote-results";
import { VoteBars } from "../ui/vote-bars";

/** What the decision's model calls cost together, once any has said (live events carry the figures). */
function DecisionTotals({ totals }: { totals: UsageTotals }) {
  if (totals.calls === 0) return null;
  return (
    <div role="group" aria-label="Decision totals" className="mt-6">
      <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm">
        {totalsParts(totals).map(([label, value]) => (
          <div key={label} className="flex gap-1.5">
            <dt className="text-slate-600">{label}:</dt>
            <dd className="font-medium text-slate-900 tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-1 text-xs text-slate-500">
        From {totals.calls} model {totals.calls === 1 ? "call" : "calls"}
      </p>
    </div>
  );
}

/** The combined decision: the winner, the votes per category, what it cost and why. */
export function FinalDecisionCard({ result, totals }: { result: DecisionResponse; totals: UsageTotals }) {
  const reasons = explanationLines(result.context_explanation);
  const whyId = useId();
  return (
    <Card className="border-brand-100">
      <h2 className="text-lg font-semibold">Final Decision</h2>
      <p className={result.final_decision ? "mt-2 text-2xl font-bold text-brand-700" : "mt-2 text-2xl font-bold text-slate-500"}>
        {result.final_decision ?? PLAYGROUND_TEXT.noDecision}
      </p>
      <h3 className="mt-6 mb-3 text-sm font-semibold text-slate-700">Vote Results</h3>
      <VoteBars rows={voteResults(result.vote_counts, result.total_votes)} label="Vote results" />
      <DecisionTotals totals={totals} />
      {reasons.length > 0 ? (
        <>
          <h3 id={whyId} className="mt-6 mb-2 text-sm font-semibold text-slate-700">
            Why this decision?
          </h3>
          <ul aria-labelledby={whyId} className="space-y-1.5 text-sm text-slate-700 [overflow-wrap:anywhere]">
            {reasons.map((line, index) => (
              <li key={index}>{line}</li>
            ))}
          </ul>
        </>
      ) : null}
    </Card>
  );
}
