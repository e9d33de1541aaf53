import { describe, expect, it } from "vitest";
import { providersFromEnv } from "@sd/config";
import { KNOWN_PROVIDER_IDS } from "@sd/contracts";
import { PROVIDER_CONFIGS_VARIABLE, providerConfigsEnv, providerConfigsFromParent } from "./provider-handoff";

describe("handing provider configs to a forked process", () => {
  it("gives the child exactly the configs the parent resolved, every field of every known model", () => {
    const configs = providersFromEnv(KNOWN_PROVIDER_IDS, {
      OPENAI_API_KEY: "sk-test",
      GPT5_RPM: "500",
      DEEPSEEK_ACCURACY: "0.6",
      LLAMA_BASE_URL: "http://127.0.0.1:11434/v1",
      GROK_PRICE_INPUT_PER_MTOK: "3",
      GROK_PRICE_OUTPUT_PER_MTOK: "15",
    });
    // As a keyless parent hands them on: simulated ones point at its emulator.
    const resolved = configs.map((c) => (c.simulated ? { ...c, baseUrl: "http://127.0.0.1:4010" } : c));
    expect(providerConfigsFromParent(providerConfigsEnv(resolved))).toEqual(resolved);
  });

  it("refuses a missing or malformed hand-over, naming the variable", () => {
    expect(() => providerConfigsFromParent({})).toThrow(new RegExp(`^${PROVIDER_CONFIGS_VARIABLE}: not set`));
    expect(() => providerConfigsFromParent({ [PROVIDER_CONFIGS_VARIABLE]: "{" })).toThrow(`${PROVIDER_CONFIGS_VARIABLE}: not JSON`);
    expect(() => providerConfigsFromParent({ [PROVIDER_CONFIGS_VARIABLE]: "[]" })).toThrow(PROVIDER_CONFIGS_VARIABLE);
    expect(() => providerConfigsFromParent({ [PROVIDER_CONFIGS_VARIABLE]: '[{"id":"openai"}]' })).toThrow(PROVIDER_CONFIGS_VARIABLE);
  });
});
