import type { DEFAULT_ENSEMBLE_MODE } from "./limits";

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
  model_versions: Record<string, string>;
  error_details: Record<string, string>;
  processing_time_ms: number;
  ensemble_mode: typeof DEFAULT_ENSEMBLE_MODE;
  is_authenticated: boolean;
  user_id: string | null;
  user_ip: string | null;
  user_email: string | null;
  images: string[];
}
