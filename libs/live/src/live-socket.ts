import type { IncomingMessage, Server as HttpServer } from "node:http";
import { createAdapter } from "@socket.io/redis-adapter";
import type { Redis } from "ioredis";
import { Server, type Socket } from "socket.io";
import {
  ADMIN_MESSAGES,
  ADMIN_ROOM,
  ADMIN_SOCKET_EVENTS,
  AUTH_MESSAGES,
  AdminWatchRequestSchema,
  JoinRequestSchema,
  SOCKET_EVENTS,
  WatchHistoryRequestSchema,
  requestRoom,
  userRoom,
  type JoinAck,
} from "@sd/contracts";
import { socketIoKey } from "@sd/queue";
import { sessionRoom } from "./channel";
import { ThroughputBroadcast, type ThroughputSource } from "./admin-room";
import { systemClock, type ExpiryClock } from "./expiry-clock";
import { ConnectionsPerAddress, EventBudget, clientAddress } from "./socket-limits";

/** Request rooms a socket stays in; joining one more leaves the oldest (a playground tab decides one at a time). */
const MAX_REQUEST_ROOMS_PER_SOCKET = 20;

/** Answer of a watch whose token could not be checked (e.g. Redis unreachable): not the token's fault, so not the 'sign in again' text. */
export const WATCH_UNAVAILABLE = "Live history updates are unavailable right now. Please try again in a moment.";

/** Refusal of a connection past LIVE_SOCKET_MAX_CONNECTIONS_PER_IP. */
export const TOO_MANY_CONNECTIONS = "Too many live connections from this address. Close some tabs and reload the page.";

/** Answer to a message past LIVE_SOCKET_EVENTS_PER_SECOND (it is dropped). */
export const TOO_MANY_MESSAGES = "Too many live messages from this connection. Please slow down.";

/**
 * Who a valid access token speaks for, its sign-in session and when it stops being valid; null
 * for a token the API would refuse.
 */
export type VerifyAccessToken = (token: string) => Promise<{ userId: string; email: string; sessionId: string; expiresAt: Date } | null>;

/** What one client may send and hold open (see the LIVE_SOCKET_* variables). */
export interface LiveSocketLimits {
  /** Largest message (or polling request body) in bytes; a larger one closes the connection. */
  maxMessageBytes: number;
  /** Connections one client address may hold open on this gateway. */
  maxConnectionsPerIp: number;
  /** A connection's message rate, and the burst it may send at once. */
  eventsPerSecond: number;
  eventBurst: number;
  /** TRUST_PROXY: proxy hops in front of the gateway, to find the client's address as express does. */
  trustProxyHops: number;
}

/** The admin room: who may join it, and where its throughput figures come from. */
export interface AdminRoomOptions {
  /** The server-side admin role (ADMIN_EMAILS). */
  isAdmin(email: string): boolean;
  throughput: ThroughputSource;
  /** How often the room gets the figures (1 s; tests may shorten it). */
  intervalMs?: number;
  /** A failed read of the figures (the room skips that second). */
  onError?: (error: unknown) => void;
}

export interface LiveSocketOptions {
  /** Duplicated for the adapter's publish and subscribe connections. */
  redis: Redis;
  prefix: string;
  corsOrigins: readonly string[];
  /** The gateway's bearer-token check (signature, issuer, audience, expiry, ended session). */
  verifyAccessToken: VerifyAccessToken;
  /** Without it, nobody can join the admin room. */
  admin?: AdminRoomOptions;
  limits: LiveSocketLimits;
  clock?: ExpiryClock;
}

export interface LiveSocket {
  io: Server;
  /**
   * Resolves once the Redis adapter listens: an event published before then is not delivered to
   * this gateway's sockets. (Commands on one connection are answered in order, so a PING sent after
   * the adapter's subscriptions is answered after them.)
   */
  ready(): Promise<void>;
  /** Disconnects every socket and closes the HTTP server it is attached to. */
  close(): Promise<void>;
}

