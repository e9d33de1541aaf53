import type { UsageStats } from "@sd/contracts";
import { dailyTrend, formatCount } from "./format";
import { NoData, Panel } from "./Panel";

/** Trends: the last 7 days of daily usage as bars. */
export function TrendsTab({ stats }: { stats: UsageStats | undefined }) {
  const days = stats ? dailyTrend(stats.trends.daily_usage) : [];
  return (
    <Panel title="Daily Usage">
      {days.length === 0 ? (
        <NoData>{stats ? "No decisions in this period" : "No data"}</NoData>
      ) : (
        <ol aria-label="Decisions per day" className="flex h-56 items-end gap-2 sm:gap-4">
          {days.map((day) => (
            <li key={day.date} className="flex h-full min-w-0 flex-1 flex-col items-center justify-end gap-1" aria-label={`${day.date}: ${day.count}`}>
              <span className="text-xs font-medium text-slate-900">{formatCount(day.count)}</span>
              <div className="w-full rounded-t-md bg-brand-600" style={{ height: `${Math.max(day.count > 0 ? 2 : 0, Math.round(day.share * 100))}%` }} aria-hidden />
              <span className="w-full truncate text-center text-[10px] text-slate-600 sm:text-xs">{day.date.slice(5)}</span>
            </li>
          ))}
        </ol>
      )}
    </Panel>
  );
}
