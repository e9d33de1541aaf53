import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { Job, Queue, UnrecoverableError } from "bullmq";
import type { AggregateJob, DecisionResponse } from "@sd/contracts";
import { aggregateJob } from "./testing";
import { DecisionFlow, DecisionLostError, DecisionTimeoutError } from "./decision-flow";
import { createRedis, createRequestRedis, deleteDeploymentKeys } from "./redis";
import { createAggregateWorker } from "./decision-outcomes";
import { createWorker, type WorkerPool } from "./workers";
import { AGGREGATE_QUEUE } from "@sd/contracts";

const redis = createRedis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", "decision-flow-test");
const prefix = `sdtest-flow-${randomUUID().slice(0, 8)}`;

/**
 * An aggregator the test drives: each decision's job starts, says so, and finishes only when the
 * test settles it (with a result, or a failure that is not retried).
 */
const starts = new Map<string, { started: Promise<void>; start: () => void }>();
const settle = new Map<string, { finish: (response: DecisionResponse) => void; fail: (reason: string) => void }>();
function startOf(decisionId: string) {
  let entry = starts.get(decisionId);
  if (!entry) {
    let start!: () => void;
    entry = { started: new Promise<void>((resolve) => (start = resolve)), start };
    starts.set(decisionId, entry);
  }
  return entry;
}
const whenStarted = (decisionId: string) => startOf(decisionId).started;

const workerConnection = redis.duplicate();
const worker: WorkerPool<AggregateJob, DecisionResponse> = createAggregateWorker(
  async (data) =>
    new Promise<DecisionResponse>((resolve, reject) => {
      settle.set(data.decision_id, { finish: resolve, fail: (reason) => reject(new UnrecoverableError(reason)) });
      startOf(data.decision_id).start();
    }),
  { connection: workerConnection, prefix, concurrency: 10, lockMs: 30_000 },
);
const flow = new DecisionFlow(redis, prefix, 1);

afterAll(async () => {
  await worker.close();
  workerConnection.disconnect();
  await flow.close();
  await deleteDeploymentKeys(redis, prefix);
  redis.disconnect();
});

/** A signed-in user's decision made with an API key (the lookups report both). */
const decision = (decisionId: string): AggregateJob =>
  aggregateJob({ decision_id: decisionId, is_authenticated: true, user_id: "user-1", user_email: "user@example.com", api_key_id: "key-1" });

const response = (decisionId: string): DecisionResponse => ({
  final_decision: "Yes",
  total_votes: 0,
  vote_counts: {},
  individual_responses: {},
  decision_id: decisionId,
  question: "Ship it?",
});

describe("DecisionFlow: waiting for and looking up a decision by its id", () => {
  it("waits for a decision enqueued after the wait began, and answers one already finished at once", async () => {
    const id = randomUUID();
    const waiting = flow.waitForDecision(id, 20_000);
    expect(await flow.lookup(id)).toBeNull();
    await flow.enqueue(decision(id));
    await whenStarted(id);
    expect(await flow.lookup(id)).toEqual({ decisionId: id, userId: "user-1", apiKeyId: "key-1", state: "pending" });

    settle.get(id)!.finish(response(id));
    expect(await waiting).toEqual(response(id));
    expect(await flow.waitForDecision(id, 20_000)).toEqual(response(id));
    expect(await flow.lookup(id)).toMatchObject({ state: "completed" });
  });

  it("lets several requests wait for the same decision", async () => {
    const id = randomUUID();
    await flow.enqueue(decision(id));
    const waits = [flow.waitForDecision(id, 20_000), flow.waitForDecision(id, 20_000)];
    await whenStarted(id);
    settle.get(id)!.finish(response(id));
    expect(await Promise.all(waits)).toEqual([response(id), response(id)]);
  });

  it("rejects with the job's failure, during the wait or after it", async () => {
    const id = randomUUID();
    await flow.enqueue(decision(id));
    const waiting = flow.waitForDecision(id, 20_000);
    await whenStarted(id);
    settle.get(id)!.fail("the store is unreachable");
    await expect(waiting).rejects.toThrow("the store is unreachable");
    await expect(flow.waitForDecision(id, 20_000)).rejects.toThrow("the store is unreachable");
    expect(await flow.lookup(id)).toMatchObject({ state: "failed" });
  });

  it("answers a decision it began to wait for before enqueuing it, and a cancelled wait holds nothing up", async () => {
    const id = randomUUID();
    const pending = flow.listen(id, 20_000);
    await flow.enqueue(decision(id));
    pending.enqueued();
    await whenStarted(id);
    settle.get(id)!.finish(response(id));
    expect(await pending.result).toEqual(response(id));

    const never = flow.listen(randomUUID(), 60_000);
    never.cancel();
    await flow.drain(60_000);
    expect(flow.waitingCount).toBe(0);
  });

  it("gives up after the timeout with a DecisionTimeoutError", async () => {
    await expect(flow.waitForDecision(randomUUID(), 50)).rejects.toBeInstanceOf(DecisionTimeoutError);
  });

  it("ends every wait when the flow closes, instead of holding the shutdown until the timeouts", async () => {
    const closing = new DecisionFlow(redis, prefix, 1);
    await closing.ready();
    const outcomes = [closing.waitForDecision(randomUUID(), 60_000), closing.waitForDecision(randomUUID(), 60_000)].map((waiting) =>
      waiting.then(
        () => "resolved",
        (error: Error) => error.message,
      ),
    );
    await closing.close();
    expect(await Promise.all(outcomes)).toEqual(["The gateway is shutting down.", "The gateway is shutting down."]);
    await expect(closing.waitForDecision(randomUUID(), 60_000)).rejects.toThrow("The gateway is shutting down.");
  });
});

