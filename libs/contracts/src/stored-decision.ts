import type { EnsembleMode, EnsembleRecord } from "./ensemble";
import type { DecisionResponse } from "./decision";
import type { TokenUsage } from "./vote";

/** Decision history item (specification section 3) as the store keeps it. */
export interface StoredDecision {
  id: string;
  question: string;
  timestamp: Date;
  categories: string[];
  final_decision: string | null;
  vote_counts: Record<string, number>;
  total_votes: number;
  context_explanation: string;
  individual_responses: Record<string, string | null>;
  raw_responses: Record<string, string | null>;
  confidence_scores: Record<string, number | null>;
  /** Each model's one-sentence reason for its vote (null when it gave none). */
  rationales: Record<string, string | null>;
  model_versions: Record<string, string>;
  error_details: Record<string, string>;
  processing_time_ms: number;
  ensemble_mode: EnsembleMode;
  /** How the ensemble decided: panel, weights, every round, the judge, early quorum (absent on decisions stored before modes existed). */
  ensemble?: EnsembleRecord | null;
  is_authenticated: boolean;
  user_id: string | null;
  user_ip: string | null;
  user_email: string | null;
  /**
   * Ids of the decision's image assets, in label order. Image bytes are stored once, as assets
   * (a signed-in user's); a decision never carries them, and an anonymous one keeps none.
   */
  images: string[];
  /** The API key the decision was made with (a `/v1` call), else null. */
  api_key_id: string | null;
  /** Per model, the tokens its call used (null when not reported). */
  token_usage: Record<string, TokenUsage | null>;
  /** The decision's price in US dollars: the sum of its models' costs (0 when simulated). */
  cost_usd: number;
}

/** The decision response entity of a stored decision. */
export function toDecisionResponse(decision: StoredDecision): DecisionResponse {
  return {
    final_decision: decision.final_decision,
    total_votes: decision.total_votes,
    vote_counts: decision.vote_counts,
    individual_responses: decision.individual_responses,
    context_explanation: decision.context_explanation,
    decision_id: decision.id,
    question: decision.question,
  };
}
