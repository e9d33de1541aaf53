import { allKeysPattern, type Redis } from "@sd/queue";
import type { Store } from "@sd/store";

/**
 * What a deployment holds, to show that refused requests wrote nothing: the number of documents
 * of each store collection, the fuzzed user's keys and images, and every Redis key under the
 * deployment's prefix with its remaining life. Rate-limit counters (`<prefix>:rate:*`) are left
 * out: counting refused requests is their job.
 */
export interface WriteSnapshot {
  takenAt: number;
  counts: Record<string, number>;
  /** The user's API keys (id and on/off) and image assets (ids). */
  owned: string;
  /** Redis key -> PTTL at the snapshot (-1: no expiry). */
  keys: Map<string, number>;
}

/**
 * BullMQ's workers set this key for one stalled-check interval and set it again at the next check:
 * it comes and goes with time, not with requests.
 */
const HOUSEKEEPING = /:stalled-check$/;

export async function takeSnapshot(store: Store, redis: Redis, prefix: string, userId: string): Promise<WriteSnapshot> {
  const counts = {
    decisions: await store.decisions.count(),
    imageAssets: await store.imageAssets.count(),
    users: await store.users.count(),
    apiKeys: await store.apiKeys.count(),
    waitlist: await store.waitlist.count(),
    jobApplications: await store.applications.count(),
    userBatches: (await store.batches.listForUser(userId, { limit: 1, offset: 0 })).total,
  };
  const keysOwned = (await store.apiKeys.listForUser(userId)).map((k) => `${k.id}:${k.active_status}`);
  const assetsOwned = (await store.imageAssets.listForUser(userId, 200)).map((a) => a.id);
  const names: string[] = [];
  for await (const batch of redis.scanStream({ match: allKeysPattern(prefix), count: 1000 }) as AsyncIterable<string[]>) {
    names.push(...batch.filter((key) => !key.startsWith(`${prefix}:rate:`) && !HOUSEKEEPING.test(key)));
  }
  const ttls = names.length === 0 ? [] : ((await names.reduce((pipeline, key) => pipeline.pttl(key), redis.pipeline()).exec()) ?? []);
  const keys = new Map(names.map((key, i) => [key, Number(ttls[i]?.[1] ?? -1)]));
  return { takenAt: Date.now(), counts, owned: JSON.stringify({ keys: keysOwned.sort(), assets: assetsOwned.sort() }), keys };
}

/** Every difference between two snapshots that a write made; keys that simply expired in between are not one. */
export function writesBetween(before: WriteSnapshot, after: WriteSnapshot): string[] {
  const writes: string[] = [];
  for (const [name, count] of Object.entries(after.counts)) {
    if (before.counts[name] !== count) writes.push(`${name}: ${before.counts[name]} documents before, ${count} after`);
  }
  if (before.owned !== after.owned) writes.push(`the user's API keys or images changed: ${before.owned} -> ${after.owned}`);
  for (const key of after.keys.keys()) if (!before.keys.has(key)) writes.push(`Redis key added: ${key}`);
  const elapsed = after.takenAt - before.takenAt;
  for (const [key, ttl] of before.keys) {
    const couldExpire = ttl >= 0 && ttl <= elapsed + 1000;
    if (!after.keys.has(key) && !couldExpire) writes.push(`Redis key removed: ${key}`);
  }
  return writes;
}
