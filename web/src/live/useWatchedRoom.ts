import { useEffect, useRef, useState } from "react";
import { io, type Socket } from "socket.io-client";
import type { z } from "zod";

/** How long the server has to confirm a watch before the hook stops waiting. */
const WATCH_TIMEOUT_MS = 5_000;

type WatchAck = { ok: true } | { ok: false; error?: string };

async function watch(socket: Socket, watchEvent: string, accessToken: string, label: string): Promise<boolean> {
  try {
    const ack = (await socket.timeout(WATCH_TIMEOUT_MS).emitWithAck(watchEvent, { access_token: accessToken })) as WatchAck | undefined;
    if (ack?.ok !== true) console.warn(`${label} unavailable:`, ack && "error" in ack ? ack.error : "no answer");
    return ack?.ok === true;
  } catch {
    return false; // not connected in time: the next "connect" watches again
  }
}

export interface WatchedRoom<S extends z.ZodType> {
  /** The signed-in user; null: no connection. Another user gets a fresh connection. */
  userId: string | null;
  accessToken: string | null;
  /** Client -> server event that joins the room with `{access_token}` (acknowledged `{ok}`). */
  watchEvent: string;
  /** Server -> client event of the room, parsed with `schema` (anything else is ignored). */
  event: string;
  schema: S;
  onEvent(event: z.infer<S>): void;
  /** Called when the connection ends (e.g. to drop what it delivered). */
  onClose?(): void;
  /** Names the room in the console warning when the server refuses the watch. */
  label: string;
}

/**
 * A room the server lets a signed-in user join with their access token (their history, the admin
 * room): one Socket.IO connection per signed-in user, watching with the current token again after
 * every reconnect (rooms do not survive one) and whenever the token is refreshed. Returns true
 * while the server confirms the watch.
 */
export function useWatchedRoom<S extends z.ZodType>({ userId, accessToken, watchEvent, event, schema, onEvent, onClose, label }: WatchedRoom<S>): boolean {
  const [watching, setWatching] = useState(false);
  const socketRef = useRef<Socket | null>(null);
  const tokenRef = useRef(accessToken);
  const handlers = useRef({ onEvent, onClose });
  useEffect(() => {
    handlers.current = { onEvent, onClose };
  });

  useEffect(() => {
    if (userId === null) return;
    const socket = io({ transports: ["websocket", "polling"] });
    socketRef.current = socket;
    let current = true;
    const watchNow = async () => {
      const token = tokenRef.current;
      if (!token) return;
      const ok = await watch(socket, watchEvent, token, label);
      if (current && tokenRef.current === token) setWatching(ok);
    };
    socket.on("connect", () => void watchNow());
    socket.on("disconnect", () => setWatching(false));
    socket.on(event, (payload: unknown) => {
      const parsed = schema.safeParse(payload);
      if (parsed.success) handlers.current.onEvent(parsed.data);
    });
    return () => {
      current = false;
      socket.disconnect();
      socketRef.current = null;
      setWatching(false);
      handlers.current.onClose?.();
    };
  }, [userId, watchEvent, event, schema, label]);

  // A refreshed access token: watch again with it, so the server keeps trusting this connection.
  useEffect(() => {
    tokenRef.current = accessToken;
    const socket = socketRef.current;
    if (!socket?.connected || !accessToken) return;
    let current = true;
    void watch(socket, watchEvent, accessToken, label).then((ok) => {
      if (current) setWatching(ok);
    });
    return () => {
      current = false;
    };
  }, [accessToken, watchEvent, label]);

  return watching;
}
