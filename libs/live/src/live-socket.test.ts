import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { AUTH_MESSAGES, SOCKET_EVENTS, type HistoryDecisionEvent, type JoinAck, type VoteEvent } from "@sd/contracts";
import { LiveEvents } from "./live-events";
import { WATCH_UNAVAILABLE } from "./live-socket";
import { pendingProgress } from "./progress";
import { useLiveSocketServer } from "./testing";

/**
 * The gateway's token check is its own (tested over HTTP and sockets by the system tests in tests/); here
 * a token table stands in for it: token -> the user it speaks for. "unavailable" fails like a Redis outage.
 */
const TOKENS = new Map<string, string>([
  ["token-ann", "ann"],
  ["token-ann-refreshed", "ann"],
  ["token-ann-other-device", "ann"],
  ["token-bob", "bob"],
  ["token-carol-signing-out", "carol"],
]);
/** A refreshed token belongs to the session of the token it replaced; another device signed in has a session of its own. */
const SESSIONS = new Map<string, string>([["token-ann-other-device", "ann-phone"]]);
/** Sessions signed out: their tokens are refused from then on. */
const ENDED = new Set<string>();
const verifyAccessToken = async (token: string) => {
  if (token === "unavailable") throw new Error("Redis is down");
  const userId = TOKENS.get(token);
  const sessionId = SESSIONS.get(token) ?? `${userId}-laptop`;
  if (!userId || ENDED.has(sessionId)) return null;
  // Carol signs out while her token is being checked: the check passes, the session ends right after.
  if (token === "token-carol-signing-out") ENDED.add(sessionId);
  return { userId, email: `${userId}@example.com`, sessionId, expiresAt: new Date(Date.now() + 900_000) };
};

const server = useLiveSocketServer("live", { verifyAccessToken });
const { clock, sockets } = server;
const live = new LiveEvents(server.redis, server.prefix);

/** A browser tab: the history events it receives. */
async function tab() {
  const socket = server.open();
  const history: HistoryDecisionEvent[] = [];
  socket.on(SOCKET_EVENTS.historyDecision, (event: HistoryDecisionEvent) => history.push(event));
  const disconnected = new Promise<string>((resolve) => socket.once("disconnect", (reason) => resolve(reason)));
  await new Promise<void>((resolve) => socket.once("connect", resolve));
  return {
    history,
    /** Why the connection ended, once it does. */
    disconnected,
    watch: (payload: unknown) => socket.timeout(5000).emitWithAck(SOCKET_EVENTS.watchHistory, payload) as Promise<JoinAck>,
    /** Resolves once every event published before this call has reached the tab (one Redis channel keeps their order). */
    async settled(): Promise<void> {
      // A fresh request room for the sentinel (the socket's older request rooms may have been left).
      const requestId = randomUUID();
      expect(await socket.timeout(5000).emitWithAck(SOCKET_EVENTS.join, { request_id: requestId })).toEqual({ ok: true });
      const tag = randomUUID();
      const arrived = new Promise<void>((resolve) => socket.on(SOCKET_EVENTS.vote, (e: VoteEvent) => e.provider === tag && resolve()));
      live.modelProgress(pendingProgress({ request_id: requestId, decision_id: "-" }, tag));
      await arrived;
    },
  };
}

/** Publishes a history event of `userId`'s and returns it once every tab given has received what it would. */
async function publishHistory(userId: string, decisionId: string, ...tabs: Awaited<ReturnType<typeof tab>>[]): Promise<HistoryDecisionEvent> {
  const event: HistoryDecisionEvent = { decision_id: decisionId, timestamp: new Date().toISOString() };
  live.historyDecision(userId, event);
  await Promise.all(tabs.map((t) => t.settled()));
  return event;
}

