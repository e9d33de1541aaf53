import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { voteQueueName, voteWithoutAnswer, type Vote, type VoteJob } from "@sd/contracts";
import { aggregateJob } from "./testing";
import { DecisionFlow } from "./decision-flow";
import { createAggregateWorker } from "./decision-outcomes";
import { createRedis, deleteDeploymentKeys } from "./redis";
import { createWorker } from "./workers";

const redis = createRedis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", "aggregate-order-test");
const prefix = `sdtest-order-${randomUUID().slice(0, 8)}`;
const flow = new DecisionFlow(redis, prefix, 1);

afterAll(async () => {
  await flow.close();
  await deleteDeploymentKeys(redis, prefix);
  redis.disconnect();
});

/** For each decision, how many decisions that became ready after it were aggregated before it. */
function overtakes(readyOrder: readonly string[], aggregatedOrder: readonly string[]): number[] {
  const readyAt = new Map(readyOrder.map((id, i) => [id, i]));
  return aggregatedOrder.map((id, i) => aggregatedOrder.slice(0, i).filter((earlier) => readyAt.get(earlier)! > readyAt.get(id)!).length);
}

describe("the aggregate stage under a backlog", () => {
  it("takes decisions in the order their votes finished: none is buried under newer ones", async () => {
    const count = 60;
    const ids = Array.from({ length: count }, () => randomUUID());
    // One vote slot, so the decisions become ready one after another in a known order.
    const readyOrder: string[] = [];
    const connection = redis.duplicate();
    const vote = voteWithoutAnswer({ provider: "openai", model_version: "test", status: "skipped" });
    const allVoted = new Promise<void>((resolve) => {
      const votes = createWorker<VoteJob, Vote>(voteQueueName("openai"), async () => vote, { connection, prefix, concurrency: 1, lockMs: 30_000 });
      votes.on("completed", ({ data }) => {
        readyOrder.push(data.decision_id);
        if (readyOrder.length === count) void votes.close().then(resolve);
      });
    });
    for (const [n, id] of ids.entries()) await flow.enqueue(aggregateJob({ decision_id: id, question: `Question ${n}?`, providers: ["openai"] }));
    // The backlog: every decision is ready before the aggregate stage takes any.
    await allVoted;

    const aggregated: string[] = [];
    await new Promise<void>((resolve) => {
      const aggregator = createAggregateWorker(
        async (data) => {
          aggregated.push(data.decision_id);
          if (aggregated.length === count) setImmediate(() => void aggregator.close().then(resolve));
          return { decision_id: data.decision_id, question: data.question, final_decision: null, total_votes: 0, vote_counts: {}, individual_responses: {} };
        },
        { connection, prefix, concurrency: 1, lockMs: 30_000 },
      );
    });
    connection.disconnect();

    expect(new Set(aggregated).size).toBe(count);
    // Without a priority BullMQ hands out the newest ready parent first: the oldest waits behind all 59.
    expect(Math.max(...overtakes(readyOrder, aggregated))).toBeLessThanOrEqual(1);
  });
});
