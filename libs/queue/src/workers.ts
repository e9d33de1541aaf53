import { Queue, Worker, type Job, type Processor, type WorkerOptions } from "bullmq";
import type { Redis } from "ioredis";
import { JOB_RETENTION, sweepFinishedJobs, type JobRetention } from "./job-retention";
import { NO_RATE_LIMIT, QueueRateLimited, type RateLimit } from "./rate-limit";

export interface WorkerSettings {
  connection: Redis;
  prefix: string;
  /** Jobs of the queue run at once in this process. */
  concurrency: number;
  /** A job whose worker stops renewing its lock for this long is handed to another worker. */
  lockMs: number;
  backoffStrategy?: NonNullable<WorkerOptions["settings"]>["backoffStrategy"];
  /**
   * Jobs the queue may start per window across all its workers, in every process (a vendor key's
   * requests per minute); unset, none. Either way a processor may pause the queue (`QueueRateLimited`).
   */
  rateLimit?: RateLimit;
  /** How long finished jobs are kept and how often they are swept (the pipeline's retention unless a test says otherwise). */
  retention?: JobRetention;
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

/** A job of the pool that finished: plain data, so listeners outside libs/queue never hold BullMQ's job. */
export interface JobCompleted<Data, Result> {
  jobId: string;
  data: Data;
  result: Result;
}

/** A run of a job that failed; `data` and `jobId` are missing when BullMQ no longer had the job. */
export interface JobFailed<Data> {
  jobId: string | undefined;
  data: Data | undefined;
  error: Error;
  /** No attempt is left: the job failed for good and will not run again. */
  final: boolean;
}

/** What a pool's listeners hear. */
export interface WorkerPoolEvents<Data, Result> {
  completed: (event: JobCompleted<Data, Result>) => void;
  failed: (event: JobFailed<Data>) => void;
  /** A worker's own trouble (its connection, a lost lock), not a job's. */
  error: (error: Error) => void;
}

/**
 * The workers of one queue in this process, `concurrency` job slots between them (see
 * `SLOTS_PER_WORKER`: 100 slots are four workers of 25, 256 four of 64), seen as one: a listener hears every worker, `close` closes them all.
 * Every worker has the same limiter (`rateLimit`), which BullMQ counts in Redis for the queue, so
 * the limit holds for all the queue's workers in every process together.
 */
export class WorkerPool<Data, Result> {
  readonly #workers: Worker<Data, Result, string>[];
  /** Sets the queue's pauses (BullMQ's `Queue.rateLimit`; the worker's own is deprecated). */
  readonly #queue: Queue<Data, Result, string>;
  readonly #stopSweeping: () => void;

  constructor(queueName: string, processor: Processor<Data, Result, string>, settings: WorkerSettings) {
    const limit = settings.rateLimit ?? NO_RATE_LIMIT;
    // Without a whole positive max BullMQ would silently drop the limit, and with it every pause.
    if (!Number.isInteger(limit.max) || limit.max < 1 || !(limit.durationMs > 0)) {
      throw new Error(`${queueName}: a rate limit needs a whole positive max and a positive window (got ${limit.max} per ${limit.durationMs} ms)`);
    }
    this.#queue = new Queue<Data, Result, string>(queueName, { connection: settings.connection, prefix: settings.prefix });
    // Its connection is the workers', whose errors the pool's "error" listeners already hear.
    this.#queue.on("error", () => undefined);
    // The process that works a queue also clears its finished jobs, even when no new job comes.
    this.#stopSweeping = sweepFinishedJobs(this.#queue as Queue, settings.retention ?? JOB_RETENTION);
    const count = Math.min(MAX_WORKERS_PER_QUEUE, Math.ceil(settings.concurrency / SLOTS_PER_WORKER));
    const pausable = this.#pausable(processor);
    this.#workers = Array.from(
      { length: count },
      (_, i) =>
        new Worker<Data, Result, string>(queueName, pausable, {
          connection: settings.connection,
          prefix: settings.prefix,
          // The slots shared out as evenly as they go: 100 as 25 x 4, 53 as 18 + 18 + 17.
          concurrency: Math.floor(settings.concurrency / count) + (i < settings.concurrency % count ? 1 : 0),
          lockDuration: settings.lockMs,
          stalledInterval: settings.lockMs,
          maxStalledCount: 2,
          settings: settings.backoffStrategy ? { backoffStrategy: settings.backoffStrategy } : undefined,
          limiter: { max: limit.max, duration: limit.durationMs },
        }),
    );
  }

  /**
   * The processor, with its `QueueRateLimited` turned into a pause of the whole queue: BullMQ then
   * puts the job back to wait without counting an attempt, and no worker of the queue, in any
   * process, starts a job until the pause ends.
   */
  #pausable(processor: Processor<Data, Result, string>): Processor<Data, Result, string> {
    const pauseOn = async (run: () => Promise<Result>): Promise<Result> => {
      try {
        return await run();
      } catch (error) {
        if (!(error instanceof QueueRateLimited)) throw error;
        await this.#queue.rateLimit(error.pauseMs);
        throw Worker.RateLimitError();
      }
    };
    // BullMQ hands a job its AbortSignal only when the processor declares a third parameter.
    return processor.length >= 3
      ? (job, token, signal) => pauseOn(() => processor(job, token, signal))
      : (job, token) => pauseOn(() => processor(job, token));
  }

  on<E extends keyof WorkerPoolEvents<Data, Result>>(event: E, listener: WorkerPoolEvents<Data, Result>[E]): this {
    for (const worker of this.#workers) {
      if (event === "completed") {
        const heard = listener as WorkerPoolEvents<Data, Result>["completed"];
        worker.on("completed", (job: Job<Data, Result, string>, result: Result) => heard({ jobId: job.id!, data: job.data, result }));
      } else if (event === "failed") {
        const heard = listener as WorkerPoolEvents<Data, Result>["failed"];
        // BullMQ stamps `finishedOn` only when the job failed for good; an attempt it retries has none.
        worker.on("failed", (job: Job<Data, Result, string> | undefined, error: Error) =>
          heard({ jobId: job?.id, data: job?.data, error, final: Boolean(job?.finishedOn) }),
        );
      } else {
        worker.on("error", listener as WorkerPoolEvents<Data, Result>["error"]);
      }
    }
    return this;
  }

  async waitUntilReady(): Promise<void> {
    await Promise.all(this.#workers.map((worker) => worker.waitUntilReady()));
  }

  /** Stops taking jobs and waits for those running (`force`: does not wait; their locks expire and they stall). */
  async close(force = false): Promise<void> {
    this.#stopSweeping();
    await Promise.all(this.#workers.map((worker) => worker.close(force)));
    await this.#queue.close();
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
