import { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { AGGREGATE_QUEUE, voteQueueName } from "@sd/contracts";

const STATES = ["waiting", "active", "delayed", "failed", "waiting-children"] as const;
export type QueueCounts = Record<string, Record<(typeof STATES)[number], number>>;

/** Reads job counts of the aggregate queue and each provider's vote queue (for /metrics and /ready). */
export class QueueInspector {
  private readonly queues: Queue[];

  constructor(connection: Redis, prefix: string, providers: readonly string[]) {
    this.queues = [AGGREGATE_QUEUE, ...providers.map(voteQueueName)].map((name) => new Queue(name, { connection, prefix }));
  }

  async counts(): Promise<QueueCounts> {
    const entries = await Promise.all(
      this.queues.map(async (queue) => [queue.name, await queue.getJobCounts(...STATES)] as const),
    );
    return Object.fromEntries(entries) as QueueCounts;
  }

  async close(): Promise<void> {
    await Promise.all(this.queues.map((q) => q.close()));
  }
}
