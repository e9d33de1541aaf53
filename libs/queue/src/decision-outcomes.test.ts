import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { aggregateJob } from "./testing";
import { DecisionFlow } from "./decision-flow";
import { createAggregateWorker } from "./decision-outcomes";
import { useTestDeployment } from "./test-deployment";

const { redis, prefix } = useTestDeployment("decision-outcomes");

describe("a decision's outcome in the process that wrote it", () => {
  it("answers the gateway waiting in the same process directly, without the Redis channel", async () => {
    // The aggregator's messages never reach Redis, and the gateway would read the job only after a minute.
    const silent = redis.duplicate();
    silent.publish = (async () => 0) as typeof silent.publish;
    const flow = new DecisionFlow(redis, prefix, 1, 60_000);
    const aggregator = createAggregateWorker(
      async (data) => ({ decision_id: data.decision_id, question: data.question, final_decision: "Yes", total_votes: 0, vote_counts: {}, individual_responses: {} }),
      { connection: silent, prefix, concurrency: 1, lockMs: 30_000 },
    );
    try {
      await flow.ready();
      const id = randomUUID();
      const pending = flow.listen(id, 10_000);
      await flow.enqueue(aggregateJob({ decision_id: id }));
      pending.enqueued();
      await expect(pending.result).resolves.toMatchObject({ decision_id: id, final_decision: "Yes" });
    } finally {
      await aggregator.close();
      await flow.close();
      silent.disconnect();
    }
  });
});
