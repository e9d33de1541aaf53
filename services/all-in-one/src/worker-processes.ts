import { fileURLToPath } from "node:url";
import type { ProviderConfig } from "@sd/contracts";
import { providerConfigsEnv, superviseChildren, type SupervisedChildren } from "@sd/runtime";
import type { Logger } from "@sd/telemetry";

const ENTRY = fileURLToPath(new URL("./worker-process.ts", import.meta.url));

/**
 * Forks `count` provider-worker processes beside this one (which keeps the gateway, the aggregator
 * and the embedded store): one event loop per core. Each gets this process's variables and the
 * provider configs resolved here, so every process calls the same models and the one emulator.
 */
export function forkProviderWorkers(
  count: number,
  providers: readonly ProviderConfig[],
  rawEnv: NodeJS.ProcessEnv,
  logger: Logger,
): SupervisedChildren {
  const env = { ...rawEnv, ...providerConfigsEnv(providers) };
  const specs = Array.from({ length: count }, (_, i) => ({ name: `provider-worker-${i + 1}`, script: ENTRY, env }));
  return superviseChildren(specs, logger);
}
