import { inFlightLimit, providersFromEnv, type AllInOneEnv } from "@sd/config";
import { startAggregator } from "@sd/aggregator";
import { startGateway } from "@sd/gateway";
import { startProviderWorkers } from "@sd/provider-worker";
import { startWebhookWorker } from "@sd/webhook-worker";
import { assertRedisReachable } from "@sd/queue";
import type { Store } from "@sd/store";
import { addOtherProcessesMetrics } from "@sd/telemetry";
import { closeServer, openStoreFor, simulateMissingProviders, startHealthServer, storeReadiness, type Lifecycle, type SupervisedChildren } from "@sd/runtime";
import { forkProviderWorkers } from "./worker-processes";

/**
 * The gateway, the provider workers, the aggregator and the webhook delivery worker (ROLES picks a subset), with the same code
 * paths and the same Redis queues as the split services. The workers run in WORKER_PROCESSES
 * processes forked from this one, which keeps the store, or here when it is 0. `rawEnv` carries the
 * per-provider variables (`<ID>_API_KEY`...) and is what forked workers inherit. Returns the gateway's
 * URL when it runs here, and the store.
 */
export async function startAllInOne(
  env: AllInOneEnv,
  rawEnv: NodeJS.ProcessEnv,
  lifecycle: Lifecycle,
): Promise<{ url: string | null; metricsUrl: string | null; store: Store | null }> {
  const has = (role: AllInOneEnv["ROLES"][number]) => env.ROLES.includes(role);
  await assertRedisReachable(env.REDIS_URL);
  const store =
    has("gateway") || has("aggregator") || has("webhook-worker")
      ? await openStoreFor(env, (has("gateway") && has("aggregator")) || env.EMBEDDED_STORE_SPLIT, lifecycle)
      : null;
  const ids = [...new Set([...env.PROVIDERS, env.SUGGESTION_PROVIDER])];
  const configs = await simulateMissingProviders(providersFromEnv(ids, rawEnv), env.SIMULATED_LATENCY_MS, lifecycle);
  const byId = new Map(configs.map((c) => [c.id, c]));
  const deciders = env.PROVIDERS.map((id) => byId.get(id)!);

  // Registered before the aggregator and the gateway, so closed after them: the gateway's drain
  // answers the decisions it accepted, whose votes need the workers.
  let workerProcesses: SupervisedChildren | null = null;
  if (has("provider-worker") && env.WORKER_PROCESSES > 0) {
    const forked = forkProviderWorkers(env.WORKER_PROCESSES, deciders, rawEnv, lifecycle.logger);
    // Their vote metrics join this process's /metrics, where they were before the workers moved out.
    const removeMetrics = addOtherProcessesMetrics(() => forked.metrics());
    lifecycle.onShutdown("provider-worker processes", async () => {
      removeMetrics();
      await forked.close();
    });
    workerProcesses = forked;
  } else if (has("provider-worker")) {
    const workers = await startProviderWorkers(env, deciders, lifecycle.logger);
    lifecycle.onShutdown("provider workers", () => workers.close());
  }
  if (store && has("aggregator")) {
    const aggregator = await startAggregator(env, store, deciders, lifecycle.logger);
    lifecycle.onShutdown("aggregator", () => aggregator.close());
  }
  if (store && has("webhook-worker")) {
    const webhooks = await startWebhookWorker(env, store, lifecycle.logger);
    lifecycle.onShutdown("webhook worker", () => webhooks.close());
  }
  // Forked workers start while the aggregator does; decisions are admitted once they consume.
  await workerProcesses?.ready;
  if (store && has("gateway")) {
    // The workers' slots here bound what this gateway admits; with workers elsewhere it cannot know them.
    const voteSlots = has("provider-worker") ? env.WORKER_CONCURRENCY * Math.max(1, env.WORKER_PROCESSES) : null;
    const gatewayEnv = { ...env, MAX_IN_FLIGHT_DECISIONS: inFlightLimit(env, voteSlots) };
    const gateway = await startGateway(gatewayEnv, store, { deciders, suggester: byId.get(env.SUGGESTION_PROVIDER)! }, lifecycle.logger);
    lifecycle.onShutdown("gateway", () => gateway.close());
    return { url: gateway.url, metricsUrl: gateway.metricsUrl, store };
  }
  const health = await startHealthServer(env.HEALTH_PORT, async () => (store ? storeReadiness(store) : undefined));
  lifecycle.onShutdown("health server", () => closeServer(health));
  return { url: null, metricsUrl: null, store };
}
