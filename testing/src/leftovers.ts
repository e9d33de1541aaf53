import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * What the test deployments of one test file leave behind: the data directories and Redis key
 * prefixes `testEnv` hands out. `removeLeftovers` deletes them after the file (vitest.config.ts
 * runs it from remove-leftovers.ts): otherwise every run of the suite left some 2,000 keys without
 * a TTL in the developer's Redis and some 75 directories in the temp dir.
 */
const dataDirs = new Set<string>();
const prefixes = new Set<string>();

/** A new empty data directory, removed after the test file. */
export function testDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "sd-test-"));
  dataDirs.add(dir);
  return dir;
}

/** A new Redis key prefix, whose keys are deleted after the test file. */
export function testQueuePrefix(): string {
  const prefix = `sdtest-${randomUUID().slice(0, 8)}`;
  prefixes.add(prefix);
  return prefix;
}

/**
 * Deletes what this file's deployments left: their directories, and their keys in the Redis at
 * `redisUrl` (a deployment pointed at a private Redis left its keys there, which goes with it).
 * Runs after the file's own hooks have stopped its deployments.
 */
export async function removeLeftovers(redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379"): Promise<void> {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  dataDirs.clear();
  if (prefixes.size === 0) return;
  // Loaded here: every test file runs this, and most never load the queue library otherwise.
  const { createRedis, deleteDeploymentKeys } = await import("@sd/queue");
  const redis = createRedis(redisUrl, "test-leftovers");
  try {
    for (const prefix of prefixes) await deleteDeploymentKeys(redis, prefix);
    prefixes.clear();
  } finally {
    redis.disconnect();
  }
}
