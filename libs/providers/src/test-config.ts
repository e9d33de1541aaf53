import type { ProviderConfig, Vendor } from "@sd/contracts";
import { emulatorBaseUrl } from "@sd/provider-emulator";

/** A provider's settings pointed at a test's provider emulator (the adapter tests' one way to build them). */
export function emulatedProviderConfig(
  emulatorUrl: string,
  { vendor, model, label = model, id = vendor === "anthropic" ? "claude" : vendor }: { vendor: Vendor; model: string; label?: string; id?: string },
  overrides: Partial<ProviderConfig> = {},
): ProviderConfig {
  return {
    id,
    vendor,
    model,
    label,
    apiKey: "test-key",
    baseUrl: emulatorBaseUrl(emulatorUrl, vendor),
    weight: 1,
    timeoutMs: 5_000,
    simulated: true,
    price: null,
    rpm: null,
    tpm: null,
    ...overrides,
  };
}
