/** Business constants (specification section 9) and the server's own input bounds. */
export const LIMITS = {
  maxImages: 3,
  /** Each image must be under 10 MB once decoded. */
  maxImageBytes: 10 * 1024 * 1024,
  minCategories: 2,
  maxCategories: 20,
  maxCategoryLength: 200,
  maxQuestionLength: 4000,
} as const;

/** Default ensemble mode (specification section 9). */
export const DEFAULT_ENSEMBLE_MODE = "majority_voting" as const;
