import { randomUUID } from "node:crypto";
import { Queue } from "bullmq";
import { afterAll, describe, expect, it } from "vitest";
import { createRedis, deleteDeploymentKeys } from "./redis";
import { createWorker, type WorkerPool } from "./workers";

const redis = createRedis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", "workers-test");
const prefixes: string[] = [];
afterAll(async () => {
  for (const prefix of prefixes) await deleteDeploymentKeys(redis, prefix);
  redis.disconnect();
});

/** Resolves once `count` calls of `arrive` were made. */
function barrier(count: number): { arrive: () => void; reached: Promise<void> } {
  let arrived = 0;
  let open!: () => void;
  const reached = new Promise<void>((resolve) => (open = resolve));
  return {
    arrive: () => {
      arrived += 1;
      if (arrived === count) open();
    },
    reached,
  };
}

/**
 * A queue whose jobs each hold their slot until released: what is running at once is exactly
 * what the pool's concurrency lets run.
 */
function heldJobs(concurrency: number) {
  const prefix = `sdtest-workers-${randomUUID().slice(0, 8)}`;
  prefixes.push(prefix);
  const queue = new Queue("held", { connection: redis, prefix });
  const started: string[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const arrivals: { arrive: () => void }[] = [];
  const pool: WorkerPool<unknown, string> = createWorker<unknown, string>(
    "held",
    async (job) => {
      started.push(job.id!);
      for (const a of arrivals) a.arrive();
      await released;
      return `done ${job.id}`;
    },
    { connection: redis, prefix, concurrency, lockMs: 30_000 },
  );
  const whenStarted = (count: number) => {
    const b = barrier(count - started.length);
    arrivals.push(b);
    return b.reached;
  };
  return { queue, pool, started, release, whenStarted };
}

describe("a queue's worker pool", () => {
  it.each([
    { concurrency: 100, workers: 4 },
    { concurrency: 53, workers: 3 },
    { concurrency: 16, workers: 1 },
    { concurrency: 256, workers: 4 },
  ])("runs exactly $concurrency jobs at once with $workers BullMQ worker(s), and each job once", async ({ concurrency, workers }) => {
    const { queue, pool, started, release, whenStarted } = heldJobs(concurrency);
    const completed: string[] = [];
    pool.on("completed", ({ jobId, result }) => completed.push(`${jobId} ${result}`));
    try {
      expect(pool.size).toBe(workers);
      await pool.waitUntilReady();
      const total = concurrency + 5;
      const allRunning = whenStarted(concurrency);
      await queue.addBulk(Array.from({ length: total }, (_, i) => ({ name: "held", data: {}, opts: { jobId: `j${i}` } })));
      // Every slot is taken (all of them, across the workers)...
      await allRunning;
      // ...and no more: the five extra jobs stay waiting while the slots are held.
      expect(await queue.getWaitingCount()).toBe(5);
      expect(started).toHaveLength(concurrency);
      const everyCompletion = new Promise<void>((resolve) => pool.on("completed", () => completed.length === total && resolve()));
      release();
      await everyCompletion;
      // Each job ran once, and a listener on the pool heard every worker's completions.
      expect(new Set(started).size).toBe(total);
      expect(started).toHaveLength(total);
      expect(completed.sort()).toEqual(Array.from({ length: total }, (_, i) => `j${i} done j${i}`).sort());
    } finally {
      await pool.close();
      await queue.close();
    }
  });

  it("closes every one of its workers: none is left waiting for jobs", async () => {
    const { queue, pool } = heldJobs(60);
    /** The connections BullMQ's workers block on, waiting for this queue's jobs (named after the queue). */
    const waiting = async () => {
      const clients = (await redis.client("LIST")) as string;
      return clients.split("\n").filter((line) => line.includes(` name=${queue.opts.prefix}:`) && line.includes("cmd=bzpopmin")).length;
    };
    try {
      await pool.waitUntilReady();
      await expect.poll(waiting).toBe(3);
      await pool.close();
      expect(await waiting()).toBe(0);
    } finally {
      await queue.close();
    }
  });
});
