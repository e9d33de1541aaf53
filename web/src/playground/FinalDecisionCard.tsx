import type { DecisionResponse } from "@sd/contracts";
import { useId } from "react";
import { Card } from "../ui/card";
import { explanationLines } from "./explanation";
import { PLAYGROUND_TEXT } from "./messages";
import { voteResults } from "../lib/vote-results";
import { VoteBars } from "../ui/vote-bars";

/** The combined decision: the winner, the votes per category and why. */
export function FinalDecisionCard({ result }: { result: DecisionResponse }) {
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
