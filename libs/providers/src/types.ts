import type { ProviderConfig, Suggestion, TokenUsage } from "@sd/contracts";

export interface VoteInput {
  question: string;
  categories: readonly string[];
  /** `data:image/...;base64,` URLs. */
  images: readonly string[];
}

export interface ModelAnswer {
  /** Exactly as spelled in `VoteInput.categories`. */
  category: string;
  rationale: string;
  /** 0..1 */
  confidence: number;
  /** Model output before normalisation. */
  raw: string;
  modelVersion: string;
  /** Tokens the call used, as the vendor reported them; null when it reported none. */
  usage: TokenUsage | null;
}

export interface SuggestInput {
  question: string;
  images: readonly string[];
  existingChoices: readonly string[];
}

/** One model behind one vendor API. Each call makes exactly one HTTP attempt; retries live in the queue. */
export interface ModelProvider {
  readonly config: ProviderConfig;
  /** Throws ProviderError. */
  vote(input: VoteInput, signal?: AbortSignal): Promise<ModelAnswer>;
  /** 3-6 new candidate categories, none equal to an existing choice. Throws ProviderError. */
  suggest(input: SuggestInput, signal?: AbortSignal): Promise<Suggestion[]>;
}
