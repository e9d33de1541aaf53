import { describe, expect, it } from "vitest";
import { DEFAULT_PROVIDERS } from "@sd/contracts";
import { ConfigError } from "./load";
import { costUsd, priceFromEnv, tablePrice } from "./prices";
import { providerFromEnv, providersFromEnv } from "./providers";

describe("the price table", () => {
  it("prices the three default models at their list prices (US dollars per million tokens)", () => {
    expect(tablePrice(DEFAULT_PROVIDERS.openai.model)).toEqual({ inputUsdPerMTok: 2.5, outputUsdPerMTok: 10 });
    expect(tablePrice(DEFAULT_PROVIDERS.gemini.model)).toEqual({ inputUsdPerMTok: 0.3, outputUsdPerMTok: 2.5 });
    expect(tablePrice(DEFAULT_PROVIDERS.claude.model)).toEqual({ inputUsdPerMTok: 3, outputUsdPerMTok: 15 });
  });

  it("prices a dated snapshot or a -latest alias as its model, unless the snapshot has its own price", () => {
    expect(tablePrice("gpt-4o-2024-08-06")).toEqual(tablePrice("gpt-4o"));
    expect(tablePrice("claude-haiku-4-5-20251001")).toEqual(tablePrice("claude-haiku-4-5"));
    expect(tablePrice("claude-3-5-haiku-latest")).toEqual({ inputUsdPerMTok: 0.8, outputUsdPerMTok: 4 });
    expect(tablePrice("GPT-4o")).toEqual(tablePrice("gpt-4o"));
    expect(tablePrice("gpt-4o-2024-05-13")).toEqual({ inputUsdPerMTok: 5, outputUsdPerMTok: 15 });
  });

  it("knows nothing of other models, nor of a model that merely starts like a known one", () => {
    expect(tablePrice("llama3.1")).toBeNull();
    expect(tablePrice("gpt-4o-audio-preview")).toBeNull();
    expect(tablePrice("claude-emulated")).toBeNull();
  });
});

describe("priceFromEnv", () => {
  it("takes the table's price when no variable is set", () => {
    expect(priceFromEnv("openai", "gpt-4o", {})).toEqual({ inputUsdPerMTok: 2.5, outputUsdPerMTok: 10 });
    expect(priceFromEnv("llama", "llama3.1", {})).toBeNull();
  });

  it("lets <ID>_PRICE_INPUT_PER_MTOK and <ID>_PRICE_OUTPUT_PER_MTOK replace either half of it", () => {
    expect(priceFromEnv("openai", "gpt-4o", { OPENAI_PRICE_INPUT_PER_MTOK: "1.25" })).toEqual({ inputUsdPerMTok: 1.25, outputUsdPerMTok: 10 });
    expect(priceFromEnv("openai", "gpt-4o", { OPENAI_PRICE_OUTPUT_PER_MTOK: " 0 " })).toEqual({ inputUsdPerMTok: 2.5, outputUsdPerMTok: 0 });
    // Another provider's variables change nothing.
    expect(priceFromEnv("openai", "gpt-4o", { CLAUDE_PRICE_INPUT_PER_MTOK: "9" })).toEqual({ inputUsdPerMTok: 2.5, outputUsdPerMTok: 10 });
  });

  it("prices a model the table does not know from both variables, and names the one missing", () => {
    expect(priceFromEnv("llama", "llama3.1", { LLAMA_PRICE_INPUT_PER_MTOK: "0.2", LLAMA_PRICE_OUTPUT_PER_MTOK: "0.6" })).toEqual({
      inputUsdPerMTok: 0.2,
      outputUsdPerMTok: 0.6,
    });
    expect(() => priceFromEnv("llama", "llama3.1", { LLAMA_PRICE_INPUT_PER_MTOK: "0.2" })).toThrow(
      new ConfigError('LLAMA_PRICE_OUTPUT_PER_MTOK: required too, as the price table does not know model "llama3.1"'),
    );
  });

  it("refuses a price that is not a non-negative number, naming the variable", () => {
    expect(() => priceFromEnv("openai", "gpt-4o", { OPENAI_PRICE_INPUT_PER_MTOK: "cheap" })).toThrow(/^OPENAI_PRICE_INPUT_PER_MTOK: must be a number/);
    expect(() => priceFromEnv("openai", "gpt-4o", { OPENAI_PRICE_OUTPUT_PER_MTOK: "-1" })).toThrow(/^OPENAI_PRICE_OUTPUT_PER_MTOK: must be 0 or more/);
  });
});

describe("providerFromEnv", () => {
  it("gives every provider its price, with the env override, and null for an unknown model", () => {
    const [openai, gemini, llama] = providersFromEnv(["openai", "gemini", "llama"], {
      OPENAI_API_KEY: "sk-test",
      GEMINI_PRICE_OUTPUT_PER_MTOK: "3",
      LLAMA_VENDOR: "openai-compatible",
      LLAMA_MODEL: "llama3.1",
    });
    expect(openai).toMatchObject({ model: "gpt-4o", simulated: false, price: { inputUsdPerMTok: 2.5, outputUsdPerMTok: 10 } });
    expect(gemini).toMatchObject({ model: "gemini-2.5-flash", simulated: true, price: { inputUsdPerMTok: 0.3, outputUsdPerMTok: 3 } });
    expect(llama).toMatchObject({ model: "llama3.1", price: null });
  });

  it("prices the model a provider is configured with, not its default one", () => {
    expect(providerFromEnv("openai", { OPENAI_MODEL: "gpt-4.1-mini" }).price).toEqual({ inputUsdPerMTok: 0.4, outputUsdPerMTok: 1.6 });
  });
});

describe("costUsd", () => {
  const gpt4o = { simulated: false, price: { inputUsdPerMTok: 2.5, outputUsdPerMTok: 10 } };

  it("prices input and output tokens at their own rates", () => {
    expect(costUsd(gpt4o, { input_tokens: 1_000_000, output_tokens: 0 })).toBe(2.5);
    expect(costUsd(gpt4o, { input_tokens: 0, output_tokens: 1_000_000 })).toBe(10);
    expect(costUsd(gpt4o, { input_tokens: 400, output_tokens: 50 })).toBeCloseTo(0.0015, 12);
  });

  it("is 0 for a simulated answer whatever the table says, for no reported usage and for an unpriced model", () => {
    expect(costUsd({ ...gpt4o, simulated: true }, { input_tokens: 400, output_tokens: 50 })).toBe(0);
    expect(costUsd(gpt4o, null)).toBe(0);
    expect(costUsd({ simulated: false, price: null }, { input_tokens: 400, output_tokens: 50 })).toBe(0);
  });
});
