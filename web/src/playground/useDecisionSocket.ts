import { useCallback, useEffect, useMemo, useRef } from "react";
import { io, type Socket } from "socket.io-client";
import { FinalEventSchema, SOCKET_EVENTS, VoteEventSchema, type FinalEvent, type JoinAck, type VoteEvent } from "@sd/contracts";

/** How long a submit waits for the room to be joined before posting without live progress. */
const JOIN_TIMEOUT_MS = 2_000;

export interface DecisionSocketHandlers {
  onVote(event: VoteEvent): void;
  onFinal(event: FinalEvent): void;
}

export interface DecisionSocket {
  /**
   * Follows one request's live progress: joins its room (again after every reconnect) and passes
   * on its events only. Resolves false when live progress is unavailable; the HTTP answer still comes.
   */
  follow(requestId: string): Promise<boolean>;
  /** Stops passing on events of the followed request. */
  stop(): void;
}

async function join(socket: Socket, requestId: string): Promise<JoinAck | null> {
  try {
    return (await socket.timeout(JOIN_TIMEOUT_MS).emitWithAck(SOCKET_EVENTS.join, { request_id: requestId })) as JoinAck;
  } catch {
    return null; // not connected in time
  }
}

/** One Socket.IO connection for the page's lifetime, to the same origin. */
export function useDecisionSocket(handlers: DecisionSocketHandlers): DecisionSocket {
  const socketRef = useRef<Socket | null>(null);
  const followed = useRef<string | null>(null);
  const handlersRef = useRef(handlers);
  useEffect(() => {
    handlersRef.current = handlers;
  });

  useEffect(() => {
    const socket = io({ transports: ["websocket", "polling"] });
    socketRef.current = socket;
    // Rooms do not survive a reconnect: join the followed request's room again.
    socket.on("connect", () => {
      const requestId = followed.current;
      if (requestId) void join(socket, requestId);
    });
    socket.on(SOCKET_EVENTS.vote, (payload: unknown) => {
      const event = VoteEventSchema.safeParse(payload);
      if (event.success && event.data.request_id === followed.current) handlersRef.current.onVote(event.data);
    });
    socket.on(SOCKET_EVENTS.final, (payload: unknown) => {
      const event = FinalEventSchema.safeParse(payload);
      if (event.success && event.data.request_id === followed.current) handlersRef.current.onFinal(event.data);
    });
    return () => {
      socket.disconnect();
      socketRef.current = null;
    };
  }, []);

  const follow = useCallback(async (requestId: string): Promise<boolean> => {
    followed.current = requestId;
    const socket = socketRef.current;
    if (!socket) return false;
    // The server keeps a connection's newest rooms, so a long-lived page can always join.
    return (await join(socket, requestId))?.ok === true;
  }, []);

  const stop = useCallback(() => {
    followed.current = null;
  }, []);

  return useMemo(() => ({ follow, stop }), [follow, stop]);
}
