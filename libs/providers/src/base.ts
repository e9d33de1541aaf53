import { configuredModelVersion, type ProviderConfig, type Suggestion, type TokenUsage } from "@sd/contracts";
import { parseSuggestions, parseVote } from "./answer";
import { ProviderError } from "./errors";
import {
  GOSSIP_SYSTEM_PROMPT,
  JUDGE_SYSTEM_PROMPT,
  SUGGEST_SYSTEM_PROMPT,
  VOTE_SYSTEM_PROMPT,
  gossipText,
  judgeText,
  parseImages,
  suggestSchema,
  suggestText,
  voteSchema,
  voteText,
  type StructuredRequest,
} from "./prompt";
import type { JudgeInput, ModelAnswer, ModelProvider, SuggestInput, VoteInput } from "./types";

/** What an adapter got back: the model's JSON text, the model the vendor says answered, and the tokens it billed. */
export interface StructuredReply {
  raw: string;
  model: string | null;
  usage: TokenUsage | null;
}

/** A categorical question to one model: its prompt, and the categories its answer's enum allows. */
interface CategoricalAsk {
  name: string;
  description: string;
  system: string;
  text: (categories: readonly string[]) => string;
  images: readonly string[];
  categories: readonly string[];
}

/**
 * Prompting and answer normalisation, shared by all vendors; a subclass only sends one
 * structured-output request over its SDK and maps that SDK's errors to ProviderError. The caller's
 * AbortSignal goes with the request, so cancelling a call ends its HTTP request.
 */
export abstract class StructuredOutputProvider implements ModelProvider {
  constructor(readonly config: ProviderConfig) {}

  protected abstract complete(request: StructuredRequest, signal: AbortSignal | undefined): Promise<StructuredReply>;

  vote(input: VoteInput, signal?: AbortSignal): Promise<ModelAnswer> {
    // The first round (no peers, no previous answer) keeps the plain vote prompt, byte for byte.
    const gossip = input.peers !== undefined || input.previous !== undefined;
    return this.#ask(
      {
        name: "record_vote",
        description: "Record the chosen category, a one-sentence rationale and a confidence from 0 to 1.",
        system: gossip ? GOSSIP_SYSTEM_PROMPT : VOTE_SYSTEM_PROMPT,
        text: (categories) => (gossip ? gossipText(input.question, categories, input) : voteText(input.question, categories)),
        images: input.images,
        categories: input.categories,
      },
      signal,
    );
  }

  judge(input: JudgeInput, signal?: AbortSignal): Promise<ModelAnswer> {
    return this.#ask(
      {
        name: "record_verdict",
        description: "Record the final category, a one-sentence rationale for the verdict and a confidence from 0 to 1.",
        system: JUDGE_SYSTEM_PROMPT,
        text: (categories) => judgeText(input.question, categories, input.answers),
        images: input.images,
        categories: input.categories,
      },
      signal,
    );
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

  /** One structured call whose answer must be one of the categories (constrained by the schema's enum). */
  async #ask(ask: CategoricalAsk, signal: AbortSignal | undefined): Promise<ModelAnswer> {
    const categories = [...new Set(ask.categories)];
    if (categories.length === 0) throw new ProviderError("client", "no categories to choose from");
    const reply = await this.complete(
      {
        name: ask.name,
        description: ask.description,
        system: ask.system,
        text: ask.text(categories),
        images: parseImages(ask.images),
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
}
