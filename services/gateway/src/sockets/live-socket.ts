import type { Server as HttpServer } from "node:http";
import { createAdapter } from "@socket.io/redis-adapter";
import { Server } from "socket.io";
import { JoinRequestSchema, SOCKET_EVENTS, requestRoom, type JoinAck } from "@sd/contracts";
import { socketKey, type Redis } from "@sd/queue";

/** Request rooms a socket stays in; joining one more leaves the oldest (a playground tab decides one at a time). */
const MAX_ROOMS_PER_SOCKET = 20;

/**
 * Socket.IO for live progress. Events are published to Redis by whichever process produces them
 * (see LiveEvents) and the Redis adapter hands each gateway the events of its own sockets only.
 * A socket may join only request rooms, named by the request's unguessable UUID.
 */
export interface LiveSocket {
  io: Server;
  /** Disconnects every socket and closes the HTTP server it is attached to. */
  close(): Promise<void>;
}

export function attachLiveSocket(http: HttpServer, redis: Redis, prefix: string, corsOrigins: string[]): LiveSocket {
  const pub = redis.duplicate();
  const sub = redis.duplicate();
  const io = new Server(http, {
    serveClient: false,
    cors: corsOrigins.length > 0 ? { origin: corsOrigins } : undefined,
    adapter: createAdapter(pub, sub, { key: socketKey(prefix) }),
  });
  io.on("connection", (socket) => {
    socket.on(SOCKET_EVENTS.join, (payload: unknown, ack?: (answer: JoinAck) => void) => {
      const reply = typeof ack === "function" ? ack : () => undefined;
      const parsed = JoinRequestSchema.safeParse(payload);
      if (!parsed.success) return reply({ ok: false, error: "request_id must be a UUID." });
      // Keep the newest rooms: a long-lived page makes decision after decision on one connection.
      const joined = [...socket.rooms].filter((room) => room !== socket.id);
      for (const stale of joined.slice(0, Math.max(0, joined.length - MAX_ROOMS_PER_SOCKET + 1))) void socket.leave(stale);
      void socket.join(requestRoom(parsed.data.request_id));
      reply({ ok: true });
    });
  });
  return {
    io,
    async close() {
      await io.close();
      pub.disconnect();
      sub.disconnect();
    },
  };
}
