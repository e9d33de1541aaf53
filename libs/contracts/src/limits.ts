/** Business constants and the server's own input bounds. */
export const LIMITS = {
  maxImages: 3,
  /** Each image must be under 10 MB once decoded. */
  maxImageBytes: 10 * 1024 * 1024,
  minCategories: 2,
  maxCategories: 20,
  maxCategoryLength: 200,
  maxQuestionLength: 4000,
  /** Dashboard page size and the history endpoint's default limit. */
  historyPageSize: 50,
  maxHistoryPageSize: 200,
  maxHistoryOffset: 1_000_000,
  /** Default of GET /api/image-assets/user/{userId}. */
  imageAssetListLimit: 50,
  maxImageAssetListLimit: 200,
  /** Dashboard filter debounce. */
  historyFilterDebounceMs: 500,
} as const;

/** Default ensemble mode. */
export const DEFAULT_ENSEMBLE_MODE = "majority_voting" as const;