describe("the history room", () => {
  it("delivers a user's history events to that user's sockets only", async () => {
    const [ann, annElsewhere, bob] = [await tab(), await tab(), await tab()];
    expect(await ann.watch({ access_token: "token-ann" })).toEqual({ ok: true });
    expect(await annElsewhere.watch({ access_token: "token-ann" })).toEqual({ ok: true });
    expect(await bob.watch({ access_token: "token-bob" })).toEqual({ ok: true });
    const event = await publishHistory("ann", "d-ann", ann, annElsewhere, bob);
    expect(ann.history).toEqual([event]);
    expect(annElsewhere.history).toEqual([event]);
    expect(bob.history).toEqual([]);
  });

  it("refuses a bad token with the bearer check's text, and joins nothing", async () => {
    const stranger = await tab();
    for (const payload of [{ access_token: "forged" }, { access_token: "" }, {}, "token-ann", { access_token: 42 }]) {
      expect(await stranger.watch(payload)).toEqual({ ok: false, error: AUTH_MESSAGES.invalidCredentials });
    }
    await publishHistory("ann", "d-not-for-strangers", stranger);
    expect(stranger.history).toEqual([]);
  });

  it("stops following a user when the socket's next token is refused", async () => {
    const ann = await tab();
    expect(await ann.watch({ access_token: "token-ann" })).toEqual({ ok: true });
    expect(await ann.watch({ access_token: "revoked" })).toEqual({ ok: false, error: AUTH_MESSAGES.invalidCredentials });
    await publishHistory("ann", "d-after-sign-out", ann);
    expect(ann.history).toEqual([]);
  });

  it("leaves the room when the token expires; a refreshed token rejoins", async () => {
    const ann = await tab();
    expect(await ann.watch({ access_token: "token-ann" })).toEqual({ ok: true });
    expect(clock.scheduled).toHaveLength(1);
    clock.expire();
    await publishHistory("ann", "d-after-expiry", ann);
    expect(ann.history).toEqual([]);

    expect(await ann.watch({ access_token: "token-ann-refreshed" })).toEqual({ ok: true });
    const event = await publishHistory("ann", "d-after-refresh", ann);
    expect(ann.history).toEqual([event]);
  });

  it("keeps one expiry per socket: a refreshed token replaces the old one's", async () => {
    const ann = await tab();
    await ann.watch({ access_token: "token-ann" });
    await ann.watch({ access_token: "token-ann-refreshed" });
    expect(clock.scheduled).toHaveLength(1);
  });

  it("switches rooms when another user signs in on the same tab", async () => {
    const shared = await tab();
    await shared.watch({ access_token: "token-ann" });
    expect(await shared.watch({ access_token: "token-bob" })).toEqual({ ok: true });
    await publishHistory("ann", "d-ann-only");
    const forBob = await publishHistory("bob", "d-bob", shared);
    expect(shared.history).toEqual([forBob]);
  });

  it("says so, without blaming the token, when the token cannot be checked", async () => {
    const ann = await tab();
    expect(await ann.watch({ access_token: "unavailable" })).toEqual({ ok: false, error: WATCH_UNAVAILABLE });
  });

  it("does not let many request rooms push a socket out of its history room", async () => {
    const ann = await tab();
    await ann.watch({ access_token: "token-ann" });
    const socket = sockets.at(-1)!;
    for (let i = 0; i < 30; i++) await socket.timeout(5000).emitWithAck(SOCKET_EVENTS.join, { request_id: randomUUID() });
    const event = await publishHistory("ann", "d-still-watching", ann);
    expect(ann.history).toEqual([event]);
  });
});

describe("the end of a sign-in session", () => {
  it("disconnects at once every socket that watched with one of its tokens, and no other", async () => {
    const [laptop, refreshedTab, phone, bob, anonymous] = [await tab(), await tab(), await tab(), await tab(), await tab()];
    expect(await laptop.watch({ access_token: "token-ann" })).toEqual({ ok: true });
    expect(await refreshedTab.watch({ access_token: "token-ann-refreshed" })).toEqual({ ok: true });
    expect(await phone.watch({ access_token: "token-ann-other-device" })).toEqual({ ok: true });
    expect(await bob.watch({ access_token: "token-bob" })).toEqual({ ok: true });

    live.endSession("ann-laptop");
    // The server closed them: a Socket.IO client does not reconnect after that.
    expect(await laptop.disconnected).toBe("io server disconnect");
    expect(await refreshedTab.disconnected).toBe("io server disconnect");
    const event = await publishHistory("ann", "d-on-the-phone", phone, bob, anonymous);
    expect(phone.history).toEqual([event]);
    expect(sockets.filter((socket) => socket.connected)).toHaveLength(3);
  });

  it("does not let a sign-out made while the token was checked leave the socket in the room", async () => {
    const carol = await tab();
    expect(await carol.watch({ access_token: "token-carol-signing-out" })).toEqual({ ok: false, error: AUTH_MESSAGES.invalidCredentials });
    await publishHistory("carol", "d-after-sign-out", carol);
    expect(carol.history).toEqual([]);
  });

  it("spares a socket that has since watched with another session's token", async () => {
    const shared = await tab();
    expect(await shared.watch({ access_token: "token-ann" })).toEqual({ ok: true });
    expect(await shared.watch({ access_token: "token-ann-other-device" })).toEqual({ ok: true });
    live.endSession("ann-laptop");
    const event = await publishHistory("ann", "d-still-signed-in", shared);
    expect(shared.history).toEqual([event]);
  });
});
