import { PERIOD_HOURS, type AdminPeriod, type RecentDecision, type UsageStats } from "@sd/contracts";
import type { Pipeline } from "../collection";

/**
 * The admin dashboard's statistics, each one aggregation pipeline run unchanged by both drivers
 * (MongoDB and mingo) so both give the same numbers. The pipelines only count and sum; rounding is
 * done here in JavaScript, so the drivers' rounding rules (MongoDB's `$round` rounds half to even)
 * cannot make them disagree.
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

interface Bounds {
  from: Date;
  to: Date;
  hourAgo: Date;
  trendFrom: Date;
}

function boundsOf({ period, now }: StatsWindow): Bounds {
  const to = new Date(now.getTime());
  const startOfToday = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  return {
    from: new Date(now.getTime() - PERIOD_HOURS[period] * HOUR_MS),
    to,
    hourAgo: new Date(now.getTime() - HOUR_MS),
    trendFrom: new Date(startOfToday - (TREND_DAYS - 1) * DAY_MS),
  };
}

/** True when the decision has any model error (an empty or missing `error_details` is none). */
const HAS_ERROR = { $gt: [{ $size: { $objectToArray: { $ifNull: ["$error_details", {}] } } }, 0] };
const countIf = (condition: unknown) => ({ $sum: { $cond: [condition, 1, 0] } });

/**
 * Usage stats in one round trip: a leading `$match` on the timestamp range (which an index on
 * `timestamp` serves on MongoDB), then one `$facet` per figure group. The range covers the period
 * and the trend's 7 days; each facet keeps the part it counts.
 */
export function usageStatsPipeline(window: StatsWindow): Pipeline {
  const { from, to, hourAgo, trendFrom } = boundsOf(window);
  const earliest = from < trendFrom ? from : trendFrom;
  const inPeriod = { $match: { timestamp: { $gte: from, $lte: to } } };
  return [
    { $match: { timestamp: { $gte: earliest, $lte: to } } },
    {
      $facet: {
        summary: [
          inPeriod,
          {
            $group: {
              _id: null,
              total: { $sum: 1 },
              last_hour: countIf({ $gte: ["$timestamp", hourAgo] }),
              with_errors: countIf(HAS_ERROR),
              with_results: countIf({ $and: [{ $ne: [{ $ifNull: ["$final_decision", null] }, null] }, { $not: [HAS_ERROR] }] }),
              authenticated: countIf({ $eq: ["$is_authenticated", true] }),
              users: { $addToSet: { $cond: [{ $eq: ["$is_authenticated", true] }, { $ifNull: ["$user_id", null] }, null] } },
              ips: { $addToSet: { $ifNull: ["$user_ip", null] } },
              processing_ms: { $sum: { $ifNull: ["$processing_time_ms", 0] } },
            },
          },
        ],
        top_categories: [
          inPeriod,
          { $match: { final_decision: { $ne: null } } },
          { $group: { _id: "$final_decision", count: { $sum: 1 } } },
          { $sort: { count: -1, _id: 1 } },
          { $limit: TOP_CATEGORIES_LIMIT },
        ],
        daily_usage: [
          { $match: { timestamp: { $gte: trendFrom } } },
          { $group: { _id: { $dateToString: { format: "%Y-%m-%d", date: "$timestamp" } }, count: { $sum: 1 } } },
        ],
        active_users: [
          inPeriod,
          { $match: { is_authenticated: true } },
          { $group: { _id: "$user_id", count: { $sum: 1 }, email: { $max: "$user_email" } } },
          { $sort: { count: -1, _id: 1 } },
          { $limit: ACTIVE_USERS_LIMIT },
        ],
        active_ips: [
          inPeriod,
          { $match: { is_authenticated: false, user_ip: { $ne: null } } },
          { $group: { _id: "$user_ip", count: { $sum: 1 } } },
          { $sort: { count: -1, _id: 1 } },
          { $limit: ACTIVE_IPS_LIMIT },
        ],
      },
    },
  ];
}

interface UsageFacets {
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

/** Shapes the pipeline's one result document into the contract's `UsageStats`. */
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

/** Recent Activity: the period's decisions, newest first (`_id` breaks ties), at most 100, as listed. */
export function recentDecisionsPipeline(window: StatsWindow): Pipeline {
  const { from, to } = boundsOf(window);
  return [
    { $match: { timestamp: { $gte: from, $lte: to } } },
    { $sort: { timestamp: -1, _id: -1 } },
    { $limit: RECENT_DECISIONS_LIMIT },
    {
      $project: {
        _id: 1,
        question: 1,
        timestamp: 1,
        user_email: 1,
        user_ip: 1,
        ensemble_mode: 1,
        processing_time_ms: 1,
        categories: 1,
        final_decision: 1,
        error_details: 1,
      },
    },
  ];
}

interface RecentRow {
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

/** The figures system health needs, in one `$group` over the period. */
export function healthFiguresPipeline(window: StatsWindow): Pipeline {
  const { from, to, hourAgo } = boundsOf(window);
  return [
    { $match: { timestamp: { $gte: from, $lte: to } } },
    {
      $group: {
        _id: null,
        total: { $sum: 1 },
        last_hour: countIf({ $gte: ["$timestamp", hourAgo] }),
        with_errors: countIf(HAS_ERROR),
        processing_ms: { $sum: { $ifNull: ["$processing_time_ms", 0] } },
      },
    },
  ];
}

export function toHealthFigures(row: { total: number; last_hour: number; with_errors: number; processing_ms: number } | undefined): HealthFigures {
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
