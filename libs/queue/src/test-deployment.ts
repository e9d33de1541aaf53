import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { afterAll } from "vitest";
import { createRedis, deleteDeploymentKeys } from "./redis";

/**
 * A Redis connection and a deployment prefix of its own for one test file of this library: after
 * its tests the prefix's keys are deleted and the connection closed.
 */
export function useTestDeployment(name: string): { redis: Redis; prefix: string } {
  const redis = createRedis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", `${name}-test`);
  const prefix = `sdtest-${name}-${randomUUID().slice(0, 8)}`;
  afterAll(async () => {
    await deleteDeploymentKeys(redis, prefix);
    redis.disconnect();
  });
  return { redis, prefix };
}
