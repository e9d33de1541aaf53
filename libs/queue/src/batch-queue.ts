import { Queue, Worker } from "bullmq";
import type { Redis } from "ioredis";
import { patientDuplicate } from "./redis";

/** The queue of batch runs (/v1/batches), apart from the vote and aggregate queues: its keys are `<prefix>:batches:*`. */
export const BATCH_QUEUE = "batches";

/** One job per batch: the runner feeds its lines while the job runs. */
export interface BatchJob {
  batch_id: string;
}

/**
 * A batch's job stays locked while its runner works; a gateway killed holding it loses the lock
 * after this long and BullMQ's stalled-job check hands the batch to a gateway again.
 */
const BATCH_LOCK_MS = 30_000;
/**
 * Stalls a batch survives: every kill -9 of the gateway running it is one. A batch must not fail
 * because its gateways were restarted often; its lines are re-attached on each run.
 */
const MAX_STALLS = 1000;
/** Runs of a batch whose runner threw (the store or Redis away, a gateway stopping): retried after a fixed pause, not failed. */
const BATCH_ATTEMPTS = 1000;
const BATCH_RETRY_MS = 2000;
/** A finished batch's job is kept a day, so `start` again within it adds nothing. */
const KEEP_FINISHED_S = 24 * 3600;

/**
 * Starts batches: `start` adds the batch's one job (its id is the batch id, so starting a batch
 * twice, at acceptance and again by the recovery at start, adds nothing).
 */
export class BatchQueue {
  private readonly queue: Queue<BatchJob>;

  constructor(connection: Redis, prefix: string) {
    this.queue = new Queue<BatchJob>(BATCH_QUEUE, { connection, prefix });
    this.queue.on("error", () => undefined);
  }

  async start(batchId: string): Promise<void> {
    await this.queue.add(
      "batch",
      { batch_id: batchId },
      {
        jobId: batchId,
        attempts: BATCH_ATTEMPTS,
        backoff: { type: "fixed", delay: BATCH_RETRY_MS },
        removeOnComplete: { age: KEEP_FINISHED_S },
        removeOnFail: { age: KEEP_FINISHED_S },
      },
    );
  }

  async close(): Promise<void> {
    await this.queue.close();
  }
}

export interface BatchWorkerSettings {
  connection: Redis;
  prefix: string;
  /** Batches this process runs at once (each with its own BATCH_CONCURRENCY lines in flight). */
  concurrency: number;
  /** A test's shorter lock, so a killed runner's batch is taken again sooner. */
  lockMs?: number;
  onError?: (error: Error) => void;
}

export interface BatchWorker {
  close(): Promise<void>;
}

/**
 * Runs `run(batchId, signal)` for each batch job. `signal` aborts when the worker closes (a
 * gateway shutting down): the runner stops feeding lines and returns, leaving its lines to the
 * next run. Two deliveries of one batch in this process (a stall after a Redis restart while the
 * first run still goes on) wait for each other instead of running side by side.
 */
export function createBatchWorker(run: (batchId: string, signal: AbortSignal) => Promise<void>, settings: BatchWorkerSettings): BatchWorker {
  const running = new Map<string, Promise<void>>();
  const stopping = new AbortController();
  const connection = patientDuplicate(settings.connection, "batches");
  const worker = new Worker<BatchJob>(
    BATCH_QUEUE,
    async (job) => {
      const batchId = job.data.batch_id;
      const earlier = running.get(batchId);
      if (earlier) await earlier.catch(() => undefined);
      const current = run(batchId, stopping.signal);
      running.set(batchId, current);
      try {
        await current;
      } finally {
        if (running.get(batchId) === current) running.delete(batchId);
      }
      // Closing mid-batch: the job must run again, so it does not complete here.
      if (stopping.signal.aborted) throw new Error("the gateway stopped while running this batch");
    },
    {
      connection,
      prefix: settings.prefix,
      concurrency: settings.concurrency,
      lockDuration: settings.lockMs ?? BATCH_LOCK_MS,
      stalledInterval: settings.lockMs ?? BATCH_LOCK_MS,
      maxStalledCount: MAX_STALLS,
    },
  );
  worker.on("error", (error) => settings.onError?.(error));
  return {
    close: async () => {
      stopping.abort();
      await worker.close();
      connection.disconnect();
    },
  };
}
