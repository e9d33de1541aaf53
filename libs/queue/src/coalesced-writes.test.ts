import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import type { Redis } from "ioredis";
import { createRedis, createRequestRedis, patientDuplicate } from "./redis";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

/**
 * Counts the writes that reach the connection's socket (the stream's `_write`/`_writev`, which
 * Node calls once per system call it makes): what coalescing is meant to cut.
 */
function countSocketWrites(redis: Redis): { readonly writes: number } {
  const socket = redis.stream as unknown as { _write: (...args: unknown[]) => void; _writev: (...args: unknown[]) => void };
  const counter = { writes: 0 };
  const write = socket._write.bind(socket);
  const writev = socket._writev.bind(socket);
  socket._write = (...args) => {
    counter.writes += 1;
    write(...args);
  };
  socket._writev = (...args) => {
    counter.writes += 1;
    writev(...args);
  };
  return counter;
}

/** 100 commands sent in one turn of the event loop, each answered with its own argument. */
function hundredEchoes(redis: Redis): { replies: Promise<string[]>; expected: string[] } {
  const expected = Array.from({ length: 100 }, (_, i) => `echo-${i}`);
  return { replies: Promise.all(expected.map((text) => redis.echo(text))), expected };
}

describe("coalesced writes", () => {
  const opened: Redis[] = [];
  const open = (redis: Redis) => (opened.push(redis), redis);
  afterEach(() => {
    for (const redis of opened.splice(0)) redis.disconnect();
  });

  it.each([
    ["a patient connection", () => createRedis(REDIS_URL, "coalesce-test")],
    ["a request-path connection", () => createRequestRedis(REDIS_URL, "coalesce-request-test", 2000)],
    ["a patient duplicate", () => patientDuplicate(createRedis(REDIS_URL, "coalesce-original"), "coalesce-duplicate-test")],
  ])("%s sends the commands of one turn in one write, and each reply reaches its own command", async (_name, connect) => {
    const redis = open(connect());
    if (redis.status !== "ready") await once(redis, "ready");
    const socket = countSocketWrites(redis);

    const { replies, expected } = hundredEchoes(redis);
    expect(await replies).toEqual(expected);
    expect(socket.writes).toBe(1);

    // A command that waits for the one before it is not held back: each goes out in its turn.
    for (let i = 0; i < 5; i++) expect(await redis.echo(`in-turn-${i}`)).toBe(`in-turn-${i}`);
    expect(socket.writes).toBe(6);
  });

  it("coalesces the socket of every reconnect too, and commands sent while disconnected go out once it is back", async () => {
    const redis = open(createRedis(REDIS_URL, `coalesce-reconnect-${randomUUID().slice(0, 8)}`));
    await once(redis, "ready");
    const first = redis.stream;
    // The connection drops and ioredis reconnects on its own, with a new socket.
    redis.disconnect(true);
    const queued = hundredEchoes(redis);
    await once(redis, "ready");
    expect(redis.stream).not.toBe(first);
    expect(await queued.replies).toEqual(queued.expected);

    const socket = countSocketWrites(redis);
    const { replies, expected } = hundredEchoes(redis);
    expect(await replies).toEqual(expected);
    expect(socket.writes).toBe(1);
  });

  it("a command sent just before disconnecting still reaches Redis", async () => {
    const key = `sdtest-coalesce-${randomUUID()}`;
    const redis = open(createRedis(REDIS_URL, "coalesce-quit-test"));
    const reader = open(createRedis(REDIS_URL, "coalesce-reader"));
    await Promise.all([once(redis, "ready"), reader.status === "ready" ? undefined : once(reader, "ready")]);
    const set = redis.set(key, "kept", "EX", 60);
    await redis.quit();
    expect(await set).toBe("OK");
    expect(await reader.get(key)).toBe("kept");
    await reader.del(key);
  });
});
