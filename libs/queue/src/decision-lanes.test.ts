import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { Queue } from "bullmq";
import { AGGREGATE_QUEUE, voteQueueName, type AggregateJob, type DecisionResponse, type VoteJob } from "@sd/contracts";
import { aggregateJob } from "./testing";
import { DecisionFlow } from "./decision-flow";
import { createAggregateWorker } from "./decision-outcomes";
import { createRedis, deleteDeploymentKeys } from "./redis";
import { createWorker, type WorkerPool } from "./workers";

// Real Redis, real BullMQ: the order is BullMQ's, read from what a worker takes.
const redis = createRedis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", "decision-lanes-test");
const prefix = `sdtest-lanes-${randomUUID().slice(0, 8)}`;
const provider = "lane-model";
/** The second test's model: a queue of its own, which the first test's worker does not take from. */
const soloProvider = "lane-model-solo";
const flow = new DecisionFlow(redis, prefix, 1);
const voteQueue = new Queue<VoteJob>(voteQueueName(soloProvider), { connection: redis, prefix });
const aggregateQueue = new Queue<AggregateJob>(AGGREGATE_QUEUE, { connection: redis, prefix });
const closers: (() => Promise<unknown>)[] = [];

afterAll(async () => {
  for (const close of closers) await close();
  await Promise.all([flow.close(), voteQueue.close(), aggregateQueue.close()]);
  await deleteDeploymentKeys(redis, prefix);
  redis.disconnect();
});

const decision = (model = provider) => aggregateJob({ providers: [model], user_id: "user-1", api_key_id: "key-1", is_authenticated: true });

/** A vote worker taking one job at a time, recording the decisions in the order it took their votes. */
function recordingVoteWorker(taken: string[], done: (count: number) => void, model = provider): WorkerPool<VoteJob, unknown> {
  const connection = redis.duplicate();
  const worker = createWorker<VoteJob, unknown>(
    voteQueueName(model),
    async (job) => {
      taken.push(job.data.decision_id);
      done(taken.length);
      return { provider: model, category: "Yes" };
    },
    { connection, prefix, concurrency: 1, lockMs: 30_000 },
  );
  closers.push(async () => {
    await worker.close();
    connection.disconnect();
  });
  return worker;
}

describe("decision lanes: batch decisions go after interactive ones", () => {
  it("takes an interactive decision's votes before the batch votes that were waiting", async () => {
    const batch = Array.from({ length: 6 }, () => decision());
    for (const job of batch) await flow.enqueue(job, null, "batch");
    const interactive = [decision(), decision()];
    for (const job of interactive) await flow.enqueue(job);

    const taken: string[] = [];
    let allTaken!: () => void;
    const finished = new Promise<void>((resolve) => (allTaken = resolve));
    recordingVoteWorker(taken, (count) => count === batch.length + interactive.length && allTaken());
    await finished;

    // Enqueued last, taken first; the batch votes then in the order they were enqueued.
    expect(taken.slice(0, 2).sort()).toEqual(interactive.map((job) => job.decision_id).sort());
    expect(taken.slice(2)).toEqual(batch.map((job) => job.decision_id));
    // A batch decision's aggregate job goes after every interactive one too.
    const [batchParent, interactiveParent] = await Promise.all([aggregateQueue.getJob(batch[0]!.decision_id), aggregateQueue.getJob(interactive[0]!.decision_id)]);
    expect(batchParent!.opts.priority).toBeGreaterThan(interactiveParent!.opts.priority!);
  });

  it("adds nothing when a decision is enqueued again with the same id, in flight or finished", async () => {
    const job = decision(soloProvider);
    const counts = async () => ({ votes: await voteQueue.getJobCounts(), aggregates: await aggregateQueue.getJobCounts() });
    await flow.enqueue(job, null, "batch");
    const once = await counts();
    await flow.enqueue(job, null, "batch");
    expect(await counts()).toEqual(once);

    // Finished: the vote and the decision ran once; enqueuing again still adds nothing.
    const decided: string[] = [];
    const connection = redis.duplicate();
    const aggregator = createAggregateWorker(
      async (data): Promise<DecisionResponse> => {
        decided.push(data.decision_id);
        return { final_decision: "Yes", total_votes: 1, vote_counts: { Yes: 1 }, individual_responses: {}, decision_id: data.decision_id, question: data.question };
      },
      { connection, prefix, concurrency: 1, lockMs: 30_000 },
    );
    closers.push(async () => {
      await aggregator.close();
      connection.disconnect();
    });
    const result = flow.waitForDecision(job.decision_id, 20_000);
    const taken: string[] = [];
    recordingVoteWorker(taken, () => undefined, soloProvider);
    await result;
    const finished = await counts();
    await flow.enqueue(job, null, "batch");
    expect(await counts()).toEqual(finished);
    expect([finished.votes.waiting, finished.votes.prioritized, finished.aggregates.prioritized, finished.aggregates["waiting-children"]]).toEqual([0, 0, 0, 0]);
    expect(decided.filter((id) => id === job.decision_id)).toHaveLength(1);
    expect(taken.filter((id) => id === job.decision_id)).toHaveLength(1);
  });
});
