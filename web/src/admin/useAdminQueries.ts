import type { AdminPeriod } from "@sd/contracts";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { SignedOutError } from "../api/authorized";
import { useAuthorization } from "../auth/session-context";
import { adminKeys, fetchRecentDecisions, fetchSystemHealth, fetchUsageStats, isForbidden } from "./admin-api";

/**
 * Fetch failures are only logged and leave the panels empty: no retry
 * loop, no toast. A refused session or a 403 is not a passing failure either: the page then shows
 * the sign-in prompt or the 'not an admin' state.
 */
function logged<T>(what: string, fetch: () => Promise<T>): () => Promise<T> {
  return async () => {
    try {
      return await fetch();
    } catch (error) {
      if (!(error instanceof SignedOutError) && !isForbidden(error)) console.error(`Admin dashboard: ${what} failed`, error);
      throw error;
    }
  };
}

const adminQuery = { retry: false, staleTime: 0, refetchOnWindowFocus: false } as const;

/** The three admin endpoints, fetched in parallel once the user is known to be an admin. */
export function useAdminData(userId: string | null, periods: { overview: AdminPeriod; recent: AdminPeriod; health: AdminPeriod }) {
  const session = useAuthorization();
  const enabled = userId !== null;
  const id = userId ?? "";
  const usage = useQuery({
    queryKey: adminKeys.usageStats(id, periods.overview),
    queryFn: logged("usage stats", () => fetchUsageStats(periods.overview, session)),
    enabled,
    ...adminQuery,
  });
  const recent = useQuery({
    queryKey: adminKeys.recentDecisions(id, periods.recent),
    queryFn: logged("recent decisions", () => fetchRecentDecisions(periods.recent, session)),
    enabled,
    ...adminQuery,
  });
  const health = useQuery({
    queryKey: adminKeys.systemHealth(id, periods.health),
    queryFn: logged("system health", () => fetchSystemHealth(periods.health, session)),
    enabled,
    ...adminQuery,
  });
  const queries = [usage, recent, health];
  const client = useQueryClient();
  const refresh = useCallback(() => client.refetchQueries({ queryKey: adminKeys.all(id), type: "active" }), [client, id]);
  const updatedAt = Math.max(0, ...queries.map((query) => Math.max(query.dataUpdatedAt, query.errorUpdatedAt)));
  return {
    usage,
    recent,
    health,
    refresh,
    refreshing: queries.some((query) => query.isFetching),
    /** When the last answer (or failure) came, 0 before any. */
    updatedAt,
    forbidden: queries.some((query) => isForbidden(query.error)),
    signedOut: queries.some((query) => query.error instanceof SignedOutError),
  };
}
