import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData } from "@tanstack/react-query";
import { useCallback, useMemo } from "react";
import { LIMITS, type DecisionHistoryItem, type DecisionHistoryListResponse, type RerunRequest } from "@sd/contracts";
import { useNavigate } from "react-router";
import { SignedOutError } from "../api/authorized";
import { ApiError } from "../api/client";
import { useAuthorization } from "../auth/session-context";
import { providersQuery } from "../playground/playground-api";
import { fetchDecision, fetchDecisionImageAssets, fetchHistoryPage, historyKeys, rerunDecision } from "./history-api";
import { historyQuery, type HistoryFilters } from "./history-filters";

/** One retry for a passing failure; none when the session is gone (the page then asks to sign in). */
const retryUnlessSignedOut = (failures: number, error: Error) => !(error instanceof SignedOutError) && failures < 1;

export interface HistoryList {
  decisions: DecisionHistoryItem[];
  /** How many decisions match the filters in all (the server's count). */
  total: number;
  loading: boolean;
  fetching: boolean;
  error: Error | null;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore(): void;
  refresh(): Promise<void>;
}

/** Pages load one after another: the next starts at the last one's offset plus its limit (50). */
function nextOffset(last: DecisionHistoryListResponse): number | undefined {
  const next = last.offset + (last.limit || LIMITS.historyPageSize);
  return last.decisions.length > 0 && next < last.total ? next : undefined;
}

/**
 * The signed-in user's decisions matching `filters`, newest first, a page of 50 at a time ('Load
 * more' appends the next). New filters start again at offset 0; while they load, the previous
 * list of the same user stays on screen.
 */
export function useHistoryList(userId: string | null, filters: HistoryFilters, enabled: boolean): HistoryList {
  const session = useAuthorization();
  const query = useInfiniteQuery({
    queryKey: historyKeys.list(userId ?? "", filters),
    queryFn: ({ pageParam }) => fetchHistoryPage(historyQuery(filters, pageParam), session),
    initialPageParam: 0,
    getNextPageParam: nextOffset,
    enabled: enabled && userId !== null,
    retry: retryUnlessSignedOut,
    // Every change of the filters reloads, even back to a search made before:
    // the cached list shows at once and is replaced by the server's.
    staleTime: 0,
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[1] === userId ? keepPreviousData(previous) : undefined),
  });
  const data: InfiniteData<DecisionHistoryListResponse> | undefined = query.data;
  const decisions = useMemo(() => {
    // A decision made while paging shifts the offsets by one: never show one twice.
    const seen = new Set<string>();
    return (data?.pages ?? []).flatMap((page) => page.decisions).filter((d) => !seen.has(d.id) && seen.add(d.id));
  }, [data]);
  const { refetch, fetchNextPage } = query;
  const refresh = useCallback(async () => {
    await refetch();
  }, [refetch]);
  const loadMore = useCallback(() => void fetchNextPage(), [fetchNextPage]);
  return {
    decisions,
    total: data?.pages[0]?.total ?? 0,
    loading: query.isPending && query.fetchStatus !== "idle",
    fetching: query.isFetching,
    error: query.error,
    hasMore: query.hasNextPage,
    loadingMore: query.isFetchingNextPage,
    loadMore,
    refresh,
  };
}

/** Marks every cached page of the user's history stale and reloads what is on screen. */
export function useInvalidateHistory(userId: string | null): () => void {
  const client = useQueryClient();
  return useCallback(() => {
    if (userId) void client.invalidateQueries({ queryKey: historyKeys.user(userId) });
  }, [client, userId]);
}

/** GET /api/decision-history/{id} for the signed-in user. */
export function useDecision(id: string, userId: string | null) {
  const session = useAuthorization();
  return useQuery({
    queryKey: historyKeys.decision(id, userId),
    queryFn: () => fetchDecision(id, session),
    enabled: id !== "" && userId !== null,
    // A missing decision stays missing: no retry for a 404.
    retry: (failures, error) => retryUnlessSignedOut(failures, error) && !(error instanceof ApiError && error.status === 404),
  });
}

/** The decision's image assets; a failure is only logged, the section then lists none. */
export function useDecisionImageAssets(decisionId: string, userId: string | null) {
  const session = useAuthorization();
  return useQuery({
    queryKey: historyKeys.imageAssets(decisionId, userId),
    queryFn: async () => {
      try {
        return await fetchDecisionImageAssets(decisionId, session);
      } catch (error) {
        console.error("Failed to fetch image assets:", error);
        throw error;
      }
    },
    enabled: decisionId !== "",
    retry: false,
  });
}

export interface ProviderLabels {
  /** Provider id -> its label; empty when GET /api/providers failed (names then come from the ids). */
  labels: ReadonlyMap<string, string>;
  /** Every model a panel may name, in the server's order; empty when the list failed. */
  models: readonly { id: string; label: string }[];
  /** True until the labels have arrived or failed: pages wait, so a raw id never shows and then turns into a name. */
  loading: boolean;
}

/** Provider id -> its label, from GET /api/providers (the playground's query, shared through the cache). */
export function useProviderLabels(): ProviderLabels {
  const { data, isPending } = useQuery(providersQuery);
  const labels = useMemo(() => new Map((data?.providers ?? []).map((p) => [p.id, p.label])), [data]);
  return { labels, models: data?.providers ?? [], loading: isPending };
}

/**
 * Re-runs the decision (POST /api/decisions/{id}/rerun) and opens the new one when it is made. Every
 * cached page of the user's history and this decision's page (which links its re-runs) are stale then.
 */
export function useRerunDecision(decisionId: string, userId: string | null) {
  const session = useAuthorization();
  const client = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: (options: RerunRequest) => rerunDecision(decisionId, options, session),
    onSuccess: async (made) => {
      if (userId) {
        await client.invalidateQueries({ queryKey: historyKeys.user(userId) });
        await client.invalidateQueries({ queryKey: historyKeys.decision(decisionId, userId) });
      }
      await navigate(`/decision/${encodeURIComponent(made.decision_id)}`);
    },
  });
}
