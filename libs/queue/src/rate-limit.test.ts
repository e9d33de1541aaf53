import { randomUUID } from "node:crypto";
import { Queue } from "bullmq";
import { afterAll, describe, expect, it } from "vitest";
import { QueueInspector } from "./queue-depth";
import { QueueRateLimited, readRateLimit } from "./rate-limit";
import { createRedis, deleteDeploymentKeys } from "./redis";
import { createWorker, type WorkerPool, type WorkerSettings } from "./workers";

/*
 * BullMQ's limiter counts and expires in Redis, on Redis's clock, so a fake clock here could not
 * move it: these tests use short real windows and pauses, wait for events, and check the times at
 * which jobs started against them (Redis and this process share the machine's clock).
 */

const redis = createRedis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", "rate-limit-test");
const prefixes: string[] = [];
afterAll(async () => {
  for (const prefix of prefixes) await deleteDeploymentKeys(redis, prefix);
  redis.disconnect();
});

/** Between the limiter letting a job start in Redis and its processor running, and timer rounding. */
const SLACK_MS = 25;

/** A queue of its own (own key prefix) and the settings of pools on it. */
function deployment(name: string) {
  const prefix = `sdtest-ratelimit-${randomUUID().slice(0, 8)}`;
  prefixes.push(prefix);
  const queue = new Queue(name, { connection: redis, prefix });
  const settings = (extra: Partial<WorkerSettings> = {}): WorkerSettings => ({ connection: redis, prefix, concurrency: 3, lockMs: 30_000, ...extra });
  return { prefix, queue, settings };
}

/** Resolves once `count` jobs have completed, across the given pools. */
function completions(pools: readonly WorkerPool<unknown, string>[], count: number): Promise<void> {
  let done = 0;
  return new Promise((resolve) => {
    for (const pool of pools) pool.on("completed", () => ++done === count && resolve());
  });
}

interface Start {
  pool: string;
  job: string;
  at: number;
  attemptsMade: number;
}

