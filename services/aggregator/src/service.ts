import type { ProviderConfig } from "@sd/contracts";
import type { AggregatorEnv } from "@sd/config";
import { LiveEvents } from "@sd/live";
import { ApiKeyUsage, DecisionSteps, ImageStash, QuorumBoard, ThroughputRecorder, WebhookDispatch, createAggregateWorker, createRedis } from "@sd/queue";
import { storeReadiness, type Readiness } from "@sd/runtime";
import type { Store } from "@sd/store";
import { startDecisionMetricsAtZero, type Logger } from "@sd/telemetry";
import { createAggregateProcessor } from "./aggregate-processor";
import { providerNames } from "./provider-names";

export interface Aggregator {
  ready(): Promise<Readiness>;
  close(): Promise<void>;
}

/** `providers` supply the labels and model names a decision record shows for each provider id. */
export async function startAggregator(
  env: AggregatorEnv,
  store: Store,
  providers: readonly ProviderConfig[],
  logger: Logger,
): Promise<Aggregator> {
  // Decision series exist at 0 from the start, so a healthy dashboard reads 0, not "No data".
  startDecisionMetricsAtZero();
  const connection = createRedis(env.REDIS_URL, "aggregator");
  const names = providerNames(providers);
  const throughput = new ThroughputRecorder(connection, env.QUEUE_PREFIX, (error) =>
    logger.warn({ err: error }, "could not record a decision in the live throughput figures"),
  );
  const steps = new DecisionSteps(connection, env.QUEUE_PREFIX, env.VOTE_ATTEMPTS);
  const webhooks = new WebhookDispatch(connection, env.QUEUE_PREFIX, store.webhookEndpoints);
  // Each finished decision is also published to the gateways waiting for it (see createAggregateWorker).
  const worker = createAggregateWorker(
    createAggregateProcessor({
      store,
      images: new ImageStash(connection, env.QUEUE_PREFIX),
      live: new LiveEvents(connection, env.QUEUE_PREFIX),
      throughput,
      names,
      board: new QuorumBoard(connection, env.QUEUE_PREFIX),
      keyUsage: new ApiKeyUsage(connection, env.QUEUE_PREFIX),
      webhooks,
      logger,
    }),
    { connection, prefix: env.QUEUE_PREFIX, concurrency: env.AGGREGATOR_CONCURRENCY, lockMs: env.JOB_LOCK_MS, steps },
  );
  worker.on("error", (error) => logger.error({ err: error }, "aggregator error"));
  worker.on("failed", ({ jobId, error }) => logger.error({ err: error, decision_id: jobId }, "aggregation failed"));
  await worker.waitUntilReady();
  logger.info("aggregator started");
  return {
    async ready() {
      return (await Promise.all([connection.ping(), storeReadiness(store)]))[1];
    },
    async close() {
      await worker.close();
      await steps.close();
      await webhooks.close();
      connection.disconnect();
    },
  };
}
