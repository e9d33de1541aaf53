import { loadEnv, providersFromEnv, workerEnv } from "@sd/config";
import { assertRedisReachable } from "@sd/queue";
import { closeServer, envOrExit, runMain, simulateMissingProviders, startHealthServer } from "@sd/runtime";
import { startProviderWorkers } from "./service";

const env = envOrExit(() => loadEnv(workerEnv));

runMain("provider-worker", env.LOG_LEVEL, async (lifecycle) => {
  await assertRedisReachable(env.REDIS_URL);
  const providers = await simulateMissingProviders(providersFromEnv(env.PROVIDERS), env.SIMULATED_LATENCY_MS, lifecycle);
  const workers = await startProviderWorkers(env, providers, lifecycle.logger);
  lifecycle.onShutdown("provider workers", () => workers.close());
  const health = await startHealthServer(env.HEALTH_PORT, () => workers.ready());
  lifecycle.onShutdown("health server", () => closeServer(health));
});
