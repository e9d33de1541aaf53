import type { VoteResult } from "../lib/vote-results";

/** Votes per category, most first, each with a bar as its share of all votes. */
export function VoteBars({ rows, label }: { rows: readonly VoteResult[]; label: string }) {
  return (
    <ul aria-label={label} className="space-y-2">
      {rows.map((row) => (
        <li key={row.category} className="space-y-1">
          <div className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
            <span className="min-w-0 font-medium text-slate-800">{row.category}</span>
            <span className="text-slate-500">{row.label}</span>
          </div>
          <div className="h-2 overflow-hidden rounded-full bg-slate-100" aria-hidden>
            <div className="h-full rounded-full bg-brand-600" style={{ width: `${Math.round(row.share * 100)}%` }} data-share={row.share} />
          </div>
        </li>
      ))}
    </ul>
  );
}
