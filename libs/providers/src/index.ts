import type { ProviderConfig } from "@sd/contracts";
import { AnthropicProvider } from "./anthropic";
import { GeminiProvider } from "./gemini";
import { OpenAIProvider } from "./openai";
import type { ModelProvider } from "./types";

export type { JudgeInput, ModelAnswer, ModelProvider, PanelAnswer, PeerAnswer, SuggestInput, VoteInput } from "./types";
export { PROMPT_MARKERS } from "./prompt";
export { ProviderError, asProviderError, retryAfterMsFromHeaders, type ProviderErrorKind } from "./errors";
export { configuredModelVersion } from "@sd/contracts";
export { parseSuggestions, parseVote } from "./answer";
export { AnthropicProvider, GeminiProvider, OpenAIProvider };
/** The adapters' HTTP client, for code that calls a vendor SDK itself (the SDK transport bench). */
export { keepAliveFetch, routeGlobalFetchThroughSharedPool } from "./transport";

/** The adapter for the vendor's wire API; "openai-compatible" endpoints use the OpenAI one. */
export function createProvider(config: ProviderConfig): ModelProvider {
  switch (config.vendor) {
    case "openai":
    case "openai-compatible":
      return new OpenAIProvider(config);
    case "anthropic":
      return new AnthropicProvider(config);
    case "gemini":
      return new GeminiProvider(config);
  }
}
