import type { DecisionHistoryItem } from "@sd/contracts";
import { VoteBars } from "../ui/vote-bars";
import { DetailSection } from "./DetailSection";
import { voteRows } from "./format";

type Outcome = Pick<DecisionHistoryItem, "categories" | "vote_counts" | "total_votes" | "context_explanation">;

/** What a decision offered and how the votes fell, then why: the owner's decision page and a shared decision show the same. */
export function DecisionOutcome({ decision }: { decision: Outcome }) {
  return (
    <>
      <div className="grid gap-6 lg:grid-cols-2">
        <DetailSection title="Available Categories">
          <ul className="flex flex-wrap gap-2" aria-label="Available categories">
            {decision.categories.map((category) => (
              <li key={category} className="max-w-full rounded-full border border-slate-200 bg-slate-50 px-3 py-1 text-sm text-slate-800">
                {category}
              </li>
            ))}
          </ul>
        </DetailSection>
        <DetailSection title="Vote Results">
          <VoteBars rows={voteRows(decision)} label="Vote results" />
        </DetailSection>
      </div>

      <DetailSection title="Why this decision?">
        {/* One line per model: keep the line breaks. */}
        <p className="text-sm whitespace-pre-line text-slate-800">{decision.context_explanation}</p>
      </DetailSection>
    </>
  );
}
