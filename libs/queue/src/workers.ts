import { Worker, type Processor, type WorkerOptions } from "bullmq";
import type { Redis } from "ioredis";

export interface WorkerSettings {
  connection: Redis;
  prefix: string;
  concurrency: number;
  /** A job whose worker stops renewing its lock for this long is handed to another worker. */
  lockMs: number;
  backoffStrategy?: NonNullable<WorkerOptions["settings"]>["backoffStrategy"];
}

/** A BullMQ worker with the project's stall handling: a crashed worker's job is retried elsewhere. */
export function createWorker<Data, Result>(queueName: string, processor: Processor<Data, Result>, settings: WorkerSettings): Worker<Data, Result> {
  return new Worker<Data, Result>(queueName, processor, {
    connection: settings.connection,
    prefix: settings.prefix,
    concurrency: settings.concurrency,
    lockDuration: settings.lockMs,
    stalledInterval: settings.lockMs,
    maxStalledCount: 2,
    settings: settings.backoffStrategy ? { backoffStrategy: settings.backoffStrategy } : undefined,
  });
}
