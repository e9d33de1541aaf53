import { loadEnv, workerEnv } from "@sd/config";
import { startProviderWorkers } from "@sd/provider-worker";
import { envOrExit, providerConfigsFromParent, runSupervisedChild } from "@sd/runtime/child";

/**
 * A provider-worker process that `npm start` forks (see ./worker-processes): the provider-worker
 * role on the provider configs its parent resolved, the emulator's URLs included. It opens no
 * store, binds no port and starts no emulator: the parent holds all three.
 */
const env = envOrExit(() => loadEnv(workerEnv));
const providers = envOrExit(() => providerConfigsFromParent(process.env));
/** Room for the calls under way when the parent dies: each ends by its provider's timeout. */
const orphanDrainMs = Math.max(...providers.map((p) => p.timeoutMs)) + 5000;

runSupervisedChild(
  "smart-decision",
  env.LOG_LEVEL,
  async (lifecycle) => {
    const workers = await startProviderWorkers(env, providers, lifecycle.logger);
    lifecycle.onShutdown("provider workers", () => workers.close());
  },
  { orphanDrainMs },
);
