import { randomUUID } from "node:crypto";
import { io, type Socket } from "socket.io-client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_SOCKET_EVENTS, AUTH_MESSAGES, SOCKET_EVENTS, type AuthResponse, type FinalEvent, type JoinAck } from "@sd/contracts";
import { TOO_MANY_CONNECTIONS, TOO_MANY_MESSAGES } from "@sd/live";
import { useEmulator } from "@sd/provider-emulator/testing";
import { testDataDir } from "@sd/testing/leftovers";
import { ServiceProcess } from "@sd/testing/processes";
import { send } from "@sd/testing/security/http";
import { magicLinkToken } from "@sd/testing/sign-in";
import { useStackWithMail } from "@sd/testing/stack-with-mail";

/**
 * The security suite's sign-in and live-connection part: nobody can use up someone else's sign-in
 * links, a session that ends takes its live sockets with it on every gateway, and one client
 * cannot hog the Socket.IO server. The gateway trusts one proxy, so each test's client speaks from
 * addresses of its own (X-Forwarded-For) and the limits per address are the documented defaults
 * unless set here.
 */

const ADMIN_EMAIL = `sign-in-admin-${randomUUID()}@example.com`;
const PUBLIC_DECISION = "/api/ensembled-llm-categorical-decision-public";
const TOO_MANY_LINKS = "Too many sign-in links were requested for this email address. Please wait an hour and try again.";
const MAX_CONNECTIONS_PER_IP = 4;

const emulator = useEmulator();
const stack = useStackWithMail(emulator, {
  TRUST_PROXY: "1",
  ADMIN_EMAILS: ADMIN_EMAIL,
  JWT_SECRET: `security-sign-in-${randomUUID()}`,
  LIVE_SOCKET_MAX_CONNECTIONS_PER_IP: String(MAX_CONNECTIONS_PER_IP),
});

let lastAddress = 0;
/** A client address no other test uses. */
const newAddress = () => `198.51.100.${++lastAddress}`;
const from = (address: string) => ({ "x-forwarded-for": address });

const requestLink = (email: string, address: string) => send(stack.url, { method: "post", path: "/api/auth/magic-link/request", body: { email }, headers: from(address) });

/** Requests a link from `address`, opens the mail and signs in from there too. */
async function signIn(email: string, address: string): Promise<AuthResponse> {
  const requested = await requestLink(email, address);
  expect(requested.status).toBe(200);
  const { token } = magicLinkToken((await stack.smtp.nextTo(email)).text);
  const verified = await send(stack.url, { method: "post", path: "/api/auth/magic-link/verify", body: { token }, headers: from(address) });
  expect(verified.status).toBe(200);
  return verified.body as unknown as AuthResponse;
}

/** Settles with `promise`, or fails naming `what` after `ms` (a fix that is missing shows as this, not as the test's timeout). */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** A browser's Socket.IO connection from `address`: why it ended, once it does. */
class Connection {
  readonly socket: Socket;
  readonly disconnected: Promise<string>;
  readonly finals: FinalEvent[] = [];

  constructor(url: string, address = newAddress()) {
    this.socket = io(url, { transports: ["websocket"], forceNew: true, reconnection: false, extraHeaders: from(address) });
    this.disconnected = new Promise((resolve) => this.socket.once("disconnect", (reason) => resolve(reason)));
    this.socket.on(SOCKET_EVENTS.final, (event: FinalEvent) => this.finals.push(event));
    open.push(this);
  }

  /** Resolves once connected; rejects with the server's refusal. */
  connected(): Promise<void> {
    if (this.socket.connected) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.socket.once("connect", () => resolve());
      this.socket.once("connect_error", reject);
    });
  }

  ask(event: string, payload: unknown): Promise<JoinAck> {
    return this.socket.timeout(5000).emitWithAck(event, payload) as Promise<JoinAck>;
  }
}
const open: Connection[] = [];
afterEach(() => {
  for (const connection of open.splice(0)) connection.socket.close();
});

