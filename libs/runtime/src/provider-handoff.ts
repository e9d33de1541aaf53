import { ProviderConfigSchema, type ProviderConfig } from "@sd/contracts";

/** The variable that carries a parent's resolved provider configs to the processes it forks. */
export const PROVIDER_CONFIGS_VARIABLE = "SD_PROVIDER_CONFIGS";

/**
 * The environment entry that hands `configs` to a forked process: the very configs this process
 * resolved (API keys, and the base URLs of the emulator it started), so the child starts no
 * emulator of its own and labels simulated answers as this process would.
 */
export function providerConfigsEnv(configs: readonly ProviderConfig[]): Record<string, string> {
  return { [PROVIDER_CONFIGS_VARIABLE]: JSON.stringify(configs) };
}

/** The configs a parent handed over with `providerConfigsEnv`; throws naming the variable when absent or malformed. */
export function providerConfigsFromParent(env: NodeJS.ProcessEnv): ProviderConfig[] {
  const raw = env[PROVIDER_CONFIGS_VARIABLE];
  if (!raw) throw new Error(`${PROVIDER_CONFIGS_VARIABLE}: not set; this process is started by its parent (npm start)`);
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new Error(`${PROVIDER_CONFIGS_VARIABLE}: not JSON`);
  }
  const parsed = ProviderConfigSchema.array().min(1).safeParse(json);
  if (!parsed.success) throw new Error(`${PROVIDER_CONFIGS_VARIABLE}: ${parsed.error.issues[0]?.message ?? "invalid"}`);
  return parsed.data;
}
