import { ADMIN_MESSAGES, type RecentDecision } from "@sd/contracts";
import { formatRelativeTime } from "../history/format";
import { activityActor, activityOutcome, visibleCategories } from "./format";
import { NoData, Panel, PanelSkeleton } from "./Panel";

function ActivityItem({ decision, now }: { decision: RecentDecision; now: number }) {
  const categories = visibleCategories(decision.categories);
  const outcome = activityOutcome(decision);
  return (
    <li className="min-w-0 space-y-2 py-3" data-testid="activity-item">
      <p className="break-words font-medium text-slate-900">{decision.question}</p>
      <p className="flex flex-wrap gap-x-3 gap-y-1 text-xs text-slate-600">
        <span className="break-all">{activityActor(decision)}</span>
        <span>{formatRelativeTime(decision.timestamp, now)}</span>
        <span>{decision.ensemble_mode}</span>
        <span>{decision.processing_time_ms === null ? "Unknown" : `${Math.round(decision.processing_time_ms)}ms`}</span>
      </p>
      <div className="flex flex-wrap items-center gap-1.5">
        {categories.shown.map((category, index) => (
          <span key={`${index}-${category}`} data-testid="activity-category" className="max-w-full break-words rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-700">
            {category}
          </span>
        ))}
        {categories.more ? <span className="text-xs text-slate-500">{categories.more}</span> : null}
      </div>
      {outcome.kind === "error" ? (
        <p className="flex min-w-0 flex-wrap items-center gap-2 text-sm text-red-700">
          <span className="rounded bg-red-600 px-1.5 py-0.5 text-xs font-bold text-white">ERROR</span>
          <span className="min-w-0 break-words">{outcome.text}</span>
        </p>
      ) : outcome.kind === "decision" ? (
        <p className="text-sm text-slate-700">
          Decision: <span className="rounded-full bg-emerald-50 px-2 py-0.5 font-medium text-emerald-800">{outcome.text}</span>
        </p>
      ) : null}
    </li>
  );
}

/** Recent Activity, for the dashboard's period (a day until one is chosen). */
export function RecentActivityTab({ decisions, loading }: { decisions: RecentDecision[] | undefined; loading: boolean }) {
  const now = Date.now();
  return (
    <Panel title="Recent Activity">
      {loading && !decisions ? (
        <PanelSkeleton />
      ) : decisions === undefined ? (
        <NoData />
      ) : decisions.length === 0 ? (
        <NoData>{ADMIN_MESSAGES.noRecentActivity}</NoData>
      ) : (
        <ul className="divide-y divide-slate-100">
          {decisions.map((decision) => (
            <ActivityItem key={decision.id} decision={decision} now={now} />
          ))}
        </ul>
      )}
    </Panel>
  );
}
