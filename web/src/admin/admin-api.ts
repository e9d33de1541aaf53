import type { AdminPeriod, RecentDecision, SystemHealth, UsageStats } from "@sd/contracts";
import { ENDPOINTS } from "@sd/contracts/endpoints";
import type { AuthorizationSource } from "../api/authorized";
import { ApiError } from "../api/client";
import { callEndpoint } from "../api/endpoint";
import type { AdminSource } from "./view-state";

/**
 * The admin dashboard's calls (the admin endpoints and the queue-view session), all
 * as the signed-in user, each through its endpoint definition (path, method, answer schema).
 */

/** TanStack Query keys of the admin page; each holds the user id, so another user never sees them. */
export const adminKeys = {
  all: (userId: string) => ["admin", userId] as const,
  /** Every period of one endpoint (what a live refresh of a tab asks again). */
  source: (userId: string, source: AdminSource) => ["admin", userId, source] as const,
  answer: (userId: string, source: AdminSource, period: AdminPeriod) => ["admin", userId, source, period] as const,
};

/** GET /api/admin/usage-stats?period= */
export const fetchUsageStats = async (period: AdminPeriod, session: AuthorizationSource): Promise<UsageStats> =>
  (await callEndpoint(ENDPOINTS.adminUsageStats, { query: { period } }, session)).stats;

/** GET /api/admin/recent-decisions?period=: newest first. */
export const fetchRecentDecisions = async (period: AdminPeriod, session: AuthorizationSource): Promise<RecentDecision[]> =>
  (await callEndpoint(ENDPOINTS.adminRecentDecisions, { query: { period } }, session)).decisions;

/** GET /api/admin/system-health?period= */
export const fetchSystemHealth = (period: AdminPeriod, session: AuthorizationSource): Promise<SystemHealth> =>
  callEndpoint(ENDPOINTS.adminSystemHealth, { query: { period } }, session);

/** POST /api/admin/queues-session: sets the queue view's short-lived cookie; answers where the view is. */
export const openQueuesSession = async (session: AuthorizationSource): Promise<string> =>
  (await callEndpoint(ENDPOINTS.adminQueuesSession, {}, session)).url;

/** The server refused the signed-in user as an admin (the server, not the client check, has the last word). */
export const isForbidden = (error: unknown): boolean => error instanceof ApiError && error.status === 403;