describe("e-mail sign-in cannot be denied by others", () => {
  it("a stranger's requests for someone's address use up only the stranger's own count: the owner still gets a link and signs in", async () => {
    const victim = `victim-${randomUUID()}@example.com`;
    const stranger = newAddress();
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push(await requestLink(victim, stranger));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    expect(answers[5]!.body).toEqual({ detail: TOO_MANY_LINKS });

    const { user } = await signIn(victim, newAddress());
    expect(user.email).toBe(victim);
  });

  it("one address asking for links to many inboxes is stopped at MAGIC_LINK_PER_IP_PER_HOUR (20); another address goes on", async () => {
    const sprayer = newAddress();
    const statuses = [];
    for (let i = 0; i < 21; i++) statuses.push((await requestLink(`sprayed-${i}-${randomUUID()}@example.com`, sprayer)).status);
    expect(statuses).toEqual([...Array(20).fill(200), 429]);
    const refused = await requestLink(`sprayed-last-${randomUUID()}@example.com`, sprayer);
    expect(refused.body).toEqual({ detail: "Too many requests. Please wait an hour and try again." });
    expect((await requestLink(`elsewhere-${randomUUID()}@example.com`, newAddress())).status).toBe(200);
  });

  it("a flood of one inbox from many addresses stops at MAGIC_LINK_PER_EMAIL_PER_HOUR (50); the owner asking from where they signed in before still gets a link", async () => {
    const victim = `flooded-${randomUUID()}@example.com`;
    const home = newAddress();
    await signIn(victim, home); // one link of the 50
    // Eleven addresses, five requests each (their per-address-and-IP limit): 55 asked, 49 fit under the ceiling.
    const floods = await Promise.all(
      Array.from({ length: 11 }, async () => {
        const attacker = newAddress();
        const statuses = [];
        for (let i = 0; i < 5; i++) statuses.push((await requestLink(victim, attacker)).status);
        return statuses;
      }),
    );
    const statuses = floods.flat();
    expect(statuses.filter((status) => status === 200)).toHaveLength(49);
    expect(statuses.filter((status) => status === 429)).toHaveLength(6);
    const fresh = await requestLink(victim, newAddress());
    expect({ status: fresh.status, body: fresh.body }).toEqual({ status: 429, body: { detail: TOO_MANY_LINKS } });

    const mailsBefore = stack.smtp.messages.filter((mail) => mail.to.includes(victim)).length;
    const { user } = await signIn(victim, home);
    expect(user.email).toBe(victim);
    expect(stack.smtp.messages.filter((mail) => mail.to.includes(victim))).toHaveLength(mailsBefore + 1);
  });
});

describe("a session that ends takes its live sockets with it, on every gateway", () => {
  let second: ServiceProcess;
  let secondUrl: string;
  beforeAll(async () => {
    // Another gateway on the same Redis and JWT_SECRET (its own embedded store: sockets need none).
    second = ServiceProcess.start("all-in-one", { ...stack.vars, ROLES: "gateway", EMBEDDED_STORE_SPLIT: "true", DATA_DIR: testDataDir() });
    secondUrl = await second.gatewayUrl();
  });
  afterAll(async () => {
    await second?.stop("SIGKILL");
  });

  const logout = (accessToken: string) => send(stack.url, { method: "post", path: "/api/auth/logout" }, { bearer: accessToken });

  it("signing out disconnects the session's history and admin sockets at once, on this gateway and on another; another session's socket stays", async () => {
    const signedOut = await signIn(ADMIN_EMAIL, newAddress());
    const stays = await signIn(ADMIN_EMAIL, newAddress());
    const [historyHere, adminThere, historyThere, otherSession] = [
      new Connection(stack.url),
      new Connection(secondUrl),
      new Connection(secondUrl),
      new Connection(secondUrl),
    ];
    await Promise.all([historyHere, adminThere, historyThere, otherSession].map((c) => c.connected()));
    const token = signedOut.tokens.access_token;
    expect(await historyHere.ask(SOCKET_EVENTS.watchHistory, { access_token: token })).toEqual({ ok: true });
    expect(await adminThere.ask(ADMIN_SOCKET_EVENTS.watch, { access_token: token })).toEqual({ ok: true });
    expect(await historyThere.ask(SOCKET_EVENTS.watchHistory, { access_token: token })).toEqual({ ok: true });
    expect(await otherSession.ask(SOCKET_EVENTS.watchHistory, { access_token: stays.tokens.access_token })).toEqual({ ok: true });

    expect((await logout(token)).status).toBe(200);
    for (const ended of [historyHere, adminThere, historyThere]) {
      // Closed by the server, so the client does not reconnect: nothing more reaches it.
      expect(await within(ended.disconnected, 10_000, "the signed-out session's socket was disconnected")).toBe("io server disconnect");
    }
    expect(otherSession.socket.connected).toBe(true);
    expect(await otherSession.ask(SOCKET_EVENTS.watchHistory, { access_token: stays.tokens.access_token })).toEqual({ ok: true });
    // A new socket cannot rejoin with the ended session's token either.
    const rejoin = new Connection(secondUrl);
    await rejoin.connected();
    expect(await rejoin.ask(SOCKET_EVENTS.watchHistory, { access_token: token })).toEqual({ ok: false, error: AUTH_MESSAGES.invalidCredentials });
  });

  it("a reused refresh token ends the session: its sockets are disconnected too", async () => {
    const { tokens } = await signIn(`reused-${randomUUID()}@example.com`, newAddress());
    const watching = new Connection(secondUrl);
    await watching.connected();
    expect(await watching.ask(SOCKET_EVENTS.watchHistory, { access_token: tokens.access_token })).toEqual({ ok: true });
    const refresh = (refreshToken: string) => send(stack.url, { method: "post", path: "/api/auth/refresh", body: { refresh_token: refreshToken } });
    expect((await refresh(tokens.refresh_token)).status).toBe(200);
    // The rotated token again, as a thief holding a copy would send it.
    expect((await refresh(tokens.refresh_token)).status).toBe(401);
    expect(await within(watching.disconnected, 10_000, "the revoked session's socket was disconnected")).toBe("io server disconnect");
  });
});

