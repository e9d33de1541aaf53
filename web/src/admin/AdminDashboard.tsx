import type { AuthUser } from "@sd/contracts";
import { RefreshCw, TriangleAlert } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "../ui/button";
import { Tabs } from "../ui/tabs";
import { AdminSignInPrompt, NotAnAdmin } from "./AdminNotice";
import { statusBanner } from "./format";
import { LastUpdated } from "./LastUpdated";
import { OverviewTab } from "./OverviewTab";
import { PeriodSelect } from "./PeriodSelect";
import { RecentActivityTab } from "./RecentActivityTab";
import { SystemHealthTab } from "./SystemHealthTab";
import { TrendsTab } from "./TrendsTab";
import { UsersTab } from "./UsersTab";
import { useAdminData } from "./useAdminQueries";
import { useAdminThroughput } from "./useAdminThroughput";
import { useAdminView } from "./useAdminView";
import { ADMIN_TABS, tabFromParam, type AdminTab } from "./view-state";

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
 * The dashboard of a signed-in admin: the header (the one period, Refresh, 'Last updated'), the
 * status banner and the five tabs, the open tab and the period kept in the URL. The three endpoints
 * load in parallel and refresh themselves as decisions finish; a 403 from any of them means the
 * server does not take this user for an admin, whatever the client check said.
 */
export function AdminDashboard({ user, accessToken, onSignIn }: { user: AuthUser; accessToken: string | null; onSignIn: () => void }) {
  const view = useAdminView();
  const data = useAdminData(user.id, view.period, view.tab);
  const live = useAdminThroughput(data.forbidden || data.signedOut ? null : user.id, accessToken, data.decisionsFinished);

  if (data.signedOut) return <AdminSignInPrompt expired onSignIn={onSignIn} />;
  if (data.forbidden) return <NotAnAdmin email={user.email} detail={null} />;
  const content: Record<AdminTab, ReactNode> = {
    overview: <OverviewTab stats={data.usage.data} loading={data.usage.isFetching} live={live} />,
    trends: <TrendsTab stats={data.usage.data} />,
    users: <UsersTab stats={data.usage.data} />,
    recent: <RecentActivityTab decisions={data.recent.data} loading={data.recent.isFetching} />,
    health: <SystemHealthTab health={data.health.data} loading={data.health.isFetching} />,
  };
  const openTab = ADMIN_TABS.find((tab) => tab.id === view.tab)!;
  return (
    <div>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-3">
          {/* Until one is chosen, the open tab's default period (a month for usage, a day for activity and health). */}
          <PeriodSelect label="Period" value={view.period ?? openTab.defaultPeriod} onChange={view.setPeriod} />
          <Button variant="secondary" size="sm" onClick={() => void data.refresh()} disabled={data.refreshing}>
            <RefreshCw className={data.refreshing ? "size-4 animate-spin" : "size-4"} aria-hidden />
            Refresh
          </Button>
        </div>
        <LastUpdated at={data.updatedAt} />
      </div>
      <StatusBanner status={data.health.data?.status} />
      <Tabs
        label="Admin dashboard sections"
        value={view.tab}
        onValueChange={(value) => view.setTab(tabFromParam(value))}
        items={ADMIN_TABS.map((tab) => ({ value: tab.id, label: tab.label, content: content[tab.id] }))}
      />
    </div>
  );
}
