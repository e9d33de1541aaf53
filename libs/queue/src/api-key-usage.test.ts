import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { ApiKeyUsage } from "./api-key-usage";
import { createRedis } from "./redis";

const redis = createRedis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", "api-key-usage-test");
const prefix = `sdtest-key-usage-${randomUUID().slice(0, 8)}`;
afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

// Months ahead of now: a month's hash expires a day after the month, and Redis drops a key whose expiry has passed.
const march = new Date("2099-03-10T12:00:00Z");

describe("ApiKeyUsage (Redis)", () => {
  it("counts each key's calls and adds its decisions' costs, per key, exactly to the nano-dollar", async () => {
    const usage = new ApiKeyUsage(redis, prefix);
    await usage.countRequest("k1", march);
    await usage.countRequest("k1", march);
    await usage.countRequest("k2", march);
    await usage.addSpend("k1", 0.0125, march);
    await usage.addSpend("k1", 0.000000001, march);
    // A free (simulated) decision adds nothing, not even an empty hash field.
    await usage.addSpend("k3", 0, march);
    expect(await usage.months(["k1", "k2", "k3"], march)).toEqual(
      new Map([
        ["k1", { requests: 2, spend_usd: 0.012500001 }],
        ["k2", { requests: 1, spend_usd: 0 }],
        ["k3", { requests: 0, spend_usd: 0 }],
      ]),
    );
    expect(await usage.spendUsd("k1", march)).toBe(0.012500001);
    expect(await usage.months([], march)).toEqual(new Map());
  });

  it("loses no call and no cent when many replicas count at once, through several connections", async () => {
    const others = [redis.duplicate(), redis.duplicate()];
    try {
      const usages = [redis, ...others].map((connection) => new ApiKeyUsage(connection, prefix));
      await Promise.all(
        Array.from({ length: 300 }, (_, i) => (i % 2 === 0 ? usages[i % 3]!.countRequest("racer", march) : usages[i % 3]!.addSpend("racer", 0.0017, march))),
      );
      const month = (await usages[0]!.months(["racer"], march)).get("racer")!;
      expect(month.requests).toBe(150);
      // 150 × $0.0017, exactly: whole nano-dollars add without the drift of floating-point sums.
      expect(month.spend_usd).toBe(0.255);
    } finally {
      for (const connection of others) connection.disconnect();
    }
  });

  it("starts again each calendar month (UTC) and forgets a month a day after it ends", async () => {
    const usage = new ApiKeyUsage(redis, prefix);
    await usage.addSpend("monthly", 2, new Date("2099-03-31T23:59:59.999Z"));
    await usage.addSpend("monthly", 3, new Date("2099-04-01T00:00:00.000Z"));
    expect(await usage.spendUsd("monthly", new Date("2099-03-15T00:00:00Z"))).toBe(2);
    expect(await usage.spendUsd("monthly", new Date("2099-04-15T00:00:00Z"))).toBe(3);
    expect(await redis.pexpiretime(`${prefix}:api-key-usage:monthly:2099-03`)).toBe(Date.parse("2099-04-02T00:00:00.000Z"));
  });
});
