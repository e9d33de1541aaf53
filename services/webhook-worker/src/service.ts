import { webhookAllowPrivateUrls, type WebhookWorkerEnv } from "@sd/config";
import { WebhookDispatch, createRedis, createWebhookWorker } from "@sd/queue";
import type { Store } from "@sd/store";
import type { Logger } from "@sd/telemetry";
import { WebhookDeliverer } from "@sd/webhooks";
import { createDeliveryProcessor } from "./delivery-processor";

export interface WebhookWorker {
  close(): Promise<void>;
}

/** A delivery job's lock outlives its longest attempt, so a live attempt is never handed to a second worker. */
const lockMsFor = (env: WebhookWorkerEnv) => Math.max(30_000, 2 * (env.WEBHOOK_CONNECT_TIMEOUT_MS + env.WEBHOOK_RESPONSE_TIMEOUT_MS));

/**
 * Delivers webhooks: works the "webhooks" queue with WEBHOOK_WORKER_CONCURRENCY slots of its own (apart from the decision
 * pipeline's). The delivery log's rows past their 30 days are deleted by the gateway.
 */
export async function startWebhookWorker(env: WebhookWorkerEnv, store: Store, logger: Logger): Promise<WebhookWorker> {
  const log = logger.child({ component: "webhooks" });
  const connection = createRedis(env.REDIS_URL, "webhook-worker");
  const allowPrivate = webhookAllowPrivateUrls(env);
  const deliverer = new WebhookDeliverer({ connectTimeoutMs: env.WEBHOOK_CONNECT_TIMEOUT_MS, responseTimeoutMs: env.WEBHOOK_RESPONSE_TIMEOUT_MS, allowPrivate });
  const dispatch = new WebhookDispatch(connection, env.QUEUE_PREFIX);
  const processor = createDeliveryProcessor({ store, deliverer, allowPrivate, retryScale: env.WEBHOOK_RETRY_DELAY_SCALE, logger: log });
  const worker = createWebhookWorker(processor, dispatch, {
    connection,
    prefix: env.QUEUE_PREFIX,
    concurrency: env.WEBHOOK_WORKER_CONCURRENCY,
    lockMs: lockMsFor(env),
  });
  worker.on("error", (error) => log.error({ err: error }, "webhook worker error"));
  worker.on("failed", ({ jobId, error, final }) => log.error({ err: error, job_id: jobId, final }, "webhook delivery job failed"));
  await worker.waitUntilReady();

  log.info({ concurrency: env.WEBHOOK_WORKER_CONCURRENCY, allow_private_urls: allowPrivate }, "webhook worker started");

  return {
    async close() {
      await worker.close();
      await dispatch.close();
      await deliverer.close();
      connection.disconnect();
    },
  };
}
