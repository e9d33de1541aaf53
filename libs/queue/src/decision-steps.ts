import { Queue, WaitingChildrenError, type Job } from "bullmq";
import type { Redis } from "ioredis";
import { voteQueueName, type Vote, type VoteJob } from "@sd/contracts";
import { voteJobOptions } from "./vote-policy";
import { votePriorityOf } from "./decision-lanes";

const withPriority = (priority: number | undefined) => (priority !== undefined ? { priority } : {});

/** What the calls of an aggregate job came to so far, by job id. */
export interface FinishedCalls<Result> {
  /** What each call's worker returned. */
  returned: Map<string, Result>;
  /** Why each call that failed for good failed (its last error). */
  failed: Map<string, string>;
}

/**
 * The finished calls of `parent` (an aggregate job) by job id. BullMQ names a child by its job key
 * (`<prefix>:<queue>:<job id>`); the aggregator only knows job ids, so the keys end here.
 */
export async function finishedCalls<Result>(parent: Job): Promise<FinishedCalls<Result>> {
  const [values, failures] = await Promise.all([parent.getChildrenValues<Result>(), parent.getIgnoredChildrenFailures()]);
  const jobIdOf = (key: string) => key.slice(key.lastIndexOf(":") + 1);
  return {
    returned: new Map(Object.entries(values).map(([key, value]) => [jobIdOf(key), value])),
    failed: new Map(Object.entries(failures).map(([key, reason]) => [jobIdOf(key), reason])),
  };
}

/** A vote (or a judge's verdict) a decision needs next, with the job id that makes asking twice harmless. */
export interface NextCall {
  jobId: string;
  data: VoteJob;
}

/**
 * What an aggregate processor may do with the decision it runs, without seeing the queue's job
 * (its lock token stays here).
 */
export interface AggregateRun {
  /** The calls of the decision that are finished, by job id. */
  finishedCalls(): Promise<FinishedCalls<Vote>>;
  /**
   * Adds `calls` to the decision and waits for them: throws (the job is parked until they are in,
   * then runs again) unless they are all finished already, in which case it returns.
   */
  askMore(calls: readonly NextCall[]): Promise<void>;
}

/** The `AggregateRun` of one run of an aggregate job; asking for more needs `steps`. */
export function aggregateRun(job: Job, token: string, steps: DecisionSteps | undefined): AggregateRun {
  return {
    finishedCalls: () => finishedCalls<Vote>(job),
    askMore: async (calls) => {
      if (!steps) throw new Error("this aggregate worker was given no DecisionSteps: it cannot ask for more calls");
      await steps.ask(job, token, calls);
    },
  };
}

/**
 * The aggregator's way to take a decision a step further (a gossip round, the judge): it adds the
 * calls as children of the running aggregate job, on each provider's own queue, then parks the job
 * until they are in; BullMQ runs it again then, and the aggregator replays the decision from all
 * its children. Job ids derive from the decision, provider and round, so a replay after a crash
 * adds nothing twice.
 */
export class DecisionSteps {
  private readonly queues = new Map<string, Queue<VoteJob>>();

  constructor(
    private readonly connection: Redis,
    private readonly prefix: string,
    private readonly voteAttempts: number,
  ) {}

  /**
   * Adds `calls` to the decision of `parent` and waits for them: throws BullMQ's
   * WaitingChildrenError (the job is parked, not failed) unless they are all finished already, in
   * which case it returns and the caller reads them at once.
   */
  async ask(parent: Job, token: string, calls: readonly NextCall[]): Promise<void> {
    await Promise.all(
      calls.map((call) =>
        this.queue(call.data.provider).add("vote", call.data, {
          jobId: call.jobId,
          parent: { id: parent.id!, queue: parent.queueQualifiedName },
          ...voteJobOptions(this.voteAttempts),
          // A batch decision's later calls keep its lane's lower priority.
          ...withPriority(votePriorityOf(parent.opts.priority)),
        }),
      ),
    );
    if (await parent.moveToWaitingChildren(token)) throw new WaitingChildrenError();
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((queue) => queue.close()));
  }

  private queue(provider: string): Queue<VoteJob> {
    let queue = this.queues.get(provider);
    if (!queue) {
      queue = new Queue<VoteJob>(voteQueueName(provider), { connection: this.connection, prefix: this.prefix });
      this.queues.set(provider, queue);
    }
    return queue;
  }
}
