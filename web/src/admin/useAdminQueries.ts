import type { AdminPeriod } from "@sd/contracts";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { SignedOutError } from "../api/authorized";
import { useAuthorization } from "../auth/session-context";
import { adminKeys, fetchRecentDecisions, fetchSystemHealth, fetchUsageStats, isForbidden } from "./admin-api";
import { createLiveRefresher, LIVE_REFRESH } from "./live-refresh";
import { sourcePeriods, tabSource, type AdminSource, type AdminTab } from "./view-state";

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

// Asked again every interval while the page is visible (TanStack pauses the interval in a hidden tab).
const adminQuery = { retry: false, staleTime: 0, refetchOnWindowFocus: false, refetchInterval: LIVE_REFRESH.intervalMs } as const;

const isVisible = () => document.visibilityState === "visible";

/**
 * Calls `refresh` (the latest one given) when decisions finish, throttled, and never while the page
 * is hidden; returns the stable callback the admin room's samples call.
 */
function useLiveRefresh(refresh: () => void): () => void {
  const latest = useRef(refresh);
  useEffect(() => {
    latest.current = refresh;
  });
  const [refresher] = useState(() => createLiveRefresher(() => latest.current(), { throttleMs: LIVE_REFRESH.throttleMs, isVisible }));
  useEffect(() => {
    const onVisibility = () => {
      if (isVisible()) refresher.shown();
    };
    document.addEventListener("visibilitychange", onVisibility);
    return () => {
      document.removeEventListener("visibilitychange", onVisibility);
      refresher.stop();
    };
  }, [refresher]);
  return refresher.decisionsFinished;
}

/**
 * The three admin endpoints, fetched in parallel once the user is known to be an admin, for the one
 * chosen period (or each endpoint's default). Live: when the admin room says decisions finished,
 * the open tab's endpoint is asked again (throttled); a tab opened later is asked again when
 * decisions finished since its figures came.
 */
export function useAdminData(userId: string | null, chosen: AdminPeriod | null, tab: AdminTab) {
  const session = useAuthorization();
  const enabled = userId !== null;
  const id = userId ?? "";
  const periods = sourcePeriods(chosen);
  const usage = useQuery({
    queryKey: adminKeys.answer(id, "usage-stats", periods["usage-stats"]),
    queryFn: logged("usage stats", () => fetchUsageStats(periods["usage-stats"], session)),
    enabled,
    ...adminQuery,
  });
  const recent = useQuery({
    queryKey: adminKeys.answer(id, "recent-decisions", periods["recent-decisions"]),
    queryFn: logged("recent decisions", () => fetchRecentDecisions(periods["recent-decisions"], session)),
    enabled,
    ...adminQuery,
  });
  const health = useQuery({
    queryKey: adminKeys.answer(id, "system-health", periods["system-health"]),
    queryFn: logged("system health", () => fetchSystemHealth(periods["system-health"], session)),
    enabled,
    ...adminQuery,
  });
  const bySource = { "usage-stats": usage, "recent-decisions": recent, "system-health": health } as const;
  const queries = [usage, recent, health];
  const client = useQueryClient();
  const refresh = useCallback(() => client.refetchQueries({ queryKey: adminKeys.all(id), type: "active" }), [client, id]);
  const refetchSource = useCallback((source: AdminSource) => void client.refetchQueries({ queryKey: adminKeys.source(id, source), type: "active" }), [client, id]);

  const shown = bySource[tabSource(tab)];
  const lastFinishedAt = useRef(0);
  const refreshShown = useLiveRefresh(() => refetchSource(tabSource(tab)));
  const decisionsFinished = useCallback(() => {
    lastFinishedAt.current = Date.now();
    refreshShown();
  }, [refreshShown]);
  // Opening a tab whose figures predate the last finished decision asks for them again.
  const shownUpdatedAt = shown.dataUpdatedAt;
  useEffect(() => {
    if (shownUpdatedAt > 0 && shownUpdatedAt < lastFinishedAt.current) refetchSource(tabSource(tab));
    // Only on opening a tab (not on each answer): later decisions are the live refresh's job.
  }, [tab]);

  return {
    usage,
    recent,
    health,
    refresh,
    decisionsFinished,
    refreshing: queries.some((query) => query.isFetching),
    /** When the open tab's last answer (or failure) came, 0 before any. */
    updatedAt: Math.max(shown.dataUpdatedAt, shown.errorUpdatedAt),
    forbidden: queries.some((query) => isForbidden(query.error)),
    signedOut: queries.some((query) => query.error instanceof SignedOutError),
  };
}
