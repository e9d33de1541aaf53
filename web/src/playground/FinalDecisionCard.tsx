import type { DecisionResponse } from "@sd/contracts";
import { Card } from "../ui/card";
import { PLAYGROUND_TEXT } from "./messages";
import { voteResults } from "./vote-results";

function VoteResults({ result }: { result: DecisionResponse }) {
  return (
    <ul aria-label="Vote results" className="space-y-3">
      {voteResults(result.vote_counts, result.total_votes).map((vote) => (
        <li key={vote.category} className="space-y-1">
          <div className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
            <span className="min-w-0 font-medium text-slate-800">{vote.category}</span>
            <span className="text-slate-500">{vote.label}</span>
          </div>
          <div className="h-2 overflow-hidden rounded-full bg-slate-100" aria-hidden>
            <div className="h-full rounded-full bg-brand-600" style={{ width: `${Math.round(vote.share * 100)}%` }} />
          </div>
        </li>
      ))}
    </ul>
  );
}

/** The combined decision: the winner, the votes per category and why. */
export function FinalDecisionCard({ result }: { result: DecisionResponse }) {
  return (
    <Card className="border-brand-100">
      <h2 className="text-lg font-semibold">Final Decision</h2>
      <p className={result.final_decision ? "mt-2 text-2xl font-bold text-brand-700" : "mt-2 text-2xl font-bold text-slate-500"}>
        {result.final_decision ?? PLAYGROUND_TEXT.noDecision}
      </p>
      <h3 className="mt-6 mb-3 text-sm font-semibold text-slate-700">Vote Results</h3>
      <VoteResults result={result} />
      {result.context_explanation ? (
        <>
          <h3 className="mt-6 mb-2 text-sm font-semibold text-slate-700">Why this decision?</h3>
          <p className="text-sm whitespace-pre-line text-slate-700">{result.context_explanation}</p>
        </>
      ) : null}
    </Card>
  );
}
