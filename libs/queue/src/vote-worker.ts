import { voteQueueName, type Vote, type VoteJob } from "@sd/contracts";
import { createWorker, type WorkerPool, type WorkerSettings } from "./workers";

/** Which run of a job this is, so a processor can tell its last attempt (then it answers instead of throwing). */
export interface JobAttempt {
  /** 1 on the first run. */
  number: number;
  /** The most runs the job gets. */
  of: number;
}

/** Asks one model for its vote: the job's data as enqueued (unchecked) and which attempt this is. */
export type VoteProcessor = (data: VoteJob, attempt: JobAttempt) => Promise<Vote>;

/** The workers of a provider's vote queue; the processor never sees the queue's job. */
export function createVoteWorker(provider: string, processor: VoteProcessor, settings: WorkerSettings): WorkerPool<VoteJob, Vote> {
  return createWorker<VoteJob, Vote>(voteQueueName(provider), (job) => processor(job.data, { number: job.attemptsMade + 1, of: job.opts.attempts ?? 1 }), settings);
}
