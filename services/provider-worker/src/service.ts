import { type ProviderConfig, type Vote, type VoteJob } from "@sd/contracts";
import type { WorkerEnv } from "@sd/config";
import { LiveEvents } from "@sd/live";
import { createProvider } from "@sd/providers";
import { CallCancels, ImageStash, TokenBudget, QuorumBoard, createRedis, createVoteWorker, perMinute, voteBackoff, type WorkerPool } from "@sd/queue";
import { startVoteMetricsAtZero, type Logger } from "@sd/telemetry";
import { WorkerQuorum } from "./early-quorum";
import { RunningCalls } from "./running-calls";
import { createVoteProcessor } from "./vote-processor";

export interface ProviderWorkers {
  ready(): Promise<void>;
  /** Stops taking jobs and waits for the active ones to finish. */
  close(): Promise<void>;
}

/** One BullMQ worker per configured provider, each consuming its own `vote-<provider>` queue. */
export async function startProviderWorkers(env: WorkerEnv, providers: readonly ProviderConfig[], logger: Logger): Promise<ProviderWorkers> {
  // Vote series exist at 0 from the start, so a healthy dashboard reads 0, not "No data".
  startVoteMetricsAtZero(providers.map((provider) => provider.id));
  const connection = createRedis(env.REDIS_URL, "provider-worker");
  const live = new LiveEvents(connection, env.QUEUE_PREFIX);
  const images = new ImageStash(connection, env.QUEUE_PREFIX);
  const tokenBudget = new TokenBudget(connection, env.QUEUE_PREFIX);
  for (const config of providers) {
    if (config.price !== null || config.simulated) continue;
    // Said once, at start: the votes themselves just record 0.
    const prefix = config.id.toUpperCase();
    logger.warn(
      { provider: config.id, model: config.model },
      `no price is known for model "${config.model}": its calls are recorded as costing 0 US dollars; set ${prefix}_PRICE_INPUT_PER_MTOK and ${prefix}_PRICE_OUTPUT_PER_MTOK`,
    );
  }
  const calls = new RunningCalls();
  const quorum = new WorkerQuorum(new QuorumBoard(connection, env.QUEUE_PREFIX), calls);
  const cancels = new CallCancels(connection, env.QUEUE_PREFIX);
  await Promise.all([quorum.start(), cancels.listen((decisionId) => calls.abort(decisionId, null, "client-gone"))]);
  // One backoff for BullMQ and the processors, which plan each retry with it against the vote's deadline.
  const backoff = voteBackoff(env.VOTE_BACKOFF_MS);
  const workers: WorkerPool<VoteJob, Vote>[] = providers.map((config) => {
    const worker = createVoteWorker(
      config.id,
      createVoteProcessor(createProvider(config), images, live, logger.child({ provider: config.id }), backoff, quorum, tokenBudget, calls, cancels),
      {
        connection,
        prefix: env.QUEUE_PREFIX,
        concurrency: env.WORKER_CONCURRENCY,
        lockMs: env.JOB_LOCK_MS,
        backoffStrategy: backoff,
        // Counted in Redis for the queue: the vendor key's limit holds however many worker processes share it.
        rateLimit: perMinute(config.rpm),
      },
    );
    worker.on("error", (error) => logger.error({ err: error, provider: config.id }, "worker error"));
    return worker;
  });
  await Promise.all(workers.map((w) => w.waitUntilReady()));
  logger.info(
    { providers: providers.map((p) => `${p.id}:${p.model}${p.simulated ? " (simulated)" : ""}`) },
    "provider workers started",
  );
  return {
    async ready() {
      await connection.ping();
    },
    async close() {
      await Promise.all(workers.map((w) => w.close()));
      await Promise.all([quorum.close(), cancels.close()]);
      connection.disconnect();
    },
  };
}