/**
 * Socket.IO for live progress. Events are published to Redis by whichever process produces them
 * (see LiveEvents) and the Redis adapter hands each gateway the events of its own sockets only.
 * Rooms are authorised: a socket joins request rooms named by the request's unguessable UUID, and
 * the history room of the user whose valid access token it presents, until that token expires,
 * and the admin room (live throughput) when that token's user is an admin, until it expires. A
 * socket watching with a token is also in its session's room, so a sign-out disconnects it on
 * every gateway at once (see LiveEvents.endSession).
 */
export function attachLiveSocket(http: HttpServer, options: LiveSocketOptions): LiveSocket {
  const pub = options.redis.duplicate();
  const sub = options.redis.duplicate();
  const { limits } = options;
  const io = new Server(http, {
    serveClient: false,
    maxHttpBufferSize: limits.maxMessageBytes,
    cors: options.corsOrigins.length > 0 ? { origin: [...options.corsOrigins] } : undefined,
    adapter: createAdapter(pub, sub, { key: socketIoKey(options.prefix) }),
  });
  const clock = options.clock ?? systemClock;
  const admin = options.admin;
  const broadcast = admin ? new ThroughputBroadcast(io, admin.throughput, admin.intervalMs ?? 1000, admin.onError) : null;
  // Every transport-level connection counts, also one that never joins the namespace.
  const connections = new ConnectionsPerAddress();
  io.engine.on("connection", (conn: { request: IncomingMessage; once(event: "close", listener: () => void): void }) => {
    const address = clientAddress(conn.request, limits.trustProxyHops);
    connections.add(address);
    conn.once("close", () => connections.remove(address));
  });
  io.use((socket, next) => {
    if (connections.count(clientAddress(socket.request, limits.trustProxyHops)) <= limits.maxConnectionsPerIp) return next();
    next(new Error(TOO_MANY_CONNECTIONS));
    // Once the refusal is on its way, close the transport: it would otherwise hold its place until Socket.IO's connect timeout.
    setImmediate(() => socket.conn.close());
  });
  io.on("connection", (socket) => {
    const budget = new EventBudget(limits.eventsPerSecond, limits.eventBurst);
    let disconnecting = false;
    socket.use((packet, next) => {
      if (disconnecting) return;
      const verdict = budget.take();
      if (verdict === "allowed") return next();
      const ack: unknown = packet.at(-1);
      if (typeof ack === "function") (ack as (answer: JoinAck) => void)({ ok: false, error: TOO_MANY_MESSAGES });
      if (verdict !== "disconnect") return;
      disconnecting = true;
      // Socket.IO hands allowed messages to their handlers on a later tick; disconnecting after them lets their answers go out.
      setImmediate(() => socket.disconnect(true));
    });
    const leaveUnheldSessions = () => {
      const held = new Set([history.session, adminWatch.session]);
      for (const room of socket.rooms) if (room.startsWith(sessionRoom("")) && !held.has(room)) void socket.leave(room);
    };
    const history = new TokenRoomWatch(socket, options.verifyAccessToken, clock, WatchHistoryRequestSchema, leaveUnheldSessions, (access) => ({
      room: userRoom(access.userId),
    }));
    const adminWatch = new TokenRoomWatch(socket, options.verifyAccessToken, clock, AdminWatchRequestSchema, leaveUnheldSessions, (access) =>
      admin?.isAdmin(access.email) ? { room: ADMIN_ROOM } : { error: ADMIN_MESSAGES.forbidden },
    );
    socket.on(SOCKET_EVENTS.join, (payload: unknown, ack?: (answer: JoinAck) => void) => {
      const reply = typeof ack === "function" ? ack : () => undefined;
      const parsed = JoinRequestSchema.safeParse(payload);
      if (!parsed.success) return reply({ ok: false, error: "request_id must be a UUID." });
      // Keep the newest request rooms: a long-lived page makes decision after decision on one connection.
      const joined = [...socket.rooms].filter((room) => room.startsWith(requestRoom("")));
      for (const stale of joined.slice(0, Math.max(0, joined.length - MAX_REQUEST_ROOMS_PER_SOCKET + 1))) void socket.leave(stale);
      void socket.join(requestRoom(parsed.data.request_id));
      reply({ ok: true });
    });
    socket.on(SOCKET_EVENTS.watchHistory, (payload: unknown, ack?: (answer: JoinAck) => void) => {
      void history.watch(payload).then(typeof ack === "function" ? ack : () => undefined);
    });
    socket.on(ADMIN_SOCKET_EVENTS.watch, (payload: unknown, ack?: (answer: JoinAck) => void) => {
      void adminWatch.watch(payload).then(typeof ack === "function" ? ack : () => undefined);
    });
    socket.on("disconnect", () => {
      history.stop();
      adminWatch.stop();
    });
  });
  broadcast?.start();
  return {
    io,
    async ready() {
      await sub.ping();
    },
    async close() {
      broadcast?.stop();
      await io.close();
      pub.disconnect();
      sub.disconnect();
    },
  };
}

