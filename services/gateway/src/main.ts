import { gatewayEnv, loadEnv, providerFromEnv, providersFromEnv } from "@sd/config";
import { assertRedisReachable } from "@sd/queue";
import { envOrExit, openStoreFor, runMain, simulateMissingProviders } from "@sd/runtime";
import { startGateway } from "./service";

const env = envOrExit(() => loadEnv(gatewayEnv));

runMain("gateway", env.LOG_LEVEL, async (lifecycle) => {
  await assertRedisReachable(env.REDIS_URL);
  const store = await openStoreFor(env, env.EMBEDDED_STORE_SPLIT, lifecycle);
  const [suggester] = await simulateMissingProviders([providerFromEnv(env.SUGGESTION_PROVIDER)], env.SIMULATED_LATENCY_MS, lifecycle);
  const gateway = await startGateway(env, store, { deciders: providersFromEnv(env.PROVIDERS), suggester: suggester! }, lifecycle.logger);
  lifecycle.onShutdown("gateway", () => gateway.close());
});
