/**
 * @smart-decision/sdk: a typed client for the Smart Decision API (see README.md).
 */
export {
  SmartDecision,
  type AcceptedDecision,
  type DecideOptions,
  type DecisionInput,
  type DecisionStatus,
  type EnsembleResult,
  type HistoryDecision,
  type HistoryFilters,
  type HistoryPage,
  type SmartDecisionOptions,
  type SubmitOptions,
  type VoteDetail,
  type VoteEvent,
  type VoteStatus,
  type WaitOptions,
} from "./client";
export {
  ApiError,
  AuthenticationError,
  NotFoundError,
  QuotaExceededError,
  RateLimitError,
  SmartDecisionError,
  SpendLimitError,
  TimeoutError,
  ValidationError,
} from "./errors";
