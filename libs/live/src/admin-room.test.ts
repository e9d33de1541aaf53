import { describe, expect, it } from "vitest";
import { ADMIN_MESSAGES, ADMIN_SOCKET_EVENTS, AUTH_MESSAGES, SOCKET_EVENTS, type JoinAck, type ThroughputEvent } from "@sd/contracts";
import { useLiveSocketServer } from "./testing";

/** token -> email; only ann is an admin. The gateway's real token check is tested in the system tests (tests/security). */
const TOKENS = new Map([
  ["token-ann", "ann@example.com"],
  ["token-bob", "bob@example.com"],
]);
const verifyAccessToken = async (token: string) => {
  const email = TOKENS.get(token);
  return email ? { userId: email, email, sessionId: `session-${email}`, expiresAt: new Date(Date.now() + 900_000) } : null;
};

let reads = 0;
/** Each read is numbered, so a test can tell one second's event from the next. */
const throughput = async (): Promise<ThroughputEvent> => ({
  at: new Date().toISOString(),
  decisions_per_second: ++reads,
  decisions_in_flight: 0,
  queue_waiting: {},
  providers: {},
});

const live = useLiveSocketServer("admin", {
  verifyAccessToken,
  admin: { isAdmin: (email) => email === "ann@example.com", throughput, intervalMs: 50 },
});

async function adminTab() {
  const socket = live.open();
  const events: ThroughputEvent[] = [];
  const waiters: (() => void)[] = [];
  socket.on(ADMIN_SOCKET_EVENTS.throughput, (event: ThroughputEvent) => {
    events.push(event);
    for (const wake of waiters.splice(0)) wake();
  });
  await new Promise<void>((resolve) => socket.once("connect", resolve));
  return {
    socket,
    events,
    watch: (payload: unknown) => socket.timeout(5000).emitWithAck(ADMIN_SOCKET_EVENTS.watch, payload) as Promise<JoinAck>,
    /** Resolves after `count` more events. */
    async next(count = 1): Promise<void> {
      const target = events.length + count;
      while (events.length < target) await new Promise<void>((resolve) => waiters.push(resolve));
    },
  };
}

describe("the admin room", () => {
  it("sends an admin the throughput figures every interval", async () => {
    const ann = await adminTab();
    expect(await ann.watch({ access_token: "token-ann" })).toEqual({ ok: true });
    await ann.next(3);
    const figures = ann.events.map((e) => e.decisions_per_second);
    // One read per tick, each sent once: strictly increasing read numbers.
    expect(figures).toEqual([...figures].sort((a, b) => a - b));
    expect(new Set(figures).size).toBe(figures.length);
  });

  it("refuses a signed-in non-admin with the admin text, and a bad token with the bearer text; neither joins", async () => {
    const [bob, stranger, ann] = [await adminTab(), await adminTab(), await adminTab()];
    expect(await bob.watch({ access_token: "token-bob" })).toEqual({ ok: false, error: ADMIN_MESSAGES.forbidden });
    for (const payload of [{ access_token: "forged" }, {}, "token-ann"]) {
      expect(await stranger.watch(payload)).toEqual({ ok: false, error: AUTH_MESSAGES.invalidCredentials });
    }
    // Watching history with an admin's token does not open the admin room either.
    expect(await bob.socket.timeout(5000).emitWithAck(SOCKET_EVENTS.watchHistory, { access_token: "token-ann" })).toEqual({ ok: true });
    await ann.watch({ access_token: "token-ann" });
    await ann.next(3);
    expect(bob.events).toEqual([]);
    expect(stranger.events).toEqual([]);
  });

  it("stops sending when the token expires or a refused token is sent", async () => {
    const [expiring, signedOut, sentinel] = [await adminTab(), await adminTab(), await adminTab()];
    for (const tab of [expiring, signedOut, sentinel]) expect(await tab.watch({ access_token: "token-ann" })).toEqual({ ok: true });
    await expiring.next();
    await signedOut.next();
    expect(await signedOut.watch({ access_token: "revoked" })).toEqual({ ok: false, error: AUTH_MESSAGES.invalidCredentials });
    live.clock.expire(); // every admin watch ends; the sentinel rejoins
    expect(await sentinel.watch({ access_token: "token-ann" })).toEqual({ ok: true });
    const [expiredAt, signedOutAt] = [expiring.events.length, signedOut.events.length];
    await sentinel.next(3);
    expect(expiring.events.length).toBe(expiredAt);
    expect(signedOut.events.length).toBe(signedOutAt);
  });
});
