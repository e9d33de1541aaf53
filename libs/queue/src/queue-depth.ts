import { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { AGGREGATE_QUEUE, voteQueueName } from "@sd/contracts";
import { readRateLimit, type RateLimitState } from "./rate-limit";

const STATES = ["waiting", "active", "delayed", "failed", "waiting-children"] as const;
/**
 * Where a job waits for a worker: aggregate jobs carry a priority (so they leave in arrival order,
 * see decision-flow.ts), and BullMQ keeps prioritized jobs in a set of their own.
 */
const READY_STATES = ["waiting", "prioritized"] as const;
/** The aggregate job's states from enqueue until the decision is written (retries of the write included). */
const IN_FLIGHT_STATES = ["waiting-children", "waiting", "active", "delayed", "prioritized"] as const;
export type QueueCounts = Record<string, Record<(typeof STATES)[number], number>>;

/** What the admin's system health reads about one queue (all measured in Redis, so right across replicas). */
export interface QueueActivity {
  /** Live workers consuming the queue (BullMQ's worker list: one Redis client per worker). */
  workers: number;
  /** Jobs waiting for a worker. */
  waiting: number;
  /** How long the oldest waiting job has waited, in ms at `now`; null with none waiting. */
  oldestWaitingMs: number | null;
  /** Why its workers start no job now (a vendor's pause, or its own limit used up) and for how long; null when they may. */
  rateLimit: RateLimitState | null;
}

/** Reads job counts of the aggregate queue and each provider's vote queue (for /metrics, /ready, system health and live throughput). */
export class QueueInspector {
  private readonly queues: Queue[];
  /** Its unfinished jobs are the decisions in flight: enqueued, not yet written. */
  private readonly aggregate: Queue;
  /** Each vote queue's own limit (its provider's `<ID>_RPM`), to tell a full window from one in which jobs merely ran. */
  private readonly limits: ReadonlyMap<string, number>;

  constructor(connection: Redis, prefix: string, providers: readonly string[], rpm: Readonly<Record<string, number | null>> = {}) {
    this.queues = [AGGREGATE_QUEUE, ...providers.map(voteQueueName)].map((name) => new Queue(name, { connection, prefix }));
    this.aggregate = this.queues[0]!;
    this.limits = new Map(
      Object.entries(rpm)
        .filter((entry): entry is [string, number] => entry[1] !== null)
        .map(([provider, max]) => [voteQueueName(provider), max]),
    );
  }

  /** Jobs waiting for a worker, per queue name. */
  async waiting(): Promise<Record<string, number>> {
    return Object.fromEntries(await Promise.all(this.queues.map(async (queue) => [queue.name, await queue.getJobCountByTypes(...READY_STATES)] as const)));
  }

  /** Decisions enqueued and not yet written: the aggregate queue's unfinished jobs (BullMQ counts them already). */
  async decisionsInFlight(): Promise<number> {
    const counts = await this.aggregate.getJobCounts(...IN_FLIGHT_STATES);
    return Object.values(counts).reduce((sum, count) => sum + count, 0);
  }

  async counts(): Promise<QueueCounts> {
    const entries = await Promise.all(
      this.queues.map(async (queue) => {
        const { prioritized = 0, ...counts } = await queue.getJobCounts(...STATES, "prioritized");
        return [queue.name, { ...counts, waiting: (counts.waiting ?? 0) + prioritized }] as const;
      }),
    );
    return Object.fromEntries(entries) as QueueCounts;
  }

  /** Per queue name: its live workers, waiting jobs, the age of the oldest waiting one and whether its rate limiter holds it. */
  async activity(now: number = Date.now()): Promise<Record<string, QueueActivity>> {
    const entries = await Promise.all(
      this.queues.map(async (queue) => {
        const [workers, waiting, oldestOfEach, rateLimit] = await Promise.all([
          queue.getWorkersCount(),
          queue.getJobCountByTypes(...READY_STATES),
          // Ascending: the job that has waited longest comes first in each.
          Promise.all(READY_STATES.map((state) => queue.getJobs([state], 0, 0, true))),
          readRateLimit(queue, this.limits.get(queue.name) ?? null),
        ]);
        const since = oldestOfEach.flat().map((job) => job.timestamp);
        const oldestWaitingMs = since.length > 0 ? Math.max(0, now - Math.min(...since)) : null;
        return [queue.name, { workers, waiting, oldestWaitingMs, rateLimit }] as const;
      }),
    );
    return Object.fromEntries(entries);
  }

  async close(): Promise<void> {
    await Promise.all(this.queues.map((q) => q.close()));
  }
}
