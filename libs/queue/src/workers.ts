import { Worker, type Processor, type WorkerListener, type WorkerOptions } from "bullmq";
import type { Redis } from "ioredis";

export interface WorkerSettings {
  connection: Redis;
  prefix: string;
  /** Jobs of the queue run at once in this process. */
  concurrency: number;
  /** A job whose worker stops renewing its lock for this long is handed to another worker. */
  lockMs: number;
  backoffStrategy?: NonNullable<WorkerOptions["settings"]>["backoffStrategy"];
}

/**
 * Job slots per BullMQ worker, and the most workers one queue gets in a process. A BullMQ worker
 * fetches its jobs one at a time (one round trip to Redis each, on purpose: it spares Redis useless
 * fetches), so when a burst of N jobs lands, the last one waits N round trips, each behind whatever
 * else the event loop is doing. With one worker of concurrency 100 per queue, a vote job waited
 * 50-100 ms at p50 to start under a burst of 100 decisions; with four of 25, 20-30 ms, and two of
 * 50 gained nothing. Several workers on the same queue fetch side by side (BullMQ wakes the next
 * one while jobs are waiting), so what matters is how many fetch, not how many slots each holds:
 * past four, more workers only add idle blocking connections, and the slots are shared among four.
 */
const SLOTS_PER_WORKER = 25;
const MAX_WORKERS_PER_QUEUE = 4;

type Listeners<Data, Result> = WorkerListener<Data, Result, string>;

/**
 * The workers of one queue in this process, `concurrency` job slots between them (see
 * `SLOTS_PER_WORKER`: 100 slots are four workers of 25, 256 four of 64), seen as one: a listener hears every worker, `close` closes them all.
 */
export class WorkerPool<Data, Result> {
  readonly #workers: Worker<Data, Result, string>[];

  constructor(queueName: string, processor: Processor<Data, Result, string>, settings: WorkerSettings) {
    const count = Math.min(MAX_WORKERS_PER_QUEUE, Math.ceil(settings.concurrency / SLOTS_PER_WORKER));
    this.#workers = Array.from(
      { length: count },
      (_, i) =>
        new Worker<Data, Result, string>(queueName, processor, {
          connection: settings.connection,
          prefix: settings.prefix,
          // The slots shared out as evenly as they go: 100 as 25 x 4, 53 as 18 + 18 + 17.
          concurrency: Math.floor(settings.concurrency / count) + (i < settings.concurrency % count ? 1 : 0),
          lockDuration: settings.lockMs,
          stalledInterval: settings.lockMs,
          maxStalledCount: 2,
          settings: settings.backoffStrategy ? { backoffStrategy: settings.backoffStrategy } : undefined,
        }),
    );
  }

  on<E extends keyof Listeners<Data, Result>>(event: E, listener: Listeners<Data, Result>[E]): this {
    for (const worker of this.#workers) worker.on(event, listener);
    return this;
  }

  async waitUntilReady(): Promise<void> {
    await Promise.all(this.#workers.map((worker) => worker.waitUntilReady()));
  }

  /** Stops taking jobs and waits for those running (`force`: does not wait; their locks expire and they stall). */
  async close(force = false): Promise<void> {
    await Promise.all(this.#workers.map((worker) => worker.close(force)));
  }

  /** How many BullMQ workers serve the queue here. */
  get size(): number {
    return this.#workers.length;
  }
}

/** The queue's workers with the project's stall handling: a crashed worker's job is retried elsewhere. */
export function createWorker<Data, Result>(queueName: string, processor: Processor<Data, Result, string>, settings: WorkerSettings): WorkerPool<Data, Result> {
  return new WorkerPool(queueName, processor, settings);
}