describe("one client cannot hog the Socket.IO server", () => {
  it("closes a connection that sends a message over LIVE_SOCKET_MAX_MESSAGE_BYTES (16 KB)", async () => {
    const client = new Connection(stack.url);
    await client.connected();
    expect(await client.ask(SOCKET_EVENTS.join, { request_id: "x".repeat(10_000) })).toEqual({ ok: false, error: "request_id must be a UUID." });
    client.socket.emit(SOCKET_EVENTS.join, { request_id: "x".repeat(800_000) });
    expect(await within(client.disconnected, 10_000, "the over-size message closed the connection")).toBe("transport close");
  });

  it(`refuses a connection past LIVE_SOCKET_MAX_CONNECTIONS_PER_IP (${MAX_CONNECTIONS_PER_IP} here) from one address, saying so; another address connects`, async () => {
    const address = newAddress();
    const allowed = Array.from({ length: MAX_CONNECTIONS_PER_IP }, () => new Connection(stack.url, address));
    await Promise.all(allowed.map((c) => c.connected()));
    const refused = new Connection(stack.url, address);
    await expect(refused.connected()).rejects.toThrow(TOO_MANY_CONNECTIONS);
    await new Connection(stack.url).connected();
  });

  it("throttles a flood of messages from one socket, then disconnects it, while a decision goes on", async () => {
    const flooder = new Connection(stack.url);
    const watcher = new Connection(stack.url);
    await Promise.all([flooder.connected(), watcher.connected()]);
    const requestId = randomUUID();
    expect(await watcher.ask(SOCKET_EVENTS.join, { request_id: requestId })).toEqual({ ok: true });

    const answers: JoinAck[] = [];
    for (let i = 0; i < 500; i++) flooder.socket.emit(SOCKET_EVENTS.join, { request_id: randomUUID() }, (ack: JoinAck) => answers.push(ack));
    const decision = send(stack.url, { method: "post", path: PUBLIC_DECISION, body: { question: "Go on during a flood?", categories: ["Yes", "No"], request_id: requestId }, headers: from(newAddress()) });

    // Acks come before the disconnect on the one connection: by then every answer has arrived.
    expect(await within(flooder.disconnected, 10_000, "the flooding socket was disconnected")).toBe("io server disconnect");
    // LIVE_SOCKET_EVENT_BURST (30) refusals in a row end the connection.
    expect(answers.filter((answer) => !answer.ok)).toEqual(Array(30).fill({ ok: false, error: TOO_MANY_MESSAGES }));
    expect(answers.length).toBeLessThan(500);

    expect((await decision).status).toBe(200);
    await within(
      new Promise<void>((resolve) => (watcher.finals.length > 0 ? resolve() : watcher.socket.once(SOCKET_EVENTS.final, () => resolve()))),
      10_000,
      "the decision's final event reached its room",
    );
    expect(watcher.finals.map((event) => event.request_id)).toEqual([requestId]);
  });
});
