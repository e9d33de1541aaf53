import { Redis } from "ioredis";
import { coalesceWrites } from "./coalesced-writes";
import { allKeysPattern } from "./queue-keys";

/** Reconnect delay after the n-th failed attempt: quick at first, then every 2 s for as long as Redis is away. */
const reconnectDelay = (attempt: number) => Math.min(attempt * 200, 2000);

/**
 * A connection for work that should wait out a Redis restart rather than fail (workers, the
 * aggregator, the stream reader that waits for results, live progress): commands wait for the
 * reconnect (`maxRetriesPerRequest: null`, as BullMQ requires for blocking connections).
 */
export function createRedis(url: string, name: string): Redis {
  return coalesceWrites(new Redis(url, { maxRetriesPerRequest: null, connectionName: name, lazyConnect: false, retryStrategy: reconnectDelay }));
}

/**
 * A connection for the request path (the gateway's HTTP handlers): while Redis is unreachable a
 * command fails at once (no offline queue) or after `commandTimeoutMs` (Redis hung), so a client
 * gets a 503 in about a second instead of a request that hangs for the outage. It keeps
 * reconnecting in the background, so everything works again as soon as Redis is back.
 */
export function createRequestRedis(url: string, name: string, commandTimeoutMs: number): Redis {
  return coalesceWrites(
    new Redis(url, {
      connectionName: name,
      lazyConnect: false,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: commandTimeoutMs,
      connectTimeout: Math.max(1000, commandTimeoutMs),
      retryStrategy: reconnectDelay,
    }),
  );
}

const DELETE_IF_EQUAL = `if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) else return 0 end`;

/**
 * Deletes `key` only while it still holds `value`, in one atomic step: a claim is released by the
 * request that made it, never one a later request made after it expired. True when it was deleted.
 */
export async function deleteIfEqual(redis: Redis, key: string, value: string): Promise<boolean> {
  return (await redis.eval(DELETE_IF_EQUAL, 1, key, value)) === 1;
}

/**
 * Deletes every key of the deployment whose QUEUE_PREFIX is `prefix` (its jobs, live events,
 * boards and counters are all under it): for benchmarks and tests that are done with one. SCAN,
 * not KEYS, so a Redis shared with others is not blocked while it looks.
 */
export async function deleteDeploymentKeys(redis: Redis, prefix: string): Promise<void> {
  for await (const keys of redis.scanStream({ match: allKeysPattern(prefix), count: 1000 }) as AsyncIterable<string[]>) {
    if (keys.length > 0) await redis.unlink(...keys);
  }
}

/**
 * Calls `handler` each time `redis` is ready again after it lost its connection, but not when it
 * first connects: nothing that depends on it can have happened before then (a reaction to the
 * first "ready", racing the first commands, would look at a world that is only starting). Returns
 * a function that stops listening.
 */
export function onReconnect(redis: Redis, handler: () => void): () => void {
  // "reconnecting": it was connected before (or its first attempt failed: then one harmless extra call).
  let connectedBefore = redis.status === "ready" || redis.status === "reconnecting";
  const listener = () => {
    if (connectedBefore) handler();
    connectedBefore = true;
  };
  redis.on("ready", listener);
  return () => void redis.off("ready", listener);
}

/** Resolves once the connection is ready for commands (a request-path connection refuses them until then). */
export function whenReady(redis: Redis): Promise<void> {
  if (redis.status === "ready") return Promise.resolve();
  return new Promise((resolve) => redis.once("ready", () => resolve()));
}

/**
 * A connection like `connection` but patient (see `createRedis`): for blocking reads such as
 * BullMQ's QueueEvents, which a command timeout would cut and which must resume after an outage.
 */
export function patientDuplicate(connection: Redis, name: string): Redis {
  return coalesceWrites(connection.duplicate({ connectionName: name, enableOfflineQueue: true, maxRetriesPerRequest: null, commandTimeout: undefined }));
}

/** Texts ioredis rejects a command with when Redis cannot be reached (it gives these errors no code). */
const UNREACHABLE_MESSAGES = [
  "Stream isn't writeable and enableOfflineQueue options is false",
  "Command timed out",
  "Connection is closed.",
];
const UNREACHABLE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENOTFOUND"]);

/** Whether `error` (or its cause) means Redis could not be reached, as opposed to a bug or a refused command. */
export function isRedisUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    if (current.name === "MaxRetriesPerRequestError") return true;
    if (UNREACHABLE_MESSAGES.some((text) => current instanceof Error && current.message.startsWith(text))) return true;
    const code = (current as NodeJS.ErrnoException).code;
    if (code !== undefined && UNREACHABLE_CODES.has(code)) return true;
  }
  return false;
}

/** Replies with which Redis refuses a write it would otherwise take: out of `maxmemory`, a failed snapshot, a replica. */
const REFUSED_WRITE = /OOM command not allowed|^MISCONF |^READONLY /;

/**
 * Whether `error` (or its cause, or a command before it in the same transaction) is Redis refusing
 * a write because it is full or cannot persist: the request is fine, the deployment is not.
 */
export function isRedisRefusingWrites(error: unknown): boolean {
  const pending: Array<{ error: unknown; depth: number }> = [{ error, depth: 0 }];
  for (let item = pending.pop(); item; item = pending.pop()) {
    const current = item.error;
    if (!(current instanceof Error) || item.depth > 4) continue;
    if (REFUSED_WRITE.test(current.message)) return true;
    const previous = (current as { previousErrors?: unknown }).previousErrors;
    if (Array.isArray(previous)) pending.push(...previous.slice(0, 10).map((next: unknown) => ({ error: next, depth: item.depth + 1 })));
    pending.push({ error: current.cause, depth: item.depth + 1 });
  }
  return false;
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
