import { BatchProgressEventSchema, SOCKET_EVENTS, type Batch, type BatchList, type BatchProgressEvent } from "@sd/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { SignedOutError } from "../api/authorized";
import { useAuthorization } from "../auth/session-context";
import { useWatchedRoom } from "../live/useWatchedRoom";
import { batchKeys, cancelBatch, fetchBatches } from "./batches-api";
import { applyProgress, isFinished } from "./format";

/** While a batch runs: how often the list is asked again, live (a safety net) or not (the only source of progress). */
const REFETCH_WHILE_LIVE_MS = 30_000;
const REFETCH_WITHOUT_LIVE_MS = 5_000;

/**
 * The signed-in user's batches, newest first (the first `limit`), kept moving live by the
 * `batch:progress` events of the user's room; a slow refetch while any batch runs covers a
 * dropped connection. Returns the query and whether the live connection is confirmed.
 */
export function useBatches(userId: string, accessToken: string | null, limit: number) {
  const session = useAuthorization();
  const client = useQueryClient();
  const key = batchKeys.list(userId, limit);

  const onProgress = useCallback(
    (event: BatchProgressEvent) => {
      let known = false;
      client.setQueriesData<BatchList>({ queryKey: batchKeys.all(userId) }, (list) => {
        if (!list) return list;
        const applied = applyProgress(list, event, new Date().toISOString());
        known ||= applied.known;
        return applied.list;
      });
      // A batch not listed yet (sent from the API a moment ago): the server's page has it.
      if (!known) void client.invalidateQueries({ queryKey: batchKeys.all(userId) });
    },
    [client, userId],
  );
  const live = useWatchedRoom({
    userId,
    accessToken,
    watchEvent: SOCKET_EVENTS.watchHistory,
    event: SOCKET_EVENTS.batchProgress,
    schema: BatchProgressEventSchema,
    onEvent: onProgress,
    label: "Live batch progress",
  });

  const query = useQuery({
    queryKey: key,
    queryFn: () => fetchBatches(limit, session),
    placeholderData: (previous) => previous,
    staleTime: 0,
    refetchOnWindowFocus: true,
    retry: (failures, error) => !(error instanceof SignedOutError) && failures < 1,
    refetchInterval: (current) => (current.state.data?.data.some((batch) => !isFinished(batch.status)) ? (live ? REFETCH_WHILE_LIVE_MS : REFETCH_WITHOUT_LIVE_MS) : false),
  });
  return { query, live };
}

/** POST /api/batches/{id}/cancel; the cached batch takes the answer at once. */
export function useCancelBatch(userId: string) {
  const session = useAuthorization();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => cancelBatch(id, session),
    onSuccess: (batch: Batch) => {
      client.setQueriesData<BatchList>({ queryKey: batchKeys.all(userId) }, (list) =>
        list ? { ...list, data: list.data.map((each) => (each.id === batch.id ? batch : each)) } : list,
      );
    },
    onSettled: () => void client.invalidateQueries({ queryKey: batchKeys.all(userId) }),
  });
}