/** The room a valid token's user may join, or the refusal they get (a valid token, but not for this room). */
type Admission = { room: string } | { error: string };

/**
 * One socket's membership of a room its access token admits it to (its user's history room, the
 * admin room), and of that token's session room: joined with a valid token, left when the token
 * expires or a refused one is sent.
 */
class TokenRoomWatch {
  /** The room the socket is in, if any. */
  room: string | null = null;
  /** The session room of the token that admitted it. */
  session: string | null = null;
  private cancelExpiry: (() => void) | null = null;
  /** Watches may overlap (a refreshed token sent while the old one is checked): the newest decides. */
  private latest = 0;

  constructor(
    private readonly socket: Socket,
    private readonly verify: VerifyAccessToken,
    private readonly clock: ExpiryClock,
    /** The watch request's schema (both carry the access token). */
    private readonly request: typeof WatchHistoryRequestSchema | typeof AdminWatchRequestSchema,
    /** Leaves the session rooms no watch of the socket holds any more (two watches may share one). */
    private readonly leaveUnheldSessions: () => void,
    private readonly admit: (access: NonNullable<Awaited<ReturnType<VerifyAccessToken>>>) => Admission,
  ) {}

  async watch(payload: unknown): Promise<JoinAck> {
    const attempt = ++this.latest;
    const parsed = this.request.safeParse(payload);
    let access: Awaited<ReturnType<VerifyAccessToken>>;
    try {
      access = parsed.success ? await this.verify(parsed.data.access_token) : null;
    } catch {
      return { ok: false, error: WATCH_UNAVAILABLE };
    }
    const valid = access !== null && access.expiresAt.getTime() > Date.now();
    const admission: Admission = valid ? this.admit(access!) : { error: AUTH_MESSAGES.invalidCredentials };
    // A newer watch (or the disconnect) has the last word on the rooms; this one only answers.
    if (this.superseded(attempt)) {
      return "room" in admission ? { ok: true } : { ok: false, error: admission.error };
    }
    if ("error" in admission) {
      // A socket whose token is refused (or whose user may not join) leaves the room it was in.
      this.stop();
      return { ok: false, error: admission.error };
    }
    const room = admission.room;
    const session = sessionRoom(access!.sessionId);
    if (this.room !== room || this.session !== session) this.stop();
    await this.socket.join(session);
    this.session = session;
    // A sign-out between the check above and this join would have missed this socket: now that
    // it is in the session's room, check once more that the session still stands (a check that
    // cannot be made now keeps the first answer).
    const stillValid = await this.verify(parsed.data!.access_token).catch(() => access);
    if (this.superseded(attempt)) return stillValid ? { ok: true } : { ok: false, error: AUTH_MESSAGES.invalidCredentials };
    if (stillValid === null) {
      this.stop();
      return { ok: false, error: AUTH_MESSAGES.invalidCredentials };
    }
    this.cancelExpiry?.();
    await this.socket.join(room);
    this.room = room;
    const cancel = this.clock.at(access!.expiresAt, () => {
      if (this.cancelExpiry === cancel) this.stop();
    });
    this.cancelExpiry = cancel;
    return { ok: true };
  }

  private superseded(attempt: number): boolean {
    return attempt !== this.latest || this.socket.disconnected;
  }

  /** Leaves the room and forgets the expiry. */
  stop(): void {
    this.cancelExpiry?.();
    this.cancelExpiry = null;
    if (this.room !== null) void this.socket.leave(this.room);
    this.room = null;
    this.session = null;
    this.leaveUnheldSessions();
  }
}
