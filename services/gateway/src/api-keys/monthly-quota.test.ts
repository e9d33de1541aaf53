import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { createRedis } from "@sd/queue";
import { MonthlyQuota, nextPeriodStart, periodStart, usagePeriod } from "./monthly-quota";

const redis = createRedis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", "monthly-quota-test");
const prefix = `sdtest-quota-${randomUUID().slice(0, 8)}`;
afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

// Months ahead of now: a counter expires a day after its month, and Redis drops a key whose expiry has passed.
const at = (iso: string) => new Date(iso);

describe("MonthlyQuota (Redis)", () => {
  it("counts requests up to the quota and refuses past it, counting nothing more", async () => {
    const quota = new MonthlyQuota(redis, prefix, 3);
    const now = at("2099-03-10T12:00:00Z");
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await quota.consume("A", now));
    expect(answers).toEqual([true, true, true, false, false]);
    expect(await quota.used("A", now)).toBe(3);
    expect(await quota.used("B", now)).toBe(0);
    expect(await quota.consume("B", now)).toBe(true);
  });

  it("never counts past the quota when many requests race, through several connections (as several gateways)", async () => {
    const others = [redis.duplicate(), redis.duplicate()];
    try {
      const quotas = [redis, ...others].map((connection) => new MonthlyQuota(connection, prefix, 25));
      const now = at("2099-03-10T12:00:00Z");
      const answers = await Promise.all(Array.from({ length: 90 }, (_, i) => quotas[i % 3]!.consume("racer", now)));
      expect(answers.filter(Boolean)).toHaveLength(25);
      expect(await quotas[0]!.used("racer", now)).toBe(25);
    } finally {
      for (const connection of others) connection.disconnect();
    }
  });

  it("starts again each calendar month in UTC, and forgets a month a day after it ends", async () => {
    const quota = new MonthlyQuota(redis, prefix, 1);
    const lastInstantOfMarch = at("2099-03-31T23:59:59.999Z");
    const april = at("2099-04-01T00:00:00.000Z");
    expect(await quota.consume("C", lastInstantOfMarch)).toBe(true);
    expect(await quota.consume("C", lastInstantOfMarch)).toBe(false);
    expect(await quota.consume("C", april)).toBe(true);
    expect([await quota.used("C", lastInstantOfMarch), await quota.used("C", april)]).toEqual([1, 1]);
    expect(await redis.pexpiretime(`${prefix}:api-quota:C:2099-03`)).toBe(Date.parse("2099-04-02T00:00:00.000Z"));

    expect(usagePeriod(lastInstantOfMarch)).toBe("2099-03");
    expect(periodStart(lastInstantOfMarch)).toEqual(at("2099-03-01T00:00:00.000Z"));
    expect(nextPeriodStart(at("2099-12-15T08:00:00Z"))).toEqual(at("2100-01-01T00:00:00.000Z"));
  });
});
