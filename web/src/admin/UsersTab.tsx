import type { UsageStats } from "@sd/contracts";
import { cn } from "../ui/cn";
import { formatCount } from "./format";
import { NoData, Panel } from "./Panel";

/** Users: active users and anonymous IPs with their decision counts. */
export function UsersTab({ stats }: { stats: UsageStats | undefined }) {
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Panel title="Active Users">
        {stats && stats.active_users.length > 0 ? (
          <ul className="divide-y divide-slate-100">
            {stats.active_users.map((user) => (
              <li key={user.user_id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <div className="min-w-0">
                  <p className="break-all font-medium text-slate-900">{user.display_name}</p>
                  <p className="break-all text-xs text-slate-500">{user.user_id}</p>
                </div>
                <div className="flex shrink-0 items-center gap-2">
                  <span
                    className={cn(
                      "rounded-full px-2 py-0.5 text-xs font-medium",
                      user.is_authenticated ? "bg-emerald-50 text-emerald-700" : "bg-slate-100 text-slate-700",
                    )}
                  >
                    {user.is_authenticated ? "Authenticated" : "Anonymous"}
                  </span>
                  <span className="text-sm font-semibold text-slate-900">{formatCount(user.decision_count)} {user.decision_count === 1 ? "decision" : "decisions"}</span>
                </div>
              </li>
            ))}
          </ul>
        ) : (
          <NoData>{stats ? "No active users in this period" : "No data"}</NoData>
        )}
      </Panel>
      <Panel title="Anonymous IPs">
        {stats && stats.active_ips.length > 0 ? (
          <ul className="divide-y divide-slate-100">
            {stats.active_ips.map((entry) => (
              <li key={entry.ip} className="flex items-center justify-between gap-2 py-2">
                <span className="min-w-0 break-all font-mono text-sm text-slate-900">{entry.ip}</span>
                <span className="shrink-0 text-sm font-semibold text-slate-900">{formatCount(entry.count)}</span>
              </li>
            ))}
          </ul>
        ) : (
          <NoData>{stats ? "No anonymous decisions in this period" : "No data"}</NoData>
        )}
      </Panel>
    </div>
  );
}
