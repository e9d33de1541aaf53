import { describe, expect, it } from "vitest";
import { createRedis, createRequestRedis, isRedisUnavailable } from "./redis";

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
});
