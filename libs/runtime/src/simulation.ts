import type { ProviderConfig } from "@sd/contracts";
import { emulatorBaseUrl } from "@sd/provider-emulator";
import type { Lifecycle } from "./lifecycle";
import { startThreadedEmulator } from "./threaded-emulator";

/**
 * Each simulated model's answer time, in the order given: from latencyMs to twice that, evenly
 * (the playground's three at 1x, 1.125x and 1.25x of the nine configured), so the live rows arrive
 * one after another and a longer panel is no slower than the three.
 */
export function simulatedLatencies(simulated: readonly Pick<ProviderConfig, "id">[], latencyMs: number): Map<string, number> {
  const step = simulated.length > 1 ? 1 / (simulated.length - 1) : 0;
  return new Map(simulated.map((c, i) => [c.id, Math.round(latencyMs * (1 + step * i))]));
}

/**
 * Points every provider without an API key at an emulator on its own thread (off the gateway's
 * event loop), so the product runs with zero configuration; answers are labelled simulated.
 * Each provider keeps its vendor's wire API, so its own SDK and structured-output mode are
 * exercised. Only that thread holds the token that scripts the emulator; forked workers reach it
 * through the returned configs' base URLs.
 */
export async function simulateMissingProviders(
  configs: readonly ProviderConfig[],
  latencyMs: number,
  lifecycle: Lifecycle,
): Promise<ProviderConfig[]> {
  const simulated = configs.filter((c) => c.simulated);
  if (simulated.length === 0) return [...configs];
  const latencies = simulatedLatencies(simulated, latencyMs);
  // The rules go to the thread with its start; its control token never leaves it, and it keeps no
  // call log: the emulator sees every user's questions.
  const emulator = await startThreadedEmulator(
    simulated.map((c) => ({
      match: { model: c.model },
      latency_ms: latencies.get(c.id)!,
      respond: { kind: "answer" as const },
    })),
    lifecycle.logger,
  );
  lifecycle.onShutdown("provider emulator", () => emulator.close());
  lifecycle.logger.warn(
    { providers: simulated.map((c) => c.id), emulator: emulator.url },
    "no API key for these providers: their answers are SIMULATED by the provider emulator",
  );
  return configs.map((c) => (c.simulated ? { ...c, baseUrl: emulatorBaseUrl(emulator.url, c.vendor) } : c));
}
