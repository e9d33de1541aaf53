import { ADMIN_SOCKET_EVENTS, ThroughputEventSchema, type ThroughputEvent } from "@sd/contracts";
import { useEffect, useRef, useState } from "react";
import { io, type Socket } from "socket.io-client";
import { addSample } from "./format";

/** How long the server has to confirm a watch before the hook stops waiting. */
const WATCH_TIMEOUT_MS = 5_000;

type WatchAck = { ok: true } | { ok: false; error?: string };

async function watch(socket: Socket, accessToken: string): Promise<boolean> {
  try {
    const ack = (await socket.timeout(WATCH_TIMEOUT_MS).emitWithAck(ADMIN_SOCKET_EVENTS.watch, { access_token: accessToken })) as WatchAck | undefined;
    if (ack?.ok !== true) console.warn("Live throughput unavailable:", ack && "error" in ack ? ack.error : "no answer");
    return ack?.ok === true;
  } catch {
    return false; // not connected in time: the next "connect" watches again
  }
}

export interface AdminThroughput {
  /** The server confirmed this connection in the admin room. */
  watching: boolean;
  /** The last samples, oldest first (one a second). */
  samples: ThroughputEvent[];
}

/**
 * The admin room's live throughput: one Socket.IO connection while an admin is on the page,
 * joined with the current access token (again after every reconnect, since rooms do not survive
 * one, and whenever the token is refreshed). Keeps the last two minutes of samples.
 */
export function useAdminThroughput(userId: string | null, accessToken: string | null): AdminThroughput {
  const [watching, setWatching] = useState(false);
  const [samples, setSamples] = useState<ThroughputEvent[]>([]);
  const socketRef = useRef<Socket | null>(null);
  const tokenRef = useRef(accessToken);

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
    socket.on(ADMIN_SOCKET_EVENTS.throughput, (payload: unknown) => {
      const event = ThroughputEventSchema.safeParse(payload);
      if (event.success) setSamples((previous) => addSample(previous, event.data));
    });
    return () => {
      current = false;
      socket.disconnect();
      socketRef.current = null;
      setWatching(false);
      setSamples([]);
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

  return { watching, samples };
}
