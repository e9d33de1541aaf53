import type { IncomingMessage } from "node:http";
import { randomUUID } from "node:crypto";
import type { Socket } from "socket.io-client";
import { describe, expect, it } from "vitest";
import { SOCKET_EVENTS, type JoinAck } from "@sd/contracts";
import { TOO_MANY_CONNECTIONS, TOO_MANY_MESSAGES } from "./live-socket";
import { EventBudget, clientAddress } from "./socket-limits";
import { useLiveSocketServer } from "./testing";

// Behind one trusted proxy: each test's clients come from addresses of their own (X-Forwarded-For),
// so the connections a test closes do not count against the next one while the server sees them close.
const LIMITS = { maxMessageBytes: 4096, maxConnectionsPerIp: 3, eventsPerSecond: 5, eventBurst: 10, trustProxyHops: 1 };
const server = useLiveSocketServer("limits", { verifyAccessToken: async () => null, limits: LIMITS });

let lastAddress = 0;
const newAddress = () => `203.0.113.${++lastAddress}`;
const openFrom = (address: string, transports?: string[]) => server.open({ extraHeaders: { "x-forwarded-for": address }, reconnection: false, transports });

/** A connected socket, and why it ends once it does. */
async function connected(address = newAddress(), transports?: string[]): Promise<{ socket: Socket; disconnected: Promise<string> }> {
  const socket = openFrom(address, transports);
  const disconnected = new Promise<string>((resolve) => socket.once("disconnect", (reason) => resolve(reason)));
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("connect_error", reject);
  });
  return { socket, disconnected };
}

const join = (socket: Socket, requestId: unknown = randomUUID()) => socket.timeout(5000).emitWithAck(SOCKET_EVENTS.join, { request_id: requestId }) as Promise<JoinAck>;

describe("a client's Socket.IO limits", () => {
  it("closes a connection that sends a message larger than LIVE_SOCKET_MAX_MESSAGE_BYTES, and still reads one that fits", async () => {
    const { socket, disconnected } = await connected();
    expect(await join(socket, "x".repeat(3000))).toEqual({ ok: false, error: "request_id must be a UUID." });
    socket.emit(SOCKET_EVENTS.join, { request_id: "x".repeat(5000) });
    expect(await disconnected).toBe("transport close");
  });

  it("refuses a connection past LIVE_SOCKET_MAX_CONNECTIONS_PER_IP with a message saying so; a closed one frees its place", async () => {
    const address = newAddress();
    const open = [await connected(address), await connected(address), await connected(address)];
    // Another address is not affected.
    await connected();
    const refused = openFrom(address);
    const error = await new Promise<Error>((resolve) => refused.once("connect_error", resolve));
    expect(error.message).toBe(TOO_MANY_CONNECTIONS);
    open[0]!.socket.close();
    await open[0]!.disconnected;
    // The server sees the close a moment after the client: try again until it has (each refused try is closed too).
    for (let attempt = 0; ; attempt++) {
      try {
        await connected(address);
        break;
      } catch (refusal) {
        expect((refusal as Error).message).toBe(TOO_MANY_CONNECTIONS);
        if (attempt === 50) throw refusal;
      }
    }
  });

  // Over long-polling the whole flood arrives in one request, read in one go: the burst must still be answered.
  it.each(["websocket", "polling"])("drops messages past the connection's rate with an answer saying so, and disconnects a connection that keeps flooding (%s)", async (transport) => {
    const { socket, disconnected } = await connected(newAddress(), [transport]);
    const answers = await Promise.allSettled(Array.from({ length: 100 }, () => join(socket)));
    const acks = answers.filter((a) => a.status === "fulfilled").map((a) => a.value);
    // The burst passes (a message or two more may have been earned meanwhile), then refusals, then nothing: the socket is gone.
    expect(acks.filter((ack) => ack.ok).length).toBeGreaterThanOrEqual(LIMITS.eventBurst);
    expect(acks.filter((ack) => !ack.ok)).toEqual(Array(LIMITS.eventBurst).fill({ ok: false, error: TOO_MANY_MESSAGES }));
    expect(acks.length).toBeLessThan(100);
    expect(await disconnected).toBe("io server disconnect");
  });
});

describe("EventBudget", () => {
  it("lets a burst through, refills at the rate, and asks to disconnect after a burst's worth of refusals in a row", () => {
    let now = 0;
    const budget = new EventBudget(5, 3, () => now);
    expect([budget.take(), budget.take(), budget.take(), budget.take()]).toEqual(["allowed", "allowed", "allowed", "refused"]);
    now += 200; // one message earned
    expect([budget.take(), budget.take(), budget.take()]).toEqual(["allowed", "refused", "disconnect"]);
  });

  it("forgives refusals once the client has been quiet long enough to fill its burst again", () => {
    let now = 0;
    const budget = new EventBudget(5, 3, () => now);
    for (let i = 0; i < 3; i++) budget.take();
    expect([budget.take(), budget.take()]).toEqual(["refused", "refused"]);
    now += 600;
    expect([budget.take(), budget.take(), budget.take(), budget.take(), budget.take()]).toEqual(["allowed", "allowed", "allowed", "refused", "refused"]);
  });
});

describe("clientAddress", () => {
  const request = (peer: string, forwardedFor?: string) =>
    ({ socket: { remoteAddress: peer }, headers: forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor } }) as unknown as IncomingMessage;

  it("is the peer without trusted proxies, whatever X-Forwarded-For claims", () => {
    expect(clientAddress(request("10.0.0.5", "203.0.113.9"), 0)).toBe("10.0.0.5");
  });

  it("is the entry that many hops back behind trusted proxies, as express's req.ip", () => {
    expect(clientAddress(request("10.0.0.5", "198.51.100.1, 203.0.113.9"), 1)).toBe("203.0.113.9");
    expect(clientAddress(request("10.0.0.5", "198.51.100.1, 203.0.113.9"), 2)).toBe("198.51.100.1");
    expect(clientAddress(request("10.0.0.5", "203.0.113.9"), 5)).toBe("203.0.113.9");
    expect(clientAddress(request("10.0.0.5"), 1)).toBe("10.0.0.5");
  });
});
