import type { ProviderConfig, Suggestion, TokenUsage } from "@sd/contracts";
import { parseSuggestions, parseVote } from "./answer";
import { ProviderError } from "./errors";
import {
  SUGGEST_SYSTEM_PROMPT,
  VOTE_SYSTEM_PROMPT,
  parseImages,
  suggestSchema,
  suggestText,
  voteSchema,
  voteText,
  type StructuredRequest,
} from "./prompt";
import type { ModelAnswer, ModelProvider, SuggestInput, VoteInput } from "./types";

/** What an adapter got back: the model's JSON text, the model the vendor says answered, and the tokens it billed. */
export interface StructuredReply {
  raw: string;
  model: string | null;
  usage: TokenUsage | null;
}

/**
 * Prompting and answer normalisation, shared by all vendors; a subclass only sends one
 * structured-output request over its SDK and maps that SDK's errors to ProviderError.
 */
export abstract class StructuredOutputProvider implements ModelProvider {
  constructor(readonly config: ProviderConfig) {}

  protected abstract complete(request: StructuredRequest, signal: AbortSignal | undefined): Promise<StructuredReply>;

  async vote(input: VoteInput, signal?: AbortSignal): Promise<ModelAnswer> {
    const categories = [...new Set(input.categories)];
    if (categories.length === 0) throw new ProviderError("client", "no categories to choose from");
    const reply = await this.complete(
      {
        name: "record_vote",
        description: "Record the chosen category, a one-sentence rationale and a confidence from 0 to 1.",
        system: VOTE_SYSTEM_PROMPT,
        text: voteText(input.question, categories),
        images: parseImages(input.images),
        schema: voteSchema(categories),
      },
      signal,
    );
    let vote: ReturnType<typeof parseVote>;
    try {
      vote = parseVote(reply.raw, categories);
    } catch (error) {
      // The vendor answered, so the call was billed even though its answer cannot be used.
      throw error instanceof ProviderError ? error.withUsage(reply.usage) : error;
    }
    return { ...vote, raw: reply.raw, modelVersion: this.modelVersion(reply.model), usage: reply.usage };
  }

  async suggest(input: SuggestInput, signal?: AbortSignal): Promise<Suggestion[]> {
    const reply = await this.complete(
      {
        name: "record_suggestions",
        description: "Record 3 to 6 new answer categories, each with a confidence from 0 to 1.",
        system: SUGGEST_SYSTEM_PROMPT,
        text: suggestText(input.question, input.existingChoices),
        images: parseImages(input.images),
        schema: suggestSchema(),
      },
      signal,
    );
    return parseSuggestions(reply.raw, input.existingChoices);
  }

  protected modelVersion(reported: string | null): string {
    return configuredModelVersion(this.config, reported);
  }
}

/** The vendor's own model string when it reported one, else the configured model; simulated ones say so. */
export function configuredModelVersion(config: ProviderConfig, reported: string | null = null): string {
  const version = reported?.trim() || config.model;
  return config.simulated ? `${version} (simulated)` : version;
}
