import { Redis } from "ioredis";

/**
 * A Redis connection as BullMQ wants it: commands wait for a reconnect instead of failing
 * (`maxRetriesPerRequest: null`), so a Redis restart pauses work rather than losing it.
 */
export function createRedis(url: string, name: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, connectionName: name, lazyConnect: false });
}

/** Fails fast, with instructions, when Redis is not reachable at start. */
export async function assertRedisReachable(url: string, timeoutMs = 3000): Promise<void> {
  const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: timeoutMs });
  probe.on("error", () => undefined); // the failure is reported by connect() below
  try {
    await probe.connect();
    await probe.ping();
  } catch (error) {
    throw new Error(
      `Redis is not reachable at ${url} (${(error as Error).message}).\n` +
        "Start one with `redis-server --daemonize yes` (or `docker run -p 6379:6379 redis:7`), " +
        "or set REDIS_URL to a running Redis.",
      { cause: error },
    );
  } finally {
    probe.disconnect();
  }
}
