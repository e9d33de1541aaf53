import type { SuggestionRequest, SuggestionResponse } from "@sd/contracts";
import type { ModelProvider } from "@sd/providers";
import type { Logger } from "@sd/telemetry";
import { DomainError } from "./errors";

/** Candidate categories for a question from one fast model, leaving out the ones the user already has (ignoring case). */
export async function suggestCategories(provider: ModelProvider, request: SuggestionRequest, logger: Logger): Promise<SuggestionResponse> {
  const existing = new Set(request.existing_choices.map((c) => c.trim().toLowerCase()));
  let suggestions;
  try {
    suggestions = await provider.suggest({ question: request.question, images: request.images, existingChoices: request.existing_choices });
  } catch (error) {
    logger.warn({ err: error, provider: provider.config.id }, "suggestions failed");
    throw new DomainError("upstream-failed", "Failed to get suggestions");
  }
  return { suggestions: suggestions.filter((s) => !existing.has(s.category.trim().toLowerCase())) };
}
