import type { AdminPeriod, AuthUser } from "@sd/contracts";
import { RefreshCw, TriangleAlert } from "lucide-react";
import { useState } from "react";
import { Button } from "../ui/button";
import { Tabs } from "../ui/tabs";
import { AdminSignInPrompt, NotAnAdmin } from "./AdminNotice";
import { DEFAULT_PERIODS, statusBanner } from "./format";
import { OverviewTab } from "./OverviewTab";
import { PeriodSelect } from "./PeriodSelect";
import { RecentActivityTab } from "./RecentActivityTab";
import { SystemHealthTab } from "./SystemHealthTab";
import { TrendsTab } from "./TrendsTab";
import { UsersTab } from "./UsersTab";
import { useAdminData } from "./useAdminQueries";
import { useAdminThroughput } from "./useAdminThroughput";

/** The orange banner shown while the system is not healthy. */
function StatusBanner({ status }: { status: string | undefined }) {
  const text = statusBanner(status);
  if (!text) return null;
  return (
    <div role="status" data-testid="system-status-banner" className="mb-4 flex items-center gap-2 rounded-xl border border-orange-300 bg-orange-50 p-3 text-orange-900">
      <TriangleAlert className="size-5 shrink-0 text-orange-600" aria-hidden />
      <span className="font-semibold">{text}</span>
    </div>
  );
}

/**
 * The dashboard of a signed-in admin: the header (period, Refresh, 'Last updated'), the status
 * banner and the five tabs. The three endpoints load in parallel; a 403 from any of them means the
 * server does not take this user for an admin, whatever the client check said.
 */
export function AdminDashboard({ user, accessToken, onSignIn }: { user: AuthUser; accessToken: string | null; onSignIn: () => void }) {
  const [overview, setOverview] = useState<AdminPeriod>(DEFAULT_PERIODS.overview);
  const [recent, setRecent] = useState<AdminPeriod>(DEFAULT_PERIODS.recent);
  const [health, setHealth] = useState<AdminPeriod>(DEFAULT_PERIODS.health);
  const data = useAdminData(user.id, { overview, recent, health });
  const live = useAdminThroughput(data.forbidden || data.signedOut ? null : user.id, accessToken);

  if (data.signedOut) return <AdminSignInPrompt expired onSignIn={onSignIn} />;
  if (data.forbidden) return <NotAnAdmin email={user.email} detail={null} />;
  return (
    <div>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-3">
          <PeriodSelect label="Period" value={overview} onChange={setOverview} />
          <Button variant="secondary" size="sm" onClick={() => void data.refresh()} disabled={data.refreshing}>
            <RefreshCw className={data.refreshing ? "size-4 animate-spin" : "size-4"} aria-hidden />
            Refresh
          </Button>
        </div>
        <p className="text-sm text-slate-600" data-testid="last-updated">
          Last updated: {data.updatedAt > 0 ? new Date(data.updatedAt).toLocaleTimeString() : "—"}
        </p>
      </div>
      <StatusBanner status={data.health.data?.status} />
      <Tabs
        label="Admin dashboard sections"
        items={[
          { value: "overview", label: "Overview", content: <OverviewTab stats={data.usage.data} loading={data.usage.isFetching} live={live} /> },
          { value: "trends", label: "Trends", content: <TrendsTab stats={data.usage.data} /> },
          { value: "users", label: "Users", content: <UsersTab stats={data.usage.data} /> },
          {
            value: "recent",
            label: "Recent Activity",
            content: <RecentActivityTab decisions={data.recent.data} loading={data.recent.isFetching} period={recent} onPeriod={setRecent} />,
          },
          {
            value: "health",
            label: "System Health",
            content: <SystemHealthTab health={data.health.data} loading={data.health.isFetching} period={health} onPeriod={setHealth} />,
          },
        ]}
      />
    </div>
  );
}
