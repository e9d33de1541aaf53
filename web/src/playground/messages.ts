import { MESSAGES } from "@sd/contracts";
import { INVALID_RESPONSE_TEXT } from "../api/client";

/** A toast's title and description, as the specification words them. */
export interface ToastText {
  title: string;
  description?: string;
}

/** The playground's user-facing texts, verbatim, in one place. */
export const PLAYGROUND_TEXT = {
  questionRequired: { title: MESSAGES.questionRequired.title, description: MESSAGES.questionRequired.detail },
  categoriesRequired: { title: MESSAGES.categoriesRequired.title, description: MESSAGES.categoriesRequired.detail },
  maxImages: { title: MESSAGES.maxImages.title, description: MESSAGES.maxImages.detail },
  invalidImageType: { title: MESSAGES.invalidImageType.title, description: MESSAGES.invalidImageType.detail },
  imageTooLarge: { title: "File too large", description: "Please select images smaller than 10MB." },
  imageProcessing: { title: "Image processing error", description: "Failed to process the image. Please try again." },
  suggestionQuestionRequired: { title: MESSAGES.suggestionQuestionRequired },
  noNewSuggestions: { title: "No new suggestions", description: "All AI suggestions are already in your choices." },
  suggestionsFailedTitle: "Error getting suggestions",
  suggestionsFailedFallback: "Failed to get suggestions",
  decisionErrorTitle: "Error",
  imagesTooLarge: MESSAGES.imagesTooLarge,
  invalidResponse: INVALID_RESPONSE_TEXT,
  authenticationExpired: "Authentication expired. You can still use the playground without signing in - just try again!",
  decisionFailedFallback: "Failed to get ensemble decision",
  decisionCompleteTitle: "Decision Complete!",
  finalDecisionPrefix: "Final decision: ",
  noDecision: "No decision",
  processing: "Processing...",
  failed: "Failed",
  /** Ensemble rows (issue 10). */
  skipped: "Skipped (early quorum)",
  judgeWaiting: "Waiting for the panel's answers",
  judgeFailed: "Failed: the vote decided",
  judgeUnreported: "Verdict in the final decision",
  /** A row of a request the server refused (issue 30). */
  unasked: "Not asked",
} as const satisfies Record<string, ToastText | string>;
