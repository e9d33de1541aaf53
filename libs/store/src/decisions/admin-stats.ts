import { PERIOD_HOURS, type AdminPeriod, type RecentDecision, type UsageStats } from "@sd/contracts";

/**
 * The admin dashboard's statistics: what they mean, and how their figures are shaped. The figures
 * come from the rollups (`rollup-stats.ts`), read the same way on both drivers; rounding is done
 * here in JavaScript. `testing/admin-stats-reference.ts` computes them by a full scan instead, as
 * aggregation pipelines, which is what the rollups' answers are checked against.
 * - The period window includes both ends; decisions stamped after `now` (a skewed clock) are not counted.
 * - daily_usage always covers the last 7 UTC days, whatever the period, so the Trends tab shows a week.
 * - active_users ends with one "anonymous" row for all anonymous decisions, placed by its count.
 */

export const TOP_CATEGORIES_LIMIT = 5;
export const TREND_DAYS = 7;
export const ACTIVE_USERS_LIMIT = 20;
export const ACTIVE_IPS_LIMIT = 20;
/** Recent Activity lists at most this many decisions, newest first. */
export const RECENT_DECISIONS_LIMIT = 100;
/** The row that stands for every anonymous decision in `active_users`. */
export const ANONYMOUS_USER = { user_id: "anonymous", display_name: "Anonymous" } as const;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Where a statistic is taken: the period and the instant it ends at. */
export interface StatsWindow {
  period: AdminPeriod;
  now: Date;
}

/** The figures system health is judged on. */
export interface HealthFigures {
  decisions_in_period: number;
  decisions_last_hour: number;
  decisions_with_errors: number;
  avg_processing_time_ms: number;
}

export interface Bounds {
  from: Date;
  to: Date;
  hourAgo: Date;
  trendFrom: Date;
}

export function boundsOf({ period, now }: StatsWindow): Bounds {
  const to = new Date(now.getTime());
  const startOfToday = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  return {
    from: new Date(now.getTime() - PERIOD_HOURS[period] * HOUR_MS),
    to,
    hourAgo: new Date(now.getTime() - HOUR_MS),
    trendFrom: new Date(startOfToday - (TREND_DAYS - 1) * DAY_MS),
  };
}

/** What the usage-stats figures are shaped from (once the result document of a full-scan pipeline). */
export interface UsageFacets {
  summary: {
    total: number;
    last_hour: number;
    with_errors: number;
    with_results: number;
    authenticated: number;
    users: (string | null)[];
    ips: (string | null)[];
    processing_ms: number;
  }[];
  top_categories: { _id: string; count: number }[];
  daily_usage: { _id: string; count: number }[];
  active_users: { _id: string | null; count: number; email: string | null }[];
  active_ips: { _id: string; count: number }[];
}

/** Shapes the figures into the contract's `UsageStats`. */
export function toUsageStats(window: StatsWindow, facets: UsageFacets | undefined): UsageStats {
  const summary = facets?.summary[0];
  const total = summary?.total ?? 0;
  const withErrors = summary?.with_errors ?? 0;
  const authenticated = summary?.authenticated ?? 0;
  const anonymous = total - authenticated;
  const processingMs = summary?.processing_ms ?? 0;

  const users: UsageStats["active_users"] = (facets?.active_users ?? []).map((row) => ({
    user_id: row._id ?? "",
    display_name: emailName(row.email) ?? row._id ?? "",
    is_authenticated: true,
    decision_count: row.count,
  }));
  if (anonymous > 0) {
    users.push({ ...ANONYMOUS_USER, is_authenticated: false, decision_count: anonymous });
    // Stable: among equal counts the authenticated users (already ordered by id) come first.
    users.sort((a, b) => b.decision_count - a.decision_count);
  }

  const perDay = new Map((facets?.daily_usage ?? []).map((row) => [row._id, row.count]));
  const { trendFrom } = boundsOf(window);
  const dailyUsage = Array.from({ length: TREND_DAYS }, (_, n) => {
    const date = new Date(trendFrom.getTime() + n * DAY_MS).toISOString().slice(0, 10);
    return { date, count: perDay.get(date) ?? 0 };
  });

  return {
    period: window.period,
    summary: {
      total_decisions: total,
      recent_activity: summary?.last_hour ?? 0,
      decisions_with_errors: withErrors,
      decisions_with_results: summary?.with_results ?? 0,
      error_rate_percentage: total === 0 ? 0 : round2((withErrors / total) * 100),
      unique_authenticated_users: (summary?.users ?? []).filter((id) => id !== null).length,
      unique_ips: (summary?.ips ?? []).filter((ip) => ip !== null).length,
      authenticated_decisions: authenticated,
      anonymous_decisions: anonymous,
    },
    performance: {
      avg_processing_time_ms: total === 0 ? 0 : round2(processingMs / total),
      total_processing_time_seconds: round2(processingMs / 1000),
    },
    categories: { top_categories: (facets?.top_categories ?? []).map((row) => ({ category: row._id, count: row.count })) },
    trends: { daily_usage: dailyUsage },
    active_users: users,
    active_ips: (facets?.active_ips ?? []).map((row) => ({ ip: row._id, count: row.count })),
  };
}

/** A decision as Recent Activity lists it, before shaping. */
export interface RecentRow {
  _id: string;
  question: string;
  timestamp: Date;
  user_email?: string | null;
  user_ip?: string | null;
  ensemble_mode?: string;
  processing_time_ms?: number | null;
  categories?: string[];
  final_decision?: string | null;
  error_details?: Record<string, string> | null;
}

export function toRecentDecision(row: RecentRow): RecentDecision {
  return {
    id: row._id,
    question: row.question,
    timestamp: new Date(row.timestamp).toISOString(),
    user_email: row.user_email ?? null,
    user_ip: row.user_ip ?? null,
    ensemble_mode: row.ensemble_mode ?? "majority_voting",
    processing_time_ms: row.processing_time_ms ?? null,
    categories: [...(row.categories ?? [])],
    final_decision: row.final_decision ?? null,
    error_details: { ...(row.error_details ?? {}) },
  };
}

/** What the health figures are shaped from. */
export interface HealthRow {
  total: number;
  last_hour: number;
  with_errors: number;
  processing_ms: number;
}

export function toHealthFigures(row: HealthRow | undefined): HealthFigures {
  const total = row?.total ?? 0;
  return {
    decisions_in_period: total,
    decisions_last_hour: row?.last_hour ?? 0,
    decisions_with_errors: row?.with_errors ?? 0,
    avg_processing_time_ms: total === 0 ? 0 : round2((row?.processing_ms ?? 0) / total),
  };
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

/** The part of an email before "@" (what an account without a name is shown as). */
function emailName(email: string | null | undefined): string | null {
  if (!email) return null;
  const at = email.indexOf("@");
  return at > 0 ? email.slice(0, at) : email;
}
