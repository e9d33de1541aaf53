import { z } from "zod";

/** Which wire API a provider speaks. */
export const VendorSchema = z.enum(["openai", "anthropic", "gemini", "openai-compatible"]);
export type Vendor = z.infer<typeof VendorSchema>;

/** Provider ids name queues (`vote-<id>`) and env prefixes (`<ID>_API_KEY`). */
export const ProviderIdSchema = z.string().regex(/^[a-z][a-z0-9_]{0,30}$/, "provider ids are lower-case letters, digits and _");
export type ProviderId = z.infer<typeof ProviderIdSchema>;

export interface ProviderDefaults {
  vendor: Vendor;
  model: string;
  /** Row label in the playground (specification section 4). */
  label: string;
}

/** The playground's three models (specification sections 4 and 9). */
export const DEFAULT_PROVIDERS: Readonly<Record<"openai" | "gemini" | "claude", ProviderDefaults>> = {
  openai: { vendor: "openai", model: "gpt-4o", label: "OpenAI GPT-4o" },
  gemini: { vendor: "gemini", model: "gemini-2.5-flash", label: "Google Gemini 2.5 Flash" },
  claude: { vendor: "anthropic", model: "claude-sonnet-4-6", label: "Anthropic Claude Sonnet 3.5" },
};

export const DEFAULT_PROVIDER_IDS = Object.keys(DEFAULT_PROVIDERS) as ProviderId[];

/** What a model's tokens cost, in US dollars per million tokens (the unit vendors publish prices in). */
export interface ModelPrice {
  inputUsdPerMTok: number;
  outputUsdPerMTok: number;
}

/** Everything needed to talk to one model; built from the environment by `@sd/config`. */
export interface ProviderConfig {
  id: ProviderId;
  vendor: Vendor;
  model: string;
  label: string;
  apiKey: string;
  /** Vendor API base URL; unset means the vendor's public endpoint. */
  baseUrl: string | null;
  weight: number;
  timeoutMs: number;
  /** True when answered by the provider emulator because no API key is configured. */
  simulated: boolean;
  /**
   * The model's price (the built-in table, or `<ID>_PRICE_INPUT_PER_MTOK` / `<ID>_PRICE_OUTPUT_PER_MTOK`);
   * null when the model is in neither, and its calls cost 0. A simulated answer costs 0 whatever this says.
   */
  price: ModelPrice | null;
}

/** GET /api/providers: the models a decision asks, in row order. */
export const ProvidersResponseSchema = z.object({
  providers: z.array(z.object({ id: z.string(), label: z.string(), model: z.string(), simulated: z.boolean() })),
});
export type ProvidersResponse = z.infer<typeof ProvidersResponseSchema>;
