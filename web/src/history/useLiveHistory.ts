import { HistoryDecisionEventSchema, SOCKET_EVENTS, type HistoryDecisionEvent } from "@sd/contracts";
import { useEffect, useRef, useState } from "react";
import { io, type Socket } from "socket.io-client";

/** How long the server has to confirm a watch before the hook stops waiting. */
const WATCH_TIMEOUT_MS = 5_000;

type WatchAck = { ok: true } | { ok: false; error?: string };

async function watch(socket: Socket, accessToken: string): Promise<boolean> {
  try {
    const ack = (await socket.timeout(WATCH_TIMEOUT_MS).emitWithAck(SOCKET_EVENTS.watchHistory, { access_token: accessToken })) as WatchAck | undefined;
    if (ack?.ok !== true) console.warn("Live history unavailable:", ack && "error" in ack ? ack.error : "no answer");
    return ack?.ok === true;
  } catch {
    return false; // not connected in time: the next "connect" watches again
  }
}

/**
 * Follows the signed-in user's own history live: one Socket.IO connection while `userId` is
 * signed in, watching their room with the current access token (again after every reconnect,
 * since rooms do not survive one, and whenever the token is refreshed). Each "history:decision"
 * event is handed to `onDecision`. Returns true while the server confirms the watch.
 */
export function useLiveHistory(userId: string | null, accessToken: string | null, onDecision: (event: HistoryDecisionEvent) => void): boolean {
  const [watching, setWatching] = useState(false);
  const socketRef = useRef<Socket | null>(null);
  const tokenRef = useRef(accessToken);
  const handlerRef = useRef(onDecision);
  useEffect(() => {
    handlerRef.current = onDecision;
  });

  // One connection per signed-in user: another user signing in gets a fresh connection, so no
  // room of the previous user outlives their session on this page.
  useEffect(() => {
    if (userId === null) return;
    const socket = io({ transports: ["websocket", "polling"] });
    socketRef.current = socket;
    let current = true;
    const watchNow = async () => {
      const token = tokenRef.current;
      if (!token) return;
      const ok = await watch(socket, token);
      if (current && tokenRef.current === token) setWatching(ok);
    };
    socket.on("connect", () => void watchNow());
    socket.on("disconnect", () => setWatching(false));
    socket.on(SOCKET_EVENTS.historyDecision, (payload: unknown) => {
      const event = HistoryDecisionEventSchema.safeParse(payload);
      if (event.success) handlerRef.current(event.data);
    });
    return () => {
      current = false;
      socket.disconnect();
      socketRef.current = null;
      setWatching(false);
    };
  }, [userId]);

  // A refreshed access token: watch again with it, so the server keeps trusting this connection.
  useEffect(() => {
    tokenRef.current = accessToken;
    const socket = socketRef.current;
    if (!socket?.connected || !accessToken) return;
    let current = true;
    void watch(socket, accessToken).then((ok) => {
      if (current) setWatching(ok);
    });
    return () => {
      current = false;
    };
  }, [accessToken]);

  return watching;
}
