import { describe, expect, it } from "vitest";
import { DEFAULT_PROVIDER_IDS, KNOWN_PROVIDER_IDS, MARKETED_PROVIDER_IDS, ProviderIdSchema } from "@sd/contracts";
import { loadEnv } from "./load";
import { providerFromEnv, providersFromEnv } from "./providers";
import { commonEnv, gatewayEnv } from "./schemas";

describe("the known providers", () => {
  it("are the eight marketed models plus the playground's Claude, each usable with no configuration", () => {
    expect(MARKETED_PROVIDER_IDS).toHaveLength(8);
    expect(new Set(KNOWN_PROVIDER_IDS)).toEqual(new Set([...MARKETED_PROVIDER_IDS, "claude"]));
    const configs = providersFromEnv(KNOWN_PROVIDER_IDS, {});
    // Ids name queues (vote-<id>) and variables (<ID>_API_KEY).
    for (const config of configs) expect(ProviderIdSchema.safeParse(config.id).success, config.id).toBe(true);
    expect(configs.map((c) => [c.id, c.vendor, c.model, c.label, c.simulated])).toEqual([
      ["openai", "openai", "gpt-4o", "OpenAI GPT-4o", true],
      ["gemini", "gemini", "gemini-2.5-flash", "Google Gemini 2.5 Flash", true],
      ["claude", "anthropic", "claude-sonnet-4-6", "Anthropic Claude Sonnet 4.6", true],
      ["gpt5", "openai", "gpt-5", "OpenAI GPT-5", true],
      ["geminipro", "gemini", "gemini-2.5-pro", "Google Gemini 2.5 Pro", true],
      ["haiku", "anthropic", "claude-haiku-4-5", "Anthropic Claude Haiku 4.5", true],
      ["deepseek", "openai-compatible", "deepseek-chat", "DeepSeek V3", true],
      ["llama", "openai-compatible", "meta-llama/Llama-3.1-70B-Instruct", "Meta Llama 3.1 70B", true],
      ["grok", "openai-compatible", "grok-4", "xAI Grok 4", true],
    ]);
  });

  it("label a model by its own name: another <ID>_MODEL is not shown under the default model's name", () => {
    expect(providerFromEnv("claude", { CLAUDE_MODEL: "claude-opus-4-1" }).label).toBe("claude-opus-4-1");
    expect(providerFromEnv("claude", { CLAUDE_MODEL: "claude-3-5-sonnet-20241022", CLAUDE_LABEL: "Anthropic Claude Sonnet 3.5" }).label).toBe(
      "Anthropic Claude Sonnet 3.5",
    );
    expect(providerFromEnv("claude", {}).label).toBe("Anthropic Claude Sonnet 4.6");
  });

  it("are all configured by default, while the default panel stays the playground's three", () => {
    expect(DEFAULT_PROVIDER_IDS).toEqual(["openai", "gemini", "claude"]);
    expect(loadEnv(commonEnv, {}).PROVIDERS).toEqual(["openai", "gemini", "claude", "geminipro", "haiku", "deepseek", "llama", "grok", "gpt5"]);
    expect(loadEnv(gatewayEnv, {}).PANEL).toEqual(["openai", "gemini", "claude"]);
  });

  it("reach DeepSeek and xAI at their own API, in the JSON mode each supports; Llama has no public default", () => {
    const [deepseek, grok, llama, openai] = providersFromEnv(["deepseek", "grok", "llama", "openai"], {
      DEEPSEEK_API_KEY: "sk-deepseek",
      GROK_API_KEY: "xai-key",
    });
    expect(deepseek).toMatchObject({ baseUrl: "https://api.deepseek.com/v1", structuredOutput: "json_object", simulated: false });
    expect(grok).toMatchObject({ baseUrl: "https://api.x.ai/v1", structuredOutput: "json_schema", simulated: false });
    expect(llama).toMatchObject({ baseUrl: null, structuredOutput: "json_schema", simulated: true });
    expect(openai).toMatchObject({ baseUrl: null, structuredOutput: "json_schema" });
  });

  it("take a server's base URL, model and JSON mode from the environment, and refuse an unknown mode", () => {
    const llama = providerFromEnv("llama", {
      LLAMA_API_KEY: "gsk-test",
      LLAMA_BASE_URL: "https://api.groq.com/openai/v1",
      LLAMA_MODEL: "llama-3.1-8b-instant",
      LLAMA_STRUCTURED_OUTPUT: "json_object",
    });
    expect(llama).toMatchObject({ baseUrl: "https://api.groq.com/openai/v1", model: "llama-3.1-8b-instant", structuredOutput: "json_object" });
    expect(() => providerFromEnv("deepseek", { DEEPSEEK_STRUCTURED_OUTPUT: "xml" })).toThrow(/^DEEPSEEK_STRUCTURED_OUTPUT: set it to one of json_schema, json_object/);
  });

  it("take requests and tokens per minute from <ID>_RPM and <ID>_TPM, none when unset, and refuse one that is not a positive whole number", () => {
    const [openai, claude] = providersFromEnv(["openai", "claude"], { OPENAI_API_KEY: "sk-test", OPENAI_RPM: "500", OPENAI_TPM: "30000" });
    expect(openai).toMatchObject({ rpm: 500, tpm: 30_000, simulated: false });
    expect(claude).toMatchObject({ rpm: null, tpm: null, simulated: true });
    for (const bad of ["0", "-5", "12.5", "lots"]) {
      expect(() => providerFromEnv("gemini", { GEMINI_RPM: bad }), bad).toThrow(/^GEMINI_RPM: /);
      expect(() => providerFromEnv("gemini", { GEMINI_TPM: bad }), bad).toThrow(/^GEMINI_TPM: /);
    }
  });

  it("price the marketed models from the table, except Llama whose price depends on its host", () => {
    const prices = Object.fromEntries(providersFromEnv(MARKETED_PROVIDER_IDS, {}).map((c) => [c.id, c.price]));
    expect(prices).toEqual({
      openai: { inputUsdPerMTok: 2.5, outputUsdPerMTok: 10 },
      geminipro: { inputUsdPerMTok: 1.25, outputUsdPerMTok: 10 },
      haiku: { inputUsdPerMTok: 1, outputUsdPerMTok: 5 },
      deepseek: { inputUsdPerMTok: 0.28, outputUsdPerMTok: 0.42 },
      llama: null,
      grok: { inputUsdPerMTok: 3, outputUsdPerMTok: 15 },
      gpt5: { inputUsdPerMTok: 1.25, outputUsdPerMTok: 10 },
      gemini: { inputUsdPerMTok: 0.3, outputUsdPerMTok: 2.5 },
    });
  });
});
