import { AdminPeriodSchema, type AdminPeriod } from "@sd/contracts";

/**
 * What the admin page shows, as it is kept in the URL (`/admin?tab=recent&period=week`), so a view
 * can be bookmarked, shared and reloaded. Pure, so every rule is unit-tested.
 */

export const ADMIN_TAB_PARAM = "tab";
export const ADMIN_PERIOD_PARAM = "period";

/** The endpoint whose figures a tab shows: the one a live refresh of that tab asks again. */
export type AdminSource = "usage-stats" | "recent-decisions" | "system-health";

/** The tabs in the order shown; each reads one endpoint and has the specification's default period. */
export const ADMIN_TABS = [
  { id: "overview", label: "Overview", source: "usage-stats", defaultPeriod: "month" },
  { id: "trends", label: "Trends", source: "usage-stats", defaultPeriod: "month" },
  { id: "users", label: "Users", source: "usage-stats", defaultPeriod: "month" },
  { id: "recent", label: "Recent Activity", source: "recent-decisions", defaultPeriod: "day" },
  { id: "health", label: "System Health", source: "system-health", defaultPeriod: "day" },
] as const satisfies readonly { id: string; label: string; source: AdminSource; defaultPeriod: AdminPeriod }[];

export type AdminTab = (typeof ADMIN_TABS)[number]["id"];

const tabIds: ReadonlySet<string> = new Set(ADMIN_TABS.map((tab) => tab.id));

/** The tab named in ?tab=, else Overview. */
export const tabFromParam = (value: string | null): AdminTab => (value !== null && tabIds.has(value) ? (value as AdminTab) : "overview");

/** The period chosen in ?period=, or null when none (or an unknown one) is: each tab then uses its default. */
export function periodFromParam(value: string | null): AdminPeriod | null {
  const period = AdminPeriodSchema.safeParse(value);
  return period.success ? period.data : null;
}

export const tabSource = (tab: AdminTab): AdminSource => ADMIN_TABS.find((entry) => entry.id === tab)!.source;

/**
 * The period each endpoint is asked for: the one period the admin chose, for every tab; until they
 * choose, the specification's defaults (usage a month, recent activity and health a day).
 */
export function sourcePeriods(chosen: AdminPeriod | null): Record<AdminSource, AdminPeriod> {
  const fallback = (source: AdminSource) => ADMIN_TABS.find((tab) => tab.source === source)!.defaultPeriod;
  return {
    "usage-stats": chosen ?? fallback("usage-stats"),
    "recent-decisions": chosen ?? fallback("recent-decisions"),
    "system-health": chosen ?? fallback("system-health"),
  };
}
