import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { CallCancels } from "./call-cancels";
import { createRedis } from "./redis";

const redis = createRedis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", "call-cancels-test");
afterAll(() => redis.disconnect());

describe("cancelling a decision's calls when its client goes away", () => {
  it("marks the decision for the votes not yet asked and tells every listener, once per cancel", async () => {
    const prefix = `sdtest-cancels-${randomUUID().slice(0, 8)}`;
    const gateway = new CallCancels(redis, prefix);
    const worker = new CallCancels(redis, prefix);
    const heard: string[] = [];
    let heardBoth!: () => void;
    const both = new Promise<void>((resolve) => (heardBoth = resolve));
    await worker.listen((decisionId) => {
      heard.push(decisionId);
      if (heard.length === 2) heardBoth();
    });
    try {
      expect(await worker.isCancelled("d1")).toBe(false);
      await gateway.cancel("d1");
      await gateway.cancel("d2");
      await both;
      expect(heard).toEqual(["d1", "d2"]);
      expect(await worker.isCancelled("d1")).toBe(true);
      expect(await worker.isCancelled("d3")).toBe(false);
      // The mark outlives any decision, then goes.
      expect(await redis.ttl(`${prefix}:cancelled:d1`)).toBeGreaterThan(3000);
    } finally {
      await worker.close();
      await redis.del(`${prefix}:cancelled:d1`, `${prefix}:cancelled:d2`);
    }
  });
});
