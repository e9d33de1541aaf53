import { z } from "zod";
import { KNOWN_PROVIDERS, StructuredOutputSchema, VendorSchema, type ProviderConfig, type ProviderDefaults, type ProviderId } from "@sd/contracts";
import { ConfigError } from "./load";
import { priceFromEnv } from "./prices";
import { providerApiKeyVariable } from "./secrets";

const KNOWN: Readonly<Record<string, ProviderDefaults>> = KNOWN_PROVIDERS;

/**
 * Builds one provider's settings from `<ID>_API_KEY`, `<ID>_MODEL`, `<ID>_BASE_URL`, `<ID>_VENDOR`,
 * `<ID>_LABEL`, `<ID>_WEIGHT`, `<ID>_TIMEOUT_MS`, `<ID>_RPM`, `<ID>_TPM`, `<ID>_STRUCTURED_OUTPUT` (OpenAI-compatible
 * vendors) and its price from the table in `./prices`, or
 * `<ID>_PRICE_INPUT_PER_MTOK` / `<ID>_PRICE_OUTPUT_PER_MTOK`. A provider without an API key is
 * simulated: the provider emulator answers it, every answer says so, and it costs nothing.
 * Known ids (KNOWN_PROVIDERS) need none of these; any other id needs `<ID>_VENDOR` and `<ID>_MODEL`.
 */
export function providerFromEnv(id: ProviderId, env: NodeJS.ProcessEnv = process.env): ProviderConfig {
  const prefix = id.toUpperCase();
  const read = (name: string): string | undefined => {
    const value = env[`${prefix}_${name}`]?.trim();
    return value ? value : undefined;
  };
  const known = KNOWN[id];
  const vendor = VendorSchema.safeParse(read("VENDOR") ?? known?.vendor);
  if (!vendor.success) {
    throw new ConfigError(`${prefix}_VENDOR: set it to one of ${VendorSchema.options.join(", ")} for provider "${id}"`);
  }
  const model = read("MODEL") ?? known?.model;
  if (!model) throw new ConfigError(`${prefix}_MODEL: required for provider "${id}"`);
  const number = (name: string, fallback: number, schema: z.ZodNumber): number => {
    const raw = read(name);
    const parsed = schema.safeParse(raw === undefined ? fallback : Number(raw));
    if (!parsed.success) throw new ConfigError(`${prefix}_${name}: ${parsed.error.issues[0]?.message ?? "invalid"}`);
    return parsed.data;
  };
  const baseUrl = read("BASE_URL") ?? known?.baseUrl ?? null;
  if (baseUrl !== null && !z.url().safeParse(baseUrl).success) {
    throw new ConfigError(`${prefix}_BASE_URL: not a URL`);
  }
  const structuredOutput = StructuredOutputSchema.safeParse(read("STRUCTURED_OUTPUT") ?? known?.structuredOutput ?? "json_schema");
  if (!structuredOutput.success) {
    throw new ConfigError(`${prefix}_STRUCTURED_OUTPUT: set it to one of ${StructuredOutputSchema.options.join(", ")}`);
  }
  const apiKey = env[providerApiKeyVariable(id)]?.trim() || undefined;
  return {
    id,
    vendor: vendor.data,
    model,
    // A known label names the known model: another model (`<ID>_MODEL`) is shown by its own name.
    label: read("LABEL") ?? (known?.model === model ? known.label : model),
    apiKey: apiKey ?? "simulated",
    baseUrl,
    structuredOutput: structuredOutput.data,
    weight: number("WEIGHT", 1, z.number().positive()),
    accuracy: read("ACCURACY") === undefined ? null : number("ACCURACY", 0, z.number().gt(0).lt(1)),
    timeoutMs: number("TIMEOUT_MS", 20_000, z.number().int().min(100)),
    // No default: vendors' limits depend on the account's tier, and a wrong guess either throttles or does not protect.
    rpm: read("RPM") === undefined ? null : number("RPM", 0, z.number().int().positive()),
    tpm: read("TPM") === undefined ? null : number("TPM", 0, z.number().int().positive()),
    simulated: apiKey === undefined,
    price: priceFromEnv(id, model, env),
  };
}

export function providersFromEnv(ids: readonly ProviderId[], env: NodeJS.ProcessEnv = process.env): ProviderConfig[] {
  return ids.map((id) => providerFromEnv(id, env));
}
