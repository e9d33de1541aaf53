import { Queue } from "bullmq";
import { describe, expect, it } from "vitest";
import { useTestDeployment } from "./test-deployment";
import { voteJobOptions } from "./vote-policy";
import { createWorker } from "./workers";

const { redis, prefix } = useTestDeployment("job-retention");

describe("finished jobs on a deployment that went quiet", () => {
  it("are removed by the periodic sweep once past their retention, with no later job to trigger BullMQ's own removal", async () => {
    const queue = new Queue("vote-quiet", { connection: redis, prefix });
    // Retention shortened to nothing so the test need not wait an hour; the jobs keep the product's own options.
    const pool = createWorker<unknown, string>("vote-quiet", async (job) => {
      if (job.data === "fail") throw new Error("the model refused");
      return "done";
    }, { connection: redis, prefix, concurrency: 2, lockMs: 30_000, retention: { completedMs: 0, failedMs: 0, sweepIntervalMs: 200 } });
    try {
      const finished = new Promise<void>((resolve) => {
        let count = 0;
        const done = () => ++count === 2 && resolve();
        pool.on("completed", done).on("failed", done);
      });
      await queue.add("vote", "ok", { jobId: "quiet-ok", ...voteJobOptions(1) });
      await queue.add("vote", "fail", { jobId: "quiet-fail", ...voteJobOptions(1) });
      await finished;
      // The last jobs to finish: BullMQ's removeOnComplete/removeOnFail would keep them until more came.
      await expect.poll(async () => [await queue.getJob("quiet-ok"), await queue.getJob("quiet-fail")], { timeout: 10_000, interval: 100 }).toEqual([undefined, undefined]);
      expect(await queue.getJobCounts("completed", "failed")).toEqual({ completed: 0, failed: 0 });
    } finally {
      await pool.close();
      await queue.close();
    }
  });
});
