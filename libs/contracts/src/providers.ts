import { z } from "zod";

/** Which wire API a provider speaks. */
export const VendorSchema = z.enum(["openai", "anthropic", "gemini", "openai-compatible"]);
export type Vendor = z.infer<typeof VendorSchema>;

/** Provider ids name queues (`vote-<id>`) and env prefixes (`<ID>_API_KEY`). */
export const ProviderIdSchema = z.string().regex(/^[a-z][a-z0-9_]{0,30}$/, "provider ids are lower-case letters, digits and _");
export type ProviderId = z.infer<typeof ProviderIdSchema>;

/**
 * How an OpenAI-compatible endpoint is asked for JSON: `json_schema` sends the answer's schema
 * (categories as a strict enum), `json_object` asks for JSON mode and gives the schema in the
 * system prompt, for servers without json_schema (DeepSeek's API, some Llama hosts).
 */
export const StructuredOutputSchema = z.enum(["json_schema", "json_object"]);
export type StructuredOutput = z.infer<typeof StructuredOutputSchema>;

export interface ProviderDefaults {
  vendor: Vendor;
  model: string;
  /** Row label in the playground: the name of `model`, so it is shown only while that model answers. */
  label: string;
  /** The vendor's public API base URL when its SDK does not know it (OpenAI-compatible vendors). */
  baseUrl?: string;
  /** Unset: `json_schema`. */
  structuredOutput?: StructuredOutput;
}

/** The playground's three models, the default panel. */
export const DEFAULT_PROVIDERS: Readonly<Record<"openai" | "gemini" | "claude", ProviderDefaults>> = {
  openai: { vendor: "openai", model: "gpt-4o", label: "OpenAI GPT-4o" },
  gemini: { vendor: "gemini", model: "gemini-2.5-flash", label: "Google Gemini 2.5 Flash" },
  claude: { vendor: "anthropic", model: "claude-sonnet-4-6", label: "Anthropic Claude Sonnet 4.6" },
};

export const DEFAULT_PROVIDER_IDS = Object.keys(DEFAULT_PROVIDERS) as ProviderId[];

/**
 * Every provider id the product knows without `<ID>_VENDOR` / `<ID>_MODEL`: the playground's three
 * and the models `/sd-api` markets. Each is simulated through the wire API it really speaks when
 * it has no API key (DeepSeek, Grok and Llama speak OpenAI's).
 */
export const KNOWN_PROVIDERS = {
  ...DEFAULT_PROVIDERS,
  gpt5: { vendor: "openai", model: "gpt-5", label: "OpenAI GPT-5" },
  geminipro: { vendor: "gemini", model: "gemini-2.5-pro", label: "Google Gemini 2.5 Pro" },
  // Anthropic retired claude-3-haiku-20240307 in April 2026 (and Sonnet 3.5, the spec's playground
  // row, before it): the current models answer, under their own names (HAIKU_MODEL picks another).
  haiku: { vendor: "anthropic", model: "claude-haiku-4-5", label: "Anthropic Claude Haiku 4.5" },
  // DeepSeek's API has JSON mode but not json_schema.
  deepseek: {
    vendor: "openai-compatible",
    model: "deepseek-chat",
    label: "DeepSeek V3",
    baseUrl: "https://api.deepseek.com/v1",
    structuredOutput: "json_object",
  },
  // Llama has no vendor API of its own: with a key, LLAMA_BASE_URL names the server (vLLM, Ollama,
  // a host), which may serve it under another name (LLAMA_MODEL). This is its Hugging Face name.
  llama: { vendor: "openai-compatible", model: "meta-llama/Llama-3.1-70B-Instruct", label: "Meta Llama 3.1 70B" },
  grok: { vendor: "openai-compatible", model: "grok-4", label: "xAI Grok 4", baseUrl: "https://api.x.ai/v1" },
} as const satisfies Readonly<Record<string, ProviderDefaults>>;
export type KnownProviderId = keyof typeof KNOWN_PROVIDERS;
export const KNOWN_PROVIDER_IDS = Object.keys(KNOWN_PROVIDERS) as KnownProviderId[];

/** The eight models `/sd-api` markets, in its order (the playground's Claude Sonnet is not one). */
export const MARKETED_PROVIDER_IDS: readonly KnownProviderId[] = ["openai", "geminipro", "haiku", "deepseek", "llama", "grok", "gpt5", "gemini"];

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
  /** OpenAI-compatible vendors only (see StructuredOutputSchema); unset means `json_schema`. */
  structuredOutput?: StructuredOutput;
  weight: number;
  /** The model's measured accuracy (0 to 1) from `<ID>_ACCURACY`, for learned weights (WEIGHTING=learned); null when unknown. */
  accuracy?: number | null;
  timeoutMs: number;
  /**
   * Calls per minute this provider's vote queue may start, shared by every worker process
   * (`<ID>_RPM`, the vendor key's limit); null sets none, and only the vendor's 429s slow it down.
   */
  rpm: number | null;
  /**
   * Tokens per minute the provider's calls may use, shared by every worker process (`<ID>_TPM`, the
   * vendor key's token limit); null sets none.
   */
  tpm: number | null;
  /** True when answered by the provider emulator because no API key is configured. */
  simulated: boolean;
  /**
   * The model's price (the built-in table, or `<ID>_PRICE_INPUT_PER_MTOK` / `<ID>_PRICE_OUTPUT_PER_MTOK`);
   * null when the model is in neither, and its calls cost 0. A simulated answer costs 0 whatever this says.
   */
  price: ModelPrice | null;
}

/**
 * The model version a vote shows: the vendor's own model string when it reported one, else the
 * configured model; simulated ones say so. Shared by the workers and the aggregator, so a vote early
 * quorum skipped reads like every other vote of the same model.
 */
export function configuredModelVersion(config: Pick<ProviderConfig, "model" | "simulated">, reported: string | null = null): string {
  const version = reported?.trim() || config.model;
  return config.simulated ? `${version} (simulated)` : version;
}

/**
 * A ProviderConfig read back from JSON: `npm start` hands its forked worker processes the configs
 * it resolved (keys, models, the emulator's URLs), so they call exactly the models it would.
 */
export const ProviderConfigSchema = z.object({
  id: ProviderIdSchema,
  vendor: VendorSchema,
  model: z.string(),
  label: z.string(),
  apiKey: z.string(),
  baseUrl: z.string().nullable(),
  structuredOutput: StructuredOutputSchema.optional(),
  weight: z.number(),
  accuracy: z.number().nullable().optional(),
  timeoutMs: z.number(),
  rpm: z.number().nullable(),
  tpm: z.number().nullable(),
  simulated: z.boolean(),
  price: z.object({ inputUsdPerMTok: z.number(), outputUsdPerMTok: z.number() }).nullable(),
}) satisfies z.ZodType<ProviderConfig>;

/** GET /api/providers: the models a decision asks, in row order. */
export const ProvidersResponseSchema = z.object({
  /** Every model a request's panel may name, in configuration order. */
  providers: z.array(z.object({ id: z.string(), label: z.string(), model: z.string(), simulated: z.boolean() })),
  /** The panel of a request that names none (the playground's rows until the user picks others). */
  default_panel: z.array(z.string()),
  /** The judge of judge mode when a request names none. */
  default_judge: z.string(),
  /** Gossip rounds of a request that names none. */
  default_rounds: z.number().int().min(1),
});
export type ProvidersResponse = z.infer<typeof ProvidersResponseSchema>;
