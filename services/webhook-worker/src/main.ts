import { loadEnv, webhookWorkerEnv } from "@sd/config";
import { assertRedisReachable } from "@sd/queue";
import { closeServer, envOrExit, openStoreFor, runMain, startHealthServer, storeReadiness } from "@sd/runtime";
import { startWebhookWorker } from "./service";

const env = envOrExit(() => loadEnv(webhookWorkerEnv));

// The worker on its own (a split deployment on MongoDB); `npm start` runs it inside the all-in-one process instead.
runMain("webhook-worker", env.LOG_LEVEL, async (lifecycle) => {
  await assertRedisReachable(env.REDIS_URL);
  const store = await openStoreFor(env, env.EMBEDDED_STORE_SPLIT, lifecycle);
  const worker = await startWebhookWorker(env, store, lifecycle.logger);
  lifecycle.onShutdown("webhook worker", () => worker.close());
  const health = await startHealthServer(env.HEALTH_PORT, () => storeReadiness(store));
  lifecycle.onShutdown("health server", () => closeServer(health));
});
