import { z } from "zod";

/**
 * The admin dashboard's endpoints and live room. Every admin endpoint and room is enforced on the server:
 * no token 401, a signed-in non-admin 403.
 */

/** Texts of the admin side. */
export const ADMIN_MESSAGES = {
  forbidden: "Admin access required.",
  badPeriod: "period must be day, week or month.",
  noRecentActivity: "No recent activity found for the selected period",
  notAdmin: "Your account is not an admin. Ask an administrator to add your email to ADMIN_EMAILS.",
  signInPrompt: "Please sign in with an admin account to view the dashboard.",
} as const;

/** Admin periods; overview default month, recent activity and health default day. */
export const ADMIN_PERIODS = ["day", "week", "month"] as const;
export const AdminPeriodSchema = z.enum(ADMIN_PERIODS, { error: ADMIN_MESSAGES.badPeriod });
export type AdminPeriod = z.infer<typeof AdminPeriodSchema>;
/** Hours each period covers (a month is 30 days). */
export const PERIOD_HOURS: Readonly<Record<AdminPeriod, number>> = { day: 24, week: 24 * 7, month: 24 * 30 };

/** Query of the three admin endpoints; `period` defaults per endpoint. */
export const adminPeriodQuery = (fallback: AdminPeriod) => z.object({ period: AdminPeriodSchema.default(fallback) });

/** Admin usage stats. */
export const UsageStatsSchema = z.object({
  period: AdminPeriodSchema,
  summary: z.object({
    total_decisions: z.number().int().nonnegative(),
    /** Decisions in the last hour. */
    recent_activity: z.number().int().nonnegative(),
    /** Decisions with any model error. */
    decisions_with_errors: z.number().int().nonnegative(),
    /** Decisions with a final decision and no model error. */
    decisions_with_results: z.number().int().nonnegative(),
    /** decisions_with_errors / total_decisions * 100, two decimals (0 with no decision). */
    error_rate_percentage: z.number().nonnegative(),
    unique_authenticated_users: z.number().int().nonnegative(),
    unique_ips: z.number().int().nonnegative(),
    authenticated_decisions: z.number().int().nonnegative(),
    anonymous_decisions: z.number().int().nonnegative(),
  }),
  performance: z.object({
    avg_processing_time_ms: z.number().nonnegative(),
    total_processing_time_seconds: z.number().nonnegative(),
  }),
  categories: z.object({ top_categories: z.array(z.object({ category: z.string(), count: z.number().int().nonnegative() })) }),
  trends: z.object({ daily_usage: z.array(z.object({ date: z.string(), count: z.number().int().nonnegative() })) }),
  active_users: z.array(
    z.object({ user_id: z.string(), display_name: z.string(), is_authenticated: z.boolean(), decision_count: z.number().int().nonnegative() }),
  ),
  active_ips: z.array(z.object({ ip: z.string(), count: z.number().int().nonnegative() })),
});
export type UsageStats = z.infer<typeof UsageStatsSchema>;

/** GET /api/admin/usage-stats (the response must have success, stats, stats.period and stats.summary). */
export const UsageStatsResponseSchema = z.object({ success: z.literal(true), stats: UsageStatsSchema });
export type UsageStatsResponse = z.infer<typeof UsageStatsResponseSchema>;

/** One item of Recent Activity. */
export const RecentDecisionSchema = z.object({
  id: z.string(),
  question: z.string(),
  timestamp: z.string(),
  user_email: z.string().nullable(),
  user_ip: z.string().nullable(),
  ensemble_mode: z.string(),
  processing_time_ms: z.number().nonnegative().nullable(),
  categories: z.array(z.string()),
  final_decision: z.string().nullable(),
  error_details: z.record(z.string(), z.string()),
});
export type RecentDecision = z.infer<typeof RecentDecisionSchema>;

/** GET /api/admin/recent-decisions: newest first (at most 100). */
export const RecentDecisionsResponseSchema = z.object({ success: z.literal(true), period: AdminPeriodSchema, decisions: z.array(RecentDecisionSchema) });
export type RecentDecisionsResponse = z.infer<typeof RecentDecisionsResponseSchema>;

export const HealthStatusSchema = z.enum(["healthy", "warning", "critical"]);
export type HealthStatus = z.infer<typeof HealthStatusSchema>;

/** One measured check: its status, the measured value, and what it means. */
export const HealthCheckSchema = z.object({
  status: HealthStatusSchema,
  value: z.union([z.number(), z.string(), z.boolean(), z.null()]),
  message: z.string(),
});
export type HealthCheck = z.infer<typeof HealthCheckSchema>;

/**
 * System health. `health_checks` holds `database` and `activity` (the
 * specification's two) plus the measured facts behind the status: `redis`, `workers` (live workers
 * per provider queue), `queue_backlog`, `queue_age` (oldest waiting job), `rate_limits` (providers
 * whose queue is paused by the vendor's Retry-After or its spent tokens per minute, or at its requests per minute) and `error_rate`.
 * The overall status is the worst check's.
 */
export const SystemHealthSchema = z.object({
  status: HealthStatusSchema,
  timestamp: z.string(),
  period: AdminPeriodSchema,
  period_hours: z.number().int().positive(),
  metrics: z.object({
    decisions_in_period: z.number().int().nonnegative(),
    decisions_last_hour: z.number().int().nonnegative(),
    avg_processing_time_ms: z.number().nonnegative(),
  }),
  health_checks: z.record(z.string(), HealthCheckSchema),
});
export type SystemHealth = z.infer<typeof SystemHealthSchema>;

/** Live throughput, sent every second to the admin room (figures from Redis, right across replicas). */
export const ThroughputEventSchema = z.object({
  at: z.string(),
  /** Decisions finished in the last second. */
  decisions_per_second: z.number().nonnegative(),
  decisions_in_flight: z.number().int().nonnegative(),
  /** Jobs waiting per queue name (vote-<provider>, decision-aggregate). */
  queue_waiting: z.record(z.string(), z.number().int().nonnegative()),
  /** Per provider, over the last minute. */
  providers: z.record(
    z.string(),
    z.object({
      votes: z.number().int().nonnegative(),
      latency_p50_ms: z.number().nonnegative().nullable(),
      latency_p95_ms: z.number().nonnegative().nullable(),
      error_rate: z.number().min(0).max(1),
    }),
  ),
});
export type ThroughputEvent = z.infer<typeof ThroughputEventSchema>;

export const ADMIN_SOCKET_EVENTS = {
  /** client -> server, with an ack: join the admin room (payload: the access token). */
  watch: "admin:watch",
  /** server -> client, every second, in the admin room. */
  throughput: "admin:throughput",
} as const;
export const ADMIN_ROOM = "admin";
export const AdminWatchRequestSchema = z.object({ access_token: z.string().min(1).max(4096) });

/**
 * POST /api/admin/storage/acknowledge-damage (bearer, admin): the journal damage kept at start,
 * renamed `<file>.acknowledged-<time>` (nothing is deleted); /ready and the storage check stop saying degraded.
 */
export const AcknowledgeDamageResponseSchema = z.object({ success: z.literal(true), acknowledged: z.array(z.string()) });
export type AcknowledgeDamageResponse = z.infer<typeof AcknowledgeDamageResponseSchema>;

/** POST /api/admin/queues-session (bearer, admin): sets the short-lived cookie the queue view at /admin/queues needs. */
export const QueuesSessionResponseSchema = z.object({ url: z.string(), expires_in: z.number().int().positive() });
