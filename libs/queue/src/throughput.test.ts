import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { Queue, Worker } from "bullmq";
import { AGGREGATE_QUEUE } from "@sd/contracts";
import { QueueInspector } from "./queue-depth";
import { ThroughputReader, ThroughputRecorder, THROUGHPUT_WINDOW_MS } from "./throughput";

const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
afterAll(() => redis.disconnect());

/** A recorder and a reader on their own key prefix; `now` is passed explicitly, so no test waits. */
function figures() {
  const prefix = `sdtest-throughput-${randomUUID().slice(0, 8)}`;
  const queues = new QueueInspector(redis, prefix, ["openai", "claude"]);
  const reader = new ThroughputReader(redis, prefix, ["openai", "claude"], queues);
  return { prefix, recorder: new ThroughputRecorder(redis, prefix), reader, queues };
}

describe("live throughput figures", () => {
  it("counts the decisions written in the last whole second", async () => {
    const { recorder, reader, queues } = figures();
    const t = 1_700_000_000_000;
    await recorder.decisionWritten([], t + 200);
    await recorder.decisionWritten([], t + 900);
    await recorder.decisionWritten([], t + 1100);
    expect((await reader.read(t + 1020)).decisions_per_second).toBe(2);
    expect((await reader.read(t + 2020)).decisions_per_second).toBe(1);
    expect((await reader.read(t + 3020)).decisions_per_second).toBe(0);
    await queues.close();
  });

  it("counts as in flight every decision whose aggregate job is not finished, and none that is", async () => {
    const { prefix, reader, queues } = figures();
    const queue = new Queue(AGGREGATE_QUEUE, { connection: redis, prefix });
    const workerConnection = redis.duplicate({ maxRetriesPerRequest: null });
    try {
      for (const id of ["a", "b", "c"]) await queue.add("aggregate", {}, { jobId: id });
      expect((await reader.read()).decisions_in_flight).toBe(3);
      // One decision is written (its job completes); the other two stay queued.
      const worker = new Worker(AGGREGATE_QUEUE, async () => "written", { connection: workerConnection, prefix, autorun: false });
      const completed = new Promise((resolve) => worker.once("completed", resolve));
      await queue.remove("b");
      await queue.remove("c");
      void worker.run();
      await completed;
      await worker.close();
      await queue.add("aggregate", {}, { jobId: "d" });
      expect((await reader.read()).decisions_in_flight).toBe(1);
    } finally {
      await queue.obliterate({ force: true });
      await queue.close();
      workerConnection.disconnect();
      await queues.close();
    }
  });

  it("gives each provider's votes, nearest-rank p50/p95 and error rate over the last minute only", async () => {
    const { recorder, reader, queues } = figures();
    const t = Date.now();
    await recorder.decisionWritten([{ provider: "openai", voteId: "old:1", latencyMs: 9_999, ok: false }], t - THROUGHPUT_WINDOW_MS - 1);
    // Ten decisions of two openai votes each (a gossip round's second vote has its own id).
    for (let d = 1; d <= 10; d++) {
      const vote = (i: number) => ({ provider: "openai", voteId: `job-${i}:1`, latencyMs: i * 10, ok: i !== 20 });
      await recorder.decisionWritten([vote(2 * d - 1), vote(2 * d)], t - 1000 + d);
    }
    const { providers } = await reader.read(t);
    expect(providers.openai).toEqual({ votes: 20, latency_p50_ms: 100, latency_p95_ms: 190, error_rate: 0.05 });
    expect(providers.claude).toEqual({ votes: 0, latency_p50_ms: null, latency_p95_ms: null, error_rate: 0 });
    await queues.close();
  });

  it("keeps only the last minute of votes in Redis, and lets the keys of an idle deployment expire", async () => {
    const { prefix, recorder, queues } = figures();
    const t = Date.now();
    await recorder.decisionWritten([{ provider: "openai", voteId: "old:1", latencyMs: 5, ok: true }], t - THROUGHPUT_WINDOW_MS - 1);
    await recorder.decisionWritten(
      [
        { provider: "openai", voteId: "new:1", latencyMs: 7, ok: true },
        { provider: "claude", voteId: "new:1", latencyMs: 9, ok: false },
      ],
      t,
    );
    const votes = (provider: string) => `${prefix}:throughput:votes:${provider}`;
    expect(await redis.zrange(votes("openai"), 0, -1)).toEqual(["7:ok:new:1"]);
    expect(await redis.zrange(votes("claude"), 0, -1)).toEqual(["9:error:new:1"]);
    for (const provider of ["openai", "claude"]) {
      const ttl = await redis.pttl(votes(provider));
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(THROUGHPUT_WINDOW_MS);
    }
    const counterTtl = await redis.ttl(`${prefix}:throughput:finished:${Math.floor(t / 1000)}`);
    expect(counterTtl).toBeGreaterThan(0);
    expect(counterTtl).toBeLessThanOrEqual(120);
    await queues.close();
  });

  it("reports a failure to record instead of failing the decision", async () => {
    const closed = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", { lazyConnect: true, enableOfflineQueue: false });
    const errors: unknown[] = [];
    const recorder = new ThroughputRecorder(closed, "sdtest-throughput-closed", (error) => errors.push(error));
    await expect(recorder.decisionWritten([{ provider: "openai", voteId: "v:1", latencyMs: 1, ok: true }])).resolves.toBeUndefined();
    expect(errors).toHaveLength(1);
  });
});
