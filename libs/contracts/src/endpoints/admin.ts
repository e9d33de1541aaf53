import { z } from "zod";
import {
  ADMIN_MESSAGES,
  adminPeriodQuery,
  QueuesSessionResponseSchema,
  AcknowledgeDamageResponseSchema,
  RecentDecisionsResponseSchema,
  SystemHealthSchema,
  UsageStatsResponseSchema,
} from "../index";
import {
  EXAMPLE_CATEGORIES,
  EXAMPLE_EMAIL,
  EXAMPLE_IDS,
  EXAMPLE_QUESTION,
} from "./examples";
import { json, one, error, unauthorized } from "./shared";
import { defineEndpoint } from "./define";

// ---------------------------------------------------------------- the admin dashboard (/api/admin)

const forbiddenForNonAdmins = error("Signed in, but not an admin (the email is not in ADMIN_EMAILS).", one("Not an admin", { detail: ADMIN_MESSAGES.forbidden }));
const badPeriod = error("period is not day, week or month (or is repeated).", one("Bad period", { detail: ADMIN_MESSAGES.badPeriod }));
const exampleNow = "2025-01-01T12:00:00.000Z";

export const adminEndpoints = [
  defineEndpoint({
    method: "get",
    path: "/api/admin/usage-stats",
    tag: "admin",
    operationId: "adminUsageStats",
    summary: "Usage statistics of a period",
    description:
      "Decisions in [now - period, now] (a month is 30 days): totals, errors (any model error), results (a final decision and no error), users and IPs, processing time, the top 5 final decisions, the last 7 UTC days, the most active users (plus one row for all anonymous decisions) and the IPs of anonymous decisions.",
    access: "bearer",
    query: adminPeriodQuery("month"),
    responses: {
      200: {
        description: "The period's statistics.",
        body: json(
          UsageStatsResponseSchema,
          one("A month", {
            success: true,
            stats: {
              period: "month",
              summary: {
                total_decisions: 4,
                recent_activity: 1,
                decisions_with_errors: 1,
                decisions_with_results: 3,
                error_rate_percentage: 25,
                unique_authenticated_users: 1,
                unique_ips: 2,
                authenticated_decisions: 3,
                anonymous_decisions: 1,
              },
              performance: { avg_processing_time_ms: 1500, total_processing_time_seconds: 6 },
              categories: { top_categories: [{ category: "TypeScript", count: 3 }] },
              trends: { daily_usage: [{ date: "2025-01-01", count: 4 }] },
              active_users: [
                { user_id: EXAMPLE_IDS.user, display_name: "ada", is_authenticated: true, decision_count: 3 },
                { user_id: "anonymous", display_name: "Anonymous", is_authenticated: false, decision_count: 1 },
              ],
              active_ips: [{ ip: "203.0.113.7", count: 1 }],
            },
          }),
        ),
      },
      400: badPeriod,
      401: unauthorized,
      403: forbiddenForNonAdmins,
    },
  }),
  defineEndpoint({
    method: "get",
    path: "/api/admin/recent-decisions",
    tag: "admin",
    operationId: "adminRecentDecisions",
    summary: "The period's latest decisions (at most 100, newest first)",
    access: "bearer",
    query: adminPeriodQuery("day"),
    responses: {
      200: {
        description: "Newest first.",
        body: json(
          RecentDecisionsResponseSchema,
          one("One decision", {
            success: true,
            period: "day",
            decisions: [
              {
                id: EXAMPLE_IDS.decision,
                question: EXAMPLE_QUESTION,
                timestamp: exampleNow,
                user_email: EXAMPLE_EMAIL,
                user_ip: "203.0.113.7",
                ensemble_mode: "majority_voting",
                processing_time_ms: 1234,
                categories: EXAMPLE_CATEGORIES,
                final_decision: EXAMPLE_CATEGORIES[0],
                error_details: {},
              },
            ],
          }),
        ),
      },
      400: badPeriod,
      401: unauthorized,
      403: forbiddenForNonAdmins,
    },
  }),
  defineEndpoint({
    method: "get",
    path: "/api/admin/system-health",
    tag: "admin",
    operationId: "adminSystemHealth",
    summary: "System health from measured facts",
    description:
      "Each check (database, redis, workers, queue_backlog, queue_age, rate_limits, error_rate, activity) with its status, measured value and message; the overall status is the worst check's. rate_limits warns while a provider's vote queue is paused by the vendor's Retry-After or its spent tokens per minute (<ID>_TPM), or has used up its requests per minute (<ID>_RPM), naming the providers and the seconds left. Probes are bounded (2 s), so an outage answers quickly as critical.",
    access: "bearer",
    query: adminPeriodQuery("day"),
    responses: {
      200: {
        description: "The status and its checks.",
        body: json(
          SystemHealthSchema,
          one("Healthy", {
            status: "healthy",
            timestamp: exampleNow,
            period: "day",
            period_hours: 24,
            metrics: { decisions_in_period: 12, decisions_last_hour: 2, avg_processing_time_ms: 1480.5 },
            health_checks: {
              database: { status: "healthy", value: true, message: "Database reachable" },
              activity: { status: "healthy", value: 2, message: "2 decisions in the last hour" },
            },
          }),
        ),
      },
      400: badPeriod,
      401: unauthorized,
      403: forbiddenForNonAdmins,
    },
  }),
  defineEndpoint({
    method: "post",
    path: "/api/admin/storage/acknowledge-damage",
    tag: "admin",
    operationId: "adminAcknowledgeStorageDamage",
    summary: "Acknowledge journal damage kept at start",
    description:
      "Renames each `<journal>.damaged` file in DATA_DIR (the bytes a start dropped from a journal's end) to `<file>.acknowledged-<UTC time>`: nothing is deleted, and /ready and the storage check of system health stop saying degraded, also after a restart. Moving the files out of DATA_DIR does the same.",
    access: "bearer",
    responses: {
      200: {
        description: "The files renamed (none when there was no damage).",
        body: json(AcknowledgeDamageResponseSchema, one("One file", { success: true, acknowledged: ["/data/decisions.journal.jsonl.damaged.acknowledged-2025-01-01T12-00-00.000Z"] })),
      },
      401: unauthorized,
      403: forbiddenForNonAdmins,
    },
  }),
  defineEndpoint({
    method: "post",
    path: "/api/admin/queues-session",
    tag: "admin",
    operationId: "adminQueuesSession",
    summary: "Open the queue view (Bull Board)",
    description:
      "Sets the short-lived session cookie the queue view at /admin/queues needs (a page navigation cannot send a bearer token): HttpOnly, SameSite=Strict, Path=/admin/queues, Secure over https, valid for at most 10 minutes and never longer than the access token it was made from. The view re-checks the session and the admin role on every request.",
    access: "bearer",
    responses: {
      200: {
        description: "The cookie is set; open `url` within `expires_in` seconds.",
        body: json(QueuesSessionResponseSchema, one("Ten minutes", { url: "/admin/queues/", expires_in: 600 })),
        headers: z.object({
          "Set-Cookie": z.string().meta({
            description: "The queue view's session.",
            example: "sd_queues_session=<token>; Max-Age=600; Path=/admin/queues; HttpOnly; SameSite=Strict",
          }),
        }),
      },
      401: unauthorized,
      403: forbiddenForNonAdmins,
    },
  }),
] as const;
