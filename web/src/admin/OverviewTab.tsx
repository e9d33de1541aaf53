import type { UsageStats } from "@sd/contracts";
import { formatCount, formatMs, formatPercentage, percentOf, topCategories, totalMinutes } from "./format";
import { Bar, NoData, Panel, PanelSkeleton, StatCard } from "./Panel";
import { LiveThroughputPanel } from "./LiveThroughputPanel";
import type { AdminThroughput } from "./useAdminThroughput";

/** Overview: four cards, three panels, and the live throughput. */
export function OverviewTab({ stats, loading, live }: { stats: UsageStats | undefined; loading: boolean; live: AdminThroughput }) {
  const summary = stats?.summary;
  const total = summary?.total_decisions ?? 0;
  const top = stats ? topCategories(stats.categories.top_categories) : [];
  return (
    <div className="space-y-4">
      {loading && !stats ? (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {[0, 1, 2, 3].map((n) => (
            <PanelSkeleton key={n} />
          ))}
        </div>
      ) : (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <StatCard title="Total Decisions" value={summary ? formatCount(summary.total_decisions) : null} detail={summary ? `${formatCount(summary.recent_activity)} in the last hour` : null} />
          <StatCard title="Error Rate" value={summary ? formatPercentage(summary.error_rate_percentage) : null} detail={summary ? `${formatCount(summary.decisions_with_errors)} failed decisions` : null} />
          <StatCard
            title="Total Users"
            value={summary ? formatCount(summary.unique_authenticated_users + summary.unique_ips) : null}
            detail={summary ? `${formatCount(summary.unique_authenticated_users)} authenticated + ${formatCount(summary.unique_ips)} anonymous (unique IPs)` : null}
          />
          <StatCard title="Avg Processing Time" value={stats ? formatMs(stats.performance.avg_processing_time_ms) : null} detail={stats ? totalMinutes(stats.performance.total_processing_time_seconds) : null} />
        </div>
      )}
      <div className="grid gap-4 lg:grid-cols-3">
        <Panel title="Authentication Usage">
          {summary ? (
            <ul className="space-y-3">
              <Bar label="Authenticated" figure={`${formatCount(summary.authenticated_decisions)} (${percentOf(summary.authenticated_decisions, total)})`} share={total ? summary.authenticated_decisions / total : 0} />
              <Bar label="Anonymous" figure={`${formatCount(summary.anonymous_decisions)} (${percentOf(summary.anonymous_decisions, total)})`} share={total ? summary.anonymous_decisions / total : 0} tone="bg-slate-500" />
            </ul>
          ) : (
            <NoData />
          )}
        </Panel>
        <Panel title="Decision Success Rate">
          {summary ? (
            <ul className="space-y-3">
              <Bar label="Successful" figure={`${formatCount(summary.decisions_with_results)} (${percentOf(summary.decisions_with_results, total)})`} share={total ? summary.decisions_with_results / total : 0} tone="bg-emerald-500" />
              <Bar label="Failed" figure={`${formatCount(summary.decisions_with_errors)} (${percentOf(summary.decisions_with_errors, total)})`} share={total ? summary.decisions_with_errors / total : 0} tone="bg-red-500" />
            </ul>
          ) : (
            <NoData />
          )}
        </Panel>
        <Panel title="Top Categories">
          {top.length > 0 ? (
            <ul className="space-y-3">
              {top.map((entry) => (
                <Bar key={entry.category} label={entry.category} figure={formatCount(entry.count)} share={entry.share} />
              ))}
            </ul>
          ) : (
            <NoData>{stats ? "No categories in this period" : "No data"}</NoData>
          )}
        </Panel>
        <LiveThroughputPanel live={live} />
      </div>
    </div>
  );
}
