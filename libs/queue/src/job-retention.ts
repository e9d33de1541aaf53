import type { JobsOptions, Queue } from "bullmq";

/** How long the pipeline's finished jobs stay in Redis (for the queue board, and a late gateway reading an outcome). */
export interface JobRetention {
  completedMs: number;
  failedMs: number;
  /** How often the process that works a queue removes the finished jobs past their time. */
  sweepIntervalMs: number;
}

export const JOB_RETENTION: JobRetention = { completedMs: 3600_000, failedMs: 24 * 3600_000, sweepIntervalMs: 5 * 60_000 };
/** Completed jobs each queue keeps at most, however recent. */
const KEEP_COMPLETED = 5000;
/** Jobs one sweep removes per script call: each call is one Lua script, which blocks Redis while it runs. */
const SWEEP_BATCH = 1000;

/** The removal options every job of the pipeline is added with. */
export function retentionJobOptions(): Pick<JobsOptions, "removeOnComplete" | "removeOnFail"> {
  return {
    removeOnComplete: { age: JOB_RETENTION.completedMs / 1000, count: KEEP_COMPLETED },
    removeOnFail: { age: JOB_RETENTION.failedMs / 1000 },
  };
}

/**
 * Removes `queue`'s finished jobs past their retention every `sweepIntervalMs`. BullMQ applies
 * `removeOnComplete` only when a later job of the queue finishes, so on a deployment that went
 * quiet the last hour's jobs (and their images' keys) would stay in Redis indefinitely.
 * Returns a function that stops the sweeps.
 */
export function sweepFinishedJobs(queue: Queue, retention: JobRetention = JOB_RETENTION): () => void {
  let sweeping = false;
  const sweep = async () => {
    if (sweeping) return;
    sweeping = true;
    try {
      for (const [state, grace] of [["completed", retention.completedMs], ["failed", retention.failedMs]] as const) {
        while ((await queue.clean(grace, SWEEP_BATCH, state)).length === SWEEP_BATCH);
      }
    } catch {
      // Redis away or busy: the next sweep tries again, and BullMQ's own removal goes on meanwhile.
    } finally {
      sweeping = false;
    }
  };
  const timer = setInterval(() => void sweep(), retention.sweepIntervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
