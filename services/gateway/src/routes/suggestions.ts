import { Router, type RequestHandler } from "express";
import { SuggestionRequestSchema, type SuggestionResponse } from "@sd/contracts";
import type { ModelProvider } from "@sd/providers";
import type { Logger } from "@sd/telemetry";
import { HttpError } from "../http/errors";
import { parseBody } from "../http/validate";

/** POST /api/smart-suggestion-public: candidate categories from one fast model. */
export function suggestionRoutes(provider: ModelProvider, rateLimit: RequestHandler, body: RequestHandler, logger: Logger): Router {
  const router = Router();
  router.post("/smart-suggestion-public", rateLimit, body, async (req, res) => {
    const request = parseBody(SuggestionRequestSchema, req);
    const existing = new Set(request.existing_choices.map((c) => c.trim().toLowerCase()));
    let suggestions;
    try {
      suggestions = await provider.suggest({ question: request.question, images: request.images, existingChoices: request.existing_choices });
    } catch (error) {
      logger.warn({ err: error, provider: provider.config.id }, "suggestions failed");
      throw new HttpError(502, "Failed to get suggestions");
    }
    const body: SuggestionResponse = {
      suggestions: suggestions.filter((s) => !existing.has(s.category.trim().toLowerCase())),
    };
    res.json(body);
  });
  return router;
}
