/** User-facing texts from the product specification (validation and error texts), verbatim. */
export const MESSAGES = {
  questionRequired: { title: "Question required", detail: "Please enter a question for the AI to decide on." },
  categoriesRequired: {
    title: "Categories required",
    detail: "Please provide at least 2 valid response categories.",
  },
  maxImages: { title: "Maximum images reached", detail: "You can only upload up to 3 images." },
  invalidImageType: { title: "Invalid file type", detail: "Please select only image files." },
  imagesTooLarge: "Images are too large. Please try with smaller images or fewer images.",
  suggestionQuestionRequired: "Question is required",
  noValidDecision: "No valid decision could be reached from any LLM provider",
  /** 503 while Redis (the decision queue) is unreachable: a request that needs it fails at once instead of hanging. */
  serviceUnavailable: "Smart Decision is temporarily unavailable. Please try again in a moment.",
  /** 503 when the queue restarted without persistence while the decision was in flight: its state is gone, so it never finishes. */
  decisionLost: "Your decision was lost because the decision queue restarted. Please submit it again.",
  /** 503 with Retry-After when a gateway already waits for MAX_IN_FLIGHT_DECISIONS decisions: a fast refusal instead of a long wait. */
  overloaded: "Smart Decision is busy right now. Please try again in a few seconds.",
  /** 507 while the store's disk is full: decisions are refused at once instead of failing after their retries. */
  cannotStore: "Smart Decision cannot store decisions right now. Please try again later.",
} as const;
