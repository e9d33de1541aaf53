import { allKeysPattern, type Redis } from "@sd/queue";

/** Every value stored under one key, as text, whatever the key's type. */
async function valuesOf(redis: Redis, key: string): Promise<string[]> {
  switch (await redis.type(key)) {
    case "string":
      return [(await redis.get(key)) ?? ""];
    case "hash":
      return Object.values(await redis.hgetall(key));
    case "list":
      return redis.lrange(key, 0, -1);
    case "set":
      return redis.smembers(key);
    case "zset":
      return redis.zrange(key, 0, -1);
    case "stream":
      return (await redis.xrange(key, "-", "+")).flatMap(([, fields]) => fields);
    default:
      return [];
  }
}

/** Keys under `prefix` (a test deployment's QUEUE_PREFIX) whose values contain `needle` anywhere. */
export async function keysHolding(redis: Redis, prefix: string, needle: string): Promise<string[]> {
  const found: string[] = [];
  for await (const keys of redis.scanStream({ match: allKeysPattern(prefix), count: 500 }) as AsyncIterable<string[]>) {
    for (const key of keys) if ((await valuesOf(redis, key)).some((value) => value.includes(needle))) found.push(key);
  }
  return found.sort();
}

/** The `data` of every BullMQ job under `prefix` (job hashes have a `data` field), by key. */
export async function jobData(redis: Redis, prefix: string): Promise<Map<string, string>> {
  const jobs = new Map<string, string>();
  for await (const keys of redis.scanStream({ match: allKeysPattern(prefix), count: 500 }) as AsyncIterable<string[]>) {
    for (const key of keys) {
      if ((await redis.type(key)) !== "hash") continue;
      const data = await redis.hget(key, "data");
      if (data !== null) jobs.set(key, data);
    }
  }
  return jobs;
}
