import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { ReplyError } from "ioredis";
import { createRedis, createRequestRedis, deleteDeploymentKeys, isRedisRefusingWrites, isRedisUnavailable, onReconnect } from "./redis";

describe("Redis connections", () => {
  it("on the request path, a command fails at once while Redis is unreachable, with an error recognised as an outage", async () => {
    const unreachable = createRequestRedis("redis://127.0.0.1:1", "unreachable-test", 2000);
    unreachable.on("error", () => undefined);
    try {
      const started = performance.now();
      const error = await unreachable.get("anything").then(
        () => null,
        (e: unknown) => e,
      );
      expect(performance.now() - started).toBeLessThan(1000);
      expect(isRedisUnavailable(error)).toBe(true);
    } finally {
      unreachable.disconnect();
    }
  });

  it("tells an outage from a command Redis refused", async () => {
    const redis = createRedis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", "refused-test");
    try {
      const refused = await redis.call("NO-SUCH-COMMAND").then(
        () => null,
        (e: unknown) => e,
      );
      expect(refused).toBeInstanceOf(Error);
      expect(isRedisUnavailable(refused)).toBe(false);
      expect(isRedisUnavailable(new Error("Command timed out"))).toBe(true);
      expect(isRedisUnavailable(new Error("wrapped", { cause: Object.assign(new Error("connect"), { code: "ECONNREFUSED" }) }))).toBe(true);
    } finally {
      redis.disconnect();
    }
  });

  it("calls a reconnect handler each time the connection comes back, not when it first connects", async () => {
    const redis = createRedis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", "reconnect-test");
    let calls = 0;
    const stop = onReconnect(redis, () => (calls += 1));
    try {
      await once(redis, "ready");
      expect(calls).toBe(0);
      // The connection drops and ioredis reconnects on its own.
      redis.disconnect(true);
      await once(redis, "ready");
      expect(calls).toBe(1);
      stop();
      redis.disconnect(true);
      await once(redis, "ready");
      expect(calls).toBe(1);
    } finally {
      redis.disconnect();
    }
  });
});

describe("deleteDeploymentKeys", () => {
  it("deletes every key under the prefix, however many, and no key of a prefix that only starts the same", async () => {
    const redis = createRedis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", "delete-keys-test");
    const prefix = `sdtest-delete-${randomUUID().slice(0, 8)}`;
    const neighbour = `${prefix}x`;
    try {
      const pipeline = redis.pipeline();
      for (let i = 0; i < 2500; i++) pipeline.set(`${prefix}:key:${i}`, "1");
      pipeline.hset(`${prefix}:job`, "data", "{}").set(`${neighbour}:kept`, "1");
      await pipeline.exec();
      await deleteDeploymentKeys(redis, prefix);
      expect(await redis.keys(`${prefix}:*`)).toEqual([]);
      expect(await redis.get(`${neighbour}:kept`)).toBe("1");
    } finally {
      await redis.del(`${neighbour}:kept`);
      redis.disconnect();
    }
  });
});

describe("isRedisRefusingWrites", () => {
  const oom = () => new ReplyError("OOM command not allowed when used memory > 'maxmemory'.");

  it("recognises Redis out of memory, alone, inside a refused transaction (EXECABORT's previous errors) and as a cause", () => {
    const execAbort = Object.assign(new ReplyError("EXECABORT Transaction discarded because of previous errors."), { previousErrors: [oom()] });
    expect(isRedisRefusingWrites(oom())).toBe(true);
    expect(isRedisRefusingWrites(execAbort)).toBe(true);
    expect(isRedisRefusingWrites(new Error("could not store the images", { cause: execAbort }))).toBe(true);
    expect(isRedisRefusingWrites(new ReplyError("MISCONF Redis is configured to save RDB snapshots, but it's currently unable to persist to disk."))).toBe(true);
    expect(isRedisRefusingWrites(new ReplyError("READONLY You can't write against a read only replica."))).toBe(true);
  });

  it("leaves other errors alone: a wrong command, a transaction aborted for another reason, an outage", () => {
    expect(isRedisRefusingWrites(new ReplyError("ERR wrong number of arguments for 'set' command"))).toBe(false);
    expect(isRedisRefusingWrites(Object.assign(new ReplyError("EXECABORT Transaction discarded because of previous errors."), { previousErrors: [new ReplyError("ERR syntax error")] }))).toBe(false);
    expect(isRedisRefusingWrites(new Error("Connection is closed."))).toBe(false);
    expect(isRedisRefusingWrites("OOM command not allowed")).toBe(false);
  });
});
