import { randomUUID } from "node:crypto";
import { io, type Socket } from "socket.io-client";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  ADMIN_MESSAGES,
  ADMIN_SOCKET_EVENTS,
  AGGREGATE_QUEUE,
  AUTH_MESSAGES,
  ThroughputEventSchema,
  voteQueueName,
  type AuthResponse,
  type JoinAck,
  type ThroughputEvent,
} from "@sd/contracts";
import { useEmulator } from "@sd/provider-emulator/testing";
import { postJson } from "@sd/testing/client";
import { testEnv } from "@sd/testing/env";
import { testDataDir } from "@sd/testing/leftovers";
import { ServiceProcess } from "@sd/testing/processes";
import { signInByMail } from "@sd/testing/sign-in";
import { SmtpCapture } from "@sd/testing/smtp-capture";
import { startStack, type InProcessStack } from "@sd/testing/stack";

const PUBLIC = "/api/ensembled-llm-categorical-decision-public";

/** An admin dashboard's live panel: the throughput events its socket receives. */
class AdminSocket {
  readonly events: ThroughputEvent[] = [];
  private readonly socket: Socket;
  private waiters: (() => void)[] = [];

  constructor(url: string) {
    this.socket = io(url, { transports: ["websocket"], forceNew: true });
    this.socket.on(ADMIN_SOCKET_EVENTS.throughput, (event: unknown) => {
      this.events.push(ThroughputEventSchema.parse(event));
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  watch(accessToken: string): Promise<JoinAck> {
    return this.socket.timeout(5000).emitWithAck(ADMIN_SOCKET_EVENTS.watch, { access_token: accessToken }) as Promise<JoinAck>;
  }

  /** Resolves once an event (already received or to come) satisfies `done`. */
  async until(done: (events: readonly ThroughputEvent[]) => boolean): Promise<void> {
    while (!done(this.events)) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  /** Resolves after `count` more events. */
  next(count = 1): Promise<void> {
    const target = this.events.length + count;
    return this.until((events) => events.length >= target);
  }

  close(): void {
    this.socket.close();
  }
}

const emulator = useEmulator();
let smtp: SmtpCapture;
const ADMIN = `admin-live-${randomUUID()}@example.com`;
const sockets: AdminSocket[] = [];
const socketTo = (url: string) => {
  const socket = new AdminSocket(url);
  sockets.push(socket);
  return socket;
};

beforeAll(async () => {
  smtp = await SmtpCapture.start();
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});
afterAll(async () => {
  await smtp?.close();
});

describe("the admin live room (one gateway)", () => {
  let stack: InProcessStack;
  let admin: AuthResponse;
  let member: AuthResponse;
  beforeAll(async () => {
    stack = await startStack(testEnv(emulator.url, { SMTP_URL: smtp.url, ADMIN_EMAILS: ADMIN }));
    admin = await signInByMail(stack.url, smtp, ADMIN);
    member = await signInByMail(stack.url, smtp, `member-${randomUUID()}@example.com`);
  });
  afterAll(async () => {
    await stack?.close();
  });

  it("admits admins only: a signed-in non-admin gets 'Admin access required.', a bad token the bearer text", async () => {
    const [adminSocket, memberSocket, stranger] = [socketTo(stack.url), socketTo(stack.url), socketTo(stack.url)];
    expect(await memberSocket.watch(member.tokens.access_token)).toEqual({ ok: false, error: ADMIN_MESSAGES.forbidden });
    expect(await stranger.watch("not-a-token")).toEqual({ ok: false, error: AUTH_MESSAGES.invalidCredentials });
    expect(await adminSocket.watch(admin.tokens.access_token)).toEqual({ ok: true });
    await adminSocket.next(2);
    expect(memberSocket.events).toEqual([]);
    expect(stranger.events).toEqual([]);
  });

  it("sends nothing more to a socket that left (its next token was refused)", async () => {
    const [leaving, staying] = [socketTo(stack.url), socketTo(stack.url)];
    expect(await leaving.watch(admin.tokens.access_token)).toEqual({ ok: true });
    expect(await staying.watch(admin.tokens.access_token)).toEqual({ ok: true });
    await leaving.next();
    expect(await leaving.watch("expired-or-revoked")).toEqual({ ok: false, error: AUTH_MESSAGES.invalidCredentials });
    const received = leaving.events.length;
    await staying.next(2);
    expect(leaving.events).toHaveLength(received);
  });

  it("shows a known load's figures: decisions per second, in flight, per-provider latency and error rate", async () => {
    const tag = `load-${randomUUID()}`;
    // OpenAI answers in 600 ms, Gemini in 100 ms, Claude always fails (400: an error vote, no retry).
    emulator.addRules([
      { match: { vendor: "openai", question_contains: tag }, latency_ms: 600, respond: { kind: "answer", category: "Yes" } },
      { match: { vendor: "gemini", question_contains: tag }, latency_ms: 100, respond: { kind: "answer", category: "Yes" } },
      { match: { vendor: "anthropic", question_contains: tag }, respond: { kind: "error", status: 400, message: "scripted failure" } },
    ]);
    const watcher = socketTo(stack.url);
    expect(await watcher.watch(admin.tokens.access_token)).toEqual({ ok: true });
    await watcher.next(); // watching before the load starts
    const WAVES = 4;
    const PER_WAVE = 3;
    for (let wave = 0; wave < WAVES; wave++) {
      const answers = await Promise.all(
        Array.from({ length: PER_WAVE }, (_, i) => postJson(`${stack.url}${PUBLIC}`, { question: `Ship it? ${tag} ${wave}.${i}`, categories: ["Yes", "No"] })),
      );
      for (const { status } of answers) expect(status).toBe(200);
    }
    const total = WAVES * PER_WAVE;
    // Every whole second is read once: the figures add up to the load once its last second is read.
    const finished = (events: readonly ThroughputEvent[]) => events.reduce((sum, e) => sum + e.decisions_per_second, 0);
    await watcher.until((events) => finished(events) >= total && events.at(-1)!.decisions_in_flight === 0);
    const events = watcher.events;
    expect(finished(events)).toBe(total);
    expect(Math.max(...events.map((e) => e.decisions_per_second))).toBeGreaterThan(0);
    // Waves of 600 ms: at least one tick fell inside the load.
    expect(Math.max(...events.map((e) => e.decisions_in_flight))).toBeGreaterThan(0);
    const last = events.at(-1)!;
    expect(last.decisions_in_flight).toBe(0);
    expect(Object.keys(last.queue_waiting).sort()).toEqual([AGGREGATE_QUEUE, ...["openai", "gemini", "claude"].map(voteQueueName)].sort());
    expect(last.providers.openai).toMatchObject({ votes: total, error_rate: 0 });
    expect(last.providers.gemini).toMatchObject({ votes: total, error_rate: 0 });
    expect(last.providers.claude).toMatchObject({ votes: total, error_rate: 1 });
    // The model's latency as the worker measures it: the scripted delay plus a local HTTP call.
    expect(last.providers.openai!.latency_p50_ms).toBeGreaterThanOrEqual(600);
    expect(last.providers.openai!.latency_p95_ms).toBeLessThan(1200);
    expect(last.providers.gemini!.latency_p50_ms).toBeGreaterThanOrEqual(100);
    expect(last.providers.gemini!.latency_p95_ms).toBeLessThan(600);
    expect(last.providers.claude!.latency_p95_ms).toBeLessThan(500);
  });
});

describe("the admin live room with two gateways", () => {
  const running: ServiceProcess[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((s) => s.stop("SIGKILL")));
  });

  it("each admin client gets exactly one event per second, whichever gateway it is connected to", async () => {
    const env = testEnv(emulator.url, { SMTP_URL: smtp.url, ADMIN_EMAILS: ADMIN, JWT_SECRET: "admin-live-two-gateways-0123456789abcdefgh" });
    const main = ServiceProcess.start("all-in-one", env);
    const second = ServiceProcess.start("all-in-one", { ...env, ROLES: "gateway", EMBEDDED_STORE_SPLIT: "true", DATA_DIR: testDataDir() });
    running.push(main, second);
    const [urlA, urlB] = await Promise.all([main.gatewayUrl(), second.gatewayUrl()]);
    const { tokens } = await signInByMail(urlA, smtp, ADMIN);
    const [onA, onB] = [socketTo(urlA), socketTo(urlB)];
    expect(await onA.watch(tokens.access_token)).toEqual({ ok: true });
    expect(await onB.watch(tokens.access_token)).toEqual({ ok: true });
    await Promise.all([onA.next(4), onB.next(4)]);
    for (const client of [onA, onB]) {
      const seconds = client.events.map((e) => Math.floor(Date.parse(e.at) / 1000));
      // One event per whole second: no second twice (a duplicate from the other gateway), none skipped.
      expect(new Set(seconds).size).toBe(seconds.length);
      for (let i = 1; i < seconds.length; i++) expect(seconds[i]! - seconds[i - 1]!).toBe(1);
    }
  });
});
