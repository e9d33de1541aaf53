import { configuredModelVersion, type ProviderConfig } from "@sd/contracts";
import type { ProviderNames } from "./ensemble-driver";

/**
 * The labels and model versions a decision record shows for each provider id. A vote without a
 * version of its own (skipped by early quorum, failed for good) gets the one a worker would have
 * written, "(simulated)" included. A provider unknown here (configured on the gateway only) is shown by its id.
 */
export function providerNames(providers: readonly ProviderConfig[]): ProviderNames {
  const known = new Map(providers.map((p) => [p.id, p]));
  return {
    label: (p) => known.get(p)?.label ?? p,
    model: (p) => {
      const config = known.get(p);
      return config ? configuredModelVersion(config) : p;
    },
  };
}
