import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Redis } from "ioredis";
import { io as connect, type ManagerOptions, type Socket, type SocketOptions } from "socket.io-client";
import { afterAll, afterEach, beforeAll } from "vitest";
import type { ExpiryClock } from "./expiry-clock";
import { attachLiveSocket, type LiveSocket, type LiveSocketLimits, type LiveSocketOptions } from "./live-socket";

/** An expiry clock moved by hand: `expire()` fires every watch that has not been cancelled. */
export class ManualClock implements ExpiryClock {
  private readonly pending = new Set<{ when: Date; fire: () => void }>();
  at(when: Date, fire: () => void) {
    const entry = { when, fire };
    this.pending.add(entry);
    return () => void this.pending.delete(entry);
  }
  get scheduled(): Date[] {
    return [...this.pending].map((e) => e.when);
  }
  expire(): void {
    for (const entry of [...this.pending]) {
      this.pending.delete(entry);
      entry.fire();
    }
  }
}

export interface TestLiveServer {
  readonly redis: Redis;
  /** The server's Redis key prefix. */
  readonly prefix: string;
  readonly clock: ManualClock;
  /** Every socket opened by `open()` in the current test, oldest first. */
  readonly sockets: Socket[];
  /** A new client socket to the server (closed after the test); listen on it, then await its "connect". */
  open(options?: Partial<ManagerOptions & SocketOptions>): Socket;
}

/** Limits no test meets unless it sets its own. */
const ROOMY_LIMITS: LiveSocketLimits = { maxMessageBytes: 16_384, maxConnectionsPerIp: 1000, eventsPerSecond: 1000, eventBurst: 1000, trustProxyHops: 0 };

/**
 * The live socket server on real Redis and a loopback port for a test file: attached in beforeAll with
 * a hand-moved expiry clock, and closed in afterAll. After each test its client sockets are closed
 * and every watch still scheduled expires.
 */
export function useLiveSocketServer(
  name: string,
  options: Pick<LiveSocketOptions, "verifyAccessToken" | "admin"> & { limits?: Partial<LiveSocketLimits> },
): TestLiveServer {
  const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
  const prefix = `sdtest-${name}-${randomUUID().slice(0, 8)}`;
  const clock = new ManualClock();
  const sockets: Socket[] = [];
  let server: LiveSocket;
  let url: string;

  beforeAll(async () => {
    const http = createServer();
    server = attachLiveSocket(http, { redis, prefix, corsOrigins: [], clock, ...options, limits: { ...ROOMY_LIMITS, ...options.limits } });
    // Events published before the adapter listens would never arrive: tests start after it does.
    await server.ready();
    http.listen(0, "127.0.0.1");
    await once(http, "listening");
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.close();
    // Each test starts with no watch scheduled to expire.
    clock.expire();
  });
  afterAll(async () => {
    await server.close();
    redis.disconnect();
  });

  return {
    redis,
    prefix,
    clock,
    sockets,
    open(extra = {}) {
      const socket = connect(url, { transports: ["websocket"], forceNew: true, ...extra });
      sockets.push(socket);
      return socket;
    },
  };
}
