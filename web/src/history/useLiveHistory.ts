import { HistoryDecisionEventSchema, SOCKET_EVENTS, type HistoryDecisionEvent } from "@sd/contracts";
import { useWatchedRoom } from "../live/useWatchedRoom";

/**
 * Follows the signed-in user's own history live (their room, joined with the access token): each
 * "history:decision" event is handed to `onDecision`. Returns true while the server confirms the watch.
 */
export function useLiveHistory(userId: string | null, accessToken: string | null, onDecision: (event: HistoryDecisionEvent) => void): boolean {
  return useWatchedRoom({
    userId,
    accessToken,
    watchEvent: SOCKET_EVENTS.watchHistory,
    event: SOCKET_EVENTS.historyDecision,
    schema: HistoryDecisionEventSchema,
    onEvent: onDecision,
    label: "Live history",
  });
}
