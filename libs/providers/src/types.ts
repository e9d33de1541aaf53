import type { ProviderConfig, Suggestion, TokenUsage } from "@sd/contracts";

export interface VoteInput {
  question: string;
  categories: readonly string[];
  /** `data:image/...;base64,` URLs. */
  images: readonly string[];
  /**
   * Gossip rounds after the first: the other panel models' answers in the previous round. With
   * `peers` or `previous` set, the model is shown them and asked to keep or change its answer;
   * with neither, the call is an independent first-round vote.
   */
  peers?: readonly PeerAnswer[];
  /** Gossip: this model's own answer in the previous round; null when that call failed. */
  previous?: { category: string; reason: string | null } | null;
  /** Gossip: the round this answer is for (2 or more), shown to the model. */
  round?: number;
}

/** Another model's answer in the previous gossip round; category null when its call failed. */
export interface PeerAnswer {
  label: string;
  category: string | null;
  reason: string | null;
}

/** One panel model's answer as the judge reads it; category and confidence null when its call failed. */
export interface PanelAnswer {
  label: string;
  category: string | null;
  reason: string | null;
  confidence: number | null;
}

export interface JudgeInput {
  question: string;
  categories: readonly string[];
  /** `data:image/...;base64,` URLs. */
  images: readonly string[];
  /** Every panel model's answer, in panel order. */
  answers: readonly PanelAnswer[];
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
  /** A vote, or a gossip round's answer when `input` has peers or a previous answer. Throws ProviderError. */
  vote(input: VoteInput, signal?: AbortSignal): Promise<ModelAnswer>;
  /**
   * The judge's verdict on a panel's answers: one of the categories (the same enum constraint as
   * a vote), its reason as `rationale`, and its confidence. Throws ProviderError.
   */
  judge(input: JudgeInput, signal?: AbortSignal): Promise<ModelAnswer>;
  /** 3-6 new candidate categories, none equal to an existing choice. Throws ProviderError. */
  suggest(input: SuggestInput, signal?: AbortSignal): Promise<Suggestion[]>;
}