describe("a queue's rate limit, shared by every worker pool on it", () => {
  it("starts at most `max` jobs per window in total, however many pools (processes) take them", async () => {
    const MAX = 3;
    const WINDOW_MS = 1000;
    const { queue, settings } = deployment("limited");
    const starts: Start[] = [];
    // Each pool holds its jobs until both have started one, so both compete in the first window.
    let bothStarted!: () => void;
    const both = new Promise<void>((resolve) => (bothStarted = resolve));
    const processor = (pool: string) => async (job: { id?: string; attemptsMade: number }) => {
      starts.push({ pool, job: job.id!, at: Date.now(), attemptsMade: job.attemptsMade });
      if (new Set(starts.map((s) => s.pool)).size === 2) bothStarted();
      await both;
      return pool;
    };
    const limit = { rateLimit: { max: MAX, durationMs: WINDOW_MS } };
    const pools = ["a", "b"].map((name) => createWorker<unknown, string>("limited", processor(name), settings(limit)));
    try {
      await Promise.all(pools.map((pool) => pool.waitUntilReady()));
      const total = 3 * MAX;
      const finished = completions(pools, total);
      await queue.addBulk(Array.from({ length: total }, (_, i) => ({ name: "limited", data: {}, opts: { jobId: `j${i}` } })));
      await finished;

      const at = starts.map((s) => s.at).sort((x, y) => x - y);
      expect(at).toHaveLength(total);
      // Each window opens with its first job: the (MAX+1)th job starts a window after the first, the (2 MAX+1)th two.
      expect(at[MAX]! - at[0]!).toBeGreaterThanOrEqual(WINDOW_MS - SLACK_MS);
      expect(at[2 * MAX]! - at[0]!).toBeGreaterThanOrEqual(2 * WINDOW_MS - SLACK_MS);
      expect(at.filter((t) => t < at[0]! + WINDOW_MS - SLACK_MS)).toHaveLength(MAX);
      // Both pools took jobs, so the limit was their total, not each one's.
      expect(new Set(starts.map((s) => s.pool))).toEqual(new Set(["a", "b"]));
    } finally {
      await Promise.all(pools.map((pool) => pool.close()));
      await queue.close();
    }
  });

  it("a processor's QueueRateLimited pauses the queue for every pool; the job runs again after it without using an attempt", async () => {
    const PAUSE_MS = 800;
    const { queue, settings } = deployment("throttled");
    const starts: Start[] = [];
    let throttledAt = 0;
    let throttled!: () => void;
    const throttle = new Promise<void>((resolve) => (throttled = resolve));
    let bothStarted!: () => void;
    const both = new Promise<void>((resolve) => (bothStarted = resolve));
    const processor = (pool: string) => async (job: { id?: string; attemptsMade: number }) => {
      if (job.id === "first" && throttledAt === 0) {
        throttledAt = Date.now();
        throttled();
        throw new QueueRateLimited(PAUSE_MS, new Error("429 Too Many Requests"));
      }
      starts.push({ pool, job: job.id!, at: Date.now(), attemptsMade: job.attemptsMade });
      if (new Set(starts.map((s) => s.pool)).size === 2) bothStarted();
      await both;
      return pool;
    };
    // One job at a time each: while one pool holds a job, the next can only go to the other.
    const pools = ["a", "b"].map((name) => createWorker<unknown, string>("throttled", processor(name), settings({ concurrency: 1 })));
    const failed: string[] = [];
    for (const pool of pools) pool.on("failed", ({ jobId }) => failed.push(jobId ?? "?"));
    try {
      await Promise.all(pools.map((pool) => pool.waitUntilReady()));
      const finished = completions(pools, 5);
      await queue.add("throttled", {}, { jobId: "first", attempts: 2 });
      await throttle;
      // Back to wait: the pause is set before BullMQ moves the job back.
      await expect.poll(() => queue.getJobState("first")).toBe("waiting");
      const paused = await readRateLimit(queue, null);
      expect(paused).toMatchObject({ cause: "paused", max: null });
      expect(paused!.msLeft).toBeGreaterThan(0);
      expect(paused!.msLeft).toBeLessThanOrEqual(PAUSE_MS);
      // Jobs added during the pause wait for it too, in both pools.
      await queue.addBulk(Array.from({ length: 4 }, (_, i) => ({ name: "throttled", data: {}, opts: { jobId: `later${i}` } })));
      await finished;

      for (const start of starts) expect(start.at, start.job).toBeGreaterThanOrEqual(throttledAt + PAUSE_MS - SLACK_MS);
      expect(new Set(starts.map((s) => s.pool))).toEqual(new Set(["a", "b"]));
      // The run after the pause is still the first attempt; its success is the one attempt counted.
      expect(starts.find((s) => s.job === "first")?.attemptsMade).toBe(0);
      const first = await queue.getJob("first");
      expect(first?.attemptsMade).toBe(1);
      expect(first?.attemptsStarted).toBe(2);
      expect(failed).toEqual([]);
      expect(await readRateLimit(queue, null)).toBeNull();
    } finally {
      await Promise.all(pools.map((pool) => pool.close()));
      await queue.close();
    }
  });

  it("refuses a limit BullMQ would silently ignore, which would also ignore every pause", async () => {
    const { queue, settings } = deployment("misconfigured");
    for (const max of [0, 2.5, Number.NaN, undefined as unknown as number]) {
      expect(() => createWorker<unknown, string>("misconfigured", async () => "done", settings({ rateLimit: { max, durationMs: 60_000 } })), String(max)).toThrow(
        /^misconfigured: a rate limit needs a whole positive max/,
      );
    }
    await queue.close();
  });

  it("is read by the queue inspector: a used-up window is told from a pause, and a window with room is neither", async () => {
    const { prefix, queue, settings } = deployment("vote-openai");
    const inspector = new QueueInspector(redis, prefix, ["openai"], { openai: 2 });
    // A minute's window, as <ID>_RPM sets: nothing here waits for it to end.
    const pool = createWorker<unknown, string>("vote-openai", async () => "done", settings({ rateLimit: { max: 2, durationMs: 60_000 } }));
    try {
      await pool.waitUntilReady();
      const one = completions([pool], 1);
      await queue.add("vote", {});
      await one;
      expect((await inspector.activity())["vote-openai"]?.rateLimit).toBeNull();
      const two = completions([pool], 1);
      await queue.add("vote", {});
      await two;
      const full = (await inspector.activity())["vote-openai"]?.rateLimit;
      expect(full).toMatchObject({ cause: "full", max: 2 });
      expect(full!.msLeft).toBeGreaterThan(50_000);
      expect(full!.msLeft).toBeLessThanOrEqual(60_000);
      expect((await inspector.activity())["decision-aggregate"]?.rateLimit).toBeNull();
    } finally {
      await pool.close();
      await inspector.close();
      await queue.close();
    }
  });
});
