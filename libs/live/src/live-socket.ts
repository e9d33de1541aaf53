import type { Server as HttpServer } from "node:http";
import { createAdapter } from "@socket.io/redis-adapter";
import type { Redis } from "ioredis";
import { Server, type Socket } from "socket.io";
import {
  AUTH_MESSAGES,
  JoinRequestSchema,
  SOCKET_EVENTS,
  WatchHistoryRequestSchema,
  requestRoom,
  userRoom,
  type JoinAck,
} from "@sd/contracts";
import { socketKey } from "./channel";
import { systemClock, type ExpiryClock } from "./expiry-clock";

/** Request rooms a socket stays in; joining one more leaves the oldest (a playground tab decides one at a time). */
const MAX_REQUEST_ROOMS_PER_SOCKET = 20;

/** Answer of a watch whose token could not be checked (e.g. Redis unreachable): not the token's fault, so not the 'sign in again' text. */
export const WATCH_UNAVAILABLE = "Live history updates are unavailable right now. Please try again in a moment.";

/** Who a valid access token speaks for and when it stops being valid; null for a token the API would refuse. */
export type VerifyAccessToken = (token: string) => Promise<{ userId: string; expiresAt: Date } | null>;

export interface LiveSocketOptions {
  /** Duplicated for the adapter's publish and subscribe connections. */
  redis: Redis;
  prefix: string;
  corsOrigins: readonly string[];
  /** The gateway's bearer-token check (signature, issuer, audience, expiry, ended session). */
  verifyAccessToken: VerifyAccessToken;
  clock?: ExpiryClock;
}

export interface LiveSocket {
  io: Server;
  /** Disconnects every socket and closes the HTTP server it is attached to. */
  close(): Promise<void>;
}

/**
 * Socket.IO for live progress. Events are published to Redis by whichever process produces them
 * (see LiveEvents) and the Redis adapter hands each gateway the events of its own sockets only.
 * Rooms are authorised: a socket joins request rooms named by the request's unguessable UUID, and
 * the history room of the user whose valid access token it presents, until that token expires.
 */
export function attachLiveSocket(http: HttpServer, options: LiveSocketOptions): LiveSocket {
  const pub = options.redis.duplicate();
  const sub = options.redis.duplicate();
  const io = new Server(http, {
    serveClient: false,
    cors: options.corsOrigins.length > 0 ? { origin: [...options.corsOrigins] } : undefined,
    adapter: createAdapter(pub, sub, { key: socketKey(options.prefix) }),
  });
  io.on("connection", (socket) => {
    const history = new HistoryWatch(socket, options.verifyAccessToken, options.clock ?? systemClock);
    socket.on(SOCKET_EVENTS.join, (payload: unknown, ack?: (answer: JoinAck) => void) => {
      const reply = typeof ack === "function" ? ack : () => undefined;
      const parsed = JoinRequestSchema.safeParse(payload);
      if (!parsed.success) return reply({ ok: false, error: "request_id must be a UUID." });
      // Keep the newest request rooms: a long-lived page makes decision after decision on one connection.
      const joined = [...socket.rooms].filter((room) => room !== socket.id && room !== history.room);
      for (const stale of joined.slice(0, Math.max(0, joined.length - MAX_REQUEST_ROOMS_PER_SOCKET + 1))) void socket.leave(stale);
      void socket.join(requestRoom(parsed.data.request_id));
      reply({ ok: true });
    });
    socket.on(SOCKET_EVENTS.watchHistory, (payload: unknown, ack?: (answer: JoinAck) => void) => {
      void history.watch(payload).then(typeof ack === "function" ? ack : () => undefined);
    });
    socket.on("disconnect", () => history.stop());
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

/** One socket's membership of its user's history room: joined with a valid token, left when it expires. */
class HistoryWatch {
  /** The user room the socket is in, if any. */
  room: string | null = null;
  private cancelExpiry: (() => void) | null = null;
  /** Watches may overlap (a refreshed token sent while the old one is checked): the newest decides. */
  private latest = 0;

  constructor(
    private readonly socket: Socket,
    private readonly verify: VerifyAccessToken,
    private readonly clock: ExpiryClock,
  ) {}

  async watch(payload: unknown): Promise<JoinAck> {
    const attempt = ++this.latest;
    const parsed = WatchHistoryRequestSchema.safeParse(payload);
    let access: Awaited<ReturnType<VerifyAccessToken>>;
    try {
      access = parsed.success ? await this.verify(parsed.data.access_token) : null;
    } catch {
      return { ok: false, error: WATCH_UNAVAILABLE };
    }
    const valid = access !== null && access.expiresAt.getTime() > Date.now();
    if (attempt !== this.latest || this.socket.disconnected) {
      // A newer watch (or the disconnect) has the last word on the rooms; this one only answers.
      return valid ? { ok: true } : { ok: false, error: AUTH_MESSAGES.invalidCredentials };
    }
    if (!valid) {
      // A socket whose token is refused stops following anyone's history.
      this.stop();
      return { ok: false, error: AUTH_MESSAGES.invalidCredentials };
    }
    const room = userRoom(access!.userId);
    if (this.room !== room) this.stop();
    this.cancelExpiry?.();
    await this.socket.join(room);
    this.room = room;
    const cancel = this.clock.at(access!.expiresAt, () => {
      if (this.cancelExpiry === cancel) this.stop();
    });
    this.cancelExpiry = cancel;
    return { ok: true };
  }

  /** Leaves the user room and forgets the expiry. */
  stop(): void {
    this.cancelExpiry?.();
    this.cancelExpiry = null;
    if (this.room !== null) void this.socket.leave(this.room);
    this.room = null;
  }
}