describe("DecisionFlow: a Redis restart and a shutdown", () => {
  it("reads a result from the job when its outcome was never published (an aggregator that crashed right after recording it)", async () => {
    // An aggregate worker that records results but publishes nothing, as if it died in between.
    const silentPrefix = `sdtest-silent-${randomUUID().slice(0, 8)}`;
    const connection = redis.duplicate();
    const silent = createWorker<AggregateJob, DecisionResponse>(AGGREGATE_QUEUE, async (job) => response(job.data.decision_id), {
      connection,
      prefix: silentPrefix,
      concurrency: 1,
      lockMs: 30_000,
    });
    const sweeping = new DecisionFlow(redis, silentPrefix, 1, 100);
    try {
      await sweeping.ready();
      const id = randomUUID();
      const pending = sweeping.listen(id, 20_000);
      await sweeping.enqueue(decision(id));
      pending.enqueued();
      expect(await pending.result).toEqual(response(id));
    } finally {
      await silent.close();
      await sweeping.close();
      await deleteDeploymentKeys(redis, silentPrefix);
      connection.disconnect();
    }
  });

  it("answers a client as soon as the aggregator returns the written decision, even when BullMQ never records the job (its worker died in between)", async () => {
    const earlyPrefix = `sdtest-early-${randomUUID().slice(0, 8)}`;
    const connection = redis.duplicate();
    const aggregate = new Queue(AGGREGATE_QUEUE, { connection: redis, prefix: earlyPrefix });
    // The decision is written and returned, but the job's lock is gone first: BullMQ cannot record
    // it as completed, as when the aggregator dies right after writing (the job would run again
    // only once its 30 s lock period is over).
    const dying = createAggregateWorker(
      async (data) => {
        await redis.del(`${aggregate.toKey(data.decision_id)}:lock`);
        return response(data.decision_id);
      },
      { connection, prefix: earlyPrefix, concurrency: 1, lockMs: 30_000 },
    );
    dying.on("error", () => undefined);
    const waiting = new DecisionFlow(redis, earlyPrefix, 1);
    try {
      await waiting.ready();
      const id = randomUUID();
      const pending = waiting.listen(id, 5000);
      await waiting.enqueue(decision(id));
      pending.enqueued();
      expect(await pending.result).toEqual(response(id));
      expect(await (await Job.fromId(aggregate, id))!.getState()).toBe("active");
    } finally {
      await dying.close(true);
      await Promise.all([waiting.close(), aggregate.close()]);
      await deleteDeploymentKeys(redis, earlyPrefix);
      connection.disconnect();
    }
  });

  it("ends the wait of a decision whose flow vanished (Redis restarted without persistence) as soon as it reconnects, and keeps waiting for one that survived", async () => {
    // Two deployments on one connection, no worker serving either: their decisions stay queued.
    const [lostPrefix, keptPrefix] = [`sdtest-lost-${randomUUID().slice(0, 8)}`, `sdtest-kept-${randomUUID().slice(0, 8)}`];
    const connection = createRequestRedis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", "lost-flow-test", 2000);
    const [losing, keeping] = [new DecisionFlow(connection, lostPrefix, 1), new DecisionFlow(connection, keptPrefix, 1)];
    try {
      await Promise.all([losing.ready(), keeping.ready()]);
      const [lost, kept] = [randomUUID(), randomUUID()];
      await losing.enqueue(decision(lost));
      await keeping.enqueue(decision(kept));
      const outcome = (flow: DecisionFlow, id: string) =>
        flow.waitForDecision(id, 60_000).then(
          () => "resolved",
          (error: Error) => error,
        );
      const [lostOutcome, keptOutcome] = [outcome(losing, lost), outcome(keeping, kept)];
      // What a restart without persistence leaves of a deployment's flows: nothing.
      const lostKeys = await redis.keys(`${lostPrefix}:*`);
      expect(lostKeys.length).toBeGreaterThan(0);
      await redis.del(...lostKeys);
      const reconnected = new Promise((resolve) => connection.once("ready", resolve));
      connection.disconnect(true);
      await reconnected;
      expect(await lostOutcome).toBeInstanceOf(DecisionLostError);
      await keeping.close();
      expect(await keptOutcome).toMatchObject({ message: "The gateway is shutting down." });
    } finally {
      await Promise.all([losing.close(), keeping.close()]);
      for (const prefix of [lostPrefix, keptPrefix]) await deleteDeploymentKeys(redis, prefix);
      connection.disconnect();
    }
  });

  it("drain resolves once the last waiting request has its answer, or after its timeout", async () => {
    const id = randomUUID();
    await flow.enqueue(decision(id));
    const waiting = flow.waitForDecision(id, 20_000);
    await whenStarted(id);
    let drained = false;
    const draining = flow.drain(20_000).then(() => (drained = true));
    expect(drained).toBe(false);
    settle.get(id)!.finish(response(id));
    await waiting;
    await draining;
    expect(drained).toBe(true);
    // Nothing to wait for: at once. A wait that does not end: after the timeout.
    await flow.drain(20_000);
    const stuck = flow.waitForDecision(randomUUID(), 60_000).catch(() => undefined);
    await flow.drain(50);
    void stuck;
  });
});
