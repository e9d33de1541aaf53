import { aggregatorEnv, loadEnv, providersFromEnv } from "@sd/config";
import { assertRedisReachable } from "@sd/queue";
import { closeServer, envOrExit, openStoreFor, runMain, startHealthServer } from "@sd/runtime";
import { startAggregator } from "./service";

const env = envOrExit(() => loadEnv(aggregatorEnv));

runMain("aggregator", env.LOG_LEVEL, async (lifecycle) => {
  await assertRedisReachable(env.REDIS_URL);
  const store = await openStoreFor(env, env.EMBEDDED_STORE_SPLIT, lifecycle);
  const aggregator = await startAggregator(env, store, providersFromEnv(env.PROVIDERS), lifecycle.logger);
  lifecycle.onShutdown("aggregator", () => aggregator.close());
  const health = await startHealthServer(env.HEALTH_PORT, () => aggregator.ready());
  lifecycle.onShutdown("health server", () => closeServer(health));
});
