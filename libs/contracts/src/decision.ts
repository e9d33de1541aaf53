import { z } from "zod";
import { EnsembleOptionsSchema } from "./ensemble";
import { ImageDataUrlSchema } from "./image-data-url";
import { LIMITS } from "./limits";
import { MESSAGES } from "./messages";

/** Trimmed categories with empty ones and exact duplicates dropped. */
export function normaliseCategories(categories: readonly string[]): string[] {
  return [...new Set(categories.map((c) => c.trim()).filter((c) => c.length > 0))];
}

/** A decision's question. */
export const QuestionSchema = z
  .string({ error: MESSAGES.questionRequired.detail })
  .trim()
  .min(1, MESSAGES.questionRequired.detail)
  .max(LIMITS.maxQuestionLength, `Please keep the question under ${LIMITS.maxQuestionLength} characters.`);

/** The allowed answers: trimmed, empty ones and exact duplicates dropped, at least 2. */
export const CategoriesSchema = z
  .array(z.string({ error: MESSAGES.categoriesRequired.detail }), { error: MESSAGES.categoriesRequired.detail })
  .transform(normaliseCategories)
  .pipe(
    z
      .array(z.string().max(LIMITS.maxCategoryLength, `Each category must be at most ${LIMITS.maxCategoryLength} characters.`))
      .min(LIMITS.minCategories, MESSAGES.categoriesRequired.detail)
      .max(LIMITS.maxCategories, `Please provide at most ${LIMITS.maxCategories} categories.`),
  );

/** Up to 3 images as data URLs, each under 10 MB. */
export const ImagesSchema = z
  .array(ImageDataUrlSchema, { error: MESSAGES.invalidImageType.detail })
  .max(LIMITS.maxImages, MESSAGES.maxImages.detail)
  .optional()
  .default([]);

/** The nil and max UUIDs are well known: every client sending one would claim the same live room. */
const SHARED_UUIDS = new Set(["00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff"]);
export const REQUEST_ID_NOT_RANDOM = "request_id must be a new random UUID, not the nil or max UUID.";

/** A client's id for one decision's live events: a UUID of its own. */
export const RequestIdSchema = z
  .uuid({ error: "request_id must be a UUID." })
  .refine((id) => !SHARED_UUIDS.has(id.toLowerCase()), REQUEST_ID_NOT_RANDOM);

/** Body of both decision endpoints. Categories come out normalised. */
export const DecisionRequestSchema = z.object({
  question: QuestionSchema,
  categories: CategoriesSchema,
  images: ImagesSchema,
  request_id: RequestIdSchema.optional(),
  ...EnsembleOptionsSchema.shape,
});
export type DecisionRequest = z.infer<typeof DecisionRequestSchema>;

/** Decision response entity, as both decision endpoints answer. */
export const DecisionResponseSchema = z.object({
  final_decision: z.string().nullable(),
  total_votes: z.number().int().nonnegative(),
  vote_counts: z.record(z.string(), z.number()),
  individual_responses: z.record(z.string(), z.string().nullable()),
  context_explanation: z.string().optional(),
  decision_id: z.string(),
  question: z.string(),
});
export type DecisionResponse = z.infer<typeof DecisionResponseSchema>;

/** Body of POST /api/smart-suggestion-public. */
export const SuggestionRequestSchema = z.object({
  question: z.string({ error: MESSAGES.suggestionQuestionRequired }).trim().min(1, MESSAGES.suggestionQuestionRequired).max(LIMITS.maxQuestionLength),
  images: z.array(ImageDataUrlSchema).max(LIMITS.maxImages, MESSAGES.maxImages.detail).optional().default([]),
  existing_choices: z.array(z.string()).optional().default([]),
});
export type SuggestionRequest = z.infer<typeof SuggestionRequestSchema>;

export const SuggestionSchema = z.object({ category: z.string(), confidence: z.number().min(0).max(1) });
export type Suggestion = z.infer<typeof SuggestionSchema>;
export const SuggestionResponseSchema = z.object({ suggestions: z.array(SuggestionSchema) });
export type SuggestionResponse = z.infer<typeof SuggestionResponseSchema>;
