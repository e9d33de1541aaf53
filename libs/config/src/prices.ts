import { z } from "zod";
import type { ModelPrice, ProviderConfig, TokenUsage } from "@sd/contracts";
import { ConfigError } from "./load";

/**
 * List prices in US dollars per million tokens (input, output), standard tier, from the vendors'
 * pricing pages as of March 2026 (DeepSeek's input at the cache-miss rate). Llama has no list
 * price (it depends on who serves it), so `LLAMA_PRICE_*` prices it; prices change, so
 * `<ID>_PRICE_INPUT_PER_MTOK` and `<ID>_PRICE_OUTPUT_PER_MTOK` override one without a release.
 */
export const MODEL_PRICES: Readonly<Record<string, ModelPrice>> = {
  // OpenAI
  "gpt-4o": usd(2.5, 10),
  // The first gpt-4o snapshot kept its launch price.
  "gpt-4o-2024-05-13": usd(5, 15),
  "gpt-4o-mini": usd(0.15, 0.6),
  "gpt-4.1": usd(2, 8),
  "gpt-4.1-mini": usd(0.4, 1.6),
  "gpt-4.1-nano": usd(0.1, 0.4),
  "gpt-5": usd(1.25, 10),
  "gpt-5.1": usd(1.25, 10),
  "gpt-5-mini": usd(0.25, 2),
  "gpt-5-nano": usd(0.05, 0.4),
  o3: usd(2, 8),
  "o4-mini": usd(1.1, 4.4),
  // Google (Gemini bills thinking tokens as output; the Gemini adapter counts them there)
  "gemini-2.5-pro": usd(1.25, 10),
  "gemini-2.5-flash": usd(0.3, 2.5),
  "gemini-2.5-flash-lite": usd(0.1, 0.4),
  "gemini-2.0-flash": usd(0.1, 0.4),
  // Anthropic
  "claude-opus-4-6": usd(5, 25),
  "claude-opus-4-5": usd(5, 25),
  "claude-opus-4-1": usd(15, 75),
  "claude-opus-4-0": usd(15, 75),
  "claude-opus-4": usd(15, 75),
  "claude-sonnet-4-6": usd(3, 15),
  "claude-sonnet-4-5": usd(3, 15),
  "claude-sonnet-4-0": usd(3, 15),
  "claude-sonnet-4": usd(3, 15),
  "claude-3-7-sonnet": usd(3, 15),
  "claude-haiku-4-5": usd(1, 5),
  "claude-3-5-haiku": usd(0.8, 4),
  // Retired by Anthropic in April 2026; still priced for a deployment that reaches it elsewhere.
  "claude-3-haiku": usd(0.25, 1.25),
  // DeepSeek (deepseek-chat is DeepSeek-V3.2 in non-thinking mode)
  "deepseek-chat": usd(0.28, 0.42),
  "deepseek-reasoner": usd(0.28, 0.42),
  // xAI
  "grok-4": usd(3, 15),
  "grok-4-0709": usd(3, 15),
  "grok-3": usd(3, 15),
};

function usd(inputUsdPerMTok: number, outputUsdPerMTok: number): ModelPrice {
  return { inputUsdPerMTok, outputUsdPerMTok };
}

/**
 * The table's price of `model`: its own entry, else that of the name without a snapshot date or
 * `-latest` (gpt-4o-2024-08-06 is priced as gpt-4o, claude-haiku-4-5-20251001 as claude-haiku-4-5).
 * Null for a model the table does not know.
 */
export function tablePrice(model: string): ModelPrice | null {
  const name = model.trim().toLowerCase();
  const exact = MODEL_PRICES[name];
  if (exact) return exact;
  const family = name.replace(/-(?:\d{4}-\d{2}-\d{2}|\d{8}|latest)$/, "");
  return MODEL_PRICES[family] ?? null;
}

const perMTok = z.number({ error: "must be a number of US dollars per million tokens" }).nonnegative("must be 0 or more");

/**
 * A provider's price: the table's for its model, with either half replaced by
 * `<ID>_PRICE_INPUT_PER_MTOK` / `<ID>_PRICE_OUTPUT_PER_MTOK`. A model the table does not know
 * needs both variables (one alone would leave the other half unknown); with neither it is null.
 */
export function priceFromEnv(id: string, model: string, env: NodeJS.ProcessEnv = process.env): ModelPrice | null {
  const prefix = id.toUpperCase();
  const read = (half: "INPUT" | "OUTPUT"): number | undefined => {
    const name = `${prefix}_PRICE_${half}_PER_MTOK`;
    const raw = env[name]?.trim();
    if (!raw) return undefined;
    const parsed = perMTok.safeParse(Number(raw));
    if (!parsed.success) throw new ConfigError(`${name}: ${parsed.error.issues[0]?.message ?? "invalid"}`);
    return parsed.data;
  };
  const input = read("INPUT");
  const output = read("OUTPUT");
  const table = tablePrice(model);
  if (table) return usd(input ?? table.inputUsdPerMTok, output ?? table.outputUsdPerMTok);
  if (input === undefined && output === undefined) return null;
  if (input === undefined || output === undefined) {
    const missing = input === undefined ? "INPUT" : "OUTPUT";
    throw new ConfigError(`${prefix}_PRICE_${missing}_PER_MTOK: required too, as the price table does not know model "${model}"`);
  }
  return usd(input, output);
}

/**
 * What `usage` cost on `provider`, in US dollars. 0 for a simulated answer (no vendor was paid,
 * whatever the table says), for a call without reported usage and for a model without a price.
 */
export function costUsd(provider: Pick<ProviderConfig, "simulated" | "price">, usage: TokenUsage | null): number {
  if (provider.simulated || usage === null || provider.price === null) return 0;
  const { inputUsdPerMTok, outputUsdPerMTok } = provider.price;
  return (usage.input_tokens * inputUsdPerMTok + usage.output_tokens * outputUsdPerMTok) / 1_000_000;
}
