import { PERIOD_HOURS, type SystemHealth } from "@sd/contracts";
import { formatLocalTime } from "../history/format";
import { checkTitle, checkValue, formatCount, formatMs, orderedChecks, periodLabel } from "./format";
import { NoData, Panel, PanelSkeleton, StatusBadge } from "./Panel";

function Metric({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0 rounded-lg bg-slate-50 p-3">
      <dt className="text-xs text-slate-600">{label}</dt>
      <dd className="text-xl font-semibold text-slate-900">{value}</dd>
    </div>
  );
}

/** System Health, for the dashboard's period (a day until one is chosen). */
export function SystemHealthTab({ health, loading }: { health: SystemHealth | undefined; loading: boolean }) {
  return (
    <div className="space-y-4">
      <Panel title="System Health">
        {loading && !health ? (
          <PanelSkeleton />
        ) : !health ? (
          <NoData />
        ) : (
          <div className="space-y-4">
            <p className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
              Status <StatusBadge status={health.status} />
            </p>
            <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
              <Metric label="Decisions in period" value={formatCount(health.metrics.decisions_in_period)} />
              <Metric label="Decisions in the last hour" value={formatCount(health.metrics.decisions_last_hour)} />
              <Metric label="Avg processing time" value={formatMs(health.metrics.avg_processing_time_ms)} />
              <Metric label="Period hours" value={formatCount(health.period_hours)} />
            </dl>
            <p className="text-xs text-slate-600" data-testid="period-info">
              Period: {periodLabel(health.period)} ({formatCount(health.period_hours || PERIOD_HOURS[health.period])} hours) · checked {formatLocalTime(health.timestamp)}
            </p>
          </div>
        )}
      </Panel>
      {health ? (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {orderedChecks(health.health_checks).map(([name, check]) => (
            <Panel key={name} title={checkTitle(name)} action={<StatusBadge status={check.status} />}>
              <p className="break-words text-lg font-semibold text-slate-900" data-testid="check-value">
                {checkValue(check.value)}
              </p>
              <p className="mt-1 break-words text-sm text-slate-600">{check.message}</p>
            </Panel>
          ))}
        </div>
      ) : null}
    </div>
  );
}
